"""A legal random player: whole rounds dealt and played by chance, each turn legal by the rules.

The simulator draws its tables from these rounds, and the property tests check every one of them
with the play checker (which never trusts this module: the sequence is replayed from its JSON).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.snorkeling.cards import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Card, deck, one_higher
from scoring.snorkeling.plays import PlaySequence, TableState, Turn, apply_turn, deal_state

# A round of random play ends in tens of turns; one that wanders this long is dealt again.
TURN_LIMIT = 400
DEALS = 50  # a style that never attacks never ends a round: say so rather than loop


@dataclass(frozen=True)
class Style:
    """How a random player plays: how often it passes when it could play, attacks an opponent's pile
    when it can, takes its own top card back when its hand is empty, and stops an expert run."""

    pass_rate: float = 0.1
    attack_rate: float = 0.8
    take_back_rate: float = 0.5
    stop_run_rate: float = 0.3


@dataclass(frozen=True)
class PlayedRound:
    sequence: PlaySequence
    final: TableState  # the table at the end: piles (cards below the top included), centre, hands


def random_round(
    rng: random.Random,
    players: tuple[str, ...],
    variant: str = "standard",
    style: Style = Style(),
    deals: int = DEALS,
) -> PlayedRound:
    """Deal and play one round to its end (a Beach on a pile) with legal random turns; a style that
    ends no round in ``deals`` deals raises ValueError."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"Snorkeling has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
    for _ in range(deals):
        played = _try_round(rng, tuple(players), variant, style)
        if played is not None:
            return played
    raise ValueError(f"no round of {style} ended within {TURN_LIMIT} turns in {deals} deals")


def _try_round(
    rng: random.Random, players: tuple[str, ...], variant: str, style: Style
) -> PlayedRound | None:
    cards = sorted(deck().elements())
    rng.shuffle(cards)
    hands = {name: tuple(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i, name in enumerate(players)}
    centre = cards[len(players) * HAND_SIZE]
    draw_pile = cards[len(players) * HAND_SIZE + 1 :]
    state = deal_state(players, centre, hands, variant)
    start = state
    turns: list[Turn] = []
    while not state.over:
        if len(turns) >= TURN_LIMIT:
            return None
        turn = _random_turn(state, rng, style, draw_pile)
        state = apply_turn(state, turn)
        turns.append(turn)
    sequence = PlaySequence(players, centre, start.hands, tuple(turns), variant)
    return PlayedRound(sequence, state)


def _random_turn(state: TableState, rng: random.Random, style: Style, draw_pile: list[Card]) -> Turn:
    """One legal turn for the player whose turn it is; draws come off ``draw_pile`` (refilled from the
    centre under its top card when it runs out, as the checker expects)."""
    me = state.next_player
    hand = list(state.hand(me))
    top = state.centre[-1]
    centre: list[Card] = []
    if rng.random() >= style.pass_rate:
        centre = _centre_play(hand, top, state.variant, rng, style)
    for card in centre:
        hand.remove(card)
    opponent = None
    if centre and rng.random() < style.attack_rate:
        targets = [
            (name, card)
            for name in state.players
            if name != me
            for card in sorted(set(hand))
            if card.value == state.tops[name].value - 1
        ]
        if targets:
            opponent = rng.choice(targets)
            hand.remove(opponent[1])
    if opponent is not None and opponent[1].value == 0:
        return Turn(me, tuple(centre), opponent)  # the Beach ends the round at once
    emptied = not hand
    take_back = emptied and not state.tops[me].is_lanternfish and rng.random() < style.take_back_rate
    wanted = 2 if emptied and not take_back else 1
    on_table = [*state.centre, *centre]
    drawn: list[Card] = []
    for _ in range(wanted):
        if not draw_pile and len(on_table) > 1:
            draw_pile.extend(on_table[:-1])
            rng.shuffle(draw_pile)
            del on_table[:-1]
        if draw_pile:
            drawn.append(draw_pile.pop())
    return Turn(me, tuple(centre), opponent, take_back, tuple(drawn))


def _centre_play(hand: list[Card], top: Card, variant: str, rng: random.Random, style: Style) -> list[Card]:
    """A random legal centre play (possibly none, when nothing fits)."""
    if variant == "expert":
        run: list[Card] = []
        left, below = list(hand), top
        while True:
            fits = [c for c in left if one_higher(c, below) or c.color == below.color]
            if not fits or (run and rng.random() < style.stop_run_rate):
                return run
            card = rng.choice(fits)
            left.remove(card)
            run.append(card)
            below = card
    options: list[list[Card]] = [[c] for c in hand if one_higher(c, top)]
    same = [c for c in hand if c.color == top.color]
    if same:
        options.append(rng.sample(same, rng.randint(1, len(same))))
    return rng.choice(options) if options else []

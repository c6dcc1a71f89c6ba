"""The play checker: a round's turns replayed from the deal, each play held to the rules.

A play sequence (DESIGN.md "Snorkeling plays")::

    {"format": 1, "game": "snorkeling", "variant": "standard", "players": ["Anna", "Ben"],
     "centre": "2-red", "hands": {"Anna": ["3-red", ...5 cards], "Ben": [...]},
     "turns": [{"player": "Anna", "centre": ["3-red"], "opponent": {"player": "Ben", "card": "4-blue"},
                "draw": ["1-green"]},
               {"player": "Ben", "draw": ["0-red"]}, ...]}

A turn lists the cards played to the centre in order (none: a pass), at most one card onto an
opponent's pile, ``"take_back": true`` when the player takes the top of their own pile back, and the
cards drawn. The checker knows our edition's deck, so the deck is every card not in a hand, on a
pile or in the centre; when it runs out, the centre pile under its top card is shuffled into it.
An illegal turn raises :class:`PlayError` naming the turn, the player and the rule it breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.snorkeling.cards import (
    BEACH,
    FORMAT,
    GAME,
    HAND_SIZE,
    LANTERNFISH_CARD,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    card_from_text,
    check_header,
    check_name,
    deck,
    one_higher,
)
from scoring.snorkeling.round import Diver, RoundBoard

VARIANTS: tuple[str, ...] = ("standard", "expert")
MAX_TURNS = 5000  # a round lasts tens of turns; the bound keeps a hostile file's replay short

# The rules a play can break, as the error names them.
RULE_ORDER = "turn order"
RULE_HAND = "cards come from the hand"
RULE_CENTRE = "centre: exactly one higher, or the top card's colour"
RULE_EXPERT = "expert centre run: each card one higher than the card below it, or of its colour"
RULE_OPPONENT = "opponent's pile: one card, exactly one lower than its top, after playing to the centre"
RULE_TAKE_BACK = "take back: only with an empty hand, never the Lanternfish"
RULE_DRAW = "draw: 1 card, 2 when the hand is empty and nothing is taken back"
RULE_OVER = "the round ends when a Beach lands on a pile"


class PlayError(BoardFormatError):
    """An illegal turn: ``turn`` (from 1), ``rule`` (one of the RULE_* texts) and the detail."""

    def __init__(self, turn: int, player: str, rule: str, detail: str) -> None:
        super().__init__(f"turn {turn} ({player}): {detail} (rule: {rule})")
        self.turn = turn
        self.rule = rule


@dataclass(frozen=True)
class Turn:
    """One player's turn: centre cards in play order, an optional (opponent, card), take back, draws."""

    player: str
    centre: tuple[Card, ...] = ()
    opponent: tuple[str, Card] | None = None
    take_back: bool = False
    draw: tuple[Card, ...] = ()


def _pile_tops(piles: tuple[tuple[str, tuple[Card, ...]], ...]) -> dict[str, Card]:
    return {name: pile[-1] for name, pile in piles}


@dataclass(frozen=True)
class TableState:
    """Everything on the table between turns. ``deck`` holds the cards not in sight (as copies),
    which is the draw pile exactly, since every card in a hand, on a pile or in the centre is known."""

    players: tuple[str, ...]
    variant: str
    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    piles: tuple[tuple[str, tuple[Card, ...]], ...]  # bottom first: the Lanternfish, then cards played on it
    centre: tuple[Card, ...]  # bottom first
    deck: tuple[tuple[Card, int], ...]
    turns: int = 0
    beach_on: str | None = None  # whose pile a Beach landed on: the round is over
    tops: dict[str, Card] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tops", _pile_tops(self.piles))

    @property
    def over(self) -> bool:
        return self.beach_on is not None

    @property
    def next_player(self) -> str:
        return self.players[self.turns % len(self.players)]

    def hand(self, player: str) -> tuple[Card, ...]:
        return dict(self.hands)[player]

    def pile(self, player: str) -> tuple[Card, ...]:
        return dict(self.piles)[player]

    def round_board(self, target: int = 12) -> RoundBoard:
        """The end-of-round board: each player's top card on mats 1, 2, ... in seating order."""
        divers = tuple(Diver(mat, self.tops[name], name) for mat, name in enumerate(self.players, start=1))
        return RoundBoard(divers, self.centre[-1], target=target)


def deal_state(
    players: tuple[str, ...], centre: Card, hands: Mapping[str, tuple[Card, ...]], variant: str
) -> TableState:
    """The table after the deal: checked players, hands of 5, a centre card, cards within the deck's copies."""
    if variant not in VARIANTS:
        raise BoardFormatError(f"variant must be standard or expert, got {shown(variant)}")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise BoardFormatError(f"Snorkeling has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
    for name in players:
        check_name(name, "players")
    if len(set(players)) != len(players):
        raise BoardFormatError(f"a player appears twice in {shown(list(players))}")
    if sorted(hands) != sorted(players):
        raise BoardFormatError(
            f"hands name {', '.join(map(str, hands)) or 'nobody'}; expected {', '.join(players)}"
        )
    remaining = deck()
    for card in (centre, *(c for name in players for c in hands[name])):
        if card.is_lanternfish:
            raise BoardFormatError("a Lanternfish is never dealt: each diver's lies on their pile")
        if remaining[card] == 0:
            raise BoardFormatError(
                f"more than {deck()[card]} copies of {card} dealt (our edition has {deck()[card]})"
            )
        remaining[card] -= 1
    for name in players:
        if len(hands[name]) != HAND_SIZE:
            raise BoardFormatError(f"{name} is dealt {len(hands[name])} cards; every player gets {HAND_SIZE}")
    return TableState(
        players,
        variant,
        tuple((name, tuple(hands[name])) for name in players),
        tuple((name, (LANTERNFISH_CARD,)) for name in players),
        (centre,),
        tuple(sorted((+remaining).items())),
    )


def _take(hand: list[Card], card: Card) -> bool:
    if card in hand:
        hand.remove(card)
        return True
    return False


def apply_turn(state: TableState, turn: Turn) -> TableState:
    """The table after ``turn``; raises PlayError naming the rule the turn breaks."""
    number, me = state.turns + 1, turn.player

    def fail(rule: str, detail: str) -> PlayError:
        return PlayError(number, me, rule, detail)

    if state.over:
        raise fail(RULE_OVER, f"the round is already over (a Beach lies on {state.beach_on}'s pile)")
    if me not in state.players:
        raise fail(RULE_ORDER, f"{shown(me)} is not a player ({', '.join(state.players)})")
    if me != state.next_player:
        raise fail(RULE_ORDER, f"it is {state.next_player}'s turn")
    hand = list(state.hand(me))
    centre = list(state.centre)
    for card in turn.centre:
        if not _take(hand, card):
            raise fail(RULE_HAND, f"{card} is not in {me}'s hand")
    _check_centre(state.variant, centre[-1], turn.centre, fail)
    centre.extend(turn.centre)
    piles = {name: list(pile) for name, pile in state.piles}
    beach_on = None
    if turn.opponent is not None:
        whom, card = turn.opponent
        if not turn.centre:
            raise fail(RULE_OPPONENT, f"{card} onto {whom}'s pile without playing to the centre first")
        if whom == me or whom not in piles:
            raise fail(RULE_OPPONENT, f"{shown(whom)} is not an opponent of {me}")
        if not _take(hand, card):
            raise fail(RULE_HAND, f"{card} is not in {me}'s hand")
        top = piles[whom][-1]
        if card.value != top.value - 1:
            raise fail(RULE_OPPONENT, f"{card} onto {whom}'s {top}: not exactly one lower")
        piles[whom].append(card)
        if card.value == BEACH:
            beach_on = whom
    remaining = Counter(dict(state.deck))
    if beach_on is not None:  # the round ends at once: nothing is drawn or taken back
        if turn.take_back or turn.draw:
            raise fail(
                RULE_OVER,
                f"the round ended when the Beach landed on {beach_on}'s pile: no draw, no take back",
            )
    else:
        emptied = not hand
        if turn.take_back:
            own = piles[me][-1]
            if not emptied:
                raise fail(RULE_TAKE_BACK, f"{me} still holds {len(hand)} card{'s' * (len(hand) > 1)}")
            if own.is_lanternfish:
                raise fail(RULE_TAKE_BACK, "the Lanternfish stays on the pile (draw another card instead)")
        wanted = 2 if emptied and not turn.take_back else 1
        # the deck runs out only in a very long round; then the centre under its top card refills it
        expected = min(wanted, sum(remaining.values()) + len(centre) - 1)
        if len(turn.draw) != expected:
            why = "the hand is empty and nothing is taken back" if wanted == 2 else "one card a turn"
            short = "" if expected == wanted else f"; the deck holds only {expected}"
            raise fail(
                RULE_DRAW,
                f"draws {len(turn.draw)} card{'s' * (len(turn.draw) != 1)}, not {expected} ({why}{short})",
            )
        for card in turn.draw:
            if not +remaining and len(centre) > 1:
                remaining.update(centre[:-1])
                del centre[:-1]
            if remaining[card] <= 0:
                raise fail(RULE_DRAW, f"{card} cannot be drawn: every copy of it is in sight")
            remaining[card] -= 1
            hand.append(card)
        if turn.take_back:
            hand.append(piles[me].pop())
    return replace(
        state,
        hands=tuple((name, tuple(hand) if name == me else cards) for name, cards in state.hands),
        piles=tuple((name, tuple(piles[name])) for name in state.players),
        centre=tuple(centre),
        deck=tuple(sorted((+remaining).items())),
        turns=number,
        beach_on=beach_on,
    )


def _check_centre(variant: str, top: Card, played: tuple[Card, ...], fail) -> None:
    if not played:
        return
    if variant == "expert":
        below = top
        for card in played:
            if not (one_higher(card, below) or card.color == below.color):
                raise fail(RULE_EXPERT, f"{card} onto {below}: neither one higher nor {below.color}")
            below = card
        return
    if len(played) == 1:
        card = played[0]
        if not (one_higher(card, top) or card.color == top.color):
            raise fail(RULE_CENTRE, f"{card} onto {top}: neither exactly one higher nor {top.color}")
        return
    others = [str(c) for c in played if c.color != top.color]
    if others:
        raise fail(RULE_CENTRE, f"several cards onto {top} must all be {top.color}, not {', '.join(others)}")


@dataclass(frozen=True)
class PlaySequence:
    players: tuple[str, ...]
    centre: Card
    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    turns: tuple[Turn, ...]
    variant: str = "standard"


def check_plays(sequence: PlaySequence) -> TableState:
    """Replay the sequence from the deal; the table after the last turn, or PlayError."""
    state = deal_state(sequence.players, sequence.centre, dict(sequence.hands), sequence.variant)
    for turn in sequence.turns:
        state = apply_turn(state, turn)
    return state


def _cards(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise BoardFormatError(f"{where} must be a list of cards like '3-red', got {shown(value)}")
    try:
        return tuple(card_from_text(c) for c in value)
    except BoardFormatError as error:
        raise BoardFormatError(f"{where}: {error}") from None


def _turn_from_json(data: object, number: int) -> Turn:
    where = f"turn {number}"
    check_keys(data, where, ("player",), ("centre", "opponent", "take_back", "draw"))
    assert isinstance(data, Mapping)
    opponent = data.get("opponent")
    if opponent is not None:
        check_keys(opponent, f"{where}: opponent", ("player", "card"))
        try:
            opponent = (check_name(opponent["player"], "opponent"), card_from_text(opponent["card"]))
        except BoardFormatError as error:
            raise BoardFormatError(f"{where}: opponent: {error}") from None
    take_back = data.get("take_back", False)
    if not isinstance(take_back, bool):
        raise BoardFormatError(f"{where}: take_back is true or false, got {shown(take_back)}")
    return Turn(
        check_name(data["player"], where),
        _cards(data.get("centre", []), f"{where}: centre"),
        opponent,
        take_back,
        _cards(data.get("draw", []), f"{where}: draw"),
    )


def plays_from_json(data: object) -> PlaySequence:
    check_header(data, "play sequence")
    check_keys(
        data,
        "play sequence",
        ("format", "game", "players", "centre", "hands", "turns"),
        ("variant", "target"),
    )
    assert isinstance(data, Mapping)
    players, hands, turns = data["players"], data["hands"], data["turns"]
    if not isinstance(players, list) or len(players) > MAX_PLAYERS:
        raise BoardFormatError(f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names")
    if not isinstance(hands, Mapping):
        raise BoardFormatError("hands must be an object of player: list of cards")
    if not isinstance(turns, list):
        raise BoardFormatError(f"turns must be a list, got {type(turns).__name__}")
    if len(turns) > MAX_TURNS:
        raise BoardFormatError(f"{len(turns):,} turns; a play sequence holds at most {MAX_TURNS}")
    return PlaySequence(
        tuple(players),
        card_from_text(data["centre"]),
        tuple((name, _cards(cards, f"hand of {name}")) for name, cards in hands.items()),
        tuple(_turn_from_json(t, n) for n, t in enumerate(turns, start=1)),
        data.get("variant", "standard"),
    )


def _turn_to_json(turn: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"player": turn.player}
    if turn.centre:
        out["centre"] = [str(c) for c in turn.centre]
    if turn.opponent is not None:
        out["opponent"] = {"player": turn.opponent[0], "card": str(turn.opponent[1])}
    if turn.take_back:
        out["take_back"] = True
    if turn.draw:
        out["draw"] = [str(c) for c in turn.draw]
    return out


def plays_to_json(sequence: PlaySequence) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME,
        "variant": sequence.variant,
        "players": list(sequence.players),
        "centre": str(sequence.centre),
        "hands": {name: [str(c) for c in cards] for name, cards in sequence.hands},
        "turns": [_turn_to_json(t) for t in sequence.turns],
    }

"""The deal and the play of a round, checked trick by trick (shared/rules/mediatore.txt).

The dealer deals to the right, three cards at a time, nine to each player; the last four cards are
the monte. The player to the dealer's right leads the first trick; the others play in turn to the
right and must follow the suit led when they can. The highest card of the suit led wins (3, 2, 1,
Re, Cavallo, Fante, 7, 6, 5, 4; no trumps) and its player leads the next trick. The last trick's
winners take the monte.

A played round starts from the hands as they are when play begins (after the bidder has taken the
monte and laid a new one), so the monte of a played round is the one that goes to the last trick.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.mediatore.bidding import Bidding, check_bidding
from scoring.mediatore.cards import DECK_SIZE, HAND_SIZE, MONTE_SIZE, Card, card, cards, thirds_of
from scoring.mediatore.fields import (
    FORMAT,
    GAME,
    check_header,
    check_player,
    check_players,
    next_player,
)
from scoring.mediatore.round import (
    Round,
    bid_from_json,
    bid_to_json,
    round_report_to_json,
    round_to_json,
    score_round,
)
from scoring.mediatore.settlement import Bid

DEAL_BATCH = 3
TRICKS = HAND_SIZE
RULE_HAND = "a player plays a card from their own hand"
RULE_FOLLOW = "follow the suit led when you can"
RULE_FIRST_LEAD = "the player to the dealer's right leads the first trick"
RULE_WINNER_LEADS = "the winner of a trick leads the next"
RULE_HIGHEST = "the highest card of the suit led wins the trick"


class PlayError(BoardFormatError):
    """A play that breaks a rule; the message names the trick, the player and the rule."""


def deal(
    deck: Sequence[Card], players: tuple[str, ...], dealer: str
) -> tuple[dict[str, tuple[Card, ...]], tuple[Card, ...]]:
    """Deal a shuffled deck (top card first): three cards at a time to each player in turn, starting
    at the dealer's right, until each has nine; the four left are the monte."""
    deck = tuple(deck)
    if sorted(deck) != sorted(set(deck)) or len(deck) != DECK_SIZE:
        raise BoardFormatError(f"a deal needs the {DECK_SIZE} cards of the deck, each once")
    hands: dict[str, list[Card]] = {p: [] for p in players}
    player, at = next_player(players, dealer), 0
    while at < len(players) * HAND_SIZE:
        hands[player].extend(deck[at : at + DEAL_BATCH])
        at += DEAL_BATCH
        player = next_player(players, player)
    return {p: tuple(hands[p]) for p in players}, deck[at:]


def trick_winner(played: Sequence[Card]) -> int:
    """The index of the card that wins a trick: the highest of the suit led."""
    led = played[0].suit
    return max((i for i, c in enumerate(played) if c.suit == led), key=lambda i: played[i].strength)


@dataclass(frozen=True)
class Trick:
    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]  # (player, card) in play order
    winner: str

    @property
    def thirds(self) -> int:
        return thirds_of(c for _, c in self.plays)


@dataclass(frozen=True)
class PlayedRound:
    """A round as played: players in playing order, the dealer, the bid (a Chiamo partner is
    derived from the hands), the hands and monte as play starts, the tricks (each the cards in
    play order, with its leader and winner when the file states them), and the bidding if known."""

    players: tuple[str, ...]
    dealer: str
    bid: Bid
    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    monte: tuple[Card, ...]
    tricks: tuple[tuple[tuple[Card, ...], str | None, str | None], ...]  # cards, stated leader, winner
    bidding: tuple[object, ...] | None = None


def partner_of(bid: Bid, hands: Mapping[str, Iterable[Card]]) -> str | None:
    """Who holds a Chiamo's called card as play starts; None when the bidder plays alone (the card
    lay in the monte, so it is in the bidder's hand or back in the monte)."""
    holder = next((p for p, hand in hands.items() if bid.called in tuple(hand)), None)
    return None if holder == bid.bidder else holder


def check_play(played: PlayedRound) -> tuple[Round, tuple[Trick, ...], Bidding | None]:
    """Check every trick against the rules; returns the round to score (the sides' won cards, the
    last trick's side), the tricks with their winners, and the checked bidding. Raises PlayError
    naming the first play that breaks a rule."""
    players = check_players(played.players)
    dealer = check_player(played.dealer, players, "dealer")
    bidding = None
    if played.bidding is not None:
        bidding = check_bidding(players, dealer, played.bidding)
        if bidding.redeal:
            raise PlayError("everyone passed in the bidding: the cards are redealt and no round is played")
        if (bidding.kind, bidding.bidder) != (played.bid.kind, played.bid.bidder):
            raise PlayError(
                f"the bidding was won by {bidding.bidder} with {bidding.kind}, "
                f"but the bid is {played.bid.kind} by {played.bid.bidder}"
            )
    hands = {p: list(h) for p, h in played.hands}
    if sorted(hands) != sorted(players):
        raise PlayError(f"hands name {', '.join(map(str, hands)) or 'nobody'}; expected {', '.join(players)}")
    dealt = [c for h in hands.values() for c in h] + list(played.monte)
    for player, hand in hands.items():
        if len(hand) != HAND_SIZE:
            raise PlayError(f"{player} starts play with {len(hand)} cards, not {HAND_SIZE}")
    if len(played.monte) != MONTE_SIZE:
        raise PlayError(f"the monte has {len(played.monte)} cards, not {MONTE_SIZE}")
    if len(set(dealt)) != DECK_SIZE:
        twice = next(c for c in dealt if dealt.count(c) > 1)
        raise PlayError(f"{twice} is dealt twice (the hands and the monte hold each card once)")
    bid = played.bid
    if bid.kind == "chiamo":
        bid = Bid(bid.kind, bid.bidder, bid.called, partner_of(bid, hands))
    if len(played.tricks) != TRICKS:
        raise PlayError(f"a round has {TRICKS} tricks, not {len(played.tricks)}")
    tricks: list[Trick] = []
    leader = next_player(players, dealer)
    for number, (trick_cards, stated_leader, stated_winner) in enumerate(played.tricks, start=1):
        trick = _check_trick(number, trick_cards, leader, stated_leader, stated_winner, players, hands)
        tricks.append(trick)
        leader = trick.winner
    team = set(bid.team)
    bidder_side = [c for t in tricks if t.winner in team for _, c in t.plays]
    last = "bidder" if tricks[-1].winner in team else "others"
    if last == "bidder":
        bidder_side += played.monte
    rnd = Round(players, bid, tuple(bidder_side), last, None, dealer)
    return rnd, tuple(tricks), bidding


def _check_trick(
    number: int,
    trick_cards: tuple[Card, ...],
    leader: str,
    stated_leader: str | None,
    stated_winner: str | None,
    players: tuple[str, ...],
    hands: dict[str, list[Card]],
) -> Trick:
    where = f"trick {number}"
    if stated_leader is not None and stated_leader != leader:
        rule = RULE_FIRST_LEAD if number == 1 else RULE_WINNER_LEADS
        raise PlayError(f"{where}: {shown(stated_leader)} leads, but {leader} should ({rule})")
    if len(trick_cards) != len(players):
        raise PlayError(
            f"{where}: {len(trick_cards)} cards played; a trick has one from each of the {len(players)}"
        )
    plays: list[tuple[str, Card]] = []
    player = leader
    led = trick_cards[0].suit
    for played in trick_cards:
        hand = hands[player]
        if played not in hand:
            raise PlayError(
                f"{where}: {player} plays {played}, which is not in {player}'s hand ({RULE_HAND})"
            )
        if played.suit != led:
            same = sorted((c for c in hand if c.suit == led), key=lambda c: -c.strength)
            if same:
                raise PlayError(
                    f"{where}: {player} plays {played} on a {led} lead while holding {same[0]} ({RULE_FOLLOW})"
                )
        hand.remove(played)
        plays.append((player, played))
        player = next_player(players, player)
    winner = plays[trick_winner(trick_cards)][0]
    if stated_winner is not None and stated_winner != winner:
        best = trick_cards[trick_winner(trick_cards)]
        raise PlayError(
            f"{where}: won by {shown(stated_winner)}, but {winner}'s {best} takes it ({RULE_HIGHEST})"
        )
    return Trick(number, leader, tuple(plays), winner)


# ------------------------------------------------------------------------------------------ JSON

PLAY_KEYS = ("players", "dealer", "bid", "hands", "monte", "tricks")
MAX_TRICKS = 20  # a round has 9; a longer list is refused with the count before it is read


def played_round_from_json(data: object) -> PlayedRound:
    """Read a played round (DESIGN.md, "Mediatore played round")."""
    data = check_header(data, "played round")
    check_keys(data, "played round", ("format", "game", *PLAY_KEYS), ("bidding",))
    players = check_players(data["players"])
    dealer = check_player(data["dealer"], players, "dealer")
    bid = bid_from_json(data["bid"], players, derived=("partner",))
    hands = data["hands"]
    if not isinstance(hands, Mapping):
        raise BoardFormatError("hands must be an object of player: list of cards")
    for player in hands:
        check_player(player, players, "hands:")
    frozen = tuple((p, cards(hands[p], f"{p}'s hand")) for p in players if p in hands)
    tricks = data["tricks"]
    if not isinstance(tricks, list) or len(tricks) > MAX_TRICKS:
        raise BoardFormatError(f"tricks must be a list of the round's {TRICKS} tricks")
    bidding = data.get("bidding")
    if bidding is not None and not isinstance(bidding, list):
        raise BoardFormatError(f"bidding must be a list of calls, got {shown(bidding)}")
    return PlayedRound(
        players,
        dealer,
        bid,
        frozen,
        cards(data["monte"], "monte"),
        tuple(_trick_from_json(t, n, players) for n, t in enumerate(tricks, start=1)),
        None if bidding is None else tuple(bidding),
    )


def _trick_from_json(data: object, number: int, players: tuple[str, ...]):
    where = f"trick {number}"
    check_keys(data, where, ("cards",), ("leader", "winner"))
    assert isinstance(data, Mapping)
    trick_cards = data["cards"]
    if isinstance(trick_cards, str) or not isinstance(trick_cards, list) or len(trick_cards) > DECK_SIZE:
        raise BoardFormatError(f"{where}: cards must be a list of the cards played, in order")
    for key in ("leader", "winner"):
        if data.get(key) is not None:
            check_player(data[key], players, f"{where}: {key}")
    return tuple(card(c) for c in trick_cards), data.get("leader"), data.get("winner")


def played_round_to_json(played: PlayedRound) -> dict[str, Any]:
    bid = bid_to_json(played.bid)
    bid.pop("partner", None)  # derived from the hands
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME,
        "players": list(played.players),
        "dealer": played.dealer,
        "bid": bid,
        "hands": {p: [str(c) for c in h] for p, h in played.hands},
        "monte": [str(c) for c in played.monte],
        "tricks": [
            {"cards": [str(c) for c in cs]}
            | ({"leader": lead} if lead else {})
            | ({"winner": win} if win else {})
            for cs, lead, win in played.tricks
        ],
    }
    if played.bidding is not None:
        out["bidding"] = list(played.bidding)
    return out


def played_report_to_json(played: PlayedRound) -> dict[str, Any]:
    """The round's score report, with every trick (leader, cards by player, winner, thirds), the
    round board it comes to, and the bidding's outcome when the file gives the calls."""
    rnd, tricks, bidding = check_play(played)
    report = round_report_to_json(score_round(rnd))
    report["legal"] = True
    report["tricks"] = [
        {
            "trick": t.number,
            "leader": t.leader,
            "cards": {p: str(c) for p, c in t.plays},
            "winner": t.winner,
            "thirds": t.thirds,
        }
        for t in tricks
    ]
    if bidding is not None:
        report["bidding"] = [{"player": p, "call": c} for p, c in bidding.calls]
    report["round"] = round_to_json(rnd)
    return report

"""A scored Mediatore round: the cards each side won, the last trick, the bid; points and payments.

The cards of the last trick's winners include the monte (the rules give it to them). A side's pile
is four cards a trick it won, plus the monte's four with the last trick, so a pile whose size is not
a multiple of four, or a last-trick pile of fewer than eight, cannot have been won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.mediatore.cards import (
    DECK_SIZE,
    LAST_TRICK_THIRDS,
    MONTE_SIZE,
    WINNING_POINTS,
    Card,
    card,
    cards,
    rest_of_deck,
    thirds_of,
    thirds_text,
)
from scoring.mediatore.fields import FORMAT, GAME, check_header, check_player, check_players
from scoring.mediatore.settlement import BIDS, Bid, settle

SIDES: tuple[str, ...] = ("bidder", "others")
TRICK_CARDS = 4


@dataclass(frozen=True)
class Round:
    """One round as scored: players in playing order, the bid, the cards the bidder's side won
    (``others_side`` None: the rest of the deck), which side took the last trick, and optionally
    the dealer. ``others_side`` is filled in and everything checked on construction."""

    players: tuple[str, ...]
    bid: Bid
    bidder_side: tuple[Card, ...]
    last_trick: str
    others_side: tuple[Card, ...] | None = None
    dealer: str | None = None

    def __post_init__(self) -> None:
        players = check_players(self.players)
        object.__setattr__(self, "players", players)
        if self.dealer is not None:
            check_player(self.dealer, players, "dealer")
        check_player(self.bid.bidder, players, "bidder")
        if self.bid.partner is not None:
            check_player(self.bid.partner, players, "partner")
        if self.bid.giver is not None:
            check_player(self.bid.giver, players, "giver")
        if self.last_trick not in SIDES:
            raise BoardFormatError(f"last_trick is 'bidder' or 'others', not {shown(self.last_trick)}")
        bidder_side = cards(self.bidder_side, "bidder_side")
        object.__setattr__(self, "bidder_side", bidder_side)
        if self.others_side is None:
            others = rest_of_deck(bidder_side)
        else:
            others = cards(self.others_side, "others_side")
            both = set(bidder_side) & set(others)
            if both:
                raise BoardFormatError(f"{min(both)} is in both sides' cards")
            if len(bidder_side) + len(others) != DECK_SIZE:
                missing = ", ".join(str(c) for c in rest_of_deck((*bidder_side, *others))[:4])
                raise BoardFormatError(
                    f"the two sides hold {len(bidder_side) + len(others)} cards, not the deck's "
                    f"{DECK_SIZE} (missing {missing}{', …' if DECK_SIZE - len(bidder_side) - len(others) > 4 else ''})"
                )
        object.__setattr__(self, "others_side", others)
        for side in SIDES:
            count = len(self.pile(side))
            tricks, rest = divmod(count - (MONTE_SIZE if side == self.last_trick else 0), TRICK_CARDS)
            if rest or tricks < (1 if side == self.last_trick else 0):
                need = "8 or more, a multiple of 4" if side == self.last_trick else "a multiple of 4"
                raise BoardFormatError(
                    f"the {side} side won {count} cards: a pile is 4 cards a trick, with the monte's 4 "
                    f"for the last trick ({need})"
                )

    def pile(self, side: str) -> tuple[Card, ...]:
        pile = self.bidder_side if side == "bidder" else self.others_side
        assert pile is not None
        return pile

    def side_of(self, player: str) -> str:
        return "bidder" if player in self.bid.team else "others"


@dataclass(frozen=True)
class SideScore:
    side: str  # "bidder" or "others"
    players: tuple[str, ...]
    cards: int
    card_thirds: int
    last_trick: bool
    thirds: int = field(init=False)
    points: int = field(init=False)  # full points: the thirds floored

    def __post_init__(self) -> None:
        object.__setattr__(self, "thirds", self.card_thirds + (LAST_TRICK_THIRDS if self.last_trick else 0))
        object.__setattr__(self, "points", self.thirds // 3)

    @property
    def won(self) -> bool:
        return self.points >= WINNING_POINTS

    @property
    def all_tricks(self) -> bool:
        return self.cards == DECK_SIZE


@dataclass(frozen=True)
class RoundReport:
    round: Round
    sides: tuple[SideScore, SideScore]  # bidder, others
    payments: tuple[tuple[str, int], ...]  # in player order

    @property
    def winner(self) -> str:
        return next(s.side for s in self.sides if s.won)

    @property
    def capot(self) -> bool:
        return any(s.all_tricks for s in self.sides)


def score_round(rnd: Round) -> RoundReport:
    """Points of both sides (exact thirds, floored at the end), the winner, and the payments."""
    sides = tuple(
        SideScore(
            side,
            tuple(p for p in rnd.players if rnd.side_of(p) == side),
            len(rnd.pile(side)),
            thirds_of(rnd.pile(side)),
            rnd.last_trick == side,
        )
        for side in SIDES
    )
    bidder, others = sides
    # 35 thirds in all: exactly one side reaches 6 full points (18 thirds); the other has at most 17.
    assert bidder.won != others.won, (bidder, others)
    capot = bidder.all_tricks or others.all_tricks
    payments = settle(rnd.players, rnd.bid, bidder.won, capot)
    return RoundReport(rnd, (bidder, others), tuple(payments.items()))


# ------------------------------------------------------------------------------------------ JSON


def bid_from_json(data: object, players: tuple[str, ...], derived: tuple[str, ...] = ()) -> Bid:
    """A bid object; ``derived``: keys that the file leaves out because they follow from it (the
    partner of a played round is whoever held the called card)."""
    if not isinstance(data, Mapping):
        raise BoardFormatError(f"bid must be a JSON object, got {shown(data)}")
    kind = data.get("kind")
    if kind not in BIDS:
        raise BoardFormatError(f"bid: unknown kind {shown(kind)} (expected {', '.join(BIDS)})")
    extra = {"chiamo": ("called", "partner"), "mediatore": ("called", "giver")}.get(kind, ())
    check_keys(data, f"a {kind} bid", ("kind", "bidder", *(k for k in extra if k not in derived)))
    bidder = check_player(data["bidder"], players, "bidder")
    partner = data.get("partner")
    giver = data.get("giver")
    if partner is not None:
        check_player(partner, players, "partner")
    if giver is not None:
        check_player(giver, players, "giver")
    called = card(data["called"]) if "called" in data else None
    return Bid(kind, bidder, called, partner, giver)


def bid_to_json(bid: Bid) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": bid.kind, "bidder": bid.bidder}
    if bid.kind in ("chiamo", "mediatore"):
        out["called"] = str(bid.called)
    if bid.kind == "chiamo":
        out["partner"] = bid.partner
    if bid.kind == "mediatore":
        out["giver"] = bid.giver
    return out


ROUND_KEYS = ("players", "bid", "bidder_side", "last_trick")
ROUND_OPTIONAL = ("dealer", "others_side", "all_tricks")


def round_fields_from_json(data: Mapping, players: tuple[str, ...]) -> Round:
    """A round from the keys of a round board (also a ledger's rounds, where the players are the ledger's)."""
    bid = bid_from_json(data["bid"], players)
    others = data.get("others_side")
    rnd = Round(
        players,
        bid,
        cards(data["bidder_side"], "bidder_side"),
        data["last_trick"],
        None if others is None else cards(others, "others_side"),
        data.get("dealer"),
    )
    claimed = data.get("all_tricks")
    if claimed is not None:
        if claimed not in SIDES:
            raise BoardFormatError(f"all_tricks is null, 'bidder' or 'others', not {shown(claimed)}")
        if len(rnd.pile(claimed)) != DECK_SIZE:
            raise BoardFormatError(
                f"all_tricks says the {claimed} side took every trick, but it won "
                f"{len(rnd.pile(claimed))} of the {DECK_SIZE} cards"
            )
    return rnd


def round_from_json(data: object) -> Round:
    """Read a round board (DESIGN.md, "Mediatore round")."""
    data = check_header(data, "round")
    check_keys(data, "round", ("format", "game", *ROUND_KEYS), ROUND_OPTIONAL)
    return round_fields_from_json(data, check_players(data["players"]))


def round_to_json(rnd: Round) -> dict[str, Any]:
    """The round board format read by `round_from_json`; the others' cards as the rest of the deck."""
    return {
        "format": FORMAT,
        "game": GAME,
        "players": list(rnd.players),
        "dealer": rnd.dealer,
        "bid": bid_to_json(rnd.bid),
        "bidder_side": [str(c) for c in rnd.bidder_side],
        "others_side": None,
        "last_trick": rnd.last_trick,
    }


def _side_json(side: SideScore) -> dict[str, Any]:
    return {
        "players": list(side.players),
        "cards": side.cards,
        "card_thirds": side.card_thirds,
        "last_trick": side.last_trick,
        "thirds": side.thirds,
        "exact": thirds_text(side.thirds),
        "points": side.points,
        "won": side.won,
        "all_tricks": side.all_tricks,
    }


def round_report_to_json(report: RoundReport) -> dict[str, Any]:
    """The score report (DESIGN.md, "Score reports"): each player's role, side and payment, each
    side's thirds and full points, the winner and the payments."""
    rnd = report.round
    payments = dict(report.payments)
    winners = next(s.players for s in report.sides if s.won)

    def role(player: str) -> str:
        bid = rnd.bid
        return {bid.bidder: "bidder", bid.partner: "partner", bid.giver: "giver"}.get(player, "opponent")

    return {
        "format": FORMAT,
        "game": GAME,
        "dealer": rnd.dealer,
        "bid": bid_to_json(rnd.bid),
        "players": [
            {"name": p, "side": rnd.side_of(p), "role": role(p), "payment": payments[p], "total": payments[p]}
            for p in rnd.players
        ],
        "sides": {s.side: _side_json(s) for s in report.sides},
        "winner": report.winner,
        "winners": list(winners),
        "capot": report.capot,
        "payments": payments,
        "round_over": True,
    }

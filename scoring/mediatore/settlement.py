"""Who pays whom after a round, by the bid (shared/rules/mediatore.txt, "Scoring").

Amounts are each player's net change for the round: positive receives, negative pays. They always
sum to zero. When the bidder's side loses, every amount is reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import BoardFormatError, shown
from scoring.mediatore.cards import Card

BIDS: tuple[str, ...] = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")  # low to high
CHIAMO_LOSER, CHIAMO_BIDDER, CHIAMO_PARTNER = 4, 5, 3
MEDIATORE_LOSER, MEDIATORE_GIVER = 8, 6
ALONE_STAKES: dict[str, int] = {"chiamo": 4, "solo": 12, "solissimo": 16, "arcisolissimo": 18}
CAPOT_BONUS = 2  # on every payment when one side takes every trick


@dataclass(frozen=True)
class Bid:
    """The winning bid. ``called``: the card named in a Chiamo or Mediatore bid. ``partner``
    (Chiamo): who held the called card, None when it lay in the monte and the bidder plays alone.
    ``giver`` (Mediatore): who gave the called card up, None when it lay in the monte."""

    kind: str
    bidder: str
    called: Card | None = None
    partner: str | None = None
    giver: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in BIDS:
            raise BoardFormatError(f"unknown bid {shown(self.kind)} (expected {', '.join(BIDS)})")
        if self.kind in ("chiamo", "mediatore") and self.called is None:
            raise BoardFormatError(f"a {self.kind} bid names the called card")
        if self.kind not in ("chiamo", "mediatore") and self.called is not None:
            raise BoardFormatError(f"a {self.kind} bid calls no card, got {self.called}")
        if self.partner is not None and self.kind != "chiamo":
            raise BoardFormatError(f"only a chiamo bid has a partner, not {self.kind}")
        if self.giver is not None and self.kind != "mediatore":
            raise BoardFormatError(f"only a mediatore bid has a giver, not {self.kind}")
        if self.bidder in (self.partner, self.giver):
            raise BoardFormatError(f"the bidder {self.bidder} cannot also be the partner or the giver")

    @property
    def team(self) -> tuple[str, ...]:
        """The bidder's side: the bidder, and a Chiamo partner when there is one."""
        return (self.bidder,) if self.partner is None else (self.bidder, self.partner)


def settle(players: tuple[str, ...], bid: Bid, bidder_won: bool, capot: bool) -> dict[str, int]:
    """Each player's payment for the round, in player order: positive receives, negative pays."""
    for name in (bid.bidder, bid.partner, bid.giver):
        if name is not None and name not in players:
            raise BoardFormatError(f"{shown(name)} is not a player ({', '.join(players)})")
    bonus = CAPOT_BONUS if capot else 0
    amounts = dict.fromkeys(players, 0)
    opponents = [p for p in players if p not in bid.team]
    if bid.kind == "chiamo" and bid.partner is not None:
        # the two losers pay 4 each: 5 to the bidder, 3 to the partner; a capot adds 2 to each of the four
        for player in opponents:
            amounts[player] = -(CHIAMO_LOSER + bonus)
        amounts[bid.bidder] = CHIAMO_BIDDER + bonus
        amounts[bid.partner] = CHIAMO_PARTNER + bonus
    else:  # the bidder alone against three
        for player in opponents:
            if bid.kind == "mediatore":
                stake = MEDIATORE_GIVER if player == bid.giver else MEDIATORE_LOSER
            else:
                stake = ALONE_STAKES[bid.kind]
            amounts[player] = -(stake + bonus)
        amounts[bid.bidder] = -sum(amounts[p] for p in opponents)
    if not bidder_won:
        amounts = {p: -a for p, a in amounts.items()}
    return amounts

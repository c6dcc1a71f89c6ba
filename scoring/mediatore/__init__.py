"""Mediatore: card points in thirds, the round's sides and payments, bidding, tricks and the ledger.

Public API:

- cards (:mod:`.cards`): ``Card``, ``DECK``, ``card``, ``cards``, ``thirds_of``, ``thirds_text``
- settlement (:mod:`.settlement`): ``BIDS``, ``Bid``, ``settle``
- round (:mod:`.round`): ``Round``, ``SideScore``, ``RoundReport``, ``score_round``, ``round_from_json``,
  ``round_to_json``, ``round_report_to_json``
- bidding (:mod:`.bidding`): ``Bidding``, ``BiddingError``, ``check_bidding``
- play (:mod:`.play`): ``deal``, ``trick_winner``, ``Trick``, ``PlayedRound``, ``PlayError``,
  ``check_play``, ``played_round_from_json``, ``played_round_to_json``, ``played_report_to_json``
- ledger (:mod:`.ledger`): ``Ledger``, ``record_round``, ``ledger_from_json``, ``ledger_to_json``,
  ``ledger_report_to_json``
- any Mediatore file: ``board_kind``, ``score_board``
"""

from __future__ import annotations

from typing import Any

from scoring.errors import BoardFormatError
from scoring.mediatore.bidding import Bidding, BiddingError, check_bidding
from scoring.mediatore.cards import DECK, Card, card, cards, thirds_of, thirds_text
from scoring.mediatore.fields import check_header, check_player, check_players
from scoring.mediatore.ledger import (
    Ledger,
    ledger_from_json,
    ledger_report_to_json,
    ledger_to_json,
    record_round,
)
from scoring.mediatore.play import (
    PlayedRound,
    PlayError,
    Trick,
    check_play,
    deal,
    played_report_to_json,
    played_round_from_json,
    played_round_to_json,
    trick_winner,
)
from scoring.mediatore.round import (
    Round,
    RoundReport,
    SideScore,
    round_from_json,
    round_report_to_json,
    round_to_json,
    score_round,
)
from scoring.mediatore.settlement import BIDS, Bid, settle

# The key that tells each kind of Mediatore file apart (DESIGN.md, "Mediatore").
KINDS: dict[str, str] = {"bidder_side": "round", "tricks": "play", "rounds": "ledger", "bidding": "bidding"}


def board_kind(data: Any) -> str:
    """``round``, ``play``, ``ledger`` or ``bidding``; a played round may carry its bidding too."""
    check_header(data, "file")
    found = [kind for key, kind in KINDS.items() if key in data]
    if found == ["play", "bidding"]:
        return "play"
    if len(found) != 1:
        raise BoardFormatError(
            "a mediatore file needs exactly one of 'bidder_side', 'tricks', 'rounds', 'bidding'"
        )
    return found[0]


def score_board(data: Any) -> dict[str, Any]:
    """The report of any Mediatore file."""
    kind = board_kind(data)
    if kind == "round":
        return round_report_to_json(score_round(round_from_json(data)))
    if kind == "play":
        return played_report_to_json(played_round_from_json(data))
    if kind == "ledger":
        return ledger_report_to_json(ledger_from_json(data))
    return _bidding_report(data)


def _bidding_report(data: Any) -> dict[str, Any]:
    from scoring.json_objects import check_keys

    check_keys(data, "bidding", ("format", "game", "players", "dealer", "bidding"))
    players = check_players(data["players"])
    dealer = check_player(data["dealer"], players, "dealer")
    bidding = check_bidding(players, dealer, data["bidding"])
    return {
        "format": 1,
        "game": "mediatore",
        "players": list(players),
        "dealer": dealer,
        "legal": True,
        "bidding": [{"player": p, "call": c} for p, c in bidding.calls],
        "redeal": bidding.redeal,
        "bid": None if bidding.redeal else {"kind": bidding.kind, "bidder": bidding.bidder},
    }


__all__ = [
    "BIDS",
    "DECK",
    "Bid",
    "Bidding",
    "BiddingError",
    "Card",
    "Ledger",
    "PlayError",
    "PlayedRound",
    "Round",
    "RoundReport",
    "SideScore",
    "Trick",
    "board_kind",
    "card",
    "cards",
    "check_bidding",
    "check_play",
    "deal",
    "ledger_from_json",
    "ledger_report_to_json",
    "ledger_to_json",
    "played_report_to_json",
    "played_round_from_json",
    "played_round_to_json",
    "record_round",
    "round_from_json",
    "round_report_to_json",
    "round_to_json",
    "score_board",
    "score_round",
    "settle",
    "thirds_of",
    "thirds_text",
    "trick_winner",
]

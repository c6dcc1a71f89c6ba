"""Any Snorkeling board JSON to its report: a round (``players`` with top cards), a game (``rounds``)
or a play sequence (``turns``), told by their keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import BoardFormatError
from scoring.snorkeling.cards import FORMAT, GAME, card_to_json, check_header
from scoring.snorkeling.game import game_from_json, game_report_to_json
from scoring.snorkeling.plays import PlaySequence, TableState, check_plays, plays_from_json
from scoring.snorkeling.round import round_from_json, round_report_to_json, score_round


def board_kind(data: Any) -> str:
    """``round``, ``game`` or ``plays``."""
    check_header(data, "board")
    assert isinstance(data, Mapping)
    if "turns" in data:
        return "plays"
    if "rounds" in data:
        return "game"
    if "players" in data:
        return "round"
    raise BoardFormatError(
        'a snorkeling board needs "players" (a round), "rounds" (a game) or "turns" (plays)'
    )


def score_snorkeling(data: Any) -> dict[str, Any]:
    """The report (DESIGN.md) of any Snorkeling board JSON."""
    kind = board_kind(data)
    if kind == "round":
        return round_report_to_json(score_round(round_from_json(data)))
    if kind == "game":
        return game_report_to_json(game_from_json(data))
    sequence = plays_from_json(data)
    target = data.get("target", 12)
    return plays_report_to_json(sequence, check_plays(sequence), target)


def plays_report_to_json(sequence: PlaySequence, final: TableState, target: int = 12) -> dict[str, Any]:
    """A legal play sequence: how it ends, the table after it, and the round it leaves (scored)."""
    return {
        "format": FORMAT,
        "game": GAME,
        "variant": sequence.variant,
        "turns": len(sequence.turns),
        "legal": True,
        "piles": {name: [str(c) for c in pile] for name, pile in final.piles},
        "centre_top": card_to_json(final.centre[-1]),
        "hand_sizes": {name: len(cards) for name, cards in final.hands},
        "round": round_report_to_json(score_round(final.round_board(target))),
    }

"""The batch's CSV rows: one per player of a report, or one per input that failed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from scorecam.batch.text import one_line

CSV_FIELDS = [
    "source", "turn", "player", "status", "valid", "animals", "scoring_landscapes", "volcanoes",
    "empty_spaces", "misconnections", "first_out", "points_animals", "points_landscapes",
    "points_volcanoes", "points_empty_spaces", "points_misconnections", "points_first_out", "total",
    "flags", "error",
]  # fmt: skip
PLAYER_FIELDS = (
    "valid", "animals", "scoring_landscapes", "volcanoes", "empty_spaces", "misconnections", "first_out",
    "total",
)  # fmt: skip


def report_rows(report: dict[str, Any], source: str, turn: str) -> Iterator[dict[str, Any]]:
    """CSV rows of any report: a row per player (Mondo turn, game, Mediterráneo sea, Snorkeling and
    Mediatore reports with their players' totals), else one row."""
    base = {"source": source, "turn": turn, "status": "scored"}
    if report.get("game") in ("snorkeling", "mediatore"):  # their own columns: in their own table (games.py)
        from scorecam.batch.games import player_totals  # it imports this module

        totals = player_totals(report)
        yield from (base | {"player": name, "total": total} for name, total in totals)
        if not totals:  # a Mediatore bidding: nothing per player to total
            yield base
    elif report.get("game") == "mondo" and "players" in report:
        for p in report["players"]:
            row = base | {"player": p["name"]} | {key: p[key] for key in PLAYER_FIELDS}
            for key, value in p["points"].items():
                row[f"points_{key}"] = value
            yield row
    elif "totals" in report:  # a Mondo game
        for name, total in report["totals"].items():
            yield base | {"player": name, "total": total}
    elif "species" in report:  # a Mediterráneo sea
        for p in report["players"]:
            yield base | {"player": p["name"], "total": p["total"]}
    else:  # a play sequence or a match: nothing per player to total
        yield base


def failure_row(source: str, turn: str, reason: str, player: str = "") -> dict[str, Any]:
    return {"source": source, "turn": turn, "player": player, "status": "failed", "error": one_line(reason)}


def flag_text(flag: Any) -> str:
    """A reading's flag as the words it shows a player (a plain string, or a flag record)."""
    if isinstance(flag, str):
        return flag
    if isinstance(flag, dict):
        for key in ("text", "message", "why"):
            if isinstance(flag.get(key), str):
                return flag[key]
        return json.dumps(flag, ensure_ascii=False)
    return str(flag)


def flags_cell(flags) -> str:
    return one_line(" | ".join(flag_text(f) for f in flags), limit=2000)

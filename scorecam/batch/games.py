"""The games whose reports do not fit the Mondo columns: each player's total for the batch's CSV,
and a table of the game's own columns, one row per player, written beside it.

The main CSV keeps its columns (Mondo's): a Snorkeling, Mediatore or Mediterráneo player's row there
fills ``player`` and ``total`` only. ``RESULTS-snorkeling.csv``, ``RESULTS-mediatore.csv`` and
``RESULTS-mediterraneo.csv`` (each sea, from a photo or a board file: objective, points, round
verdict, octopuses) hold the rest.
Every row here is made from a job's JSON line alone, so these tables can always be made again from
the JSON lines (as a resumed run does) and never disagree with them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scorecam.batch.rows import flags_cell

COMMON = ["source", "kind", "player", "status", "total", "winner"]
FIELDS: dict[str, list[str]] = {
    # a round: the top card of each diver's pile and its points; a game file: each player's total
    "snorkeling": [*COMMON, "mat", "top_card", "top_value", "top_color", "points", "before", "round_over",
                   "game_over", "rounds", "flags"],
    # a round or a played round: the player's side and its count in thirds, the payment; a ledger:
    # each balance after its rounds; a bidding alone: one row with the bid it comes to
    "mediatore": [*COMMON, "bid", "bidder", "dealer", "side", "role", "side_cards", "side_exact",
                  "side_points", "capot", "payment", "rounds", "flags"],
    # a sea (a photo or a board): the player's objective and points, the round's verdict, what each
    # octopus became, and where a photo's objectives came from
    "mediterraneo": [*COMMON, "leader", "chose_first", "plus", "minus", "points_plus", "points_minus",
                     "objectives_legal", "round_over", "round_outcome", "species", "octopuses",
                     "objectives_from", "flags"],
}  # fmt: skip
GAMES = tuple(FIELDS)


def table_path(csv_path: Path, game: str) -> Path:
    """``results.csv`` -> ``results-snorkeling.csv``, beside it."""
    return csv_path.with_name(f"{csv_path.stem}-{game}{csv_path.suffix or '.csv'}")


def player_totals(report: dict[str, Any]) -> list[tuple[str, Any]]:
    """(player, total) of a Snorkeling or Mediatore report, for the main CSV; none for a report
    without players' totals (a Mediatore bidding)."""
    if isinstance(report.get("totals"), dict):  # a Snorkeling game file
        return list(report["totals"].items())
    if "cards_read" in report:  # one side's Mediatore cards from a photo: their points
        return [(report.get("side", ""), report.get("points"))]
    players = _players(report)
    return [(p["name"], p.get("total")) for p in players]


def table_rows(line: dict[str, Any]) -> tuple[str, list[dict[str, Any]]] | None:
    """(game, rows of its own table) of one job's JSON line; None for a job of another game or one
    that failed (the main CSV records it)."""
    report = line.get("report")
    if not isinstance(report, dict) or report.get("game") not in FIELDS:
        return None
    if report["game"] == "mediterraneo" and not _is_sea(report):
        return None  # a sequence of plays or a match: the main CSV's row is all there is
    base = {
        "source": line["source"],
        "status": report.get("status", "scored"),
        "flags": flags_cell(report.get("flags", [])),
    }
    make = {"snorkeling": _snorkeling, "mediatore": _mediatore, "mediterraneo": _sea}[report["game"]]
    return report["game"], [base | row for row in make(report)]


def _is_sea(report: dict[str, Any]) -> bool:
    return isinstance(report.get("species"), dict) and isinstance(report.get("players"), list)


def _sea(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    board = report["board"] if isinstance(report.get("board"), dict) else {}
    leader = report.get("leader")
    won = report.get("round_outcome") == "won"
    species = "; ".join(f"{s} {n}" for s, n in report["species"].items())
    octopuses = "; ".join(
        f"({o.get('x')}, {o.get('y')}) {o.get('becomes') or 'nothing'}"
        for o in report.get("octopuses", ())
        if isinstance(o, dict)
    )
    for p in _players(report):
        points = p["points"] if isinstance(p.get("points"), dict) else {}
        yield {
            "kind": "sea",
            "player": p["name"],
            "total": p.get("total"),
            "winner": won and p["name"] == leader,
            "leader": leader,
            "chose_first": p["name"] == board["first"] if "first" in board else "",
            "plus": p.get("plus"),
            "minus": p.get("minus"),
            "points_plus": points.get("plus"),
            "points_minus": points.get("minus"),
            "objectives_legal": report.get("objectives_legal"),
            "round_over": report.get("round_over"),
            "round_outcome": report.get("round_outcome"),
            "species": species,
            "octopuses": octopuses,
            "objectives_from": report.get("objectives_from", ""),
        }


def _players(report: dict[str, Any]) -> list[dict[str, Any]]:
    if "players" not in report and isinstance(report.get("round"), dict):  # a Snorkeling play sequence:
        report = report["round"]  # the round it leaves (a played Mediatore round's "round" is its board)
    players = report.get("players")
    if not isinstance(players, list):
        return []
    return [p for p in players if isinstance(p, dict) and "name" in p]


def _snorkeling(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if isinstance(report.get("totals"), dict):  # a game file: each player's total over its rounds
        winners = set(report.get("winners", ()))
        for name, total in report["totals"].items():
            yield {"kind": "game", "player": name, "total": total, "winner": name in winners,
                   "game_over": report.get("game_over"), "rounds": len(report.get("rounds", ()))}  # fmt: skip
        return
    verdict = report["round"] if isinstance(report.get("round"), dict) else report  # a play sequence's round
    winners = set(verdict.get("winners", ()))
    for p in _players(report):
        top = p["top"] if isinstance(p.get("top"), dict) else {}
        points = p["points"] if isinstance(p.get("points"), dict) else {}
        yield {
            "kind": "plays" if "turns" in report else "round",
            "player": p["name"],
            "total": p.get("total"),
            "winner": p["name"] in winners,
            "mat": p.get("mat"),
            "top_card": top.get("card"),
            "top_value": top.get("value"),
            "top_color": top.get("color"),
            "points": points.get("top"),
            "before": p.get("before"),
            "round_over": verdict.get("round_over"),
            "game_over": verdict.get("game_over"),
        }


def _mediatore(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if "balances" in report:  # a ledger: each balance after its rounds
        leaders = set(report.get("leaders", ()))
        for p in _players(report):
            name = p["name"]
            yield {"kind": "ledger", "player": name, "total": p.get("total"), "winner": name in leaders,
                   "rounds": len(report.get("rounds", ()))}  # fmt: skip
        return
    if "cards_read" in report:  # one side's cards from a photo, counted alone
        from scorecam.batch.mediatore import side_row

        yield side_row(report)
        return
    bid = report["bid"] if isinstance(report.get("bid"), dict) else {}
    deal = {"bid": bid.get("kind"), "bidder": bid.get("bidder"), "dealer": report.get("dealer")}
    sides = report["sides"] if isinstance(report.get("sides"), dict) else None
    if sides is None and "bidding" in report:  # a bidding alone: nobody has scored anything
        yield {"kind": "bidding"} | deal | {"bid": "redeal" if report.get("redeal") else bid.get("kind")}
        return
    winners = set(report.get("winners", ()))
    for photo in report.get("photos", ()):  # a round settled from photos: each photo's count first
        from scorecam.batch.mediatore import side_row

        yield deal | side_row(photo, (sides or {}).get(photo.get("side"), {}).get("players"))
    for p in _players(report):  # a round or a played round (another report: its players' totals)
        side = (sides or {}).get(p.get("side")) or {}
        yield deal | {
            "kind": "play" if "tricks" in report else "round" if sides else "",
            "player": p["name"],
            "total": p.get("total"),
            "winner": p["name"] in winners,
            "side": p.get("side"),
            "role": p.get("role"),
            "side_cards": side.get("cards"),
            "side_exact": side.get("exact"),
            "side_points": side.get("points"),
            "capot": report.get("capot"),
            "payment": p.get("payment"),
        }

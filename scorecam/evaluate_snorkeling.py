"""`scorecam eval DIR` on Snorkeling photos: read each round back and compare it with its truth.

Figures: piles found and their top card read right (a pile counts as right when its mat is found,
read as the right mat, and its top card is the truth's), extra piles read where there is no mat,
central pile's top card right, rounds read exactly (every pile right, no extra), rounds scored
exactly (every diver's points), wrong and unflagged (the worst outcome), right but flagged (a
false alarm), the same two when the players' count is given (``score --players N``), the rounds
scored exactly and those two when the players name their mats (``score --players 1=Anna ...``: the
photo read again with the mats in play), median time per photo (decoding included), and the exact rounds per condition of the
simulated world (light, print, table family, players, stress).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from scorecam import eval_guard as guard
from scorecam import evaluate_games as games
from scorecam.evaluate_games import figures_table, pct, share, time_figures, time_rows
from scoring.snorkeling import RoundBoard, round_from_json, score_round


def truth_photos(folder: Path) -> list[Path]:
    """Photos under ``folder`` with a Snorkeling truth JSON beside them."""
    return games.truth_photos(folder, "snorkeling", keys=("photo", "mats"))


def is_snorkeling_folder(folder: Path) -> bool:
    """Whether ``folder`` holds Snorkeling photos with truth and no Mondo ones."""
    return bool(truth_photos(folder)) and games.has_no_mondo_photos(folder)


def _points(board) -> dict[int, int]:
    return {d.mat: d.points for d in score_round(board).divers}


def measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    """One photo's record: piles right, centre right, exact, scored right, flagged, time; a reading
    that raises is recorded as not found, with what it raised (`scorecam.eval_guard`)."""
    return guard.measured(_measure_photo, photo, truth, _not_read)


def _not_read(photo: Path, truth: dict[str, Any], reason: str) -> dict[str, Any]:
    """The record of a photo whose round was not read (refused, or the reader raised)."""
    piles = len(round_from_json(truth["board"]).divers)
    return {"photo": photo.name, "found": False, "reason": reason, "piles": piles, "piles_right": 0,
            "scored_right": False, "conditions": _conditions(truth)}  # fmt: skip


def _measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    from vision.errors import PhotoError
    from vision.photo_io import read_photo
    from vision.snorkeling import read_round

    board = round_from_json(truth["board"])
    tops = {d.mat: d.top for d in board.divers}
    start = time.perf_counter()
    try:
        read, reading = read_round(read_photo(photo))
    except PhotoError as error:
        return _not_read(photo, truth, error.reason) | {"ms": (time.perf_counter() - start) * 1000}
    ms = (time.perf_counter() - start) * 1000
    got = {d.mat: d.top for d in read.divers}
    right = sum(1 for mat, top in tops.items() if got.get(mat) == top)
    extra = sum(1 for mat in got if mat not in tops)
    exact = right == len(tops) and extra == 0
    scored_right = _points(read) == _points(board)
    return {
        "photo": photo.name,
        "found": True,
        "piles": len(tops),
        "piles_right": right,
        "piles_missed": sum(1 for mat in tops if mat not in got),
        "extra_piles": extra,
        "centre_right": read.centre == board.centre,
        "exact": exact,
        "scored_right": scored_right,
        "flagged": bool(reading.flags),
        "flags": list(reading.flags),
        "notes": list(getattr(reading, "notes", ())),
        "read": {str(m): str(c) for m, c in sorted(got.items())},
        "truth": {str(m): str(c) for m, c in sorted(tops.items())},
        **_mats_given(photo, board),
        "conditions": _conditions(truth),
        "ms": ms,
    }


def _mats_given(photo: Path, board: RoundBoard) -> dict[str, bool]:
    """The photo read again as `score --players N` and as `score --players 1=NAME ...` read it: the
    divers' count told (a mat missing is looked for again, and flagged), and the mats in play named
    (every mat read is numbered one of them, a named mat not found is flagged)."""
    from vision.errors import PhotoError
    from vision.photo_io import read_photo
    from vision.snorkeling import read_round
    from vision.snorkeling.players import with_players

    names = {d.mat: f"diver {d.mat}" for d in board.divers}
    out = {}
    for told, options, check in (
        ("players", {"players": len(names)}, {"count": len(names)}),
        ("mats", {"players": len(names), "mats": set(names)}, {"names": names}),
    ):
        try:
            read, reading = read_round(read_photo(photo), **options)
        except PhotoError:  # refused: flagged
            out |= {f"scored_right_{told}_given": False, f"flagged_{told}_given": True}
            continue
        out[f"scored_right_{told}_given"] = _points(read) == _points(board)
        out[f"flagged_{told}_given"] = bool(with_players(reading, **check).flags)
    return out


def _conditions(truth: dict[str, Any]) -> dict[str, str]:
    c = truth.get("conditions") or {}
    scene = truth.get("scene") or {}
    return {
        "world": "stress" if c.get("stress") else "everyday",
        "light": str(c.get("light")),
        "print": str(c.get("print")),
        "table family": str(c.get("table")),
        "players": str(scene.get("players")),
        "piles": "squared" if scene.get("squared") else "messy",
    }


def evaluate(folder: Path, *, limit: int | None = None, progress: bool = True, **_: Any) -> dict[str, Any]:
    photos = truth_photos(folder)[:limit]
    return figures(
        games.measure_photos(photos, measure_photo, game="Snorkeling", folder=folder, progress=progress)
    )


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    found = [r for r in records if r["found"]]
    right = [r for r in found if r["scored_right"]]
    by: dict[str, dict[str, list[bool]]] = {}
    for r in records:
        for family, bucket in (r.get("conditions") or {}).items():
            by.setdefault(family, {}).setdefault(bucket, []).append(bool(r.get("scored_right")))
    return {
        "game": "snorkeling",
        "photos": n,
        "tables_found": share(len(found), n),
        "piles_right": share(sum(r["piles_right"] for r in records), sum(r["piles"] for r in records)),
        "piles_missed": sum(r.get("piles_missed", r["piles"]) for r in records),
        "extra_piles": sum(r.get("extra_piles", 0) for r in found),
        "centre_right": share(sum(1 for r in found if r["centre_right"]), n),
        "rounds_exact": share(sum(1 for r in found if r["exact"]), n),
        "rounds_scored_exactly": share(len(right), n),
        # a refused photo is flagged by its refusal, never wrong-and-unflagged
        "wrong_unflagged": share(sum(1 for r in found if not r["scored_right"] and not r["flagged"]), n),
        "right_flagged": share(sum(1 for r in right if r["flagged"]), len(right)),
        **_told_figures(found, n, "players"),
        **_told_figures(found, n, "mats"),
        "flagged": share(sum(1 for r in found if r["flagged"]), n),
        **time_figures(records),
        # readings that raised (bugs): each counted as a table not found, named with what it raised
        "raised": guard.raised_figure(records),
        "by_condition": {
            family: {
                b: {"photos": len(v), "scored_exactly": share(sum(v), len(v))}
                for b, v in sorted(buckets.items())
            }
            for family, buckets in by.items()
        },
        "records": records,
    }


def _told_figures(found: list[dict[str, Any]], n: int, told: str) -> dict[str, float]:
    """Rounds scored exactly, wrong and unflagged, right but flagged, as read when the players tell
    the reader their count (``told`` "players") or name their mats ("mats"); a record without that
    reading (an older one) counts as the plain reading."""

    def right(r: dict[str, Any]) -> bool:
        return bool(r.get(f"scored_right_{told}_given", r["scored_right"]))

    def flagged(r: dict[str, Any]) -> bool:
        return bool(r.get(f"flagged_{told}_given", r["flagged"]))

    good = [r for r in found if right(r)]
    return {
        f"rounds_scored_exactly_{told}_given": share(len(good), n),
        f"wrong_unflagged_{told}_given": share(sum(1 for r in found if not right(r) and not flagged(r)), n),
        f"right_flagged_{told}_given": share(sum(1 for r in good if flagged(r)), len(good)),
    }


def eval_table(result: dict[str, Any]) -> str:
    rows = [
        ("photos", str(result["photos"])),
        ("tables found", pct(result["tables_found"])),
        ("piles found, top card right", pct(result["piles_right"])),
        ("piles missed / extra piles", f"{result['piles_missed']} / {result['extra_piles']}"),
        ("central pile's top card right", pct(result["centre_right"])),
        ("rounds read exactly", pct(result["rounds_exact"])),
        ("rounds scored exactly", pct(result["rounds_scored_exactly"])),
        ("wrong and unflagged", pct(result["wrong_unflagged"])),
        ("right but flagged", pct(result["right_flagged"])),
        ("rounds scored exactly, player count given", pct(result["rounds_scored_exactly_players_given"])),
        ("wrong and unflagged, player count given", pct(result["wrong_unflagged_players_given"])),
        ("right but flagged, player count given", pct(result["right_flagged_players_given"])),
        ("rounds scored exactly, players' mats named", pct(result["rounds_scored_exactly_mats_given"])),
        ("wrong and unflagged, players' mats named", pct(result["wrong_unflagged_mats_given"])),
        ("right but flagged, players' mats named", pct(result["right_flagged_mats_given"])),
        *time_rows(result),
    ]
    for family in ("world", "players", "light"):
        for bucket, v in result["by_condition"].get(family, {}).items():
            rows.append(
                (f"  scored exactly, {family} {bucket}", f"{pct(v['scored_exactly'])} of {v['photos']}")
            )
    rows.append((guard.RAISED_LABEL, str(len(result.get("raised", [])))))
    return "\n".join([figures_table(rows), *guard.raised_lines(result)])

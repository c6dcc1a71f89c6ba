"""`scorecam eval DIR` on Mediterráneo photos: read each sea back and compare it with its truth.

The reader's lattice is labelled as the photo shows it (x right, y down), the simulator's as the
table lies, so a read sea is compared with the truth under the turn (of four) and the shift that
match most cells; octopus directions turn with it. Scores need no such care: both players' totals
do not depend on how the sea is turned. Each photo is read as a player reads it, without objectives:
the reader reads the two objective cards beside the sea. The cell figures and "both totals exact"
score the cells read by the truth's objectives (the reading measured alone); "objectives read" (both
cards right) and the totals and wrong-and-unflagged "with read objectives" score them by the cards
read, as `scorecam score` does.

Figures: seas found, visible cells right (content, and the direction of an octopus), frames right,
extra cells read where the truth has none, seas read exactly, both players' totals exact, wrong and
unflagged (the worst outcome), right but flagged (a false alarm), median time per photo. Each photo
is read once, with the kit-constrained decoder; the same photo's head-by-head reading (the same cell
probabilities) is measured beside it (`*_head_by_head`), as Mondo's eval measures its catalog.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from scorecam import eval_guard as guard
from scorecam import evaluate_games as games
from scorecam.evaluate import condition_table, verdict_figures
from scorecam.evaluate_games import figures_table, pct, share, time_figures, time_rows
from scoring.mediterraneo import Cell, Sea, score_sea, sea_from_json, sea_report_to_json
from vision.synth.world import condition_buckets

CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}


def truth_photos(folder: Path) -> list[Path]:
    """Photos under ``folder`` with a Mediterráneo truth JSON beside them."""
    return games.truth_photos(folder, "mediterraneo")


def is_sea_folder(folder: Path) -> bool:
    """Whether ``folder`` holds Mediterráneo photos with truth and no Mondo ones."""
    return bool(truth_photos(folder)) and games.has_no_mondo_photos(folder)


def turned(cell: Cell, quarter_turns: int) -> Cell:
    """The cell of a sea turned clockwise by quarter turns about the origin."""
    x, y, points = cell.x, cell.y, cell.points
    for _ in range(quarter_turns % 4):
        x, y = -y, x
        points = CLOCKWISE[points] if points else None
    return Cell(x, y, cell.content, points, cell.frame)


def aligned(read: tuple[Cell, ...], truth: tuple[Cell, ...]) -> dict[tuple[int, int], Cell]:
    """The read cells moved onto the truth's lattice by the turn and shift that match most contents."""
    best: dict[tuple[int, int], Cell] = {}
    best_hits = -1
    truth_at = {(c.x, c.y): c for c in truth}
    for k in range(4):
        cells = [turned(c, k) for c in read]
        votes: dict[tuple[int, int], int] = {}
        for c in cells:
            for t in truth:
                if t.content == c.content:
                    key = (t.x - c.x, t.y - c.y)
                    votes[key] = votes.get(key, 0) + 1
        for (dx, dy), _ in sorted(votes.items(), key=lambda kv: -kv[1])[:3]:
            moved = {
                (c.x + dx, c.y + dy): Cell(c.x + dx, c.y + dy, c.content, c.points, c.frame) for c in cells
            }
            hits = sum(1 for p, c in moved.items() if p in truth_at and _same(c, truth_at[p]))
            if hits > best_hits:
                best, best_hits = moved, hits
    return best


def _same(a: Cell, b: Cell) -> bool:
    return a.content == b.content and a.points == b.points


def _totals(sea: Sea) -> dict[str, int]:
    return {p.name: p.total for p in score_sea(sea).players}


def measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    """One photo's record: found, cells right, exact, totals right, flagged, time, and the buckets of
    the simulated world's conditions it was photographed under (`condition_buckets`; none for a truth
    that keeps none). A reading that raises (a bug, never a photo's fault) is recorded as not found,
    with ``raised`` saying what and where, and the evaluation goes on; a missing or broken model file
    still stops it (`scorecam.eval_guard`)."""
    return guard.measured(_measure_photo, photo, truth, _not_read) | {"conditions": condition_buckets(truth)}


def _not_read(photo: Path, truth: dict[str, Any], reason: str) -> dict[str, Any]:
    """The record of a photo whose sea was not read (refused, or the reader raised)."""
    cells = len(sea_from_json(truth["board"]).cells)
    return {"photo": photo.name, "found": False, "reason": reason, "cells": cells}


def _measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    from vision.errors import PhotoError
    from vision.mediterraneo.reader import read_sea
    from vision.photo_io import read_photo

    board = sea_from_json(truth["board"])
    start = time.perf_counter()
    try:
        sea, reading = read_sea(read_photo(photo))  # no objectives given: the cards are read
    except PhotoError as error:
        return _not_read(photo, truth, error.reason) | {"ms": (time.perf_counter() - start) * 1000}
    ms = (time.perf_counter() - start) * 1000
    record = {"photo": photo.name, "found": True, **_compare(reading.cells, reading.flags, board), "ms": ms}
    record |= _read_objectives(sea, reading, board)
    record["kit_ms"] = reading.timing_ms.get("kit", 0.0)
    plain = reading.head_by_head or reading
    by_heads = _compare(plain.cells, plain.flags, board)
    record |= {f"{key}_head_by_head": by_heads[key] for key in HEAD_BY_HEAD}
    return record


HEAD_BY_HEAD = ("cells_right", "octopuses_right", "extra_cells", "exact", "totals_right", "flagged")


def _read_objectives(sea: Sea | None, reading: Any, board: Sea) -> dict[str, Any]:
    """Whether both objective cards were read right, and the totals with the objectives read."""
    cards = reading.objectives
    read = cards.objectives if cards is not None else None
    right = read is not None and {p: (o.plus, o.minus) for p, o in read.items()} == {
        p: (o.plus, o.minus) for p, o in board.objectives
    }
    totals_right = False
    if sea is not None:
        moved = aligned(sea.cells, board.cells)
        totals_right = _totals(Sea(tuple(moved.values()), sea.objectives, sea.first)) == _totals(board)
    return {
        "objectives_right": right,
        "objectives": {p: f"{o.plus}/{o.minus}" for p, o in read.items()} if read else None,
        "totals_right_read": totals_right,
        "flagged_read": bool(reading.all_flags),
        "objective_flags": list(cards.flags) if cards is not None else [],
        "objectives_ms": reading.timing_ms.get("objectives", 0.0),
    }


def _compare(cells: tuple[Cell, ...], flags: tuple[str, ...], board: Sea) -> dict[str, Any]:
    moved = aligned(cells, board.cells)
    truth_at = {(c.x, c.y): c for c in board.cells}
    right = sum(1 for p, t in truth_at.items() if p in moved and _same(moved[p], t))
    frames = sum(1 for p, t in truth_at.items() if p in moved and moved[p].frame == t.frame)
    octopuses = [p for p, t in truth_at.items() if t.content == "octopus"]
    octopus_right = sum(1 for p in octopuses if p in moved and _same(moved[p], truth_at[p]))
    extra = sum(1 for p in moved if p not in truth_at)
    sea = Sea(tuple(moved.values()), board.objectives, board.first)
    totals_right = _totals(sea) == _totals(board)
    exact = right == len(truth_at) and extra == 0
    return {
        "cells": len(truth_at),
        "cells_right": right,
        "frames_right": frames,
        "octopuses": len(octopuses),
        "octopuses_right": octopus_right,
        "extra_cells": extra,
        "exact": exact,
        "totals_right": totals_right,
        "flagged": bool(flags),
        "flags": list(flags),
        "report": sea_report_to_json(score_sea(sea))["players"],
    }


def evaluate(folder: Path, *, limit: int | None = None, progress: bool = True, **_: Any) -> dict[str, Any]:
    """The figures of the Mediterráneo photos under ``folder`` (other games' options are ignored)."""
    photos = truth_photos(folder)[:limit]
    return figures(
        games.measure_photos(photos, measure_photo, game="Mediterráneo", folder=folder, progress=progress)
    )


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    found = [r for r in records if r["found"]]
    cells = sum(r["cells"] for r in records)
    octopuses = sum(r.get("octopuses", 0) for r in found)
    right_totals = [r for r in found if r["totals_right"]]
    wrong_unflagged = sum(1 for r in found if not r["totals_right"] and not r["flagged"])
    return {
        "game": "mediterraneo",
        "photos": n,
        "seas_found": share(len(found), n),
        "cells_right": share(sum(r["cells_right"] for r in found), cells),
        "frames_right": share(sum(r["frames_right"] for r in found), cells),
        "octopus_directions_right": share(sum(r["octopuses_right"] for r in found), octopuses),
        "extra_cells_per_photo": round(sum(r["extra_cells"] for r in found) / max(1, len(found)), 3),
        "seas_exact": share(sum(1 for r in found if r["exact"]), n),
        "totals_exact": share(len(right_totals), n),
        # a photo refused ("no sea found") is flagged by its refusal, never wrong-and-unflagged
        "wrong_unflagged": share(wrong_unflagged, n),
        "right_flagged": share(sum(1 for r in right_totals if r["flagged"]), len(right_totals)),
        "flagged": share(sum(1 for r in found if r["flagged"]), n),
        **_head_by_head_figures(found, cells, octopuses, n),
        **_read_objectives_figures(found, n),
        **time_figures(records),
        "median_kit_decode_ms": round(statistics.median([r["kit_ms"] for r in found] or [0.0]), 1),
        # readings that raised (bugs): each counted as a sea not found, named here with what it raised
        "raised": guard.raised_figure(records),
        # per condition of the simulated world, as `scorecam score` reads a sea: its objective cards read
        "by_condition": verdict_figures([_verdict(r) for r in records])["by_condition"],
        "records": records,
    }


def _verdict(record: dict[str, Any]) -> dict[str, Any]:
    """A photo's record in the terms of the Mondo per-condition figures (`scorecam.evaluate.verdict_figures`):
    the score is both totals by the objective cards read; a sea not found is flagged, never scored."""
    found = bool(record["found"])
    return {
        "found": found,
        "score_right": found and bool(record["totals_right_read"]),
        "flagged": not found or bool(record["flagged_read"]),
        "conditions": record.get("conditions") or {},
    }


def _read_objectives_figures(found: list[dict[str, Any]], n: int) -> dict[str, Any]:
    """Both objective cards read right, and the totals scored by the objectives read."""
    right = [r for r in found if r["totals_right_read"]]
    return {
        "objectives_read": share(sum(1 for r in found if r["objectives_right"]), n),
        "totals_exact_read_objectives": share(len(right), n),
        "wrong_unflagged_read_objectives": share(
            sum(1 for r in found if not r["totals_right_read"] and not r["flagged_read"]), n
        ),
        "right_flagged_read_objectives": share(sum(1 for r in right if r["flagged_read"]), len(right)),
        "median_objectives_ms": round(statistics.median([r["objectives_ms"] for r in found] or [0.0]), 1),
    }


def _head_by_head_figures(found: list[dict[str, Any]], cells: int, octopuses: int, n: int) -> dict[str, Any]:
    """The same photos' figures read head by head, without the kit."""
    right = [r for r in found if r["totals_right_head_by_head"]]
    return {
        "cells_right_head_by_head": share(sum(r["cells_right_head_by_head"] for r in found), cells),
        "octopus_directions_right_head_by_head": share(
            sum(r["octopuses_right_head_by_head"] for r in found), octopuses
        ),
        "seas_exact_head_by_head": share(sum(1 for r in found if r["exact_head_by_head"]), n),
        "totals_exact_head_by_head": share(len(right), n),
        "wrong_unflagged_head_by_head": share(
            sum(1 for r in found if not r["totals_right_head_by_head"] and not r["flagged_head_by_head"]), n
        ),
        "right_flagged_head_by_head": share(sum(1 for r in right if r["flagged_head_by_head"]), len(right)),
    }


def eval_table(result: dict[str, Any]) -> str:
    rows = [
        ("photos", str(result["photos"])),
        ("seas found", pct(result["seas_found"])),
        ("visible cells right", pct(result["cells_right"])),
        ("octopus directions right", pct(result["octopus_directions_right"])),
        ("frames right", pct(result["frames_right"])),
        ("extra cells per photo", f"{result['extra_cells_per_photo']:.2f}"),
        ("seas read exactly", pct(result["seas_exact"])),
        ("both totals exact", pct(result["totals_exact"])),
        ("wrong and unflagged", pct(result["wrong_unflagged"])),
        ("right but flagged", pct(result["right_flagged"])),
        ("objectives read (both cards right)", pct(result["objectives_read"])),
        ("both totals exact with read objectives", pct(result["totals_exact_read_objectives"])),
        ("wrong and unflagged with read objectives", pct(result["wrong_unflagged_read_objectives"])),
        ("right but flagged with read objectives", pct(result["right_flagged_read_objectives"])),
        ("head by head (no kit): cells right", pct(result["cells_right_head_by_head"])),
        ("head by head: both totals exact", pct(result["totals_exact_head_by_head"])),
        ("head by head: wrong and unflagged", pct(result["wrong_unflagged_head_by_head"])),
        ("head by head: right but flagged", pct(result["right_flagged_head_by_head"])),
        *time_rows(
            result,
            of_median=[
                ("of which the kit's decoder", f"{result['median_kit_decode_ms']:.1f} ms"),
                ("of which the objective cards", f"{result['median_objectives_ms']:.1f} ms"),
            ],
        ),
        (guard.RAISED_LABEL, str(len(result.get("raised", [])))),
    ]
    lines = [figures_table(rows), *guard.raised_lines(result)]
    if result.get("by_condition"):
        lines += ["", "by condition (both totals, objectives read)", condition_table(result["by_condition"])]
    return "\n".join(lines)

"""`scorecam eval`: read simulated photos back and compare with their truth (DESIGN.md, "Evaluation").

Figures: islands found (right grid size, every tile wholly inside its cell's crop: see
`vision.mondo.grid_match`), outline corners within 0.1 cell of the simulator's grid (reported, not
the test), per-cell accuracy of each head of the final reading, islands read exactly, scores exact
(with the catalog and head by head, on the same photos), and the median time per photo from file to
board.

Beside "exact", the figures a player cares about when the score is wrong: `wrong_unflagged` (the
score is wrong and nothing says so: the worst outcome) and `right_flagged` (a false alarm), and all
of them per condition of the simulated world (`by_condition`, from `condition_buckets` of each
photo's truth; DESIGN.md, "Robust reading").
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from scorecam.eval_guard import RAISED_LABEL, raised_lines
from scorecam.evaluate_games import time_figures, time_rows
from scorecam.progress import Progress
from scoring.mondo import (
    Island,
    island_from_json,
    rotated_island,
    score_turn,
    single_island_turn,
    turn_score_to_json,
)
from vision.synth.world import LIGHTS, PRINTS, TABLE_FAMILIES, condition_buckets

CORNER_TOLERANCE = 0.1  # of a cell side: the outline figure

# Families in the order the table shows them, and buckets with a natural order (others: by label).
FAMILY_ORDER = (
    "island size in frame",
    "sea size in frame",
    "tilt",
    "table family",
    "table hue",
    "light",
    "print",
    "hand in frame",
    "other island at the edge",
    "loose tiles touching",
    "placement",
    "back-side tiles",
    "empty spaces",
)
COUNTS = ("none", "1", "2 or more")
SIZES = ("under 25%", "25-40%", "40-55%", "55% or more")
BUCKET_ORDER: dict[str, tuple[str, ...]] = {
    "island size in frame": SIZES,
    "sea size in frame": SIZES,
    "tilt": ("under 20°", "20-30°", "30° or more"),
    "table family": TABLE_FAMILIES,
    "table hue": ("other hues", "terrain hues"),
    "light": LIGHTS,
    "print": PRINTS,
    "hand in frame": ("no", "yes"),
    "other island at the edge": ("no", "yes"),
    "loose tiles touching": COUNTS,
    "placement": ("neat", "messy"),
    "back-side tiles": COUNTS,
    "empty spaces": ("none", "1", "2", "3 or more"),
}


def truth_photos(folder: Path) -> list[Path]:
    """Photos under ``folder`` that have a Mondo truth JSON beside them."""
    photos = []
    for truth in sorted(folder.rglob("*.json")):
        try:
            data = json.loads(truth.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("game") == "mondo" and "photo" in data:
            photo = truth.with_name(data["photo"])
            if photo.exists():
                photos.append(photo)
    return photos


def _same_tiles(read: Island, truth: Island) -> bool:
    if read.grid != truth.grid or [t.cell for t in read.tiles] != [t.cell for t in truth.tiles]:
        return False
    for a, b in zip(read.tiles, truth.tiles, strict=True):
        if (a.edges, a.animals, a.volcanoes) != (b.edges, b.animals, b.volcanoes):
            return False
        if sorted(a.areas, key=repr) != sorted(b.areas, key=repr):
            return False
    return True


def _points(island: Island, name: str) -> dict[str, Any]:
    player = turn_score_to_json(score_turn(single_island_turn(name, island)))["players"][0]
    return {"points": player["points"], "total": player["total"], "valid": player["valid"]}


def _ordered(labels, order: tuple[str, ...]) -> list[str]:
    rank = {label: i for i, label in enumerate(order)}
    return sorted(labels, key=lambda label: (rank.get(label, len(rank)), label))


def _shares(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    count = lambda test: sum(1 for r in records if test(r)) / n  # noqa: E731
    return {
        "photos": n,
        "found": count(lambda r: r["found"]),
        "scores_exact": count(lambda r: r["score_right"]),
        "wrong_unflagged": count(lambda r: not r["score_right"] and not r["flagged"]),
        "right_flagged": count(lambda r: r["score_right"] and r["flagged"]),
    }


def verdict_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Flag figures overall and per condition, from per-photo records with keys ``found``,
    ``score_right``, ``flagged`` (bools) and ``conditions`` (family -> bucket; may be empty).

    A photo with no island found must count as ``found`` False, ``score_right`` False and
    ``flagged`` True: the player was told, but has no score."""
    if not records:
        return {"wrong_unflagged": None, "right_flagged": None, "by_condition": {}}
    overall = _shares(records)
    groups: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        for family, bucket in (record.get("conditions") or {}).items():
            groups[family][bucket].append(record)
    by_condition = {
        family: {
            bucket: _shares(groups[family][bucket])
            for bucket in _ordered(groups[family], BUCKET_ORDER.get(family, ()))
        }
        for family in _ordered(groups, FAMILY_ORDER)
    }
    return {
        "wrong_unflagged": overall["wrong_unflagged"],
        "right_flagged": overall["right_flagged"],
        "by_condition": by_condition,
    }


def evaluate(
    folder: Path, *, limit: int | None = None, progress: bool = True, grid_given: bool = True
) -> dict[str, Any]:
    """The figures of the Mondo reader on the photos under `folder`. `grid_given`: each photo is read
    with its island's grid size as its game states it (a game is played 3x3, or 4x4 by two players;
    `scorecam score --grid`, `batch --grid`); otherwise the reader detects it. A reading that raises
    is recorded (``raised``) as an island not found and the evaluation goes on (`scorecam.eval_guard`)."""
    import cv2

    from scorecam.eval_guard import NoTruthPhotos, broken_truth, measured, raised_figure
    from vision.mondo.heads import HEADS
    from vision.mondo.reader import catalog_table, tile_model

    cv2.setNumThreads(1)  # the figure is for one core
    photos = truth_photos(folder)[:limit]
    if not photos:
        raise NoTruthPhotos(f"no Mondo photos with truth JSON under {folder}")
    model = tile_model()
    table = catalog_table(model)
    bar = Progress("eval", len(photos), enabled=None if progress else False)
    counts: Counter[str] = Counter()  # found, read_exactly, exact_catalog, exact_heads, corners_close
    clearances = []
    head_right: Counter[str] = Counter()
    head_total: Counter[str] = Counter()
    # the present head by truth: empty spaces read empty, tiles read as tiles ([right, of])
    presence: dict[str, list[int]] = {"empty": [0, 0], "tile": [0, 0]}
    failures, records = [], []
    for n, photo_path in enumerate(photos, start=1):
        truth = json.loads(photo_path.with_suffix(".json").read_text())
        try:  # the truth is read here: a broken one is the truth file's fault, never the reader's
            island = island_from_json(truth["board"])
        except (ValueError, KeyError, TypeError) as error:
            raise broken_truth(photo_path, error) from None
        record = {
            "photo": photo_path.name,
            "found": False,
            "score_right": False,
            "flagged": True,  # no island found: the player is told, never given a score
            "n_flags": 0,
            "refused": True,
            "conditions": condition_buckets(truth),
        }
        records.append(record)
        one = measured(
            _measure_photo,
            photo_path,
            truth,
            _not_read,
            truth_island=island,
            model=model,
            table=table,
            grid=grid_given,
        )
        bar(n)
        record["ms"] = round(one["ms"], 1)
        record |= one.get("record", {}) | ({"raised": one["raised"]} if "raised" in one else {})
        failures += [one["failure"]] if one.get("failure") else []
        counts.update(one.get("counts", {}))
        clearances += [one["clearance"]] if one.get("clearance") is not None else []
        head_right.update(one.get("head_right", {}))
        head_total.update(one.get("head_total", {}))
        for truly, (right, of) in one.get("presence", {}).items():
            presence[truly][0] += right
            presence[truly][1] += of
    total = len(photos)
    edges = sum(head_right[f"edge_{s}"] for s in "NESW"), sum(head_total[f"edge_{s}"] for s in "NESW")
    return {
        "photos": total,
        "grid": "given" if grid_given else "detected",
        "islands_found": counts["found"] / total,
        "least_tile_clearance": min(clearances) if clearances else None,
        "outline_corners_within_0.1_cell": counts["corners_close"] / total,
        "head_accuracy": {h: head_right[h] / head_total[h] for h in HEADS if head_total[h]},
        "edge_accuracy": edges[0] / edges[1] if edges[1] else None,
        "empty_spaces_read_empty": presence["empty"],  # [right, of]
        "tiles_read_as_tiles": presence["tile"],
        "islands_read_exactly": counts["read_exactly"] / total,
        "scores_exact": counts["exact_catalog"] / total,
        **verdict_figures(records),
        "scores_exact_head_by_head": counts["exact_heads"] / total,
        # the tail too: a photo whose first reading asks is looked at again
        **time_figures(records),
        # readings that raised (bugs): each counted as an island not found, named with what it raised
        "raised": raised_figure(records),
        "failures": failures,
        "per_photo": records,
    }


def _not_read(photo: Path, truth: dict[str, Any], reason: str) -> dict[str, Any]:
    """A photo whose reading raised: its record keeps "no island found", its failure says why."""
    return {"failure": {"photo": photo.name, "why": reason}}


def _measure_photo(
    photo_path: Path, truth: dict[str, Any], *, truth_island: Island, model, table, grid: bool
) -> dict[str, Any]:
    """One photo read and compared with its truth: ``ms`` (file to board), the ``record`` fields it
    changes, its ``failure`` (or None), the ``counts`` it adds to the totals, its tile ``clearance``,
    ``head_right`` / ``head_total`` per head, and ``presence`` (empty spaces and tiles read so)."""
    from vision.mondo.decode import decode_island
    from vision.mondo.grid_match import match_grid
    from vision.mondo.heads import HEADS, tile_labels
    from vision.mondo.reader import read_photo_island
    from vision.photo_io import read_photo

    start = time.perf_counter()
    photo = read_photo(photo_path)
    result = read_photo_island(photo, model=model, grid=truth_island.grid if grid else None)
    reading, probs = result.reading, result.probs
    one: dict[str, Any] = {"ms": (time.perf_counter() - start) * 1000}
    if reading is None:
        return one | {"failure": {"photo": photo_path.name, "why": "no island found"}}
    match = match_grid(reading.quad * photo.scale, reading.grid, truth, reading.cell_quads * photo.scale)
    counts = Counter(corners_close=int(match.grid_right and match.corner_error <= CORNER_TOLERANCE))
    truth_points = _points(truth_island, "truth")
    # The score does not depend on how the grid was turned: compare it whatever the corners did.
    # `scorecam score` refuses such a photo with a message (several islands, too few tiles, an
    # island cut by the frame): the player is told, so it counts as flagged, and gets no score.
    refused = result.refusal is not None
    score_right = _points(reading.island, "truth") == truth_points and not refused
    counts["exact_catalog"] += int(score_right)
    one["record"] = {
        "score_right": score_right,
        "flagged": bool(reading.flags) or refused,
        "n_flags": len(reading.flags),
        "refused": refused,
        "why_refused": result.refusal.reason if refused else None,
    }
    cells = [(r, c) for r in range(reading.grid) for c in range(reading.grid)]
    by_heads = decode_island(probs, model.heads, cells, reading.grid, table, use_catalog=False).island
    counts["exact_heads"] += int(_points(by_heads, "truth") == truth_points)
    one |= {"counts": counts, "clearance": match.tile_clearance if match.grid_right else None}
    if not match.found:
        why = match.why_not(reading.grid, truth_island.grid)
        failure = {
            "photo": photo_path.name,
            "why": why,
            "score_right": score_right,
            "flags": list(reading.flags),
        }
        return one | {"failure": failure}
    counts["found"] += 1
    one["record"]["found"] = True
    read_island = rotated_island(reading.island, match.turns)
    head_right: Counter[str] = Counter()
    head_total: Counter[str] = Counter()
    presence = {"empty": [0, 0], "tile": [0, 0]}
    for cell in truth_island.cells():
        want = tile_labels(truth_island.tile_at(*cell))
        got = tile_labels(read_island.tile_at(*cell))
        truly = "tile" if truth_island.tile_at(*cell) else "empty"
        presence[truly][0] += int(got["present"] == want["present"])
        presence[truly][1] += 1
        for head in HEADS:
            if head in want:
                head_total[head] += 1
                head_right[head] += int(got.get(head) == want[head])
    counts["read_exactly"] += int(_same_tiles(read_island, truth_island))
    one |= {"head_right": head_right, "head_total": head_total, "presence": presence}
    if not score_right:
        one["failure"] = {"photo": photo_path.name, "why": "score differs", "flags": list(reading.flags)}
    return one


def eval_table(result: dict[str, Any]) -> str:
    pct = lambda x: "n/a" if x is None else f"{100 * x:.2f}%"  # noqa: E731 - None: no island found
    lines = [
        f"photos                          {result['photos']}",
        f"grid size                       {result.get('grid', 'detected')}",
        f"islands found                   {pct(result['islands_found'])} (grid right, every tile inside its crop)",
    ]
    if result["least_tile_clearance"] is not None:
        lines.append(
            f"  least tile clearance          {result['least_tile_clearance']:.3f} cell (inside its crop)"
        )
    lines += [
        f"  outline corners within 0.1    {pct(result['outline_corners_within_0.1_cell'])} (cell, of the simulator's grid)",
        f"per-edge terrain accuracy       {pct(result['edge_accuracy'])}",
    ]
    for head, acc in result["head_accuracy"].items():
        lines.append(f"  {head:<30}{pct(acc)}")
        if head == "present":
            for key, what in (("empty_spaces_read_empty", "empty spaces"), ("tiles_read_as_tiles", "tiles")):
                right, of = result[key]
                share = f"{pct(right / of)} " if of else ""
                lines.append(f"    {what + ' read so':<28}{share}({right}/{of})")
    lines += [
        f"islands read exactly            {pct(result['islands_read_exactly'])}",
        f"scores exact (catalog decoding) {pct(result['scores_exact'])}",
        f"  wrong and unflagged           {pct(result['wrong_unflagged'])} (the worst: nothing says to check)",
        f"  right but flagged             {pct(result['right_flagged'])} (false alarms)",
        f"scores exact (head by head)     {pct(result['scores_exact_head_by_head'])}",
        *(f"{label:<32}{value}" for label, value in time_rows(result)),
        f"{RAISED_LABEL:<32}{len(result.get('raised', []))}",
        *raised_lines(result),
    ]
    if result.get("by_condition"):
        lines += ["", "by condition (catalog decoding)", condition_table(result["by_condition"])]
    return "\n".join(lines)


def condition_table(by_condition: dict[str, dict[str, dict[str, Any]]]) -> str:
    """One row per bucket, the family named on its first row; text left, figures right."""
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    header = ["condition", "bucket", "photos", "found", "exact", "wrong & unflagged", "right & flagged"]
    rows = [header]
    for family, buckets in by_condition.items():
        for i, (bucket, f) in enumerate(buckets.items()):
            rows.append(
                [family if i == 0 else "", bucket, str(f["photos"]), pct(f["found"]), pct(f["scores_exact"]),
                 pct(f["wrong_unflagged"]), pct(f["right_flagged"])]
            )  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = []
    for row in rows:
        cells = [
            c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)

"""`scorecam eval`: read simulated photos back and compare with their truth (DESIGN.md, "Evaluation").

Figures: islands found (right grid size, every outer corner within 0.1 cell of the truth), per-cell
accuracy of each head of the final reading, islands read exactly, scores exact (with the catalog
and head by head, on the same photos), and the median time per photo from file to board.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from scorecam.progress import Progress
from scoring.mondo import (
    Island,
    island_from_json,
    rotated_island,
    score_turn,
    single_island_turn,
    turn_score_to_json,
)

CORNER_TOLERANCE = 0.1  # of a cell side


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


def quad_alignment(read_quad: np.ndarray, truth_quad: np.ndarray, grid: int) -> tuple[int, float]:
    """(quarter turns k, worst corner error in cells): the read grid turned by k matches the truth.

    The reader may name any corner of a square island first; turning the read island clockwise by
    k quarter turns makes its cell (0, 0) the truth's.
    """
    side = float(np.mean(np.linalg.norm(truth_quad - np.roll(truth_quad, 1, axis=0), axis=1)))
    best = (0, float("inf"))
    for k in range(4):
        error = float(np.max(np.linalg.norm(np.roll(read_quad, -k, axis=0) - truth_quad, axis=1)))
        if error < best[1]:
            best = (k, error)
    k, error = best
    return (4 - k) % 4, error / (side / grid)


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


def evaluate(folder: Path, *, limit: int | None = None, progress: bool = True) -> dict[str, Any]:
    import cv2

    from vision.mondo.decode import decode_island
    from vision.mondo.heads import HEADS, tile_labels
    from vision.mondo.locate import locate_islands
    from vision.mondo.reader import catalog_table, read_cells, tile_model
    from vision.photo_io import read_photo

    cv2.setNumThreads(1)  # the figure is for one core
    photos = truth_photos(folder)[:limit]
    if not photos:
        raise ValueError(f"no Mondo photos with truth JSON under {folder}")
    model = tile_model()
    table = catalog_table(model)
    bar = Progress("eval", len(photos), enabled=None if progress else False)
    found = read_exactly = exact_catalog = exact_heads = 0
    head_right: dict[str, int] = defaultdict(int)
    head_total: dict[str, int] = defaultdict(int)
    times, failures = [], []
    for n, photo_path in enumerate(photos, start=1):
        truth = json.loads(photo_path.with_suffix(".json").read_text())
        truth_island = island_from_json(truth["board"])
        start = time.perf_counter()
        photo = read_photo(photo_path)
        located = locate_islands(photo.image)
        reading = None
        if located.islands:
            reading, probs = read_cells(photo.image, located.islands[0], model=model)
        times.append((time.perf_counter() - start) * 1000)
        bar(n)
        if reading is None:
            failures.append({"photo": photo_path.name, "why": "no island found"})
            continue
        k, corner_error = quad_alignment(
            reading.quad * photo.scale, np.array(truth["island_quad"]), truth_island.grid
        )
        truth_points = _points(truth_island, "truth")
        # The score does not depend on how the grid was turned: compare it whatever the corners did.
        score_right = _points(reading.island, "truth") == truth_points
        exact_catalog += int(score_right)
        cells = [(r, c) for r in range(reading.grid) for c in range(reading.grid)]
        by_heads = decode_island(probs, model.heads, cells, reading.grid, table, use_catalog=False).island
        exact_heads += int(_points(by_heads, "truth") == truth_points)
        if reading.grid != truth_island.grid or corner_error > CORNER_TOLERANCE:
            why = f"grid {reading.grid} vs {truth_island.grid}, corner error {corner_error:.2f} cells"
            failures.append({"photo": photo_path.name, "why": why, "score_right": score_right})
            continue
        found += 1
        read_island = rotated_island(reading.island, k)
        for cell in truth_island.cells():
            want = tile_labels(truth_island.tile_at(*cell))
            got = tile_labels(read_island.tile_at(*cell))
            for head in HEADS:
                if head in want:
                    head_total[head] += 1
                    head_right[head] += int(got.get(head) == want[head])
        read_exactly += int(_same_tiles(read_island, truth_island))
        if not score_right:
            failures.append({"photo": photo_path.name, "why": "score differs", "flags": list(reading.flags)})
    total = len(photos)
    edges = sum(head_right[f"edge_{s}"] for s in "NESW"), sum(head_total[f"edge_{s}"] for s in "NESW")
    return {
        "photos": total,
        "islands_found": found / total,
        "head_accuracy": {h: head_right[h] / head_total[h] for h in HEADS if head_total[h]},
        "edge_accuracy": edges[0] / edges[1] if edges[1] else None,
        "islands_read_exactly": read_exactly / total,
        "scores_exact": exact_catalog / total,
        "scores_exact_head_by_head": exact_heads / total,
        "median_ms_per_photo": statistics.median(times),
        "failures": failures,
    }


def eval_table(result: dict[str, Any]) -> str:
    pct = lambda x: f"{100 * x:.2f}%"  # noqa: E731
    lines = [
        f"photos                          {result['photos']}",
        f"islands found                   {pct(result['islands_found'])}",
        f"per-edge terrain accuracy       {pct(result['edge_accuracy'])}",
    ]
    for head, acc in result["head_accuracy"].items():
        lines.append(f"  {head:<30}{pct(acc)}")
    lines += [
        f"islands read exactly            {pct(result['islands_read_exactly'])}",
        f"scores exact (catalog decoding) {pct(result['scores_exact'])}",
        f"scores exact (head by head)     {pct(result['scores_exact_head_by_head'])}",
        f"median time per photo           {result['median_ms_per_photo']:.0f} ms (decoding included, one core)",
    ]
    return "\n".join(lines)

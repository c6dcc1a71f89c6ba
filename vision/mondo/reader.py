"""Photo in, Mondo island out: locate the island, crop every cell, run the tile model once over all
cells in their four quarter turns, decode against the kit's catalog.

    reading = read_island(photo.image)   # photo from vision.photo_io.read_photo
    reading.island                       # a scoring.mondo.Island, the same as one typed in JSON
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, replace

import numpy as np

from scoring.mondo import Island
from scoring.mondo.score import analyse_island
from vision.errors import PhotoError
from vision.geometry import crop_quads, grid_cell_quads
from vision.mondo.decode import CandidateTable, CellReading, candidate_table, decode_island
from vision.mondo.heads import turn_crops, turned_head
from vision.mondo.locate import FoundIsland, locate_islands
from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.synth.catalog import load_catalog

TILE_MODEL = "mondo-tiles.onnx"
# A grid in which the tile model sees fewer tiles than this is something else that looks like a
# lattice (a sea of cards, a tiled floor): players leave at most a few spaces empty.
MIN_TILES = 3


@dataclass(frozen=True)
class IslandReading:
    island: Island
    flags: tuple[str, ...]
    cells: tuple[CellReading, ...]
    grid: int
    quad: np.ndarray  # the island's outline, 4x2 px of the image that was read
    cell_quads: np.ndarray  # (grid*grid, 4, 2) px, reading order
    timing_ms: dict[str, float]


def tile_model() -> OnnxModel:
    return load_model(models_dir() / TILE_MODEL)


@functools.lru_cache(maxsize=4)
def _table(catalog_name: str, heads: tuple[tuple[str, tuple[str, ...]], ...]) -> CandidateTable:
    return candidate_table(load_catalog(catalog_name), dict(heads))


def catalog_table(model: OnnxModel, catalog: dict | str = "mondo") -> CandidateTable:
    """The decoder's table for a catalog (a kit name, cached, or a catalog dict of another edition)."""
    heads = tuple((name, tuple(labels)) for name, labels in model.heads.items())
    if isinstance(catalog, str):
        return _table(catalog, heads)
    return candidate_table(catalog, dict(heads))


def describe_position(quad: np.ndarray, shape: tuple[int, ...]) -> str:
    """Where a quad lies in the image, in words a person can find it by."""
    cx, cy = np.asarray(quad).mean(axis=0)
    h, w = shape[:2]
    across = "left" if cx < w / 3 else "right" if cx > 2 * w / 3 else "middle"
    down = "top" if cy < h / 3 else "bottom" if cy > 2 * h / 3 else "middle"
    return "centre" if across == down == "middle" else f"{down} {across}".replace("middle ", "")


def read_turns(model: OnnxModel, crops: np.ndarray) -> dict[str, np.ndarray]:
    """The model's probabilities for the crops, averaged over their four quarter turns (one batch).

    The model learnt every turn of a tile (training turns crops and labels together), so each turn
    is as good a look as the others, and a turn that glare or a shadow fools is outvoted. A turned
    crop's head is credited to the head of the cell it reads (`turned_head`)."""
    n = len(crops)
    out = model.run(np.concatenate([turn_crops(crops, k) for k in range(4)]))
    probs = {head: np.zeros_like(p[:n]) for head, p in out.items()}
    for k in range(4):
        for head, p in out.items():
            probs[turned_head(head, k)] += p[k * n : (k + 1) * n] / 4
    return probs


def read_cells(
    image: np.ndarray,
    found: FoundIsland,
    *,
    model: OnnxModel | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
) -> tuple[IslandReading, dict[str, np.ndarray]]:
    """Read the cells of a located island; also returns the model's probabilities (for eval)."""
    model = model or tile_model()
    start = time.perf_counter()
    margin = float(model.metadata["input"]["crop_margin"])
    crops = crop_quads(image, found.cell_quads, model.input_size, margin)
    crop_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    probs = read_turns(model, crops)
    model_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    cells = [(r, c) for r in range(found.grid) for c in range(found.grid)]
    decoded = decode_island(
        probs, model.heads, cells, found.grid, catalog_table(model, catalog), use_catalog=use_catalog
    )
    decode_ms = (time.perf_counter() - start) * 1000
    reading = IslandReading(
        decoded.island,
        decoded.flags,
        decoded.cells,
        found.grid,
        np.asarray(found.quad, np.float32),
        np.asarray(found.cell_quads, np.float32),
        {"crop": crop_ms, "model": model_ms, "catalog": decode_ms},
    )
    return reading, probs


def place_rank(island: Island) -> tuple[int, int]:
    """How well a reading fits the rules, larger is better: the tiles it holds, then the fewer
    edges that break the island (water facing in, land facing out)."""
    return len(island.tiles), -len(analyse_island(island).invalid_edges)


def read_best_place(
    image: np.ndarray,
    found: FoundIsland,
    *,
    model: OnnxModel | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
) -> tuple[IslandReading, dict[str, np.ndarray]]:
    """`read_cells` where the locator put the grid and, where a whole outer row or column is empty,
    in the grid's other places too; the reading the rules like best wins (the locator's on a tie).
    The coast tells the sides apart: an island's outer edges show water, its inner ones land."""
    model = model or tile_model()
    places = [found] + [
        replace(found, quad=quad, cell_quads=grid_cell_quads(quad, found.grid), alternatives=())
        for quad in found.alternatives
    ]
    readings = [read_cells(image, p, model=model, catalog=catalog, use_catalog=use_catalog) for p in places]
    best = max(range(len(readings)), key=lambda i: (place_rank(readings[i][0].island), -i))
    reading, probs = readings[best]
    timing = {k: sum(r.timing_ms[k] for r, _ in readings) for k in reading.timing_ms}
    return replace(reading, timing_ms=timing), probs


def read_island(
    image: np.ndarray,
    *,
    grid: int | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
) -> IslandReading:
    """The one island in ``image`` (BGR); PhotoError when there is none or more than one."""
    start = time.perf_counter()
    located = locate_islands(image, grid=grid)
    locate_ms = (time.perf_counter() - start) * 1000
    if not located.islands:
        raise PhotoError("no island found in the photo", kind="no_board")
    if len(located.islands) > 1:
        where = " and ".join(
            f"one at the {describe_position(i.quad, image.shape)} ({i.grid}x{i.grid})"
            for i in located.islands[:3]
        )
        raise PhotoError(
            f"{len(located.islands)} islands in one photo ({where}); please take one photo per island",
            kind="several_boards",
        )
    reading, _ = read_best_place(image, located.islands[0], catalog=catalog, use_catalog=use_catalog)
    if len(reading.island.tiles) < MIN_TILES:
        raise PhotoError(
            f"no island found in the photo (a grid shape holds only {len(reading.island.tiles)} tile(s))",
            kind="no_board",
        )
    timing = {"locate": locate_ms, **reading.timing_ms}
    return IslandReading(
        reading.island, reading.flags, reading.cells, reading.grid, reading.quad, reading.cell_quads, timing
    )

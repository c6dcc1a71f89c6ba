"""Which lattice a photo's tile centres lie on: lattice guesses settled onto the centres, each scored
by the centres it puts on an occupied cell of a grid-sized window (a tile-like pattern on the table
cannot stretch the grid), a camera-plausible one first; and the loose-looking centres that join an
island's lattice. `vision.mondo.locate` puts these to work on the net's maps; the plane geometry
(homographies, guesses, grid extents) is `vision.mondo.lattice`'s.
"""

from __future__ import annotations

import numpy as np

from vision.mondo.lattice import (
    GRIDS,
    _settle,
    assign,
    camera_plausible,
    grid_extent,
    lattice_guesses,
)
from vision.mondo.locator_maps import CellsMap

MIN_CENTRES = 3  # an island shows at least this many tile centres on one lattice
# cells: a centre farther than this from its lattice point is off it, while refitting once the lattice is
# known (extrapolation is worst at the rim), and for a tile outside the island's region (loose tiles lie off)
REACH_TOL = 0.45
ADOPT_TOL = 0.2
# lattice points: centres spread wider than this are windowed by counting, not by a summed-area table
SPARSE_BEYOND = 64
OCCUPIED_MIN = 0.5  # a tile centre counts where the cells map's mean over its cell's middle reaches this


def tile_points(
    g: np.ndarray, pts: np.ndarray, grid: int | None, cells: CellsMap | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centres that are the island's tiles under lattice map G: on a lattice point, on an
    occupied cell (where `cells` is given), one per lattice point (the closest), and inside the
    grid-sized window of the lattice that holds most of them (a false centre beyond the island
    would otherwise stretch the grid). (lattice coords, tile mask, residuals)."""
    idx, ok, r = assign(g, pts)
    if cells is not None and ok.any():
        ok[ok] = cells.occupancy(g, idx[ok]) >= OCCUPIED_MIN
    seen: set[tuple[int, int]] = set()
    for k in np.flatnonzero(ok)[np.argsort(r[ok])]:
        key = (int(idx[k, 0]), int(idx[k, 1]))
        ok[k] = key not in seen
        seen.add(key)
    size = grid or max(GRIDS)
    if ok.any() and (idx[ok].max(0) - idx[ok].min(0) + 1).max() > size:
        x0, y0 = _fullest_window(idx[ok], size)
        ok &= np.all((idx >= [x0, y0]) & (idx < [x0 + size, y0 + size]), axis=1)
    return idx, ok, r


def _fullest_window(points: np.ndarray, size: int) -> tuple[int, int]:
    """The first column and row of the `size` x `size` window of lattice points that holds most of
    `points` (integer lattice coordinates), the first such in column-then-row order: each window's
    count read off a summed-area table of the points, not counted window by window."""
    lo, hi = points.min(0), points.max(0)
    if (hi - lo).max() > SPARSE_BEYOND:
        return _fullest_window_sparse(points, size)
    counts = np.zeros((int(hi[0] - lo[0]) + 1 + size, int(hi[1] - lo[1]) + 1 + size), np.int64)
    np.add.at(counts, (points[:, 0] - lo[0], points[:, 1] - lo[1]), 1)
    table = np.zeros((counts.shape[0] + 1, counts.shape[1] + 1), np.int64)
    table[1:, 1:] = counts.cumsum(0).cumsum(1)
    nx = max(1, int(hi[0] - lo[0]) - size + 2)  # window starts lo .. max(lo, hi - size + 1)
    ny = max(1, int(hi[1] - lo[1]) - size + 2)
    held = table[size : size + nx, size : size + ny] - table[:nx, size : size + ny]
    held = held - table[size : size + nx, :ny] + table[:nx, :ny]
    i, j = np.unravel_index(int(np.argmax(held)), held.shape)
    return int(lo[0]) + int(i), int(lo[1]) + int(j)


def _fullest_window_sparse(points: np.ndarray, size: int) -> tuple[int, int]:
    """`_fullest_window` for points spread far apart (a degenerate lattice guess can put a centre
    thousands of cells away, and a table over the whole span would not fit in memory): only windows
    with a point in their first column and one in their first row can hold most (shifting any other
    one towards the points loses none), so those are counted."""
    lo = points.min(0)
    starts = sorted({(int(x), int(y)) for x in points[:, 0] for y in points[:, 1]})
    best, where = -1, (int(lo[0]), int(lo[1]))
    for x0, y0 in starts:
        held = int(np.sum(np.all((points >= [x0, y0]) & (points < [x0 + size, y0 + size]), axis=1)))
        if held > best:
            best, where = held, (x0, y0)
    return where


def fit_lattice(
    pts: np.ndarray,
    quad0: np.ndarray | None,
    grid: int | None,
    camera: np.ndarray | None = None,
    cells: CellsMap | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The map G (picture -> lattice, tile centres at integer points) that puts most tile centres
    (see `tile_points`) on a lattice that fits a grid, a camera-plausible one first; with the
    centres' lattice coordinates and tile mask."""
    best = None
    fits: dict = {}  # the guesses mostly settle onto the same lattices: fit each once
    for blocks in (False, True):
        if best is not None and best[0][0]:
            break  # a camera-plausible lattice: no need to read the outline as a part of a grid
        for g in lattice_guesses(pts, quad0, grid, blocks, fits):
            # a tile a cell beyond the rest is where a fit extrapolates worst: look for it again
            g = _settle(_settle(g, pts, REACH_TOL, fits), pts, fits=fits)
            if not np.all(np.isfinite(g)) or np.linalg.cond(g) > 1e10:
                continue  # collinear centres: no plane lattice from them
            if blocks and not camera_plausible(g, camera):
                continue  # a fallback for an implausible lattice must do better than that
            idx, ok, r = tile_points(g, pts, grid, cells)
            if ok.sum() < MIN_CENTRES or grid_extent(idx[ok], grid) is None:
                continue
            # a sheared labelling fits the same points as well: the compact one is right
            span = idx[ok].max(0) - idx[ok].min(0) + 1
            key = (
                camera_plausible(g, camera),
                int(ok.sum()),
                -int(span.max()),
                -int(span.sum()),
                -float(np.sum(r[ok] ** 2)),
            )
            if best is None or key > best[0]:
                best = (key, g, idx, ok)
    return None if best is None else best[1:]


def adopt(
    g_h: np.ndarray, cells: np.ndarray, others: np.ndarray, grid: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Tile centres outside the region that sit on free lattice points (an island tile whose
    neighbours are all empty looks loose to the net), as long as the grid stays a grid: up to 3
    cells across, or up to what the region's own tiles (or the caller's grid) already span."""
    o_idx, o_ok, o_r = assign(g_h, others, ADOPT_TOL)
    taken = {tuple(p) for p in cells}
    limit = grid or max(3, int((cells.max(0) - cells.min(0) + 1).max()))
    adopted = np.zeros(len(others), bool)
    for k in np.argsort(o_r):
        key = tuple(o_idx[k])
        if not o_ok[k] or key in taken:
            continue
        grown = np.vstack([cells, o_idx[k]])
        if (grown.max(0) - grown.min(0) + 1).max() > limit:
            continue
        cells, adopted[k] = grown, True
        taken.add(key)
    return o_idx, adopted

"""Each cell's crop quad, following the tile seen on it: tiles are laid by hand, and one pushed a third
of a cell out of line would stick out of a crop cut from the lattice alone. `vision.mondo.locate`
gives the grid and the tile centres; the tile reader crops these quads."""

from __future__ import annotations

import numpy as np

from vision.mondo.lattice import apply_h, quad_corners

PUSH_MAX = 0.45  # cells: a tile centre this far from its cell's middle still belongs to the cell
OFFSET_DEADBAND = 0.04  # cells: a crop follows its tile only beyond this (the centre's own error)


def tile_offsets(g_h: np.ndarray, centres: np.ndarray, extent: tuple[int, int, int]) -> np.ndarray:
    """(grid*grid, 2) lattice units, reading order: how far the tile seen on each cell lies from the
    cell's middle (0 where no tile centre was seen). Tiles are laid by hand: one pushed a third of a
    cell out of line would stick out of a crop cut from the lattice."""
    i0, j0, g = extent
    out = np.zeros((g * g, 2))
    if not len(centres):
        return out
    u = apply_h(g_h, np.asarray(centres, np.float64))
    best = np.full(g * g, np.inf)
    for p in u:
        i, j = np.round(p).astype(int)
        d = p - (i, j)
        k = (j - j0) * g + (i - i0)
        if not (i0 <= i < i0 + g and j0 <= j < j0 + g) or np.hypot(*d) > PUSH_MAX:
            continue
        if np.hypot(*d) < best[k]:
            best[k], out[k] = np.hypot(*d), d
    # a centre's own error is a few hundredths of a cell: follow only what is more than that
    size = np.hypot(out[:, 0], out[:, 1])
    keep = np.clip(size - OFFSET_DEADBAND, 0, None) / np.maximum(size, 1e-9)
    return out * keep[:, None]


def offset_cell_quads(
    g_h: np.ndarray, extent: tuple[int, int, int], offsets: np.ndarray, quad: np.ndarray
) -> np.ndarray:
    """The cell quads of the grid, each moved by its tile's offset (lattice units), in the reading
    order of `quad` (the upright outline: its top-left corner is cell (0, 0))."""
    i0, j0, g = extent
    to_img = np.linalg.inv(g_h)
    corners = quad_corners(extent)
    # which lattice corner the upright outline starts at, and which way it runs
    img_corners = apply_h(to_img, corners)
    start = int(np.argmin(np.hypot(*(img_corners - quad[0]).T)))
    step = (
        1
        if np.hypot(*(img_corners[(start + 1) % 4] - quad[1]))
        < np.hypot(*(img_corners[(start - 1) % 4] - quad[1]))
        else -1
    )
    a, b, d = corners[start], corners[(start + step) % 4], corners[(start - step) % 4]
    across, down = (b - a) / g, (d - a) / g  # lattice steps along a row and down a column of the reading
    quads = []
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    for row in range(g):
        for col in range(g):
            pts = a + np.outer(unit[:, 0] + col, across) + np.outer(unit[:, 1] + row, down)
            centre = a + (col + 0.5) * across + (row + 0.5) * down
            i, j = np.round(centre).astype(int)
            pts = pts + offsets[(j - j0) * g + (i - i0)]
            quads.append(apply_h(to_img, pts))
    return np.array(quads, np.float32)

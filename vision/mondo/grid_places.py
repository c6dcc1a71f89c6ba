"""Where else a found Mondo grid may lie, by geometry alone: the grid moved a whole cell or more
(towards the rows its tiles leave empty, or a cell each way), kept only where it lies inside the
photo; whether two grids lie over one another; the island's tiles joined side to side. The reader
(`vision.mondo.reader`) reads the tiles in each place and lets the tile model and the coast judge.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from scoring.mondo import Island
from vision.geometry import grid_cell_quads, unit_square
from vision.mondo.locate import FoundIsland
from vision.mondo.outline import inside_any

# A grid whose tiles span it may stick out of the photo by this share of a cell and still hold the
# whole island (the fitted grid runs a little wider than the tiles on a large island).
EDGE_SLACK = 0.25
# The grid's moves tried where it is doubtful (rows, columns): a cell each way.
SHIFTS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def grid_to_image(quad: np.ndarray, g: int) -> np.ndarray:
    """The homography from a g x g grid's cell units to the px of its quad."""
    return cv2.getPerspectiveTransform(
        np.float32([[0, 0], [g, 0], [g, g], [0, g]]), np.asarray(quad, np.float32)
    )


def cells_in_image(quad: np.ndarray, g: int, corners: np.ndarray) -> np.ndarray:
    """(n, 4, 2) float32 px quads of cell-sized squares of a g x g grid whose top-left corners lie at
    `corners` ((n, 2) as (col, row), in cells; any place, inside the grid or past it)."""
    squares = unit_square()[None] + np.asarray(corners, np.float32).reshape(-1, 1, 2)
    px = cv2.perspectiveTransform(squares.reshape(1, -1, 2), grid_to_image(quad, g))
    return px.reshape(-1, 4, 2).astype(np.float32)


def inside_photo(quad: np.ndarray, shape: tuple[int, ...], ring: float, g: int) -> bool:
    """Whether a g x g grid's quad, grown by `ring` cells on every side, lies inside the photo."""
    to_image = grid_to_image(quad, g)
    grown = np.float32([[-ring, -ring], [g + ring, -ring], [g + ring, g + ring], [-ring, g + ring]])
    pts = cv2.perspectiveTransform(grown.reshape(1, -1, 2), to_image).reshape(-1, 2)
    h, w = shape[:2]
    return bool(np.all(pts >= 0) and np.all(pts[:, 0] <= w - 1) and np.all(pts[:, 1] <= h - 1))


def other_places(island: Island, found: FoundIsland, shape: tuple[int, ...]) -> list[FoundIsland]:
    """The grid's other places (inside the photo) that hold every tile of `island`, a reading of
    `found`: where its tiles leave whole outer rows or columns empty, the grid moved towards them."""
    if not island.tiles:
        return []
    g = found.grid
    rows = [t.cell[0] for t in island.tiles]
    cols = [t.cell[1] for t in island.tiles]
    moves = [
        (dr, dc)
        for dr in range(max(rows) - g + 1, min(rows) + 1)
        for dc in range(max(cols) - g + 1, min(cols) + 1)
        if (dr, dc) != (0, 0)
    ]
    return moved_grids(found, moves, shape)


def shifted_grids(found: FoundIsland, shape: tuple[int, ...]) -> list[FoundIsland]:
    """The grid moved one cell each way (sides and corners), those that lie inside the photo: where
    the locator's lattice settled a cell off an island with empty spaces (its tiles' centres fit a
    lattice a cell over as well), one of them holds the whole island."""
    return moved_grids(found, list(SHIFTS), shape)


def moved_grids(
    found: FoundIsland, moves: list[tuple[int, int]], shape: tuple[int, ...]
) -> list[FoundIsland]:
    """`found`'s grid moved by each (rows, columns) of `moves`, those that lie inside the photo."""
    g = found.grid
    to_image = grid_to_image(found.quad, g)
    out = []
    for dr, dc in moves:
        square = np.float32([[dc, dr], [g + dc, dr], [g + dc, g + dr], [dc, g + dr]])
        quad = cv2.perspectiveTransform(square[None], to_image)[0]
        if inside_photo(quad, shape, -EDGE_SLACK, g):
            out.append(replace(found, quad=quad, cell_quads=grid_cell_quads(quad, g), alternatives=()))
    return out


def same_place(islands: tuple[FoundIsland, ...], found: FoundIsland) -> FoundIsland | None:
    """The first of `islands` that lies over `found` (None: none does)."""
    return next((island for island in islands if overlapping(island, found)), None)


def overlapping(a: FoundIsland, b: FoundIsland) -> bool:
    """Whether two grids lie over one another (either's middle inside the other's outline)."""
    return inside_any(a.quad.mean(0), [b.quad]) or inside_any(b.quad.mean(0), [a.quad])


def joined_tiles(cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The largest group of cells joined side to side (the island; the first found on a tie)."""
    best: list[tuple[int, int]] = []
    left = set(cells)
    for start in sorted(cells):
        if start not in left:
            continue
        group, todo = [], [start]
        left.discard(start)
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in left:
                    left.discard(near)
                    todo.append(near)
        if len(group) > len(best):
            best = group
    return best

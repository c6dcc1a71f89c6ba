"""Spaces read as empty, looked at once more: ask, do not guess.

The tile model is sure of most empty spaces, and mostly right. Two ways it is sure and wrong were
seen on stress photos, and each gives a wrong score nobody is told about:

- a space read as empty that holds a tile: a tile back side up on a table near its terrain's hue, a
  tile pushed half out of its space. Its middle then shows a tile's colours, not the table's. An
  empty space shows the table, so its middle looks like some cell of the ring just outside the
  island (the ring takes in the table's shading and pattern near the island); where it looks like
  none of them, the player is asked.
- a tile that breaks the water rule beside a space read as empty: a loose tile lying in that space
  reads as a tile of the island, and a loose tile's outer edges are as likely land as water. A
  tile players laid may break the rule too, so the player is asked, with the score either way,
  where the island without that tile keeps the rule.

Colours are compared in CIE Lab (OpenCV's 8-bit scale), the median of each space's middle, so a
tile's printed details, the table's grain and noise weigh little.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.mondo import Island, Tile
from scoring.mondo.score import analyse_island

# A space read as empty whose middle is further than this from every ring cell's middle (Lab
# distance, 8-bit units) shows something other than the table. Empty spaces measure 0-3 from the
# nearest ring cell on development photos (seed 9613: 500 everyday, 200 stress), back-side and
# pushed tiles read as empty 15-37.
UNLIKE_TABLE = 14.0
# A space's middle: its square shrunk by this share of a cell on every side (a neighbour's edge and
# the gap between tiles stay out of it).
INNER = 0.2
# A middle that covers fewer px of the photo than this (cut by the photo's edge) is not compared.
LEAST_PX = 4
_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _middles(
    image: np.ndarray, quad: np.ndarray, grid: int, cells: list[tuple[int, int]]
) -> list[np.ndarray | None]:
    """The median Lab colour of each (row, col) cell's middle (cells may lie outside the grid: the
    ring), None where the middle lies mostly outside the photo."""
    to_image = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [grid, 0], [grid, grid], [0, grid]]), np.asarray(quad, np.float32)
    )
    lo, hi = INNER, 1 - INNER
    squares = np.float32(
        [[[c + lo, r + lo], [c + hi, r + lo], [c + hi, r + hi], [c + lo, r + hi]] for r, c in cells]
    )
    pts = cv2.perspectiveTransform(squares.reshape(1, -1, 2), to_image).reshape(-1, 4, 2)
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(pts.reshape(-1, 2).min(0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(pts.reshape(-1, 2).max(0)).astype(int) + 1, 1, [w, h])
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)
    out: list[np.ndarray | None] = []
    for square in pts:
        mask = np.zeros(lab.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(square - [x0, y0]).astype(np.int32), 1)
        values = lab[mask > 0]
        out.append(np.median(values.astype(np.float32), axis=0) if len(values) >= LEAST_PX else None)
    return out


def unlike_table_spaces(
    image: np.ndarray, quad: np.ndarray, grid: int, empty: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The spaces of `empty` (row, col) whose middle looks like no cell of the ring round the grid
    (`quad`: the grid's outline in px of the BGR `image`)."""
    if not empty:
        return []
    ring = [
        (r, c)
        for r in range(-1, grid + 1)
        for c in range(-1, grid + 1)
        if not (0 <= r < grid and 0 <= c < grid)
    ]
    colours = _middles(image, quad, grid, empty + ring)
    table = [colour for colour in colours[len(empty) :] if colour is not None]
    if not table:
        return []
    table_colours = np.stack(table)
    unlike = []
    for space, colour in zip(empty, colours[: len(empty)], strict=True):
        if colour is not None and np.linalg.norm(table_colours - colour, axis=1).min() > UNLIKE_TABLE:
            unlike.append(space)
    return unlike


def loose_tile_cells(island: Island, empty: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The tiles (row, col) of `rule_breakers` that lie side to side against a space of `empty` or
    were read back side up (land all round: a loose tile face down lying in a space of its own): each
    may be a loose tile lying in a space the island leaves empty."""
    spaces = set(empty)
    if not spaces:
        return []
    return [
        (r, c)
        for r, c in rule_breakers(island)
        if any((r + dr, c + dc) in spaces for dr, dc in _SIDES) or back_side_up(island.tile_at(r, c))
    ]


def rule_breakers(island: Island) -> list[tuple[int, int]]:
    """The tiles (row, col) that break the water rule, and without which the island keeps it: the
    score hangs on each (an island that breaks the rule elsewhere too scores nothing either way, so
    there is nothing to ask)."""
    breaking = sorted({(e.row, e.col) for e in analyse_island(island).invalid_edges})
    return [
        (r, c)
        for r, c in breaking
        if analyse_island(Island(island.grid, tuple(t for t in island.tiles if t.cell != (r, c)))).valid
    ]


def back_side_up(tile: Tile | None) -> bool:
    """Whether a tile was read as a kit tile's back (one terrain all over)."""
    return tile is not None and tile.component is not None and tile.component.face == "back"

"""A tile pushed out of its space, read as empty: ask, do not guess.

A tile knocked out of line (a sleeve, a hand reaching over the island; the simulator pushes a fifth
to a third of a cell) shows only part of itself in its space's crop, and on a busy table or in a
hard light the tile model, which learnt that a space holds a whole tile or none, may read that crop
as empty: the island loses a tile and nobody is told (stress 9527-00045, 00079, 00308; 9521-00106,
9523-00459 before: where the space did not look unlike the table either). So each space read as
empty is looked at again in crops shifted PUSH of a cell towards each side where no tile of the
island lies (past the grid's edge, or into another empty space), where a pushed tile would lie,
and each of those moved a little along the side too (a grid laid a fraction of a cell off cuts a
pushed tile in half: everyday 9032-00486); where one of them shows a tile, the player is asked.

A space that is really empty shows the table in those crops, or the edge of a neighbour's tile at
most: on the 57 readings with nothing to check and a space read as empty of the stress set 9526
(grid given, the crops read once as here; build/scratch, not shipped), no shifted crop read p(tile)
above 0.16; the pushed tiles of 9527-00045 and 00308, 1.00 and 0.97. With the crops moved along
the side as well (ALONG), on the development sets everyday 9031 (600) and stress 9528 / 9529 / 9517
(grid given) no score and no verdict changed (9528-00302, already flagged, asks two more).
"""

from __future__ import annotations

import numpy as np

from vision.mondo.checks import PUSHED_TILE, Check
from vision.mondo.decode import PRESENT, CandidateTable
from vision.mondo.grid_places import cells_in_image
from vision.mondo.recentre import Cropper, Reader

# How far (cells) the crops are shifted out of the space: about as far as a tile is pushed, so that
# the crop holds most of it.
PUSH = 0.35
# How far (cells) the shifted crop is also moved along the side, either way: a tile is pushed out of
# line, and the grid itself may lie a fraction of a cell off, so a crop straight out of the space can
# hold only half of the tile (everyday 9032-00486, a grid laid a tenth of a cell high: p(tile) 0.001
# straight out, 1.00 a tenth of a cell lower). None: straight out only.
ALONG = (-0.2, -0.1, 0.0, 0.1, 0.2)
# The tile model's p(tile) in a shifted crop from which a pushed tile is asked about.
SURE_TILE = 0.9
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (rows, cols): up, down, left, right


def open_sides(space: tuple[int, int], empty: set[tuple[int, int]], grid: int) -> list[tuple[int, int]]:
    """The sides of a space a pushed tile can lie towards: past the grid's edge or into another
    space read as empty (not onto a tile of the island)."""
    r, c = space
    return [
        (dr, dc)
        for dr, dc in SIDES
        if not (0 <= r + dr < grid and 0 <= c + dc < grid) or (r + dr, c + dc) in empty
    ]


def pushed_tile_checks(
    empty: list[tuple[int, int]],
    quad: np.ndarray,
    grid: int,
    table: CandidateTable,
    crop: Cropper,
    look: Reader,
) -> tuple[Check, ...]:
    """A check for each space read as empty (row, col) next to which a crop shifted PUSH of a cell
    off it, towards an open side, shows a tile. `quad`: the grid's outer corners in image px, in the
    grid's order; `crop` cuts crops of quads, `look` reads them once."""
    shifted = [((r, c), (dr, dc)) for r, c in empty for dr, dc in open_sides((r, c), set(empty), grid)]
    if not shifted:
        return ()
    along = ALONG or (0.0,)
    # (col, row) of each crop's top-left corner, in cells: out of the space by PUSH, along the side by t.
    corners = np.float32(
        [
            (c + dc * PUSH + abs(dr) * t, r + dr * PUSH + abs(dc) * t)
            for (r, c), (dr, dc) in shifted
            for t in along
        ]
    )
    quads = cells_in_image(quad, grid, corners)
    p_tile = look(crop(quads))[PRESENT][:, table.labels[PRESENT].index("tile")]
    best = p_tile.reshape(len(shifted), len(along)).max(axis=1)
    asked = sorted({space for (space, _), p in zip(shifted, best, strict=True) if p >= SURE_TILE})
    return tuple(Check(r, c, PUSHED_TILE, ()) for r, c in asked)

"""A tile lying turned across a space read as empty: ask, do not guess.

The tile model reads a tile lying well off the grid's square (a loose tile dropped on the island, or
one lying in an empty space at a slant) as "empty": it learnt that a loose tile is no part of the
island. But a loose tile lying on the island hides the tile under it, and then "empty" is a wrong
score nobody is told about. So each space read as empty is looked at again in crops turned 20-40
degrees on the table (and shifted a little); where one of them shows the front of a whole kit tile,
the player is asked to look. Fronts only: a turned crop that takes in a neighbour's edge and the
table reads as a tile's back (one terrain all over) far too easily, so a loose tile lying back side
up on the island is not caught here. Hand-laid tiles lie within 10 degrees of the grid, and a
space that is really empty shows table in every turned crop, so this asks nothing of a well-read
island.
"""

from __future__ import annotations

import numpy as np

from vision.geometry import turned_quads
from vision.mondo.checks import TURNED_TILE, Check
from vision.mondo.decode import CandidateTable
from vision.mondo.recentre import WHOLE_TILE, Cropper, Reader, candidate_fits

# Turns (degrees on the table) and shifts (cells along the space's sides) of the crops tried: beyond
# the 10 degrees a hand-laid tile may lie off the grid.
TURNS = (-40.0, -30.0, -20.0, 20.0, 30.0, 40.0)
SHIFTS = (-0.2, 0.0, 0.2)


def turned_tile_checks(
    empty: list[tuple[int, int]],
    cell_quads: np.ndarray,
    grid: int,
    table: CandidateTable,
    crop: Cropper,
    look: Reader,
) -> tuple[Check, ...]:
    """A check for each empty space (row, col) in which a crop turned across it shows the front of
    a whole kit tile. `cell_quads`: the grid's spaces in reading order (image px); `crop` cuts crops
    of quads, `look` reads them once."""
    if not empty:
        return ()
    tries = np.concatenate([turned_quads(cell_quads[r * grid + c], TURNS, SHIFTS) for r, c in empty])
    fronts = np.array([t.component is not None and t.component.face != "back" for t in table.tiles])
    fit = candidate_fits(look(crop(tries)), table)[:, fronts].max(axis=1)
    per_space = fit.reshape(len(empty), -1).max(axis=1)
    return tuple(
        Check(r, c, TURNED_TILE, ())
        for (r, c), best in zip(empty, per_space, strict=True)
        if best > WHOLE_TILE
    )

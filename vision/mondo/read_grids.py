"""The grids of one photo read so far: a grid the reader has read already is not read again.

A photo whose first reading asks for a check is looked at up to ten times (`vision.mondo.looks`),
and each look reads the cells of several grids (the locator's, its other places, the other size,
grids laid on the outline, grids moved a cell, ...). The looks differ in how the locator sees the
photo, not in how the tile model reads it: every look reads its cells from the same photo. Many of
their grids are one read already, but for rounding (stress photos of development seed 9517 read
with the grid detected: 237 of the 394 grids read of 00057, 105 of 253 of 00045, each within a
ten-thousandth of a cell of an earlier one; the next nearest lay a hundredth of a cell or more
away), and most of the cells of the others are cells of grids read (a grid moved a cell, a grid's
other place: 56-64% of the cells of 00004, 00045, 00057). Reading cells is most of a slow photo's
time (the tile model over every crop, and the crops moved round a cell that shows no whole tile),
so each grid (`GridReadings`) and each cell (`CellReadings`) is read once per photo. Development
stress sets 9517 (100) and 9528 (150), grid detected, read look by look (build/scratch/looktime.py,
not committed): every look of every photo read as before (right or not, flagged or not); grids read
2,127 -> 1,383 and 2,379 -> 1,612; the longest photos 45 -> 17 s and 66 -> 28 s (timed beside other
work: times are rough).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # the reader imports this module
    from vision.mondo.locate import FoundIsland
    from vision.mondo.reader import IslandReading

    Read = tuple[IslandReading, dict[str, np.ndarray]]

# A grid (a cell) is one read already where every corner of every cell lies within this share of a
# cell's side of that one's: the same but for rounding (the gap above). Reused a hundredth of a cell
# off, a cell read on the grid of another look changed a doubt (9517-00013 asked whether a tile is
# there at 78% / 22%, read unasked without the reuse).
SAME_GRID = 0.001


class GridReadings:
    """The readings of the grids of one photo read so far (`read_cells` with the same model and
    catalog: a cache for one `read_photo_island` call, not to be shared between photos), and of
    their cells (`cells`)."""

    def __init__(self) -> None:
        self._read: list[tuple[np.ndarray, Read]] = []
        self.hits = 0
        self.cells = CellReadings()

    def read(self, found: FoundIsland, read_cells: Callable[[FoundIsland], Read]) -> Read:
        """`read_cells(found)`, or the reading of a grid read already in its place (`SAME_GRID`), its
        time spent taken as none."""
        quads = np.asarray(found.cell_quads, np.float64)
        side = float(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1).mean())
        for seen, (known, probs) in self._read:
            if seen.shape == quads.shape and np.abs(seen - quads).max() <= SAME_GRID * side:
                self.hits += 1
                return replace(known, timing_ms=dict.fromkeys(known.timing_ms, 0.0)), probs
        reading = read_cells(found)
        self._read.append((quads, reading))
        return reading


class CellReadings:
    """What was made of each cell of one photo read so far, by cell: a grid that is not one read
    already still shares most of its cells with grids read (a grid moved a whole cell, a grid's
    other places). A cell is one read already where every corner lies within `SAME_GRID` of its
    side of that one's, under the same `key` (the picture its crop is cut from, and whatever else
    the reading of it rests on)."""

    def __init__(self) -> None:
        self._cells: dict[Hashable, tuple[list[np.ndarray], list[Any]]] = {}
        self.hits = 0

    def read(
        self, key: Hashable, quads: np.ndarray, read: Callable[[np.ndarray], Sequence[Any]]
    ) -> list[Any]:
        """Per cell of `quads` (n, 4, 2): what was made of it under `key`, where it was read
        already, else what `read(indices)` makes of the cells at those indices (one call, in order)."""
        quads = np.asarray(quads, np.float64)
        seen, made = self._cells.setdefault(key, ([], []))
        out: list[Any] = [None] * len(quads)
        if seen:
            known = np.stack(seen)
            sides = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
            for i, quad in enumerate(quads):
                near = np.flatnonzero(np.abs(known - quad).max(axis=(1, 2)) <= SAME_GRID * sides[i])
                if len(near):
                    out[i] = made[near[0]]
                    self.hits += 1
        new = np.array([i for i, value in enumerate(out) if value is None], np.intp)
        if len(new):
            for i, value in zip(new, read(new), strict=True):
                out[i] = value
                seen.append(quads[i])
                made.append(value)
        return out

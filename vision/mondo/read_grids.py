"""The grids of one photo read so far: a grid the reader has read already is not read again.

A photo whose first reading asks for a check is looked at up to ten times (`vision.mondo.looks`),
and each look reads the cells of several grids (the locator's, its other places, the other size,
grids laid on the outline, ...). The looks differ in how the locator sees the photo, not in how the
tile model reads it: every look reads its cells from the same photo. Most of their grids lie where
an earlier one lay, within a hundredth of a cell (stress photos of development seed 9517 read with
the grid detected: 105 of 253 grids read of 00045, 62 of 142 of 00046; the next nearest lay 0.05
cells or more away), and reading such a grid again gives the same reading but for that hundredth.
Reading cells is most of a slow photo's time (the tile model over every crop, the crops moved round
a cell that shows no whole tile), so each grid is read once per photo (`GridReadings`). On those 100
photos (grid detected; build/scratch/looktime.py, not committed, reads each photo look by look):
grids read 2,127 -> 1,381, time 297 -> 222 s (the longest photo 45 -> 24 s); every photo read right
and flagged as before (one took a fourth look where it took three).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the reader imports this module
    from vision.mondo.locate import FoundIsland
    from vision.mondo.reader import IslandReading

    Read = tuple[IslandReading, dict[str, np.ndarray]]

# A grid is one read already where every corner of every cell lies within this share of a cell's
# side of that one's (the gap above: 0.01 of a 30 px cell is a third of a px).
SAME_GRID = 0.01


class GridReadings:
    """The readings of the grids of one photo read so far (`read_cells` with the same model and
    catalog: a cache for one `read_photo_island` call, not to be shared between photos)."""

    def __init__(self) -> None:
        self._read: list[tuple[np.ndarray, Read]] = []
        self.hits = 0

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

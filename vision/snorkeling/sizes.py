"""The mats' size across a photo: a table seen at a slant shows its near mats larger than its far
ones (on stress photos up to 1.6 times the mats' common size), and the card model reads a mat
well only within about 15% of its size.

On a plane seen through a pinhole, the inverse of a point's depth is an affine function of its
image coordinates, and so is the size of a thing lying on it; so the sizes of the mats read
surely, each at its region's own size, are fitted by a plane (size = a + b x + c y) that gives
the size a mat would have anywhere on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.snorkeling.crops import Spot

FIT_LEAST = 3  # mats read at their own size: fewer give no plane (two give a line's slope only)
RANGE = (0.6, 1.7)  # of the common size: where the plane is taken, clamped (a fit from 3 mats can run off)
SPREAD_LEAST = 0.5  # mat lengths: the mats must spread this much across both axes (else no plane)


@dataclass(frozen=True)
class MatSizes:
    """The mats' common size (view px) and, where enough mats were read, the plane of their sizes."""

    common: float
    plane: tuple[float, float, float] | None = None

    def at(self, x: float, y: float) -> float:
        """The long side a mat at (``x``, ``y``) would show (view px)."""
        if self.plane is None:
            return self.common
        a, b, c = self.plane
        lo, hi = RANGE
        return float(np.clip(a + b * x + c * y, lo * self.common, hi * self.common))


def fit_sizes(spots: Sequence[Spot], common: float) -> MatSizes:
    """The plane of ``spots``' long sides (mats read at their own size), or the common size alone
    where they are fewer than ``FIT_LEAST`` or lie along a line."""
    if len(spots) < FIT_LEAST:
        return MatSizes(common)
    xy = np.array([[s.x, s.y] for s in spots], float)
    # spread across the narrower axis of their cloud: mats along one line give no plane
    centred = xy - xy.mean(0)
    narrow = float(np.sqrt(np.linalg.eigvalsh(centred.T @ centred / len(xy))[0]))
    if narrow < SPREAD_LEAST * common:
        return MatSizes(common)
    design = np.column_stack([np.ones(len(xy)), xy])
    a, b, c = np.linalg.lstsq(design, np.array([s.long for s in spots], float), rcond=None)[0]
    return MatSizes(common, (float(a), float(b), float(c)))

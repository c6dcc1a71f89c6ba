"""Islands the locator cannot fit at a steep tilt: look again with the photo stretched along its height.

A phone held at a table looks down at 20-40 degrees, with the table running away up the photo: a
tile's height in the photo shrinks by about the cosine of the tilt, more at the far side. At the
steepest tilts a small island's tiles are flat slivers, and the locator's lattice can settle half
a cell off with the wrong shear, so the grid it lays holds no tiles ("no island found"). Stretched
along its height by TALL, the same photo shows the tiles near square, as the locator learnt most of
them; the islands found there are mapped back into the photo and read from the photo's own pixels.
The reader does this only where it would otherwise find no island.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.mondo.locate import FoundIsland, locate_islands

# 1 / cos(42 degrees): the stress world's steepest tilts (30-40 degrees) with their perspective
TALL = 1.35


def _to_photo(points: np.ndarray, k: float) -> np.ndarray:
    """Points of the photo stretched `k` times along its height, back in the photo's px (cv2.resize
    keeps pixel centres: y' = (y + 0.5) k - 0.5)."""
    out = np.array(points, np.float32, copy=True)
    out[..., 1] = (out[..., 1] + 0.5) / k - 0.5
    return out


def foreshortened_islands(
    image: np.ndarray, *, grid: int | None = None, finer=None, k: float = TALL, model=None
) -> tuple[FoundIsland, ...]:
    """The islands the locator finds in `image` stretched `k` times along its height, in px of
    `image`. `finer(share)` gives a finer decode of the photo (see `vision.mondo.reader.Finer`); it
    is stretched the same way. `model`: the locator net (default: the shipped first one)."""
    tall = cv2.resize(image, None, fx=1.0, fy=k, interpolation=cv2.INTER_LINEAR)

    stretched: dict[int, np.ndarray] = {}  # a finer decode stretched once, however often it is asked for

    def finer_tall(share: float) -> tuple[np.ndarray, float]:
        picture, per = finer(share)
        if id(picture) not in stretched:
            stretched[id(picture)] = cv2.resize(picture, None, fx=1.0, fy=k, interpolation=cv2.INTER_LINEAR)
        return stretched[id(picture)], per

    found = locate_islands(
        tall, grid=grid, finer=finer_tall if finer is not None else None, model=model
    ).islands
    return tuple(
        replace(
            island,
            quad=_to_photo(island.quad, k),
            cell_quads=_to_photo(island.cell_quads, k),
            alternatives=tuple(_to_photo(q, k) for q in island.alternatives),
        )
        for island in found
    )

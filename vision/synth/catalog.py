"""Catalog checks for the simulator's art: the catalogs themselves live in `vision.catalogs`
(readers and simulator both use them; `load_catalog` is re-exported here)."""

from __future__ import annotations

import numpy as np

from vision.catalogs import load_catalog

__all__ = ["load_catalog", "face_edge_terrain_readback"]


def face_edge_terrain_readback(
    image: np.ndarray, tile_mm: float = 50, strip_mm: float = 3.0
) -> dict[str, str]:
    """The terrain each edge of a drawn Mondo face shows: side -> terrain, by nearest palette colour.

    Takes the median colour of the middle 60% of each edge strip (``strip_mm`` deep), which the texture
    marks and the coast foam do not move far from the terrain's base colour.
    """
    from vision.synth.mondo_art import TERRAIN_BGR  # the palette lives with the art that uses it

    n = image.shape[0]
    depth = max(1, round(strip_mm * n / tile_mm))
    lo, hi = round(n * 0.2), round(n * 0.8)
    strips = {
        "N": image[:depth, lo:hi],
        "E": image[lo:hi, -depth:],
        "S": image[-depth:, lo:hi],
        "W": image[lo:hi, :depth],
    }
    names = list(TERRAIN_BGR)
    palette = np.array([TERRAIN_BGR[t] for t in names], np.float32)
    result = {}
    for side, strip in strips.items():
        median = np.median(strip.reshape(-1, 3).astype(np.float32), axis=0)
        result[side] = names[int(np.argmin(np.linalg.norm(palette - median, axis=1)))]
    return result

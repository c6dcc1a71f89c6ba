"""Component catalogs: what every face of a game's components shows, as committed data.

A catalog is the kit manifest without the image names (see DESIGN.md, "Component kits"):
``{"format": 1, "game": ..., "components": [{"id": ..., "faces": {"front": {...}, "back": {...}}}]}``.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np

_CATALOG_PACKAGE = "vision.synth"


def load_catalog(game: str) -> dict:
    """The catalog of ``game`` (vision/synth/catalogs/{game}.json); FileNotFoundError names the file."""
    if not game or any(c in game for c in "/\\.") or game != game.strip():
        raise ValueError(f"not a game name: {game!r}")
    path = resources.files(_CATALOG_PACKAGE) / "catalogs" / f"{game}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no component catalog for {game!r} ({path})")
    return json.loads(path.read_text(encoding="utf-8"))


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

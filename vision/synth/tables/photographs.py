"""Photographed table surfaces: bundled grey photographs (brick, grass, gravel, the moon as pitted
stone), tiled or splatted and tinted."""

from __future__ import annotations

import functools
from importlib import resources

import cv2
import numpy as np

from vision.synth.tables.common import (
    _PLAINS,
    _any_colour,
    _blend,
    _jitter_colour,
)

# ---------------------------------------------------------------------------------------------- photographs

# (name, tiling, mm per source pixel range). Grey photographs from scikit-image's sample data, bundled
# unchanged as lossless PNGs in textures/ (sources and licences in textures/README.md). Brick is regular, so
# it is mirror-tiled; the stochastic ones (grass, gravel, the moon's surface as pitted stone) are splatted
# from random patches, which hides any repeat. scikit-image's coffee and chelsea photos were tried: their
# wood/fur patches are too small to tile without obvious repeats.
_PHOTOS: tuple[tuple[str, str, tuple[float, float]], ...] = (
    ("brick", "mirror", (0.35, 1.0)),
    ("grass", "splat", (0.25, 0.6)),
    ("gravel", "splat", (0.15, 0.45)),
    ("moon", "splat", (0.12, 0.4)),
)


@functools.cache
def _photo_source(name: str) -> np.ndarray:
    """A bundled photo (textures/NAME.png) as grey uint8."""
    data = (resources.files("vision.synth") / "textures" / f"{name}.png").read_bytes()
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if name == "moon":  # the frame's dark border is not surface
        img = img[40:470, 40:470]
    img = np.ascontiguousarray(img)
    img.setflags(write=False)
    return img


def _mirror_tile(rng: np.random.Generator, src: np.ndarray, h: int, w: int) -> np.ndarray:
    top = np.concatenate([src, src[:, ::-1]], axis=1)
    tile = np.concatenate([top, top[::-1]], axis=0)
    th, tw = tile.shape[:2]
    oy, ox = int(rng.integers(th)), int(rng.integers(tw))
    big = np.tile(tile, ((h + oy) // th + 1, (w + ox) // tw + 1))
    return big[oy : oy + h, ox : ox + w]


def _splat(rng: np.random.Generator, src: np.ndarray, h: int, w: int) -> np.ndarray:
    """Cover (h, w) with randomly placed, flipped and turned patches of `src`, feathered together."""
    patch = max(8, min(src.shape) // 2)
    step = max(4, patch * 3 // 4)
    ramp = np.minimum(np.arange(patch) + 1.0, patch - np.arange(patch)) / (patch - step + 1.0)
    ramp = np.clip(ramp, 1e-3, 1.0).astype(np.float32)
    win = np.outer(ramp, ramp)  # symmetric, so the same for every turn and flip of a patch
    acc = np.zeros((h + patch, w + patch), np.float32)
    # The patches sit on a regular grid and the window is separable: the weights' sum is an outer
    # product of two 1-D sums, no need to accumulate it patch by patch.
    ys, xs = range(0, h + 1, step), range(0, w + 1, step)
    wy = np.zeros(h + patch, np.float32)
    wx = np.zeros(w + patch, np.float32)
    for y in ys:
        wy[y : y + patch] += ramp
    for x in xs:
        wx[x : x + patch] += ramp
    srcf = src.astype(np.float32)
    sh, sw = src.shape
    for y in ys:
        for x in xs:
            sy, sx = int(rng.integers(sh - patch + 1)), int(rng.integers(sw - patch + 1))
            tile = np.rot90(srcf[sy : sy + patch, sx : sx + patch], int(rng.integers(4)))
            if rng.random() < 0.5:
                tile = tile[:, ::-1]
            cv2.accumulateProduct(np.ascontiguousarray(tile), win, acc[y : y + patch, x : x + patch])
    acc /= np.outer(wy, wx) + np.float32(1e-6)
    return acc[:h, :w]


def _photo(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    name, tiling, (lo, hi) = _PHOTOS[int(rng.integers(len(_PHOTOS)))]
    src = _photo_source(name)
    scale = min(float(rng.uniform(lo, hi)) * p, 3.0)  # enlarging a photo more than ~3x looks smeared
    size = (max(16, round(src.shape[1] * scale)), max(16, round(src.shape[0] * scale)))
    src = cv2.resize(src, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    grey = _mirror_tile(rng, src, h, w) if tiling == "mirror" else _splat(rng, src, h, w)
    # Tint between a dark and a light colour, with a stretch so every source reaches a similar contrast.
    t = grey.astype(np.float32)
    lo_v, hi_v = np.percentile(t[:: max(1, h // 64), :: max(1, w // 64)], (2, 98))
    t = np.clip((t - lo_v) / max(hi_v - lo_v, 1.0), 0, 1) * float(rng.uniform(0.5, 1.0))
    dark = _jitter_colour(rng, (40, 48, 56), 0.3)
    if rng.random() < 0.5:
        light = _jitter_colour(rng, _PLAINS[int(rng.integers(len(_PLAINS)))], 0.1)
    else:
        light = _any_colour(rng, (0.0, 0.6), (0.45, 0.95))
    return _blend(t, np.maximum(dark, 0), light)

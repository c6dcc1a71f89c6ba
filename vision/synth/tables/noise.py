"""Procedural noise tables: fractal noise as shading, a two-colour mix or blotches."""

from __future__ import annotations

import numpy as np

from vision.synth.tables.common import (
    _blend,
    _colourize,
    _companion,
    _fine_grain,
    _fit,
    _fractal,
    _main_colour,
    _work_res,
)

# ---------------------------------------------------------------------------------------------- noise


def _noise(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    base = _main_colour(rng, terrain, (0.0, 0.9), (0.1, 0.92))
    # Octaves from 1.5 mm to ~40 cm; a random band of them, with random weights (smooth to rough).
    cells = 1.5 * 2.0 ** np.arange(9)
    lo = int(rng.integers(0, 5))
    hi = int(rng.integers(lo + 2, 10))
    cells = cells[lo:hi]
    weights = (cells / 100.0) ** rng.uniform(-0.3, 1.0) * rng.uniform(0.3, 1.7, len(cells))
    coarse = cells >= 16  # on a 2 mm grid, enlarged; the fine octaves at full resolution
    hq, wq, q = _work_res(h, w, p, 0.5, 500_000)
    field = _fit(_fractal(rng, (hq, wq), q, cells[coarse], weights[coarse]), h, w)
    if (~coarse).any():
        field = field + _fractal(rng, (h, w), p, cells[~coarse], weights[~coarse])
    field *= np.float32(1.0 / max(float(field[:: max(1, h // 64), :: max(1, w // 64)].std()), 1e-3))
    grain = _fine_grain(rng, h, w, 0.02)
    style = rng.random()
    if style < 0.35:  # shading of one colour
        shade = field * np.float32(rng.uniform(0.05, 0.3)) + 1.0
        return _colourize(shade * grain, base)
    other = _companion(rng, base, terrain)
    if style < 0.65:  # a soft two-colour mix
        mix = np.clip(field * np.float32(rng.uniform(0.15, 0.4)) + 0.5, 0, 1)
    else:  # thresholded into blotches
        mix = np.clip(
            (field - np.float32(rng.uniform(-0.3, 1.0))) * np.float32(rng.uniform(2, 15)) + 0.5, 0, 1
        )
    return _blend(mix, base, other, grain)

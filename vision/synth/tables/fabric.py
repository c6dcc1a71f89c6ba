"""Soft table surfaces: felt, plain-woven cloth and tablecloths with folds and ripples."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.tables.common import (
    _CLOTHS,
    _SHIFT,
    _any_colour,
    _axes_mm,
    _bgr_hsv,
    _blend,
    _cloth_shading,
    _colourize,
    _detail,
    _fade,
    _fine_grain,
    _fit,
    _fractal,
    _hsv_bgr,
    _jitter_colour,
    _main_colour,
    _px,
    _terrain_colour,
    _weave,
    _work_res,
    smooth_noise,
)


def _felt(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    base = _main_colour(rng, terrain, (0.05, 0.9), (0.1, 0.88))
    hue, sat, val = _bgr_hsv(base)
    other = _hsv_bgr(hue + rng.uniform(-8, 8), sat * rng.uniform(0.7, 1.2), val * rng.uniform(0.8, 1.15))
    mottled = bool(rng.random() < 0.6)
    # Blotches are soft: a 1 mm working grid is plenty, enlarged to the table.
    hq, wq, q = _work_res(h, w, p, 1.0, 600_000)
    if mottled:  # soft low-contrast blotches at several scales
        cells = (rng.uniform(3, 8), rng.uniform(10, 30), rng.uniform(40, 150))
        amps = rng.uniform(0.015, 0.045, 3)
    else:
        cells, amps = (rng.uniform(60, 200),), (rng.uniform(0.01, 0.025),)
    blotch = _fit(_fractal(rng, (hq, wq), q, cells, amps), h, w)
    shade = blotch + np.float32(1.0)
    # Fibre grain: fine fuzz, faded where the fibres are below two pixels.
    fibre = float(rng.uniform(0.25, 0.6))
    shade += _detail(rng, (h, w), (fibre * p, fibre * p), 0.05, 2 * fibre * p)
    shade *= _fine_grain(rng, h, w, 0.04)
    if not mottled:
        return _colourize(shade, base)
    mix = np.clip(blotch * np.float32(rng.uniform(2, 5)) + 0.5, 0, 1)  # blotches also shift the colour a bit
    return _blend(mix, base, other, shade)


# ---------------------------------------------------------------------------------------------- cloth


def _cloth(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:
        base = _terrain_colour(rng)
    elif rng.random() < 0.3:
        base = _jitter_colour(rng, _CLOTHS[int(rng.integers(len(_CLOTHS)))], 0.1)
    else:
        base = _any_colour(rng, (0.0, 0.9), (0.1, 0.92))
    return _colourize(_cloth_shading(rng, h, w, p), base)


def _fold(d: np.ndarray, sigma: float, amp: float) -> np.ndarray:
    """Shading across a soft fold at signed distance d (mm): dark on one side, light on the other."""
    z = d * np.float32(1.0 / sigma)
    return z * np.exp(-0.5 * z * z) * np.float32(1.65 * amp)  # 1.65: the profile peaks at +-amp


def _tablecloth(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    base = _main_colour(rng, terrain, (0.0, 0.85), (0.3, 0.97))
    if rng.random() < 0.6:
        texture = _weave(rng, h, w, p, float(rng.uniform(0.3, 1.2)))
    else:
        texture = _detail(rng, (h, w), (0.6 * p, 0.6 * p), 0.03, 1.2 * p) + np.float32(1.0)
    W, H = w / p, h / p
    # Folds, ripples and shading are soft: worked out on a 2 mm grid, then enlarged.
    hq, wq, q = _work_res(h, w, p, 0.5, 500_000)
    x, y = _axes_mm(hq, wq, q)
    relief = np.zeros((hq, wq), np.float32)
    creases: list[np.ndarray] = []  # fold lines (mm polylines), drawn sharp at full resolution below
    if rng.random() < 0.5:  # folded in halves and quarters, then spread: fold lines along both axes
        for axis, extent in ((0, W), (1, H)):
            if rng.random() < 0.2:
                continue
            spacing = float(rng.uniform(150, 450))
            coord = x if axis == 0 else y
            profile = np.zeros_like(coord)
            for pos in np.arange(rng.uniform(0, spacing), extent, spacing):
                profile += _fold(
                    coord - np.float32(pos), rng.uniform(5, 30), rng.choice((-1, 1)) * rng.uniform(0.03, 0.12)
                )
                ends = ((pos, -5.0), (pos, H + 5)) if axis == 0 else ((-5.0, pos), (W + 5, pos))
                creases.append(np.array(ends))
            relief += profile[None, :] if axis == 0 else profile[:, None]
    else:  # a few free folds: straight or gently curved
        for _ in range(int(rng.integers(1, 5))):
            cx, cy = rng.uniform(0, W), rng.uniform(0, H)
            a = rng.uniform(0, np.pi)
            n = np.array((math.cos(a), math.sin(a)), np.float32)
            curv = rng.uniform(-1, 1) / 1500.0  # 1/mm: bends by a few cm over a metre
            xx, yy = (x - np.float32(cx))[None, :], (y - np.float32(cy))[:, None]
            along = xx * -n[1] + yy * n[0]
            d = xx * n[0] + yy * n[1]
            d += np.float32(curv) * along * along
            relief += _fold(d, rng.uniform(5, 30), rng.choice((-1, 1)) * rng.uniform(0.03, 0.12))
            s = np.linspace(-1.5, 1.5, 64)[:, None] * max(W, H)
            creases.append(np.array((cx, cy)) + s * (-n[1], n[0]) - curv * s * s * n)
    if rng.random() < 0.6:  # ripples: waves across the cloth with a slow drift and a patchy envelope
        lam = float(rng.uniform(15, 70))
        a = rng.uniform(0, np.pi)
        drift_cell = rng.uniform(150, 400) * q
        u = x[None, :] * np.float32(math.cos(a)) + y[:, None] * np.float32(math.sin(a))
        u += smooth_noise(rng, (hq, wq), (drift_cell, drift_cell)) * np.float32(lam * rng.uniform(0.3, 1.5))
        env = np.clip(0.5 + 0.5 * smooth_noise(rng, (hq, wq), (drift_cell, drift_cell)), 0, 1)
        relief += (
            np.sin(u * np.float32(2 * np.pi / lam))
            * env
            * np.float32(rng.uniform(0.015, 0.06) * _fade(lam * q))
        )
    # Overall soft shading: light falling unevenly across the cloth.
    cell = rng.uniform(200, 600) * q
    relief += np.float32(rng.uniform(0.02, 0.06)) * smooth_noise(rng, (hq, wq), (cell, cell))
    g = rng.uniform(-0.08, 0.08, 2) / max(W, H)
    relief += (x[None, :] - np.float32(W / 2)) * np.float32(g[0]) + (
        y[:, None] - np.float32(H / 2)
    ) * np.float32(g[1])
    shade = _fit(relief + np.float32(1.0), h, w) * texture
    if creases:  # the fold itself: a thin sharp line, pressed in (dark) or a ridge catching light (light)
        mark = np.zeros((h, w), np.uint8)
        width_px = rng.uniform(0.4, 1.5) * p
        value, thick = int(round(255 * min(1.0, width_px))), max(1, round(width_px))
        cv2.polylines(mark, [_px(c, p) for c in creases], False, value, thick, cv2.LINE_AA, _SHIFT)
        depth = np.float32(rng.choice((-1, 1)) * rng.uniform(0.04, 0.12) / 255.0)
        shade *= mark.astype(np.float32) * depth + np.float32(1.0)
    shade *= _fine_grain(rng, h, w, 0.03)
    return _colourize(shade.astype(np.float32, copy=False), base)

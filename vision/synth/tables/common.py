"""What the table families share: colour palettes, mm-scaled noise, colour and drawing helpers."""

from __future__ import annotations

import colorsys
import math

import cv2
import numpy as np

from vision.synth.mondo_art import TERRAIN_BGR

# ---------------------------------------------------------------------------------------------- palettes

# BGR base colours.
_WOODS = (
    (118, 168, 212),  # oak
    (52, 82, 120),  # walnut
    (140, 192, 228),  # pine
    (62, 102, 162),  # cherry
    (188, 198, 204),  # white-washed
    (104, 116, 124),  # grey stained
    (34, 50, 68),  # dark stained
    (90, 140, 190),  # teak
)
_CLOTHS = (
    (52, 110, 40),  # billiard green
    (92, 52, 28),  # navy
    (44, 38, 120),  # burgundy
    (120, 120, 118),  # grey
    (150, 184, 200),  # linen
    (38, 38, 40),  # black
    (170, 130, 70),  # denim-ish blue
    (60, 140, 150),  # mustard
)
_PRINTS = (
    ((235, 238, 240), (40, 40, 190)),  # white / red
    ((235, 238, 240), (150, 70, 30)),  # white / blue
    ((225, 235, 240), (60, 120, 60)),  # white / green
    ((200, 225, 240), (40, 90, 160)),  # cream / brown-orange
    ((60, 50, 40), (160, 200, 220)),  # dark / beige
    ((230, 230, 230), (50, 50, 50)),  # white / black
)
_PLAINS = (
    (238, 240, 240),  # white
    (200, 202, 200),  # light grey
    (120, 122, 124),  # mid grey
    (40, 42, 44),  # black
    (198, 218, 230),  # beige
    (214, 200, 170),  # light blue
    (150, 175, 190),  # laminate tan
    (165, 185, 160),  # sage
)
_CERAMICS = (
    (236, 238, 238),  # white
    (200, 222, 232),  # cream
    (70, 100, 176),  # terracotta
    (150, 152, 150),  # grey
    (60, 62, 64),  # anthracite
    (170, 130, 60),  # blue
    (120, 150, 110),  # sage
)
# Hues next to the terrains' own (BGR): lighter and darker greens and blues, sand, ochre, brown,
# terracotta. With the terrains' colours they make the palette of terrain-hued tables.
_NEAR_TERRAIN = (
    (120, 200, 130),  # light green
    (30, 72, 28),  # dark green
    (60, 140, 110),  # olive
    (226, 178, 110),  # light blue
    (110, 60, 16),  # dark blue
    (150, 200, 226),  # sand
    (40, 140, 200),  # ochre
    (40, 82, 130),  # brown
    (60, 100, 190),  # terracotta
)
_WHITE = np.full(3, 255.0, np.float32)


# ---------------------------------------------------------------------------------------------- helpers


def smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cell_px: tuple[float, float]
) -> np.ndarray:
    """Band-limited noise (float32, roughly unit variance) with features of about `cell_px` (y, x) pixels."""
    h, w = shape
    gh = int(np.clip(h / max(cell_px[0], 1e-3), 1, 4096)) + 3
    gw = int(np.clip(w / max(cell_px[1], 1e-3), 1, 4096)) + 3
    grid = rng.standard_normal((gh, gw)).astype(np.float32) * 1.5
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _fade(period_px: float) -> float:
    """Contrast kept for a pattern of this period: 1 when well resolved, 0 below ~2 px (no aliasing)."""
    return float(np.clip((period_px - 2.0) / 2.0, 0.0, 1.0))


def _fractal(rng: np.random.Generator, shape: tuple[int, int], q: float, cells_mm, weights) -> np.ndarray:
    """A sum of smooth_noise octaves (cells in mm on a grid of q px/mm); unresolved octaves are left out."""
    out = np.zeros(shape, np.float32)
    for cell, weight in zip(cells_mm, weights, strict=True):
        k = float(weight) * _fade(2.0 * cell * q)
        if k > 0:
            out += k * smooth_noise(rng, shape, (cell * q, cell * q))
    return out


def _detail(
    rng: np.random.Generator,
    shape: tuple[int, int],
    cell_px: tuple[float, float],
    amount: float,
    period_px: float,
) -> np.ndarray | float:
    """amount * smooth_noise, faded by the pattern's period in pixels; 0.0 (and no work) once fully faded."""
    k = amount * _fade(period_px)
    if k == 0:
        return 0.0
    return smooth_noise(rng, shape, cell_px) * np.float32(k)


def _work_res(h: int, w: int, p: float, q_want: float, max_px: float) -> tuple[int, int, float]:
    """A working grid for a field wanted at `q_want` px/mm (below p for smooth fields, above p to
    supersample fine ones), capped at `max_px` pixels: (rows, cols, its px/mm)."""
    q = q_want
    if h * w * (q / p) ** 2 > max_px:
        q = p * math.sqrt(max_px / (h * w))
    return max(2, round(h * q / p)), max(2, round(w * q / p)), q


def _fit(img: np.ndarray, h: int, w: int) -> np.ndarray:
    """A working-grid image resampled to (h, w): area averaging when shrinking, so fine detail fades to
    its mean; linear when enlarging (only smooth fields are enlarged)."""
    if img.shape[:2] == (h, w):
        return img
    shrink = img.shape[0] * img.shape[1] > h * w
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _axes_mm(h: int, w: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel centres of a (h, w) grid at q px/mm, in mm: (x of each column, y of each row)."""
    return np.arange(w, dtype=np.float32) / np.float32(q), np.arange(h, dtype=np.float32) / np.float32(q)


def _jitter_colour(rng: np.random.Generator, bgr, amount: float) -> np.ndarray:
    c = np.asarray(bgr, np.float32) * (1.0 + rng.uniform(-amount, amount, 3)).astype(np.float32)
    return c * float(rng.uniform(1.0 - amount, 1.0 + amount))


def _hsv_bgr(hue_deg: float, sat: float, val: float) -> np.ndarray:
    """BGR (float32, 0-255) of a hue in degrees and a saturation and value in 0-1 (clipped)."""
    r, g, b = colorsys.hsv_to_rgb(
        (hue_deg / 360.0) % 1.0, float(np.clip(sat, 0, 1)), float(np.clip(val, 0, 1))
    )
    return np.array((b, g, r), np.float32) * 255.0


def _bgr_hsv(bgr) -> tuple[float, float, float]:
    b, g, r = (float(np.clip(c, 0, 255)) / 255.0 for c in bgr)
    hue, sat, val = colorsys.rgb_to_hsv(r, g, b)
    return hue * 360.0, sat, val


_TERRAIN_HSV = tuple(_bgr_hsv(c) for c in TERRAIN_BGR.values())
_NEAR_TERRAIN_HSV = tuple(_bgr_hsv(c) for c in _NEAR_TERRAIN)


def _terrain_colour(rng: np.random.Generator) -> np.ndarray:
    """A terrain's own colour or a hue next to one, jittered (hue by a few degrees, lighter or darker)."""
    pool = _TERRAIN_HSV if rng.random() < 0.5 else _NEAR_TERRAIN_HSV
    hue, sat, val = pool[int(rng.integers(len(pool)))]
    return _hsv_bgr(hue + rng.uniform(-6, 6), sat * rng.uniform(0.8, 1.15), val * rng.uniform(0.75, 1.2))


def _any_colour(
    rng: np.random.Generator, sat: tuple[float, float] = (0.0, 0.9), val: tuple[float, float] = (0.1, 0.95)
) -> np.ndarray:
    return _hsv_bgr(rng.uniform(0, 360), rng.uniform(*sat), rng.uniform(*val))


def _main_colour(
    rng: np.random.Generator,
    terrain: bool,
    sat: tuple[float, float] = (0.0, 0.9),
    val: tuple[float, float] = (0.1, 0.95),
) -> np.ndarray:
    """The table's dominant colour: a terrain's when asked, else any hue in the given ranges."""
    return _terrain_colour(rng) if terrain else _any_colour(rng, sat, val)


def _companion(rng: np.random.Generator, base: np.ndarray, terrain: bool) -> np.ndarray:
    """A second colour to go with `base`: another terrain colour or a shade of base for terrain tables
    (so the table stays in the terrains' hues), else a neighbouring hue or any other colour."""
    if terrain:
        r = rng.random()
        if r < 0.4:
            return _terrain_colour(rng)
        return (
            base * np.float32(rng.uniform(0.45, 0.8))
            if r < 0.7
            else _towards(base, _WHITE, rng.uniform(0.3, 0.7))
        )
    hue, sat, val = _bgr_hsv(base)
    if rng.random() < 0.5:
        return _hsv_bgr(hue + rng.uniform(-40, 40), sat * rng.uniform(0.5, 1.3), val * rng.uniform(0.5, 1.4))
    return _any_colour(rng)


def _towards(colour: np.ndarray, target: np.ndarray, t: float) -> np.ndarray:
    return (colour + (target - colour) * np.float32(t)).astype(np.float32)


def _u8(colour: np.ndarray) -> tuple[float, float, float]:
    """A colour as cv2 drawing functions want it."""
    c = np.clip(colour, 0, 255)
    return float(c[0]), float(c[1]), float(c[2])


def _colourize(shade: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """shade (h, w) float multiplier (non-negative) times a BGR colour -> uint8 image."""
    shade = shade.astype(np.float32, copy=False)
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in colour])


def _blend(mix: np.ndarray, c0: np.ndarray, c1: np.ndarray, shade: np.ndarray | None = None) -> np.ndarray:
    """(c0 + (c1 - c0) * mix) * shade per channel -> uint8 image; mix and shade are (h, w) float32."""
    planes = []
    for a, b in zip(c0, c1, strict=True):
        plane = cv2.convertScaleAbs(mix, alpha=float(b - a), beta=float(a))  # both ends are >= 0
        planes.append(plane if shade is None else cv2.multiply(plane, shade, dtype=cv2.CV_8U))
    return cv2.merge(planes)


def _apply_shade(img: np.ndarray, shade: np.ndarray) -> np.ndarray:
    """A uint8 BGR image times a (h, w) float32 shade, saturating."""
    return cv2.merge([cv2.multiply(c, shade, dtype=cv2.CV_8U) for c in cv2.split(img)])


def _fine_grain(rng: np.random.Generator, h: int, w: int, amount: float) -> np.ndarray:
    """Pixel-level multiplicative grain, cheap (uniform bytes)."""
    g = rng.integers(0, 256, (h, w), dtype=np.uint8).astype(np.float32)
    return cv2.addWeighted(g, amount / 128.0, g, 0.0, 1.0 - amount)


def _line_ink(ink: np.ndarray, ground: np.ndarray, width_px: float) -> tuple[tuple[float, float, float], int]:
    """Colour and thickness to draw a line `width_px` wide: lines thinner than a pixel are drawn one
    pixel wide in a colour nearer the ground, so the line keeps its mean instead of growing."""
    thick = max(1, round(width_px))
    return _u8(_towards(ground, ink, min(1.0, width_px / thick))), thick


def _curve(rng: np.random.Generator, w_mm: float, h_mm: float, n: int = 48) -> np.ndarray:
    """A smooth random curve (cubic Bezier) wandering across a w_mm x h_mm area, (n, 2) mm."""
    ctrl = rng.uniform(-0.2, 1.2, (4, 2)) * np.array([w_mm, h_mm])
    t = np.linspace(0, 1, n)[:, None]
    return (
        (1 - t) ** 3 * ctrl[0]
        + 3 * (1 - t) ** 2 * t * ctrl[1]
        + 3 * (1 - t) * t**2 * ctrl[2]
        + t**3 * ctrl[3]
    )


_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


def _px(points_mm: np.ndarray, p: float) -> np.ndarray:
    """mm -> fixed-point pixel coordinates for cv2 drawing with shift=_SHIFT."""
    return np.round(np.asarray(points_mm) * (p * _ONE)).astype(np.int32)


# ------------------------------------------------------- woven and drawn patterns, used by several families


def _cloth_shading(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    shade = _weave(rng, h, w, p, float(rng.uniform(0.35, 1.4)))
    folds = smooth_noise(rng, (h, w), (float(rng.uniform(60, 200)) * p, float(rng.uniform(60, 200)) * p))
    shade = shade * (1.0 + float(rng.uniform(0.02, 0.07)) * folds)
    return (shade * _fine_grain(rng, h, w, 0.04)).astype(np.float32)


def _square_grid(W: float, H: float, pitch: float, angle: float, phase: np.ndarray) -> np.ndarray:
    """Segments (n, 2, 2) mm of a square grid of `pitch` turned by `angle`, covering a W x H area."""
    half = math.hypot(W, H) / 2 + pitch
    ks = np.arange(-math.ceil(half / pitch), math.ceil(half / pitch) + 1) * pitch
    n = len(ks)
    lines = np.zeros((2 * n, 2, 2))
    lines[:n, :, 0] = (ks + phase[0])[:, None]
    lines[:n, :, 1] = (-half, half)
    lines[n:, :, 1] = (ks + phase[1])[:, None]
    lines[n:, :, 0] = (-half, half)
    return _place(lines, W, H, angle)


def _weave(rng: np.random.Generator, h: int, w: int, p: float, thread_mm: float) -> np.ndarray:
    """Plain weave shading around 1.0: threads over-under, with irregular (slubby) threads."""
    tp = thread_mm * p
    x = np.arange(w, dtype=np.float32) / tp
    y = np.arange(h, dtype=np.float32) / tp
    wobble_x = smooth_noise(rng, (1, w), (1, 30))[0] * 0.15
    wobble_y = smooth_noise(rng, (h, 1), (30, 1))[:, 0] * 0.15
    xs, ys = x + wobble_x, y + wobble_y
    vert = 0.5 + 0.5 * np.cos(2 * np.pi * xs)  # vertical threads' profile
    horiz = 0.5 + 0.5 * np.cos(2 * np.pi * ys)
    slub_x = (1 + 0.08 * rng.standard_normal(w)).astype(np.float32)
    slub_y = (1 + 0.08 * rng.standard_normal(h)).astype(np.float32)
    k = _fade(tp)
    ks = min(1.0, k + 0.3)
    # Each pixel shows the thread on top there; the shading of either thread is a function of its own
    # coordinate only, so it is worked out in 1-D and selected once at full resolution.
    on_x = ((1.0 + k * 0.22 * (vert - 0.5)) * (1.0 + ks * (slub_x - 1.0))).astype(np.float32)
    on_y = ((1.0 + k * 0.22 * (horiz - 0.5)) * (1.0 + ks * (slub_y - 1.0))).astype(np.float32)
    over = (np.floor(xs).astype(np.int64) & 1)[None, :] ^ (np.floor(ys).astype(np.int64) & 1)[:, None]
    return np.where(over.astype(bool), on_x[None, :], on_y[:, None])


def _place(shapes: np.ndarray, W: float, H: float, angle: float) -> np.ndarray:
    """Turn shapes drawn about the origin by `angle` and centre them on a W x H area; drop those that
    miss it."""
    c, s = math.cos(angle), math.sin(angle)
    out = shapes @ np.array([[c, s], [-s, c]]) + (W / 2, H / 2)
    lo, hi = out.min(axis=1), out.max(axis=1)
    keep = (hi[:, 0] > -5) & (lo[:, 0] < W + 5) & (hi[:, 1] > -5) & (lo[:, 1] < H + 5)
    return out[keep]

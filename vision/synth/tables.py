"""Procedural and photographic table surfaces for the photo simulator.

`draw_table(rng, shape, px_per_mm, kind=None, terrain_hue=False)` returns a BGR uint8 texture of any
shape, seen straight from above at the given resolution. Every family is generated in mm units, so it
looks the same at any resolution; detail finer than about two pixels fades to its mean instead of
aliasing (the far side of a tilted photo is rendered at a low px/mm).

The families (`TABLE_KINDS`, the same tuple as `vision.synth.world.TABLE_FAMILIES`):

- ``wood``: planks with rings, pores and end joints; natural wood tones, or painted/stained in any hue;
- ``plain``: laminate, any hue and lightness;
- ``felt``: plain or mottled felt (soft blotches at several scales, fibre grain);
- ``cloth``: plain-woven cloth;
- ``tablecloth``: woven or plain cloth with fold lines, ripples and soft shading;
- ``patterned``: gingham, stripes, dots and small flowers;
- ``mat``: a neoprene game mat: gradients, big soft printed shapes, lines, a border, a square or hex
  grid of 20-60 mm;
- ``stone``: marble (veins of warped noise), granite (speckles of several colours), slate (layered);
- ``tiled``: ceramic or stone tiles of 50-300 mm in a square or brick lattice with grout lines; a third
  of them are 40-60 mm, as big as the game's own tiles (the island locator's hard case);
- ``paper``: newspaper columns, maps and posters lying on the table, some sheets on top of others;
- ``photo``: bundled photographs (brick, grass, gravel, the moon as pitted stone; `textures/`), tinted;
- ``noise``: fractal noise with random octave weights, as shading, a two-colour mix or blotches.

Colours are drawn from all hues so that a reader trained on these tables keys on the structure of the
game's tiles, not on their colour. With ``terrain_hue=True`` the families whose colour is free
(`vision.synth.world.HUED_FAMILIES`) take a terrain's own colour, or a hue next to one, as their
dominant colour: the hardest tables for a reader that leans on colour.
"""

from __future__ import annotations

import colorsys
import functools
import math
from importlib import resources

import cv2
import numpy as np

from vision.synth.mondo_art import TERRAIN_BGR
from vision.synth.world import HUED_FAMILIES, TABLE_FAMILIES

TABLE_KINDS: tuple[str, ...] = TABLE_FAMILIES

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


def draw_table(
    rng: np.random.Generator,
    shape: tuple[int, int],
    px_per_mm: float,
    kind: str | None = None,
    terrain_hue: bool = False,
) -> np.ndarray:
    """A table surface of `shape` (h, w) pixels at `px_per_mm`, BGR uint8; `kind` is drawn from
    TABLE_KINDS if None. `terrain_hue` gives the families in HUED_FAMILIES a terrain's colour (or one
    near it) as their dominant colour; the other families ignore it."""
    if kind is None:
        kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    h, w = int(shape[0]), int(shape[1])
    if h <= 0 or w <= 0:
        raise ValueError(f"table shape must be positive, got {shape}")
    if not px_per_mm > 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    maker = _MAKERS.get(kind)
    if maker is None:
        raise ValueError(f"unknown table kind {kind!r}; known kinds: {', '.join(TABLE_KINDS)}")
    out = maker(rng, h, w, float(px_per_mm), bool(terrain_hue) and kind in HUED_FAMILIES)
    return np.ascontiguousarray(out)


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


# ---------------------------------------------------------------------------------------------- wood


def _wood(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    along_y = bool(rng.random() < 0.5)
    if along_y:  # generate with planks along x, then transpose: structure code stays one-directional
        h, w = w, h
    plank_mm = float(rng.uniform(70, 200))
    period_mm = float(rng.uniform(2.0, 7.0))
    contrast = float(rng.uniform(0.12, 0.35))
    if rng.random() < 0.3:  # painted or stained in any colour: the paint hides some of the grain
        base = _any_colour(rng, (0.0, 0.8), (0.12, 0.95))
        contrast *= float(rng.uniform(0.3, 0.9))
    else:
        base = _jitter_colour(rng, _WOODS[int(rng.integers(len(_WOODS)))], 0.08)

    # Per-row quantities (planks run along x): which plank, position across it, its phase and tone.
    y = np.arange(h, dtype=np.float32) / p + float(rng.uniform(0, plank_mm))
    plank = (y // plank_mm).astype(np.int32)
    n_planks = int(plank.max()) + 1
    y_in = y - plank * plank_mm
    phase = rng.uniform(0, 1000, n_planks).astype(np.float32)[plank]
    tone = (1.0 + rng.normal(0, 0.07, n_planks)).astype(np.float32)[plank]
    gap_mm = float(rng.uniform(0.3, 1.5))
    seam = 1.0 - float(rng.uniform(0.3, 0.6)) * np.exp(-((np.minimum(y_in, plank_mm - y_in) / gap_mm) ** 2))

    # Rings: distorted by noise stretched along the grain: sharp dark late-wood lines.
    k = np.float32(2 * np.pi / period_mm)
    arg = smooth_noise(rng, (h, w), (18 * p, 220 * p))
    arg *= np.float32(period_mm * rng.uniform(0.6, 3.0))  # gentle waves and the odd cathedral arch
    arg += smooth_noise(rng, (h, w), (3 * p, 40 * p)) * np.float32(period_mm * rng.uniform(0.05, 0.25))
    arg += (y_in + phase)[:, None]
    arg *= k
    ring = np.sin(arg, out=arg)
    ring += 1.0
    ring *= 0.5
    shade = ring * ring
    shade *= ring
    shade *= np.float32(-contrast * _fade(period_mm * p / 2))
    shade += 1.0

    # Pores (fine streaks along the grain), the plank's tone and slow colour drift, seams.
    shade *= _detail(rng, (h, w), (0.35 * p, 25 * p), 0.05, 0.7 * p) + np.float32(1.0)
    drift = smooth_noise(rng, (h, w), (60 * p, 150 * p))
    drift *= np.float32(0.04)
    drift += 1.0
    shade *= drift
    shade *= (tone * seam).astype(np.float32)[:, None]
    # Staggered end joints: short dark lines across each plank.
    joint_len = float(rng.uniform(400, 1400))
    dark = float(rng.uniform(0.3, 0.6))
    thick = max(1, int(round(gap_mm * p)))
    for k_pl in range(n_planks):
        rows = np.nonzero(plank == k_pl)[0]
        if len(rows) == 0:
            continue
        for xj in np.arange(rng.uniform(0, joint_len), w / p, joint_len):
            xs = int(round(xj * p))
            cv2.line(shade, (xs, int(rows[0])), (xs, int(rows[-1])), 1.0 - dark, thick, cv2.LINE_AA)
    shade *= _fine_grain(rng, h, w, 0.03)
    if along_y:
        shade = cv2.transpose(shade)
    return _colourize(shade, base)


# ---------------------------------------------------------------------------------------------- plain, felt


def _plain(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:
        base = _terrain_colour(rng)
    elif rng.random() < 0.3:
        base = _jitter_colour(rng, _PLAINS[int(rng.integers(len(_PLAINS)))], 0.06)
    else:
        base = _any_colour(rng, (0.0, 0.85), (0.06, 0.97))
    shade = 1.0 + 0.01 * smooth_noise(rng, (h, w), (150 * p, 150 * p))
    shade += 0.006 * smooth_noise(rng, (h, w), (4 * p, 4 * p))
    if rng.random() < 0.5 and _fade(1.2 * p) > 0:  # laminate speckle
        speck = smooth_noise(rng, (h, w), (0.6 * p, 0.6 * p)) * _fade(1.2 * p)
        shade += 0.03 * np.clip(speck - 1.2, 0, None)
    shade = shade * _fine_grain(rng, h, w, 0.025)
    return _colourize(shade.astype(np.float32), base)


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


def _cloth_shading(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    shade = _weave(rng, h, w, p, float(rng.uniform(0.35, 1.4)))
    folds = smooth_noise(rng, (h, w), (float(rng.uniform(60, 200)) * p, float(rng.uniform(60, 200)) * p))
    shade = shade * (1.0 + float(rng.uniform(0.02, 0.07)) * folds)
    return (shade * _fine_grain(rng, h, w, 0.04)).astype(np.float32)


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


# ---------------------------------------------------------------------------------------------- patterned


def _print_colours(rng: np.random.Generator, terrain: bool) -> tuple[np.ndarray, np.ndarray]:
    """(ground, ink) of a printed fabric."""
    if terrain:  # the ground takes the terrain hue; the print is lighter, darker or another terrain's
        ground = _terrain_colour(rng)
        r = rng.random()
        if r < 0.4:
            return ground, _towards(ground, _WHITE, rng.uniform(0.5, 0.85))
        if r < 0.7:
            return ground, ground * np.float32(rng.uniform(0.3, 0.6))
        return ground, _terrain_colour(rng)
    if rng.random() < 0.35:
        light, dark = (_jitter_colour(rng, c, 0.06) for c in _PRINTS[int(rng.integers(len(_PRINTS)))])
        return light, dark
    ground = _any_colour(rng, (0.0, 0.35), (0.75, 0.97))
    ink = _any_colour(rng, (0.3, 0.95), (0.15, 0.75))
    return (ink, ground) if rng.random() < 0.25 else (ground, ink)


def _patterned(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    light, dark = _print_colours(rng, terrain)
    style = ("checks", "stripes", "dots")[int(rng.integers(3))]
    period = float(rng.uniform(8, 40))
    x = (np.arange(w, dtype=np.float32) / p + float(rng.uniform(0, period)))[None, :]
    y = (np.arange(h, dtype=np.float32) / p + float(rng.uniform(0, period)))[:, None]
    soft = max(0.15, 1.0 / p)  # edge softness in mm: one pixel at least, printed ink bleeds a bit

    def band(t: np.ndarray, duty: float) -> np.ndarray:
        """1 inside the stripe [0, duty) of each period, 0 outside, anti-aliased by signed distance."""
        f = np.mod(t / period, 1.0)
        signed = np.where(f < duty, np.minimum(f, duty - f), -np.minimum(f - duty, 1.0 - f))
        return np.clip(signed * period / soft + 0.5, 0, 1)

    if style == "checks":  # gingham: two translucent stripe sets, the crossing is darkest
        mix = 0.5 * band(x, 0.5) + 0.5 * band(y, 0.5)
        mix = np.broadcast_to(mix, (h, w)).astype(np.float32)
    elif style == "stripes":
        t = y if rng.random() < 0.5 else x
        mix = band(t, float(rng.uniform(0.15, 0.6)))
        mix = np.broadcast_to(mix, (h, w)).astype(np.float32)
    else:
        mix = _flowers(rng, h, w, p, period)
    return _blend(mix, light, dark, _cloth_shading(rng, h, w, p))


def _flowers(rng: np.random.Generator, h: int, w: int, p: float, period: float) -> np.ndarray:
    """Small dots or five-petal flowers on a jittered grid: (h, w) float32 mix, 0 ground, 1 ink.

    Like a printed fabric, the print repeats every n x n motifs: one repeat is drawn (anti-aliased, so
    on uint8) and tiled, which keeps the time bounded however many motifs the table holds."""
    n = 2 * int(rng.integers(3, 7))  # even, so the half-step shift of alternate rows wraps round
    unit = max(2, round(n * period * p))
    step = unit / n
    r = float(rng.uniform(0.08, 0.2)) * step
    petals = bool(rng.random() < 0.6)
    direct = unit >= max(h, w)  # the repeat would not fit anyway: draw straight onto the table
    canvas = np.zeros((h, w) if direct else (unit, unit), np.uint8)
    ch, cw = canvas.shape
    wraps = ((0.0, 0.0),) if direct else tuple((dx, dy) for dx in (-unit, 0, unit) for dy in (-unit, 0, unit))
    reach = 2.2 * r + 2
    rows = range(-1, math.ceil(ch / step) + 1) if direct else range(n)
    cols = range(-1, math.ceil(cw / step) + 1) if direct else range(n)
    for j in rows:
        for i in cols:
            cx = (i + 0.5 * (j % 2)) * step + rng.normal(0, 0.08 * step)
            cy = j * step + rng.normal(0, 0.08 * step)
            if petals:
                a = rng.uniform(0, 2 * np.pi) + 2 * np.pi * np.arange(5) / 5
                discs = [(cx + 1.1 * r * math.cos(t), cy + 1.1 * r * math.sin(t), 0.7 * r, 255) for t in a]
                discs.append((cx, cy, 0.5 * r, 115))  # the flower's heart, lighter
            else:
                discs = [(cx, cy, r, 255)]
            for dx, dy in wraps:
                if not (-reach < cx + dx < cw + reach and -reach < cy + dy < ch + reach):
                    continue
                for x, y, rad, value in discs:
                    centre = (int((x + dx) * _ONE), int((y + dy) * _ONE))
                    cv2.circle(canvas, centre, int(rad * _ONE), value, -1, cv2.LINE_AA, _SHIFT)
    if not direct:
        oy, ox = int(rng.integers(unit)), int(rng.integers(unit))
        canvas = np.tile(canvas, ((h + oy) // unit + 1, (w + ox) // unit + 1))[oy : oy + h, ox : ox + w]
    return canvas.astype(np.float32) * np.float32(1 / 255)


# ---------------------------------------------------------------------------------------------- game mat


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


def _hex_grid(W: float, H: float, across: float, angle: float, phase: np.ndarray) -> np.ndarray:
    """Open polylines (n, 4, 2) mm of a hex grid, cells `across` mm between flats, turned by `angle`.

    Each cell draws three of its six edges (the other three belong to its neighbours), so every edge
    is drawn once: an anti-aliased edge drawn twice would come out darker."""
    r = across / math.sqrt(3)  # circumradius of a flat-topped hexagon
    half = math.hypot(W, H) / 2 + 2 * r
    ci = np.arange(-math.ceil(half / (1.5 * r)), math.ceil(half / (1.5 * r)) + 1)
    rj = np.arange(-math.ceil(half / across), math.ceil(half / across) + 1)
    i, j = np.meshgrid(ci, rj)
    centres = np.stack([i * 1.5 * r, (j + 0.5 * (i & 1)) * across], -1).reshape(-1, 2) + phase
    a = np.radians((0, 60, 120, 180))
    verts = r * np.stack([np.cos(a), np.sin(a)], -1)
    return _place(centres[:, None, :] + verts[None], W, H, angle)


def _place(shapes: np.ndarray, W: float, H: float, angle: float) -> np.ndarray:
    """Turn shapes drawn about the origin by `angle` and centre them on a W x H area; drop those that
    miss it."""
    c, s = math.cos(angle), math.sin(angle)
    out = shapes @ np.array([[c, s], [-s, c]]) + (W / 2, H / 2)
    lo, hi = out.min(axis=1), out.max(axis=1)
    keep = (hi[:, 0] > -5) & (lo[:, 0] < W + 5) & (hi[:, 1] > -5) & (lo[:, 1] < H + 5)
    return out[keep]


def _mat(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    base = _main_colour(rng, terrain, (0.05, 0.9), (0.12, 0.92))
    W, H = w / p, h / p
    # Soft art (gradient, big printed shapes) on a 2 mm grid, enlarged; crisp print at full resolution.
    hq, wq, q = _work_res(h, w, p, 0.5, 400_000)
    x, y = _axes_mm(hq, wq, q)
    span = float(rng.uniform(300, 2000))
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * np.pi)
        t = (x[None, :] * np.float32(math.cos(a)) + y[:, None] * np.float32(math.sin(a))) / np.float32(span)
        t -= t.min()
    else:
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        t = np.sqrt((x[None, :] - np.float32(cx)) ** 2 + (y[:, None] - np.float32(cy)) ** 2) / np.float32(
            span
        )
    t = np.clip(t, 0, 1) * np.float32(rng.uniform(0, 0.8))
    second = _companion(rng, base, terrain)
    low = base[None, None, :] + t[..., None] * (second - base)[None, None, :]
    for _ in range(int(rng.integers(0, 8))):  # big soft shapes, translucent
        over = low.copy()
        colour = _u8(_companion(rng, base, terrain))
        size = rng.uniform(60, 400) * q
        centre = (rng.uniform(0, wq), rng.uniform(0, hq))
        if rng.random() < 0.5:
            axes = (int(size * _ONE), int(size * rng.uniform(0.3, 1.0) * _ONE))
            c16 = (int(centre[0] * _ONE), int(centre[1] * _ONE))
            cv2.ellipse(over, c16, axes, rng.uniform(0, 180), 0, 360, colour, -1, cv2.LINE_AA, _SHIFT)
        else:
            n = int(rng.integers(3, 8))
            ang = np.sort(rng.uniform(0, 2 * np.pi, n))
            rad = size * rng.uniform(0.5, 1.2, n)
            poly = np.stack([centre[0] + rad * np.cos(ang), centre[1] + rad * np.sin(ang)], -1)
            cv2.fillPoly(over, [np.round(poly * _ONE).astype(np.int32)], colour, cv2.LINE_AA, _SHIFT)
        a = float(rng.uniform(0.3, 1.0))
        cv2.addWeighted(over, a, low, 1.0 - a, 0.0, dst=low)
    # Some art is airbrushed, some has crisp edges; at least a grid pixel of blur, as cv2 draws float
    # images without anti-aliasing.
    low = cv2.GaussianBlur(low, (0, 0), max(0.7, float(rng.uniform(0.3, 15)) * q))
    img = cv2.convertScaleAbs(_fit(low, h, w))

    # Crisp print: a square or hex grid of 20-60 mm, a border, lines and rings.
    ink = _companion(rng, base, terrain) if rng.random() < 0.5 else base * np.float32(rng.uniform(0.3, 0.6))
    if rng.random() < 0.3:
        ink = _towards(base, _WHITE, rng.uniform(0.4, 0.8))
    r = rng.random()
    angle = 0.0 if rng.random() < 0.6 else float(rng.uniform(0, np.pi))
    if r < 0.6:
        pitch = float(rng.uniform(20, 60))
        phase = rng.uniform(0, pitch, 2)
        shapes = _hex_grid(W, H, pitch, angle, phase) if r < 0.3 else _square_grid(W, H, pitch, angle, phase)
        colour, thick = _line_ink(ink, base, rng.uniform(0.3, 1.5) * p)
        cv2.polylines(img, _px(shapes, p), False, colour, thick, cv2.LINE_AA, _SHIFT)
    if rng.random() < 0.4:  # the printed border of a mat (the mat's own edge is often off the table)
        mw, mh = rng.uniform(500, 1000), rng.uniform(300, 650)
        rect = np.array([[-mw, -mh], [mw, -mh], [mw, mh], [-mw, mh]]) / 2
        rect = _place(rect[None], W, H, angle)
        rect = rect + rng.uniform(-0.3, 0.3, 2) * (W, H)
        colour, thick = _line_ink(_companion(rng, base, terrain), base, rng.uniform(3, 15) * p)
        cv2.polylines(img, _px(rect, p), True, colour, thick, cv2.LINE_AA, _SHIFT)
    for _ in range(int(rng.integers(0, 5))):
        colour, thick = _line_ink(_companion(rng, base, terrain), base, rng.uniform(0.5, 8) * p)
        if rng.random() < 0.6:
            cv2.polylines(img, [_px(_curve(rng, W, H), p)], False, colour, thick, cv2.LINE_AA, _SHIFT)
        else:
            c = _px(rng.uniform(0, 1, 2) * (W, H), p)
            cv2.circle(
                img,
                (int(c[0]), int(c[1])),
                int(rng.uniform(30, 200) * p * _ONE),
                colour,
                thick,
                cv2.LINE_AA,
                _SHIFT,
            )
    # Neoprene: a smooth surface with a faint fine texture.
    shade = _fine_grain(rng, h, w, 0.02)
    shade += _detail(rng, (h, w), (0.6 * p, 0.6 * p), 0.02, 1.2 * p)
    return _apply_shade(img, shade)


# ---------------------------------------------------------------------------------------------- stone


def _stone(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    style = (_marble, _granite, _slate)[int(rng.integers(3))]
    return style(rng, h, w, p, terrain)


def _marble(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    r = rng.random()
    if terrain:
        base = _towards(_terrain_colour(rng), _WHITE, rng.uniform(0.0, 0.35))
    elif r < 0.55:  # white, cream and grey marbles
        base = _hsv_bgr(rng.uniform(20, 60), rng.uniform(0.0, 0.12), rng.uniform(0.72, 0.95))
    elif r < 0.75:  # black marble
        base = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.2), rng.uniform(0.08, 0.25))
    else:  # green, pink, blue...
        base = _any_colour(rng, (0.15, 0.6), (0.3, 0.85))
    light_base = _bgr_hsv(base)[2] > 0.45
    vein = (
        base * np.float32(rng.uniform(0.25, 0.6))
        if light_base
        else _towards(base, _WHITE, rng.uniform(0.5, 0.9))
    )
    # Veins run down to about half a millimetre: a 0.5 mm grid, shrunk (faded) or enlarged to the table.
    hq, wq, q = _work_res(h, w, p, 2.0, 1_200_000)
    x, y = _axes_mm(hq, wq, q)
    warp = _fractal(rng, (hq, wq), q, (150, 60, 25, 10, 4), (1.0, 0.55, 0.3, 0.15, 0.07))
    mix = np.zeros((hq, wq), np.float32)
    # Veins: stripes bent by the fractal warp, drawn as thin lines where they cross zero, each with a
    # soft cloudy halo; a second, fainter set crosses the first at another angle.
    for strength in (1.0, float(rng.uniform(0.2, 0.6))):
        period = float(rng.uniform(40, 200))
        a = rng.uniform(0, np.pi)
        t = x[None, :] * np.float32(math.cos(a) / period) + y[:, None] * np.float32(math.sin(a) / period)
        t += warp * np.float32(rng.uniform(0.1, 0.5))
        sn = np.sin(t * np.float32(np.pi))
        sn *= sn
        # A vein thinner than a grid pixel would come out dotted: widen it and lighten it instead.
        width = float(rng.uniform(0.015, 0.06))
        least = 1.2 * np.pi / (q * period)
        if width < least:
            strength *= width / least
            width = least
        mix += np.exp(sn * np.float32(-1.0 / width**2)) * np.float32(strength)
        mix += np.exp(sn * np.float32(-1.0 / (40 * width**2))) * np.float32(strength * rng.uniform(0.05, 0.3))
        warp = _fractal(rng, (hq, wq), q, (100, 40, 15, 6), (1.0, 0.5, 0.25, 0.12))
    mix = np.clip(mix * np.float32(rng.uniform(0.5, 1.0)), 0, 1)
    cloud = 1.0 + 0.04 * _fractal(rng, (hq, wq), q, (100, 30), (1.0, 0.5))
    return _fit(_blend(mix, base, vein, cloud), h, w)


def _granite(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:
        base = _terrain_colour(rng) * np.float32(rng.uniform(0.6, 1.0))
        accent = base * np.float32(rng.uniform(0.6, 0.85))
    else:
        base = _any_colour(rng, (0.0, 0.35), (0.2, 0.75))
        accent = _any_colour(rng, (0.0, 0.6), (0.2, 0.8))
    dark = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0, 0.2), rng.uniform(0.03, 0.15))
    light = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0, 0.15), rng.uniform(0.8, 0.97))
    grain = float(rng.uniform(0.5, 2.5))  # speckle size, mm
    # Supersample small speckles (area averaging fades them to their mean), within a pixel budget.
    hq, wq, q = _work_res(h, w, p, max(p, 2.5 / grain), 2_000_000)
    idx = np.zeros((hq, wq), np.uint8)
    for k, frac in enumerate((rng.uniform(0.15, 0.35), rng.uniform(0.08, 0.25), rng.uniform(0.0, 0.2)), 1):
        n = smooth_noise(rng, (hq, wq), (grain * q, grain * q))
        idx[n > np.quantile(n[::7, ::7], 1.0 - frac)] = k
    palette = np.clip(np.stack([base, dark, light, accent]), 0, 255).astype(np.uint8)
    img = palette[idx]
    tone = 1.0 + 0.05 * _fractal(rng, (hq, wq), q, (200, 40), (1.0, 0.5))
    return _fit(_apply_shade(img, tone), h, w)


def _slate(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:
        base = _terrain_colour(rng) * np.float32(rng.uniform(0.35, 0.6))
    else:
        base = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.25), rng.uniform(0.12, 0.35))
    along_y = bool(rng.random() < 0.5)
    if along_y:  # layers along x, then transposed
        h, w = w, h
    hq, wq, q = _work_res(h, w, p, 2.0, 1_000_000)
    _, y = _axes_mm(hq, wq, q)
    # Cleavage layers: bands of slightly different tone with wandering boundaries.
    step = float(rng.uniform(5, 40))
    t = y[:, None] / np.float32(step) + 0.6 * smooth_noise(rng, (hq, wq), (80 * q, 400 * q))
    layer = np.floor(t).astype(np.int32) & 63
    tones = (1.0 + rng.normal(0, 0.06, 64)).astype(np.float32)
    shade = tones[layer]
    frac = t - np.floor(t)
    shade += np.exp(frac * np.float32(-step / 0.8)) * np.float32(
        rng.uniform(0.02, 0.08)
    )  # a layer's lit edge
    shade += _fractal(rng, (hq, wq), q, (25, 6, 2), (0.03, 0.02, 0.015))
    shade += _detail(rng, (hq, wq), (1.5 * q, 60 * q), rng.uniform(0.01, 0.03), 3 * q)  # streaks along layers
    shade = _fit(shade, h, w) * _fine_grain(rng, h, w, 0.03)
    if along_y:
        shade = cv2.transpose(shade)
    return _colourize(shade, base)


# ---------------------------------------------------------------------------------------------- tiles


def _tiled(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    # A third of tiled tables have tiles as big as the game's (40-60 mm): the island locator's hard case.
    if rng.random() < 0.35:
        tw = float(rng.uniform(40, 60))
    else:
        tw = float(np.exp(rng.uniform(np.log(50), np.log(300))))
    th = tw if rng.random() < 0.6 else max(40.0, tw / float(rng.uniform(1.5, 3.0)))
    if rng.random() < 0.5:
        tw, th = th, tw
    grout = float(rng.uniform(2, 8))
    shift = 0.0 if rng.random() < 0.6 else float(rng.choice((0.5, 0.5, rng.uniform(0.2, 0.8))))
    r = rng.random()
    angle = 0.0 if r < 0.6 else (45.0 if r < 0.75 else float(rng.uniform(0, 180)))
    if rng.random() < 0.4:
        tile = _jitter_colour(rng, _CERAMICS[int(rng.integers(len(_CERAMICS)))], 0.06)
    else:
        tile = _any_colour(rng, (0.0, 0.7), (0.15, 0.95))
    second = _companion(rng, tile, False) if rng.random() < 0.15 else None  # alternating two colours
    tile_v = _bgr_hsv(tile)[2]
    if (rng.random() < 0.5 or tile_v < 0.3) and tile_v < 0.85:
        grout_c = _hsv_bgr(
            rng.uniform(20, 60), rng.uniform(0, 0.12), rng.uniform(max(0.6, tile_v + 0.1), 0.95)
        )
    else:
        grout_c = tile * np.float32(rng.uniform(0.3, 0.65))
    return _tile_lattice(
        rng, h, w, p, (tw, th), grout, shift, angle, tile, grout_c, second, float(rng.uniform(0.02, 0.08))
    )


def _tile_lattice(
    rng: np.random.Generator,
    h: int,
    w: int,
    p: float,
    tile_mm: tuple[float, float],
    grout_mm: float,
    shift: float,
    angle_deg: float,
    tile: np.ndarray,
    grout: np.ndarray,
    second: np.ndarray | None = None,
    tone_sd: float = 0.05,
) -> np.ndarray:
    """Tiles of tile_mm (w, h) with grout lines grout_mm wide, rows shifted by `shift` of a tile (0 for
    a square lattice, 0.5 for a brick bond), the lattice turned by angle_deg."""
    pu, pv = tile_mm[0] + grout_mm, tile_mm[1] + grout_mm  # lattice pitch
    x, y = _axes_mm(h, w, p)
    x += np.float32(rng.uniform(0, 2 * pu))
    y += np.float32(rng.uniform(0, 2 * pv))
    if angle_deg == 0.0:  # separable: rows and columns are 1-D until the brick shift mixes them
        u, v = x[None, :], y[:, None]
    else:
        c, s = np.float32(math.cos(math.radians(angle_deg))), np.float32(math.sin(math.radians(angle_deg)))
        u = x[None, :] * c + y[:, None] * s
        v = y[:, None] * c - x[None, :] * s
    row = np.floor(v / np.float32(pv))
    if shift:
        u = u + row * np.float32(shift * pu)
    col = np.floor(u / np.float32(pu))
    fu = u - col * np.float32(pu)
    fv = v - row * np.float32(pv)
    # Distance (mm) from the tile's edge, negative inside the grout; the grout's coverage of each pixel
    # follows from it (anti-aliased, and thin grout keeps its mean at low px/mm).
    dist = np.minimum(np.minimum(fu, np.float32(pu) - fu), np.minimum(fv, np.float32(pv) - fv))
    dist -= np.float32(grout_mm / 2)
    cover = np.clip(0.5 - dist * np.float32(p), 0, 1)
    ri, ci = row.astype(np.int32) & 63, col.astype(np.int32) & 63
    tones = (1.0 + rng.normal(0, tone_sd, (64, 64))).astype(np.float32)
    tone = tones[ri, ci]  # every tile its own tone
    bevel = float(rng.uniform(0.0, 0.12))
    if bevel > 0:  # tile edges round down into the grout, a little darker
        tone *= 1.0 - np.float32(bevel) * np.exp(
            -np.maximum(dist, 0) * np.float32(1.0 / rng.uniform(0.5, 2.0))
        )
    cell = float(rng.uniform(3, 20))
    texture = _fine_grain(rng, h, w, 0.03)
    texture *= _detail(rng, (h, w), (cell * p, cell * p), rng.uniform(0.01, 0.04), 2 * cell * p) + np.float32(
        1.0
    )
    parity = ((ri + ci) & 1).astype(np.float32) if second is not None else None
    planes = []
    for k in range(3):
        plane = np.full(tone.shape, tile[k], np.float32)
        if parity is not None:
            plane += parity * np.float32(second[k] - tile[k])
        plane *= tone
        plane += (np.float32(grout[k]) - plane) * cover
        plane *= texture
        planes.append(cv2.convertScaleAbs(plane))
    return cv2.merge(planes)


# ---------------------------------------------------------------------------------------------- paper

_SHEETS_MM = ((210, 297), (297, 420), (280, 430), (380, 580), (500, 700))  # A4, A3, tabloid, broadsheet, map


def _paper(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    img = _sheet(rng, h, w, p, terrain)  # the sheet under all others covers the table
    budget = 1.5 * h * w  # pixels of further sheets, to bound the time
    for _ in range(int(rng.choice(4, p=(0.35, 0.3, 0.2, 0.15)))):
        sw_mm, sh_mm = _SHEETS_MM[int(rng.integers(len(_SHEETS_MM)))]
        if rng.random() < 0.5:
            sw_mm, sh_mm = sh_mm, sw_mm
        sh, sw = max(2, round(sh_mm * p)), max(2, round(sw_mm * p))
        angle = float(rng.uniform(-35, 35))
        centre = rng.uniform(-0.1, 1.1, 2) * (w, h)
        off = rng.uniform(0.5, 3.0, 2) * p  # the sheet's shadow, px
        soft = max(1, round(rng.uniform(0.5, 3.0) * p))
        if sh * sw > budget:
            continue
        M = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, 1.0)
        M[:, 2] += centre - (sw / 2, sh / 2)
        corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float64) @ M.T
        pad = int(np.abs(off).max()) + 3 * soft + 2
        x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + pad, (w, h))
        if x1 <= x0 or y1 <= y0:
            continue
        budget -= sh * sw
        sheet = _sheet(rng, sh, sw, p, terrain)
        M[:, 2] -= (x0, y0)
        size = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpAffine(sheet, M, size, flags=cv2.INTER_LINEAR)
        ones = np.full((sh, sw), 255, np.uint8)
        alpha = cv2.warpAffine(ones, M, size, flags=cv2.INTER_LINEAR).astype(np.float32) * np.float32(1 / 255)
        M[:, 2] += off
        shadow = cv2.warpAffine(ones, M, size, flags=cv2.INTER_LINEAR)
        for _ in range(2):  # two box blurs: a soft, cheap shadow edge
            shadow = cv2.blur(shadow, (2 * soft + 1, 2 * soft + 1))
        keep = cv2.convertScaleAbs(shadow, alpha=-rng.uniform(0.1, 0.3), beta=255).astype(np.float32)
        under = _apply_shade(img[y0:y1, x0:x1], keep * np.float32(1 / 255))
        img[y0:y1, x0:x1] = cv2.blendLinear(warped, under, alpha, 1.0 - alpha)
    return img


def _sheet(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    """One printed sheet, (h, w) px: newspaper, map or poster, with soft paper shading and grain."""
    r = rng.random()
    img = (
        _newsprint(rng, h, w, p, terrain)
        if r < 0.45
        else _map(rng, h, w, p, terrain)
        if r < 0.75
        else _poster(rng, h, w, p, terrain)
    )
    hq, wq, q = _work_res(h, w, p, 0.2, 100_000)
    cell = rng.uniform(80, 300) * q
    shade = _fit(1.0 + np.float32(rng.uniform(0.01, 0.04)) * smooth_noise(rng, (hq, wq), (cell, cell)), h, w)
    shade *= _fine_grain(rng, h, w, 0.03)
    return _apply_shade(img, shade)


def _text_rects(
    rng: np.random.Generator, x0: float, y0: float, width: float, n_lines: int, pitch: float, xh: float
) -> np.ndarray:
    """Words of a paragraph as dark dashes: (n, 4) rectangles x0, y0, x1, y1 in mm."""
    k = int(width / 2.5) + 2
    lens = rng.uniform(1.5, 12.0, (n_lines, k))
    gaps = rng.uniform(1.0, 2.2, (n_lines, k))
    ends = np.cumsum(lens + gaps, axis=1) - gaps
    limit = np.full((n_lines, 1), width)
    limit[-1] = width * rng.uniform(0.15, 0.9)  # the paragraph's last line stops short
    keep = ends <= limit
    rows = np.broadcast_to((y0 + np.arange(n_lines) * pitch)[:, None], ends.shape)
    return np.stack([x0 + (ends - lens)[keep], rows[keep], x0 + ends[keep], rows[keep] + xh], -1)


def _rect_polys(rects: np.ndarray, p: float) -> np.ndarray:
    """(n, 4) rectangles x0, y0, x1, y1 in mm -> (n, 4, 2) fixed-point polygons for cv2.fillPoly."""
    rects = np.asarray(rects, np.float64).reshape(-1, 4)
    pts = np.empty((len(rects), 4, 2))
    pts[:, :, 0] = rects[:, [0, 2, 2, 0]]
    pts[:, :, 1] = rects[:, [1, 1, 3, 3]]
    return _px(pts, p)


def _fill_rects(img: np.ndarray, rects: list, colour: np.ndarray, p: float) -> None:
    if rects:
        cv2.fillPoly(img, _rect_polys(np.concatenate(rects), p), _u8(colour), cv2.LINE_AA, _SHIFT)


_TEXT_PX = 6.0  # text lines closer than this (px) are drawn as their mean tone


def _text_tone(paper: np.ndarray, ink: np.ndarray, pitch: float, xh: float) -> np.ndarray:
    """The mean colour of text: used instead of dashes where lines are under ~6 px apart (dashes two
    pixels high would alias)."""
    return _towards(paper, ink, 0.75 * xh / pitch)


def _draw_text(
    img: np.ndarray,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
    p: float,
    ink: np.ndarray,
    paper: np.ndarray,
    pitch: float,
    xh: float,
) -> None:
    """Paragraphs of text filling box (x0, y0, x1, y1, mm)."""
    x0, y0, x1, y1 = box
    if pitch * p < _TEXT_PX:
        _fill_rects(img, [np.array([box])], _text_tone(paper, ink, pitch, xh), p)
        return
    rects = []
    y = y0
    while y < y1 - pitch:
        n = int(min(rng.integers(3, 25), (y1 - y) // pitch))
        if n <= 0:
            break
        rects.append(_text_rects(rng, x0, y, x1 - x0, n, pitch, xh))
        y += (n + rng.uniform(0.5, 1.5)) * pitch
    _fill_rects(img, rects, ink, p)


def _newsprint(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:  # coloured paper in a terrain's hue
        paper = _towards(_terrain_colour(rng), _WHITE, rng.uniform(0.0, 0.35))
    else:
        paper = _hsv_bgr(rng.uniform(30, 60), rng.uniform(0.0, 0.12), rng.uniform(0.78, 0.97))
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.25), rng.uniform(0.05, 0.22))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(paper, 0, 255).astype(np.uint8)
    W, H = w / p, h / p
    col_w, gutter = float(rng.uniform(35, 90)), float(rng.uniform(3, 8))
    pitch = float(rng.uniform(2.8, 5.0))
    xh = pitch * float(rng.uniform(0.35, 0.55))
    rule = bool(rng.random() < 0.5)
    flat = pitch * p < _TEXT_PX
    boxes, heads, text = [], [], []
    for cx in np.arange(rng.uniform(-col_w, 15), W, col_w + gutter):
        y = float(rng.uniform(-60, 15))
        while y < H:
            r = rng.random()
            if r < 0.1:  # headline: a few thick bars
                lh = float(rng.uniform(5, 12))
                n = int(rng.integers(1, 4))
                heads.append(_text_rects(rng, cx, y, col_w, n, lh, lh * 0.6))
                y += (n + 0.5) * lh
            elif r < 0.18:  # a photograph
                ph = float(rng.uniform(30, 100))
                boxes.append((cx, y, cx + col_w, y + ph))
                y += ph + pitch
            else:  # a paragraph
                n = int(rng.integers(3, 25))
                if flat:
                    text.append(np.array([[cx, y, cx + col_w, y + n * pitch]]))
                else:
                    text.append(_text_rects(rng, cx, y, col_w, n, pitch, xh))
                y += (n + float(rng.uniform(0.5, 1.5))) * pitch
        if rule:
            colour, thick = _line_ink(ink, paper, 0.25 * p)
            xr = _px(np.array([[cx + col_w + gutter / 2, -5.0], [cx + col_w + gutter / 2, H + 5]]), p)
            cv2.polylines(img, [xr], False, colour, thick, cv2.LINE_AA, _SHIFT)
    _fill_rects(img, text, _text_tone(paper, ink, pitch, xh) if flat else ink, p)
    _fill_rects(img, heads, ink, p)
    for x0, y0, x1, y1 in boxes:  # a printed photo: a blurry grey picture
        a, b = max(0, int(y0 * p)), min(h, int(y1 * p))
        c, d = max(0, int(x0 * p)), min(w, int(x1 * p))
        if b - a < 2 or d - c < 2:
            continue
        pic = np.clip(0.5 + 0.3 * smooth_noise(rng, (b - a, d - c), (8 * p, 8 * p)), 0, 1)
        img[a:b, c:d] = _blend(pic, ink, paper)
    return img


def _map(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    k = int(rng.integers(2, 6))
    if terrain:  # land and sea in the terrains' own colours
        colours = [_terrain_colour(rng) for _ in range(k)]
    else:  # pastel regions
        colours = [
            _towards(_any_colour(rng, (0.2, 0.8), (0.5, 0.95)), _WHITE, rng.uniform(0.2, 0.6))
            for _ in range(k)
        ]
    W, H = w / p, h / p
    hq, wq, q = _work_res(h, w, p, 0.5, 300_000)
    field = _fit(_fractal(rng, (hq, wq), q, (400, 150, 60, 25), (1.0, 0.5, 0.3, 0.15)), h, w)
    sample = field[:: max(1, h // 64), :: max(1, w // 64)]
    idx = np.zeros((h, w), np.uint8)
    for t in np.quantile(sample, np.sort(rng.uniform(0.1, 0.9, k - 1))):
        idx += field > t
    palette = np.stack(colours)
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.4), rng.uniform(0.1, 0.4))
    if rng.random() < 0.7:  # outlines of the regions (one pixel, faded where a pixel is wide)
        edge = cv2.morphologyEx(idx, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)) > 0
        a = np.float32(min(1.0, 0.4 * p) * rng.uniform(0.4, 0.9))
        palette = np.concatenate([palette, palette * (1 - a) + ink * a])  # region k's outline is k + n
        idx += edge.view(np.uint8) * np.uint8(k)
    lut = np.zeros((256, 3), np.uint8)
    lut[: len(palette)] = np.clip(palette, 0, 255)
    img = cv2.merge([cv2.LUT(idx, np.ascontiguousarray(lut[:, c])) for c in range(3)])
    if rng.random() < 0.4:  # a grid of the map's squares
        pitch = float(rng.uniform(50, 150))
        colour, thick = _line_ink(ink, colours[0], rng.uniform(0.2, 0.5) * p)
        cv2.polylines(
            img,
            _px(_square_grid(W, H, pitch, 0.0, rng.uniform(0, pitch, 2)), p),
            False,
            colour,
            thick,
            cv2.LINE_AA,
            _SHIFT,
        )
    for _ in range(int(rng.integers(2, 9))):  # roads and rivers
        n = int(rng.integers(20, 80))
        heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.25, n))
        steps = rng.uniform(5, 25, n)[:, None] * np.stack([np.cos(heading), np.sin(heading)], -1)
        path = rng.uniform(0, 1, 2) * (W, H) + np.cumsum(steps, 0)
        road = _hsv_bgr(float(rng.choice((0, 30, 55, 210))), rng.uniform(0.3, 0.9), rng.uniform(0.3, 0.95))
        if terrain:  # rivers and paths in the terrains' colours, so they stay the map's hues
            road = _companion(rng, colours[0], True)
        colour, thick = _line_ink(road, colours[0], rng.uniform(0.4, 2.5) * p)
        cv2.polylines(img, [_px(path, p)], False, colour, thick, cv2.LINE_AA, _SHIFT)
    labels = [
        _text_rects(rng, *rng.uniform(0, 1, 2) * (W, H), rng.uniform(10, 40), 1, 4.0, rng.uniform(1.5, 3))
        for _ in range(int(rng.integers(5, 30)))
    ]
    if p >= 1.5:  # place names, where they are a few pixels high
        cv2.fillPoly(img, _rect_polys(np.concatenate(labels), p), _u8(ink), cv2.LINE_AA, _SHIFT)
    return img


def _poster(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    bg = _main_colour(rng, terrain, (0.0, 0.9), (0.3, 0.97))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(bg, 0, 255).astype(np.uint8)
    W, H = w / p, h / p
    for _ in range(int(rng.integers(2, 9))):  # big coloured blocks and discs
        colour = _u8(_companion(rng, bg, terrain))
        c = rng.uniform(-0.1, 1.1, 2) * (W, H)
        size = rng.uniform(30, 300, 2)
        if rng.random() < 0.6:
            cv2.fillPoly(
                img,
                _rect_polys(np.array([[c[0], c[1], c[0] + size[0], c[1] + size[1]]]), p),
                colour,
                cv2.LINE_AA,
                _SHIFT,
            )
        else:
            cc = _px(c, p)
            cv2.circle(
                img, (int(cc[0]), int(cc[1])), int(size[0] / 2 * p * _ONE), colour, -1, cv2.LINE_AA, _SHIFT
            )
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.6), rng.uniform(0.05, 0.3))
    if _bgr_hsv(bg)[2] < 0.4:  # light text on a dark poster
        ink = _towards(bg, _WHITE, 0.85)
    x0 = float(rng.uniform(-50, W * 0.6))
    y0 = float(rng.uniform(-20, H * 0.5))
    lh = float(rng.uniform(10, 35))
    heads = _text_rects(rng, x0, y0, float(rng.uniform(100, 400)), int(rng.integers(1, 4)), lh, lh * 0.65)
    cv2.fillPoly(img, _rect_polys(heads, p), _u8(ink), cv2.LINE_AA, _SHIFT)
    pitch = float(rng.uniform(3.5, 6))
    top = y0 + 4 * lh
    _draw_text(
        img,
        rng,
        (x0, top, x0 + float(rng.uniform(60, 250)), top + float(rng.uniform(20, 150))),
        p,
        ink,
        bg,
        pitch,
        pitch * 0.45,
    )
    return img


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


_MAKERS = {
    "wood": _wood,
    "plain": _plain,
    "felt": _felt,
    "cloth": _cloth,
    "tablecloth": _tablecloth,
    "patterned": _patterned,
    "mat": _mat,
    "stone": _stone,
    "tiled": _tiled,
    "paper": _paper,
    "photo": _photo,
    "noise": _noise,
}

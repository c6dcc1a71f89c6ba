"""Procedural and photographic table surfaces for the photo simulator.

`draw_table(rng, shape, px_per_mm)` returns a BGR uint8 texture of any shape, seen straight from above
at the given resolution. Every kind is generated in mm units, so the same kind looks the same at any
resolution; detail finer than about two pixels fades to its mean instead of aliasing (the far side of a
tilted photo is rendered at a low px/mm).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

TABLE_KINDS: tuple[str, ...] = ("wood", "cloth", "patterned", "plain", "photo")

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


def draw_table(
    rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float, kind: str | None = None
) -> np.ndarray:
    """A table surface of `shape` (h, w) pixels at `px_per_mm`; `kind` is drawn from TABLE_KINDS if None."""
    if kind is None:
        kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    h, w = int(shape[0]), int(shape[1])
    if h <= 0 or w <= 0:
        raise ValueError(f"table shape must be positive, got {shape}")
    makers = {"wood": _wood, "cloth": _cloth, "patterned": _patterned, "plain": _plain, "photo": _photo}
    if kind not in makers:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {TABLE_KINDS}")
    out = makers[kind](rng, h, w, float(px_per_mm))
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


def _jitter_colour(rng: np.random.Generator, bgr: tuple[int, int, int], amount: float) -> np.ndarray:
    c = np.asarray(bgr, np.float32) * (1.0 + rng.uniform(-amount, amount, 3)).astype(np.float32)
    return c * float(rng.uniform(1.0 - amount, 1.0 + amount))


def _colourize(shade: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """shade (h, w) float multiplier (non-negative) times a BGR colour -> uint8 image."""
    shade = shade.astype(np.float32, copy=False)
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in colour])


def _fine_grain(rng: np.random.Generator, h: int, w: int, amount: float) -> np.ndarray:
    """Pixel-level multiplicative grain, cheap (uniform bytes)."""
    g = rng.integers(0, 256, (h, w), dtype=np.uint8).astype(np.float32)
    return cv2.addWeighted(g, amount / 128.0, g, 0.0, 1.0 - amount)


# ---------------------------------------------------------------------------------------------- wood


def _wood(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    along_y = bool(rng.random() < 0.5)
    if along_y:  # generate with planks along x, then transpose: structure code stays one-directional
        h, w = w, h
    plank_mm = float(rng.uniform(70, 200))
    period_mm = float(rng.uniform(2.0, 7.0))
    base = _jitter_colour(rng, _WOODS[int(rng.integers(len(_WOODS)))], 0.08)
    contrast = float(rng.uniform(0.12, 0.35))

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
    streak = smooth_noise(rng, (h, w), (0.35 * p, 25 * p))
    streak *= np.float32(0.05 * _fade(0.7 * p))
    streak += 1.0
    shade *= streak
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


# ---------------------------------------------------------------------------------------------- cloth


def _weave(rng: np.random.Generator, h: int, w: int, p: float, thread_mm: float) -> np.ndarray:
    """Plain weave shading around 1.0: threads over-under, with irregular (slubby) threads."""
    tp = thread_mm * p
    x = np.arange(w, dtype=np.float32) / tp
    y = np.arange(h, dtype=np.float32) / tp
    wobble_x = smooth_noise(rng, (1, w), (1, 30))[0] * 0.15
    wobble_y = smooth_noise(rng, (h, 1), (30, 1))[:, 0] * 0.15
    xs, ys = x + wobble_x, y + wobble_y
    vert = (0.5 + 0.5 * np.cos(2 * np.pi * xs))[None, :]  # vertical threads' profile
    horiz = (0.5 + 0.5 * np.cos(2 * np.pi * ys))[:, None]
    over = (np.floor(xs)[None, :] + np.floor(ys)[:, None]) % 2  # which thread is on top
    weave = np.where(over > 0, vert, horiz)
    slub_x = (1 + 0.08 * rng.standard_normal(w)).astype(np.float32)[None, :]
    slub_y = (1 + 0.08 * rng.standard_normal(h)).astype(np.float32)[:, None]
    slubs = np.where(over > 0, slub_x, slub_y)
    k = _fade(tp)
    return (1.0 + k * (0.22 * (weave - 0.5))) * (1.0 + min(1.0, k + 0.3) * (slubs - 1.0))


def _cloth_shading(rng: np.random.Generator, h: int, w: int, p: float, felt: bool) -> np.ndarray:
    if felt:
        shade = 1.0 + 0.06 * smooth_noise(rng, (h, w), (0.8 * p, 0.8 * p)) * _fade(1.6 * p)
    else:
        shade = _weave(rng, h, w, p, float(rng.uniform(0.35, 1.4)))
    folds = smooth_noise(rng, (h, w), (float(rng.uniform(60, 200)) * p, float(rng.uniform(60, 200)) * p))
    shade = shade * (1.0 + float(rng.uniform(0.02, 0.07)) * folds)
    return (shade * _fine_grain(rng, h, w, 0.04)).astype(np.float32)


def _cloth(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    base = _jitter_colour(rng, _CLOTHS[int(rng.integers(len(_CLOTHS)))], 0.1)
    return _colourize(_cloth_shading(rng, h, w, p, felt=bool(rng.random() < 0.35)), base)


def _patterned(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    light, dark = (_jitter_colour(rng, c, 0.06) for c in _PRINTS[int(rng.integers(len(_PRINTS)))])
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
        mix = np.zeros((h, w), np.float32)
        _flowers(rng, mix, p, period)
    shade = _cloth_shading(rng, h, w, p, felt=False)
    planes = []
    for lc, dc in zip(light, dark, strict=True):  # per channel: (light + (dark - light) * mix) * shade
        plane = mix * np.float32(dc - lc)
        plane += np.float32(lc)
        plane *= shade
        planes.append(cv2.convertScaleAbs(plane))
    return cv2.merge(planes)


def _flowers(rng: np.random.Generator, mix: np.ndarray, p: float, period: float) -> None:
    """Small dots and five-petal flowers on a jittered grid, drawn into `mix` (0 ground, 1 ink)."""
    h, w = mix.shape
    step = period * p
    r = float(rng.uniform(0.08, 0.2)) * step
    petals = bool(rng.random() < 0.6)
    shift = 4  # sub-pixel positions for cv2 drawing
    s = 1 << shift
    for gy in np.arange(-step, h + step, step):
        for gx in np.arange(-step, w + step, step):
            cx = gx + (0.5 * step if int(gy // step) % 2 else 0.0) + rng.normal(0, 0.08 * step)
            cy = gy + rng.normal(0, 0.08 * step)
            if petals:
                a0 = rng.uniform(0, 2 * np.pi)
                for k in range(5):
                    a = a0 + 2 * np.pi * k / 5
                    px, py = cx + 1.1 * r * np.cos(a), cy + 1.1 * r * np.sin(a)
                    cv2.circle(mix, (int(px * s), int(py * s)), int(0.7 * r * s), 1.0, -1, cv2.LINE_AA, shift)
                cv2.circle(mix, (int(cx * s), int(cy * s)), int(0.5 * r * s), 0.45, -1, cv2.LINE_AA, shift)
            else:
                cv2.circle(mix, (int(cx * s), int(cy * s)), int(r * s), 1.0, -1, cv2.LINE_AA, shift)


# ---------------------------------------------------------------------------------------------- plain


def _plain(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
    base = _jitter_colour(rng, _PLAINS[int(rng.integers(len(_PLAINS)))], 0.06)
    shade = 1.0 + 0.01 * smooth_noise(rng, (h, w), (150 * p, 150 * p))
    shade += 0.006 * smooth_noise(rng, (h, w), (4 * p, 4 * p))
    if rng.random() < 0.5:  # laminate speckle
        speck = smooth_noise(rng, (h, w), (0.6 * p, 0.6 * p)) * _fade(1.2 * p)
        shade += 0.03 * np.clip(speck - 1.2, 0, None)
    shade = shade * _fine_grain(rng, h, w, 0.025)
    return _colourize(shade.astype(np.float32), base)


# ---------------------------------------------------------------------------------------------- photographs

# (name, tiling, mm per source pixel range). Only images bundled with scikit-image that load without a
# download (no pooch). Brick is regular, so it is mirror-tiled; the stochastic ones (grass, gravel, the
# moon's surface as pitted stone) are splatted from random patches, which hides any repeat. The coffee and
# chelsea photos were tried: their wood/fur patches are too small to tile without obvious repeats.
_PHOTOS: tuple[tuple[str, str, tuple[float, float]], ...] = (
    ("brick", "mirror", (0.35, 1.0)),
    ("grass", "splat", (0.25, 0.6)),
    ("gravel", "splat", (0.15, 0.45)),
    ("moon", "splat", (0.12, 0.4)),
)


@functools.cache
def _photo_source(name: str) -> np.ndarray:
    """A bundled scikit-image photo as grey uint8 (all the usable ones are grey)."""
    from skimage import data  # local import: only this table kind needs scikit-image

    img = np.asarray(getattr(data, name)())
    if img.ndim == 3:
        img = cv2.cvtColor(np.ascontiguousarray(img[..., :3]), cv2.COLOR_RGB2GRAY)
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
    win = np.outer(ramp, ramp)
    acc = np.zeros((h + patch, w + patch), np.float32)
    wsum = np.full((h + patch, w + patch), 1e-6, np.float32)
    sh, sw = src.shape
    for y in range(0, h + 1, step):
        for x in range(0, w + 1, step):
            sy, sx = int(rng.integers(sh - patch + 1)), int(rng.integers(sw - patch + 1))
            tile = np.rot90(src[sy : sy + patch, sx : sx + patch], int(rng.integers(4)))
            if rng.random() < 0.5:
                tile = tile[:, ::-1]
            acc[y : y + patch, x : x + patch] += tile * win
            wsum[y : y + patch, x : x + patch] += win
    return (acc / wsum)[:h, :w]


def _photo(rng: np.random.Generator, h: int, w: int, p: float) -> np.ndarray:
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
    light = _jitter_colour(rng, _PLAINS[int(rng.integers(len(_PLAINS)))], 0.1)
    img = dark[None, None, :] + t[..., None] * (light - dark)[None, None, :]
    return cv2.convertScaleAbs(cv2.max(img.astype(np.float32), 0.0))

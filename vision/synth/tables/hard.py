"""Hard table surfaces: wood planks, plain laminate, stone (marble, granite, slate) and ceramic
or stone tiles."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.tables.common import (
    _CERAMICS,
    _PLAINS,
    _WHITE,
    _WOODS,
    _any_colour,
    _apply_shade,
    _axes_mm,
    _bgr_hsv,
    _blend,
    _colourize,
    _companion,
    _detail,
    _fade,
    _fine_grain,
    _fit,
    _fractal,
    _hsv_bgr,
    _jitter_colour,
    _terrain_colour,
    _towards,
    _work_res,
    smooth_noise,
)

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

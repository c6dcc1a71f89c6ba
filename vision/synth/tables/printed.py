"""Printed table surfaces: gingham, stripes, dots and flowers, and neoprene game mats."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.tables.common import (
    _ONE,
    _PRINTS,
    _SHIFT,
    _WHITE,
    _any_colour,
    _apply_shade,
    _axes_mm,
    _blend,
    _cloth_shading,
    _companion,
    _curve,
    _detail,
    _fine_grain,
    _fit,
    _jitter_colour,
    _line_ink,
    _main_colour,
    _place,
    _px,
    _square_grid,
    _terrain_colour,
    _towards,
    _u8,
    _work_res,
)

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

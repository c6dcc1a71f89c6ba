"""Procedural art for scorecam's print-and-play Snorkeling edition (see catalogs/snorkeling.json).

Cards are 63 x 88 mm: a frame in the card's colour and that colour's own pattern, the value as a
large numeral with the colour's symbol in two opposite corners (readable from either side of the
table), and a picture of the value's animal in the card's colour. Diver mats are 90 x 125 mm: a
header with the mat's number in both corners, and the place the pile lies on. Everything is drawn
in millimetres, so any resolution renders the same design; colours are the Okabe-Ito palette and
every colour also has a pattern and a symbol, so no information rests on hue alone.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.catalogs import load_catalog

DEFAULT_PX_PER_MM = 300 / 25.4
BGR = tuple[int, int, int]
_SHIFT = 4
_ONE = 1 << _SHIFT
_AA = cv2.LINE_AA

INK = (61, 33, 20)  # #14213d, navy ink
PAPER = (240, 248, 251)  # warm white
WHITE = (255, 255, 255)
WATER_TOP, WATER_BOTTOM = (246, 230, 190), (224, 190, 120)  # light sea, BGR
DEEP_TOP, DEEP_BOTTOM = (92, 48, 22), (50, 22, 10)
SAND, SKY = (140, 205, 236), (250, 232, 196)
GLOW = (90, 230, 255)


def hex_bgr(code: str) -> BGR:
    r, g, b = (int(code[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


def _luma(colour: BGR) -> float:
    b, g, r = colour
    return (0.114 * b + 0.587 * g + 0.299 * r) / 255


def pattern_colour(base: BGR) -> BGR:
    """The pattern's ink on a colour: darker on a light colour, lighter on a dark one."""
    if _luma(base) > 0.55:
        return tuple(int(c * 0.55) for c in base)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * 0.5) for c in base)  # type: ignore[return-value]


class Canvas:
    """A BGR image drawn on in millimetres (x right, y down), with sub-pixel anti-aliased shapes."""

    def __init__(self, w_mm: float, h_mm: float, px_per_mm: float, colour: BGR = PAPER) -> None:
        self.k = px_per_mm
        self.w_mm, self.h_mm = w_mm, h_mm
        self.img = np.empty((round(h_mm * px_per_mm), round(w_mm * px_per_mm), 3), np.uint8)
        self.img[:] = colour

    def px(self, points) -> np.ndarray:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        return np.round(p * self.k * _ONE).astype(np.int32)

    def poly(self, points, colour: BGR, outline: float = 0.0, outline_colour: BGR = INK) -> None:
        pts = self.px(points)
        cv2.fillPoly(self.img, [pts], colour, _AA, _SHIFT)
        if outline > 0:
            cv2.polylines(self.img, [pts], True, outline_colour, max(1, round(outline * self.k)), _AA, _SHIFT)

    def line(self, points, colour: BGR, width: float, closed: bool = False) -> None:
        cv2.polylines(self.img, [self.px(points)], closed, colour, max(1, round(width * self.k)), _AA, _SHIFT)

    def disc(self, x: float, y: float, r: float, colour: BGR, outline: float = 0.0) -> None:
        self.poly(ellipse(x, y, r, r), colour, outline)

    def text(
        self,
        text: str,
        cx: float,
        cy: float,
        height: float,
        colour: BGR,
        weight: float = 0.14,
        width: float = 0,
    ) -> None:
        """``text`` centred on (cx, cy), its capitals ``height`` mm tall (smaller if needed to keep
        within ``width`` mm), in a bold Hershey face."""
        font = cv2.FONT_HERSHEY_DUPLEX
        (w1, base), _ = cv2.getTextSize(text, font, 1.0, 1)
        if width:
            height = min(height, width * base / w1)
        scale = height * self.k / base
        thick = max(1, round(weight * height * self.k))
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        org = (round(cx * self.k - w / 2), round(cy * self.k + h / 2))
        cv2.putText(self.img, text, org, font, scale, colour, thick, _AA)

    def gradient(self, x0: float, y0: float, x1: float, y1: float, top: BGR, bottom: BGR) -> None:
        a, b = round(y0 * self.k), round(y1 * self.k)
        t = np.linspace(0, 1, max(1, b - a))[:, None]
        rows = (np.array(top) * (1 - t) + np.array(bottom) * t).astype(np.uint8)
        self.img[a:b, round(x0 * self.k) : round(x1 * self.k)] = rows[:, None, :]

    def rotated(self) -> None:
        """Turn the drawing half a turn: what is drawn next lands in the opposite corner, upside down."""
        self.img = np.ascontiguousarray(self.img[::-1, ::-1])


def ellipse(x: float, y: float, rx: float, ry: float, angle: float = 0.0, n: int = 48, a0=0.0, a1=2 * np.pi):
    t = np.linspace(a0, a1, n, endpoint=(a1 - a0) < 2 * np.pi - 1e-9)
    c, s = np.cos(angle), np.sin(angle)
    ex, ey = rx * np.cos(t), ry * np.sin(t)
    return np.stack([x + ex * c - ey * s, y + ex * s + ey * c], axis=1)


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    corners = (
        (x1 - r, y0 + r, -np.pi / 2),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, np.pi / 2),
        (x0 + r, y0 + r, np.pi),
    )
    return np.concatenate([ellipse(cx, cy, r, r, n=8, a0=a, a1=a + np.pi / 2) for cx, cy, a in corners])


def star(
    x: float, y: float, r_out: float, r_in: float, arms: int = 5, turn: float = -np.pi / 2
) -> np.ndarray:
    t = turn + np.arange(2 * arms) * np.pi / arms
    r = np.where(np.arange(2 * arms) % 2 == 0, r_out, r_in)
    return np.stack([x + r * np.cos(t), y + r * np.sin(t)], axis=1)


# ---------------------------------------------------------------------------- patterns


def fill_pattern(canvas: Canvas, mask: np.ndarray, base: BGR, pattern: str, step: float = 3.2) -> None:
    """Fill ``mask`` (image-sized, bool) with ``base`` and the colour's pattern drawn over it."""
    tile = pattern_tile(base, pattern, canvas.k, step)
    h, w = canvas.img.shape[:2]
    reps = (-(-h // tile.shape[0]), -(-w // tile.shape[1]), 1)
    np.copyto(canvas.img, np.tile(tile, reps)[:h, :w], where=mask[..., None])


@lru_cache(maxsize=64)
def pattern_tile(base: BGR, pattern: str, px_per_mm: float, step: float) -> np.ndarray:
    """One repeat of a pattern, two periods square: every pattern repeats after ``u`` across and
    ``2u`` down, ``u`` being ``step`` mm rounded to whole pixels, so tiles join without a seam."""
    period = max(4, round(step * px_per_mm))
    u = period / px_per_mm
    layer = Canvas(4 * u, 4 * u, px_per_mm, base)  # drawn two periods wider each way, then cut
    ink = pattern_colour(base)
    span = np.arange(-u, 5 * u + 1e-9, u)
    if pattern == "stripes":
        for x in np.arange(-5 * u, 5 * u + 1e-9, u):
            layer.line([(x, -u), (x + 6 * u, 5 * u)], ink, u * 0.3)
    elif pattern == "dots":
        for row, y in enumerate(span):
            for x in span:
                layer.disc(x + (row % 2) * u / 2, y, u * 0.2, ink)
    elif pattern == "waves":
        xs = np.linspace(-u, 5 * u, 96)
        for y in span:
            layer.line(np.stack([xs, y + 0.18 * u * np.sin(xs / u * 2 * np.pi)], axis=1), ink, u * 0.22)
    elif pattern == "checks":
        side = u / 2
        for i, y in enumerate(np.arange(-u, 5 * u, side)):
            for j, x in enumerate(np.arange(-u, 5 * u, side)):
                if (i + j) % 2:
                    layer.poly([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], ink)
    elif pattern == "zigzag":
        xs = np.arange(-u, 5 * u + 1e-9, u / 2)
        for y in span:
            ys = y + np.where(np.arange(len(xs)) % 2 == 0, -0.22 * u, 0.22 * u)
            layer.line(np.stack([xs, ys], axis=1), ink, u * 0.22)
    elif pattern == "sparks":
        for row, y in enumerate(span):
            for x in span:
                layer.poly(star(x + (row % 2) * u / 2, y, u * 0.3, u * 0.09, 4, 0), ink)
    else:
        raise ValueError(f"unknown pattern {pattern!r}")
    return np.ascontiguousarray(layer.img[period : 3 * period, period : 3 * period])


def frame_mask(canvas: Canvas, width: float, inner_radius: float = 3.0) -> np.ndarray:
    """The band ``width`` mm wide round the edge (its inner corners rounded)."""
    mask = np.ones(canvas.img.shape[:2], np.uint8)
    inner = rounded_rect(width, width, canvas.w_mm - width, canvas.h_mm - width, inner_radius)
    cv2.fillPoly(mask, [canvas.px(inner)], 0, _AA, _SHIFT)
    return mask.astype(bool)


# ---------------------------------------------------------------------------- symbols


def draw_symbol(canvas: Canvas, symbol: str, x: float, y: float, r: float, colour: BGR) -> None:
    """The colour's symbol, filled with the colour and outlined in ink."""
    line = max(0.25, r * 0.14)
    if symbol == "triangle":
        canvas.poly([(x, y - r), (x + r * 0.95, y + r * 0.75), (x - r * 0.95, y + r * 0.75)], colour, line)
    elif symbol == "circle":
        canvas.disc(x, y, r * 0.9, colour, line)
    elif symbol == "square":
        s = r * 0.8
        canvas.poly([(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)], colour, line)
    elif symbol == "diamond":
        canvas.poly([(x, y - r), (x + r * 0.8, y), (x, y + r), (x - r * 0.8, y)], colour, line)
    elif symbol == "star":
        canvas.poly(star(x, y, r, r * 0.45), colour, line)
    elif symbol == "lantern":
        canvas.disc(x, y, r * 0.95, (120, 240, 255), 0)
        canvas.disc(x, y, r * 0.55, GLOW, line)
    else:
        raise ValueError(f"unknown symbol {symbol!r}")


# ---------------------------------------------------------------------------- animals
# Each drawer paints into the box (x0, y0, size) in mm, the animal's body in ``colour``.


def _outline(size: float) -> float:
    return max(0.3, size * 0.018)


def draw_beach(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A beach: sky, sun, sea line and sand, and a crab on the sand in the card's colour."""
    c.poly([(x0, y0), (x0 + s, y0), (x0 + s, y0 + s * 0.45), (x0, y0 + s * 0.45)], SKY)
    c.disc(x0 + s * 0.78, y0 + s * 0.2, s * 0.1, (80, 215, 255))
    xs = np.linspace(x0, x0 + s, 40)
    sea = np.stack([xs, y0 + s * 0.45 + s * 0.02 * np.sin(xs * 1.3)], axis=1)
    c.poly(np.concatenate([sea, [(x0 + s, y0 + s * 0.58), (x0, y0 + s * 0.58)]]), (200, 150, 60))
    c.poly([(x0, y0 + s * 0.58), (x0 + s, y0 + s * 0.52), (x0 + s, y0 + s), (x0, y0 + s)], SAND)
    cx, cy, r = x0 + s * 0.5, y0 + s * 0.76, s * 0.16
    o = _outline(s)
    for side in (-1, 1):
        for k in range(3):
            leg = [
                (cx + side * r * 0.7, cy + k * r * 0.25 - r * 0.1),
                (cx + side * r * 1.35, cy + k * r * 0.35),
            ]
            c.line(leg, INK, o * 2.2)
        c.line([(cx + side * r * 0.6, cy - r * 0.5), (cx + side * r * 1.0, cy - r * 1.2)], INK, o * 2.2)
        c.poly(ellipse(cx + side * r * 1.05, cy - r * 1.35, r * 0.38, r * 0.26, angle=side * 0.6), colour, o)
    c.poly(ellipse(cx, cy, r, r * 0.68), colour, o)
    for side in (-1, 1):
        c.disc(cx + side * r * 0.35, cy - r * 0.75, r * 0.14, WHITE, o * 0.8)
        c.disc(cx + side * r * 0.35, cy - r * 0.75, r * 0.06, INK)


def draw_coral(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A branching coral growing from the sea floor."""
    floor = y0 + s * 0.9
    c.poly([(x0, floor), (x0 + s, floor - s * 0.03), (x0 + s, y0 + s), (x0, y0 + s)], SAND)

    def branch(x: float, y: float, angle: float, length: float, width: float, depth: int) -> None:
        x1, y1 = x + length * np.cos(angle), y + length * np.sin(angle)
        c.line([(x, y), (x1, y1)], INK, width + _outline(s) * 2)
        c.line([(x, y), (x1, y1)], colour, width)
        if depth == 0:
            c.disc(x1, y1, width * 0.65, colour, _outline(s))
            return
        for turn in (-0.45, 0.4):
            branch(x1, y1, angle + turn, length * 0.72, width * 0.72, depth - 1)

    branch(x0 + s * 0.5, floor, -np.pi / 2, s * 0.28, s * 0.09, 3)


def draw_seahorse(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A seahorse: a chain of discs along an S, a snout, a fin and a curled tail."""
    o = _outline(s)
    t = np.linspace(0, 1, 18)
    xs = x0 + s * (0.5 + 0.13 * np.sin(t * 2.6 * np.pi + 0.3))
    ys = y0 + s * (0.2 + 0.6 * t)
    radii = s * (0.11 - 0.07 * t)
    c.poly(
        [(xs[4] + s * 0.05, ys[4]), (xs[4] + s * 0.2, ys[6]), (xs[4] + s * 0.06, ys[8])],
        pattern_colour(colour),
        o,
    )
    for x, y, r in zip(xs, ys, radii, strict=True):
        c.disc(x, y, r + o, INK)
    for x, y, r in zip(xs, ys, radii, strict=True):
        c.disc(x, y, r, colour)
    tail = ellipse(xs[-1] + s * 0.07, ys[-1], s * 0.07, s * 0.07, a0=np.pi, a1=2.7 * np.pi, n=20)
    c.line(tail, INK, s * 0.045 + 2 * o)
    c.line(tail, colour, s * 0.045)
    hx, hy = xs[0], ys[0]
    c.poly(
        [
            (hx - s * 0.02, hy - s * 0.04),
            (hx - s * 0.26, hy + s * 0.0),
            (hx - s * 0.26, hy + s * 0.06),
            (hx - s * 0.02, hy + s * 0.07),
        ],
        colour,
        o,
    )
    c.disc(hx, hy - s * 0.01, s * 0.11, colour, o)
    c.poly([(hx, hy - s * 0.11), (hx + s * 0.05, hy - s * 0.2), (hx + s * 0.08, hy - s * 0.08)], colour, o)
    c.disc(hx - s * 0.02, hy - s * 0.02, s * 0.03, WHITE, o)
    c.disc(hx - s * 0.025, hy - s * 0.02, s * 0.013, INK)


def draw_turtle(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A sea turtle from above: flippers, head and a shell of plates."""
    o = _outline(s)
    cx, cy = x0 + s * 0.5, y0 + s * 0.55
    skin = (150, 200, 170)
    for side in (-1, 1):
        c.poly(ellipse(cx + side * s * 0.3, cy - s * 0.14, s * 0.2, s * 0.07, angle=side * -0.5), skin, o)
        c.poly(ellipse(cx + side * s * 0.2, cy + s * 0.24, s * 0.11, s * 0.05, angle=side * 0.7), skin, o)
    c.poly(ellipse(cx, cy - s * 0.34, s * 0.085, s * 0.11), skin, o)
    for side in (-1, 1):
        c.disc(cx + side * s * 0.04, cy - s * 0.38, s * 0.015, INK)
    c.poly(ellipse(cx, cy, s * 0.25, s * 0.3), colour, o)
    ink = pattern_colour(colour)
    c.poly(ellipse(cx, cy, s * 0.1, s * 0.1, n=6, angle=np.pi / 6), ink)
    for k in range(6):
        a = k * np.pi / 3 + np.pi / 6
        c.line(
            [
                (cx + s * 0.1 * np.cos(a), cy + s * 0.1 * np.sin(a)),
                (cx + s * 0.23 * np.cos(a), cy + s * 0.27 * np.sin(a)),
            ],
            ink,
            o * 1.6,
        )


def draw_ray(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A ray: a wide diamond of wings, a long tail, eyes on top."""
    o = _outline(s)
    cx, cy = x0 + s * 0.5, y0 + s * 0.42
    tail = [(cx, cy + s * 0.2), (cx + s * 0.08, cy + s * 0.4), (cx + s * 0.02, cy + s * 0.55)]
    c.line(tail, INK, s * 0.03 + 2 * o)
    c.line(tail, colour, s * 0.03)
    wing = [
        (cx, cy - s * 0.25),
        (cx + s * 0.22, cy - s * 0.08),
        (cx + s * 0.46, cy + s * 0.02),
        (cx + s * 0.2, cy + s * 0.12),
        (cx, cy + s * 0.24),
        (cx - s * 0.2, cy + s * 0.12),
        (cx - s * 0.46, cy + s * 0.02),
        (cx - s * 0.22, cy - s * 0.08),
    ]
    c.poly(wing, colour, o)
    for side in (-1, 1):
        c.disc(cx + side * s * 0.06, cy - s * 0.1, s * 0.03, WHITE, o)
        c.disc(cx + side * s * 0.06, cy - s * 0.1, s * 0.013, INK)


def draw_lanternfish(c: Canvas, x0: float, y0: float, s: float, colour: BGR) -> None:
    """A lanternfish in the deep: a dark fish with glowing spots and a lure that shines."""
    o = _outline(s)
    cx, cy = x0 + s * 0.45, y0 + s * 0.58
    body = (170, 130, 90)
    c.disc(x0 + s * 0.72, y0 + s * 0.22, s * 0.12, (110, 235, 255))
    c.poly(
        [(cx + s * 0.28, cy), (cx + s * 0.45, cy - s * 0.14), (cx + s * 0.45, cy + s * 0.14)], body, o, GLOW
    )
    c.poly(ellipse(cx, cy, s * 0.3, s * 0.17), body, o, GLOW)
    lure = [(cx - s * 0.2, cy - s * 0.14), (cx - s * 0.05, cy - s * 0.38), (cx + s * 0.2, cy - s * 0.36)]
    c.line(lure, GLOW, o * 2)
    c.disc(x0 + s * 0.72, y0 + s * 0.22, s * 0.06, GLOW)
    for k in range(5):
        c.disc(cx - s * 0.12 + k * s * 0.07, cy + s * 0.08, s * 0.02, GLOW)
    c.disc(cx - s * 0.17, cy - s * 0.04, s * 0.05, WHITE, o)
    c.disc(cx - s * 0.18, cy - s * 0.04, s * 0.025, INK)
    c.line(ellipse(cx - s * 0.26, cy + s * 0.05, s * 0.04, s * 0.03, a0=0.2, a1=2.2, n=8), INK, o)


ANIMALS = {0: draw_beach, 1: draw_coral, 2: draw_seahorse, 3: draw_turtle, 4: draw_ray, 5: draw_lanternfish}


# ---------------------------------------------------------------------------- faces


def _look(color: str | None) -> dict:
    catalog = _catalog()
    return catalog["colors"][color] if color else catalog["lanternfish"]


@lru_cache(maxsize=1)
def _catalog() -> dict:
    return load_catalog("snorkeling")


FRAME_MM = 4.5
CORNER = (11.0, 13.5)  # where the corner numeral's centre lies, from the top left


def _corner(c: Canvas, value: int, look: dict, colour: BGR) -> None:
    x, y = CORNER
    c.poly(rounded_rect(FRAME_MM + 0.8, FRAME_MM + 0.8, FRAME_MM + 13.2, FRAME_MM + 25.0, 2.5), WHITE, 0.3)
    c.text(str(value), x, y, 11.0, INK, 0.16)
    draw_symbol(c, look["symbol"], x, y + 11.8, 3.4, colour)


@lru_cache(maxsize=64)
def render_card_front(value: int, color: str | None, px_per_mm: float) -> np.ndarray:
    look = _look(color)
    colour = hex_bgr(look["hex"])
    w, h = _catalog()["card_mm"]
    deep = color is None
    c = Canvas(w, h, px_per_mm, DEEP_BOTTOM if deep else PAPER)
    fill_pattern(c, frame_mask(c, FRAME_MM), colour, look["pattern"])
    # the picture, in a panel between the two corners
    size, y0 = 35.0, 21.0
    x0 = (w - size) / 2
    panel = rounded_rect(x0 - 1.5, y0 - 1.5, x0 + size + 1.5, y0 + size * 1.25 + 1.5, 3.0)
    mask = np.zeros(c.img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [c.px(panel)], 1, _AA, _SHIFT)
    if deep:
        c.gradient(0, 0, w, h, DEEP_TOP, DEEP_BOTTOM)
        fill_pattern(c, frame_mask(c, FRAME_MM), colour, look["pattern"])
    else:
        c.gradient(x0 - 1.5, y0 - 1.5, x0 + size + 1.5, y0 + size * 1.25 + 1.5, WATER_TOP, WATER_BOTTOM)
        outside = ~mask.astype(bool) & ~frame_mask(c, FRAME_MM)
        c.img[outside] = PAPER
    ANIMALS[value](c, x0, y0 + size * 0.15, size, GLOW if deep else colour)
    c.line(panel, INK if not deep else GLOW, 0.35, closed=True)
    # corners: the numeral, the colour's symbol and the name, the same upside down opposite
    name = _catalog_name(value).upper()
    for _ in range(2):
        _corner(c, value, look, colour)
        c.text(name, (FRAME_MM + 13.2 + w - FRAME_MM) / 2, 12.0, 4.0, GLOW if deep else INK, 0.13, width=36)
        c.rotated()
    c.img.flags.writeable = False
    return c.img


def _catalog_name(value: int) -> str:
    from scoring.snorkeling import NAMES

    return NAMES[value]


@lru_cache(maxsize=4)
def render_card_back(px_per_mm: float) -> np.ndarray:
    """The common back: deep water, waves, a diver's mask and the game's name, the same either way up."""
    w, h = _catalog()["card_mm"]
    c = Canvas(w, h, px_per_mm)
    c.gradient(0, 0, w, h / 2, DEEP_BOTTOM, DEEP_TOP)
    c.gradient(0, h / 2, w, h, DEEP_TOP, DEEP_BOTTOM)
    xs = np.linspace(3, w - 3, 80)
    for y in np.arange(8, h - 5, 6):
        c.line(np.stack([xs, y + 1.0 * np.sin(xs / 5)], axis=1), (150, 110, 60), 0.7)
    c.line(rounded_rect(3, 3, w - 3, h - 3, 4), GLOW, 0.8, closed=True)
    cx, cy = w / 2, h / 2
    c.poly(ellipse(cx, cy, 17, 11), (230, 180, 80), 0.6, GLOW)
    for side in (-1, 1):
        c.poly(ellipse(cx + side * 7.5, cy, 6.2, 5.6), (250, 230, 190), 0.6)
    c.text("SNORKELING", cx, cy - 20, 4.4, GLOW, 0.13)
    c.rotated()
    c.text("SNORKELING", cx, cy - 20, 4.4, GLOW, 0.13)
    c.rotated()
    c.img.flags.writeable = False
    return c.img


MAT_HEADER_MM = 27.0


@lru_cache(maxsize=16)
def render_mat(mat: int, back: bool, px_per_mm: float) -> np.ndarray:
    look = _catalog()["mats"][str(mat)]
    colour = hex_bgr(look["hex"])
    w, h = _catalog()["mat_mm"]
    cw, ch = _catalog()["card_mm"]
    c = Canvas(w, h, px_per_mm, colour)
    fill_pattern(c, np.ones(c.img.shape[:2], bool), colour, look["pattern"], step=4.5)
    if back:
        c.disc(w / 2, h / 2, 24, WHITE, 0.8)
        c.text(str(mat), w / 2, h / 2, 26, INK, 0.17)
        c.img.flags.writeable = False
        return c.img
    # header: the mat's number large in both corners and the word DIVER between
    c.poly(rounded_rect(3, 3, w - 3, MAT_HEADER_MM, 4), WHITE, 0.6)
    for x in (14.0, w - 14.0):
        c.disc(x, (3 + MAT_HEADER_MM) / 2, 10.2, colour, 0.6)
        c.text(str(mat), x, (3 + MAT_HEADER_MM) / 2, 12.5, INK if _luma(colour) > 0.45 else WHITE, 0.17)
    c.text("DIVER", w / 2, 11.0, 5.5, INK, 0.14)
    mask_y = 20.0
    c.poly(ellipse(w / 2, mask_y, 9.5, 4.8), colour, 0.5)
    for side in (-1, 1):
        c.poly(ellipse(w / 2 + side * 4.2, mask_y, 3.5, 3.2), (250, 230, 190), 0.4)
    # where the pile lies: the card's outline, 2 mm larger, on a lighter ground
    x0, y0 = (w - cw) / 2 - 2, MAT_HEADER_MM + 2.5
    spot = rounded_rect(x0, y0, x0 + cw + 4, y0 + ch + 4, 3)
    lighter = tuple(int(v + (255 - v) * 0.55) for v in colour)
    c.poly(spot, lighter)
    c.line(spot, INK, 0.5, closed=True)
    c.text(str(mat), w / 2, y0 + (ch + 4) / 2, 30, pattern_colour(lighter), 0.15)
    c.img.flags.writeable = False
    return c.img


def render_snorkeling_face(component: dict, face: str, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """One face ('front' or 'back') of a catalog component as BGR, upright, at ``px_per_mm``."""
    data = component["faces"][face]
    kind = data["kind"]
    if kind == "card":
        image = render_card_front(int(data["value"]), data["color"], float(px_per_mm))
    elif kind == "card-back":
        image = render_card_back(float(px_per_mm))
    elif kind in ("mat", "mat-back"):
        image = render_mat(int(data["mat"]), kind == "mat-back", float(px_per_mm))
    else:
        raise ValueError(f"unknown face kind {kind!r}")
    return image.copy()

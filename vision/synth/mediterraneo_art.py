"""Procedural art for scorecam's print-and-play Mediterráneo cards (see catalogs/mediterraneo.json).

A card is 60 x 90 mm, portrait, 2 columns x 3 rows of 30 mm cells. Every face is drawn from
shapes in *cell units* (a cell is 1 x 1, origin at its centre, x right, y down), so the same
drawing serves any resolution. The art is made for a small CNN that reads cells from phone
photos as much as for people: each content has its own flat body colour at a distinct hue
(read back by ``dominant_cell_content_colour``), a bold silhouette, and octopuses whose whole
mass (tentacles and an arrowhead) leans towards the side they point at.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

CARD_MM: tuple[int, int] = (60, 90)
CELL_MM = 30
CELLS: tuple[int, int] = (2, 3)
DEFAULT_PX_PER_MM = 11.811  # 300 dpi
SPECIES: tuple[str, ...] = ("fish", "ray", "turtle", "starfish", "jellyfish", "crab")
DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")

BGR = tuple[int, int, int]


def _hex(code: str) -> BGR:
    """'#rrggbb' as an OpenCV BGR triple."""
    r, g, b = (int(code[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


# Flat body colour of each cell content: the colour a reader can key on. Hues are spread round
# the wheel away from the sea's blue; starfish and crab share red but differ strongly in lightness.
CONTENT_COLOURS: dict[str, BGR] = {
    "fish": _hex("#ff8c1a"),
    "ray": _hex("#9d88b8"),
    "turtle": _hex("#3fae45"),
    "starfish": _hex("#ef3b36"),
    "jellyfish": _hex("#ff86d0"),
    "crab": _hex("#8e1b24"),
    "octopus": _hex("#ffd425"),
    "seagull": _hex("#ffffff"),
}
# Circle frames white, square frames ink-navy: yellow would have been the obvious second frame
# colour, but it is the one free hue between orange and green and the octopus needs it.
FRAME_COLOURS: dict[str, BGR] = {"circle": _hex("#ffffff"), "square": _hex("#14213d")}
INK = _hex("#14213d")
WHITE = _hex("#ffffff")
SEA_TOP, SEA_BOTTOM = _hex("#2f86c4"), _hex("#1c5f99")
SKY_TOP, SKY_BOTTOM = _hex("#bfe6fb"), _hex("#8ccbef")
PARCHMENT = _hex("#f1e3bf")

_AA = cv2.LINE_AA
_SHIFT = 4  # sub-pixel bits for OpenCV drawing
_ONE = 1 << _SHIFT


# ---------------------------------------------------------------- placing shapes on the image


@dataclass(frozen=True)
class Place:
    """Where a cell lies in the image: centre and side in pixels, turned clockwise by quarter turns."""

    cx: float
    cy: float
    size: float
    turns: int = 0

    def px(self, points: np.ndarray) -> np.ndarray:
        """Cell-unit points as fixed-point pixel coordinates for OpenCV (shift = _SHIFT)."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        for _ in range(self.turns % 4):
            p = np.stack([-p[:, 1], p[:, 0]], axis=1)  # a quarter turn clockwise (y points down)
        out = (p * self.size + (self.cx, self.cy)) * _ONE
        return np.round(out).astype(np.int32)

    def width(self, w: float) -> int:
        return max(1, round(w * self.size))

    def scaled(self, k: float) -> Place:
        return Place(self.cx, self.cy, self.size * k, self.turns)


def _fill(img: np.ndarray, at: Place, points: np.ndarray, colour: BGR, outline: float = 0.0) -> None:
    pts = at.px(points)
    cv2.fillPoly(img, [pts], colour, _AA, _SHIFT)
    if outline * at.size >= 0.8:  # outlines thinner than a pixel only muddy small renders
        cv2.polylines(img, [pts], True, INK, at.width(outline), _AA, _SHIFT)


def _stroke(
    img: np.ndarray, at: Place, points: np.ndarray, colour: BGR, w: float, closed: bool = False
) -> None:
    cv2.polylines(img, [at.px(points)], closed, colour, at.width(w), _AA, _SHIFT)


def _dot(img: np.ndarray, at: Place, x: float, y: float, r: float, colour: BGR) -> None:
    _fill(img, at, _ellipse(x, y, r, r, n=24), colour)


# ---------------------------------------------------------------- shape primitives (cell units)


def _ellipse(
    x: float,
    y: float,
    rx: float,
    ry: float,
    angle: float = 0.0,
    n: int = 64,
    a0: float = 0.0,
    a1: float = 2 * np.pi,
) -> np.ndarray:
    t = np.linspace(a0, a1, n, endpoint=(a1 - a0) < 2 * np.pi - 1e-9)
    c, s = np.cos(angle), np.sin(angle)
    ex, ey = rx * np.cos(t), ry * np.sin(t)
    return np.stack([x + ex * c - ey * s, y + ex * s + ey * c], axis=1)


def _bezier(*ctrl: tuple[float, float], n: int = 24) -> np.ndarray:
    """Points of a Bezier curve of any degree through de Casteljau."""
    t = np.linspace(0.0, 1.0, n)[:, None]
    pts = [np.asarray(c, dtype=np.float64) for c in ctrl]
    while len(pts) > 1:
        pts = [(1 - t) * a + t * b for a, b in zip(pts[:-1], pts[1:], strict=True)]
    return np.broadcast_to(pts[0], (n, 2)).copy()


def _ribbon(centre: np.ndarray, w0: float, w1: float) -> np.ndarray:
    """A tapering band along a centre line: widths w0 at the start to w1 at the end."""
    d = np.gradient(centre, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-12
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    half = np.linspace(w0, w1, len(centre))[:, None] / 2
    return np.concatenate([centre + normal * half, (centre - normal * half)[::-1]])


def _star(arms: int, r_out: float, r_in: float, x: float = 0.0, y: float = 0.0, n: int = 200) -> np.ndarray:
    """A star with soft, rounded arms; the first arm points up."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    r = r_in + (r_out - r_in) * ((1 + np.cos(arms * t)) / 2) ** 1.6
    return np.stack([x + r * np.sin(t), y - r * np.cos(t)], axis=1)


def _rounded_square(half: float, radius: float, n: int = 10) -> np.ndarray:
    pts = []
    for cx, cy, a in ((1, -1, -np.pi / 2), (1, 1, 0.0), (-1, 1, np.pi / 2), (-1, -1, np.pi)):
        centre = (cx * (half - radius), cy * (half - radius))
        pts.append(_ellipse(*centre, radius, radius, n=n, a0=a, a1=a + np.pi / 2 + 1e-12))
    return np.concatenate(pts)


def _shade(colour: BGR, k: float) -> BGR:
    """Darker (k < 1) or lighter (k > 1, towards white) version of a colour."""
    c = np.asarray(colour, dtype=np.float64)
    out = c * k if k <= 1 else c + (255 - c) * (k - 1)
    return tuple(int(v) for v in np.clip(np.round(out), 0, 255))  # type: ignore[return-value]


# ---------------------------------------------------------------- animals (one cell, centred)

_LINE = 0.012  # ink outline width in cell units


def _draw_fish(img: np.ndarray, at: Place) -> None:
    body = CONTENT_COLOURS["fish"]
    dark, light = _shade(body, 0.78), _shade(body, 1.45)
    _fill(img, at, np.array([[-0.13, 0.0], [-0.36, -0.17], [-0.29, 0.0], [-0.36, 0.17]]), body, _LINE)
    _fill(
        img,
        at,
        np.concatenate([_bezier((-0.08, -0.12), (0.0, -0.3), (0.14, -0.14)), [(0.05, -0.1)]]),
        dark,
        _LINE,
    )
    _fill(
        img,
        at,
        np.concatenate([_bezier((-0.04, 0.11), (0.02, 0.24), (0.1, 0.13)), [(0.05, 0.1)]]),
        dark,
        _LINE,
    )
    _fill(img, at, _ellipse(0.03, 0.0, 0.25, 0.155), body, _LINE)
    _fill(img, at, _ellipse(0.05, 0.06, 0.17, 0.05, n=32), light)  # pale belly
    for x in (-0.1, -0.02):  # gentle scale arcs
        _stroke(img, at, _ellipse(x, 0.0, 0.06, 0.1, a0=-1.1, a1=1.1, n=16), dark, 0.014)
    _stroke(img, at, _ellipse(0.12, 0.0, 0.05, 0.11, a0=-1.2, a1=1.2, n=16), dark, 0.016)  # gill
    _dot(img, at, 0.18, -0.04, 0.042, WHITE)
    _dot(img, at, 0.192, -0.04, 0.022, INK)


def _draw_ray(img: np.ndarray, at: Place) -> None:
    body = CONTENT_COLOURS["ray"]
    light, dark = _shade(body, 1.4), _shade(body, 0.72)
    tail = _bezier((0.0, 0.12), (0.03, 0.28), (-0.05, 0.38), n=20)
    _fill(img, at, _ribbon(tail, 0.05, 0.012), dark, _LINE)
    right = _bezier((0.0, -0.26), (0.1, -0.22), (0.25, -0.07), (0.37, 0.03), n=24)
    right_back = _bezier((0.37, 0.03), (0.22, 0.1), (0.1, 0.2), (0.0, 0.2), n=24)
    half = np.concatenate([right, right_back[1:]])
    outline = np.concatenate([half, (half * (-1, 1))[::-1][1:-1]])
    _fill(img, at, outline, body, _LINE)
    _fill(img, at, _ellipse(0.0, -0.01, 0.09, 0.17, n=40), _shade(body, 1.18))  # raised spine
    for x, y in ((-0.18, 0.0), (0.18, 0.0), (-0.1, 0.08), (0.1, 0.08), (-0.25, 0.04), (0.25, 0.04)):
        _dot(img, at, x, y, 0.022, light)
    for x in (-0.05, 0.05):
        _dot(img, at, x, -0.16, 0.024, INK)
    for x in (-0.02, 0.02):
        _stroke(img, at, np.array([[x, 0.14], [x, 0.18]]), dark, 0.01)


def _draw_turtle(img: np.ndarray, at: Place) -> None:
    shell = CONTENT_COLOURS["turtle"]
    skin, dark = _shade(shell, 1.35), _shade(shell, 0.62)
    for sx in (-1, 1):
        _fill(img, at, _ellipse(sx * 0.2, -0.13, 0.15, 0.055, angle=sx * -0.5), skin, _LINE)
        _fill(img, at, _ellipse(sx * 0.14, 0.21, 0.09, 0.045, angle=sx * 0.7), skin, _LINE)
    _fill(img, at, np.array([[-0.03, 0.24], [0.0, 0.33], [0.03, 0.24]]), skin, _LINE)
    _fill(img, at, _ellipse(0.0, -0.28, 0.075, 0.09), skin, _LINE)
    for x in (-0.032, 0.032):
        _dot(img, at, x, -0.31, 0.016, INK)
    _fill(img, at, _ellipse(0.0, 0.03, 0.2, 0.25), shell, _LINE)
    hexagon = _ellipse(0.0, 0.03, 0.085, 0.095, angle=np.pi / 6, n=7)[:6]
    _stroke(img, at, hexagon, dark, 0.018, closed=True)
    for k in range(6):  # seams from the middle plate to the rim
        a = np.pi / 6 + k * np.pi / 3
        inner = hexagon[k]
        outer = (0.19 * np.cos(a), 0.03 + 0.24 * np.sin(a))
        _stroke(img, at, np.array([inner, outer]), dark, 0.018)
    _stroke(img, at, _ellipse(0.0, 0.03, 0.2, 0.25), dark, 0.02, closed=True)


def _draw_starfish(img: np.ndarray, at: Place) -> None:
    body = CONTENT_COLOURS["starfish"]
    light = _shade(body, 1.5)
    _fill(img, at, _star(5, 0.37, 0.15, y=0.02), body, _LINE)
    for k in range(5):
        a = k * 2 * np.pi / 5
        for r in (0.1, 0.17, 0.24):
            _dot(img, at, r * np.sin(a), 0.02 - r * np.cos(a), 0.022 - r * 0.04, light)
    _dot(img, at, 0.0, 0.02, 0.03, _shade(body, 0.75))


def _draw_jellyfish(img: np.ndarray, at: Place) -> None:
    body = CONTENT_COLOURS["jellyfish"]
    light, dark = _shade(body, 1.45), _shade(body, 0.8)
    for k, x in enumerate((-0.15, -0.05, 0.05, 0.15)):
        s = 1 if k % 2 else -1
        line = _bezier((x, 0.0), (x + s * 0.06, 0.11), (x - s * 0.06, 0.22), (x + s * 0.02, 0.34), n=24)
        _fill(img, at, _ribbon(line, 0.04, 0.012), body, _LINE)
    arm = _bezier((0.0, 0.0), (0.06, 0.1), (-0.05, 0.19), (0.02, 0.28), n=24)
    _fill(img, at, _ribbon(arm, 0.07, 0.02), dark, _LINE)
    bell = np.concatenate(
        [_ellipse(0.0, 0.02, 0.25, 0.26, a0=np.pi, a1=2 * np.pi, n=48), _scallops(0.25, 0.02, 5)]
    )
    _fill(img, at, bell, body, _LINE)
    _fill(img, at, _ellipse(-0.08, -0.12, 0.07, 0.045, angle=-0.6), light)  # glossy highlight
    _stroke(img, at, _ellipse(0.0, 0.02, 0.19, 0.17, a0=np.pi * 1.15, a1=np.pi * 1.85, n=24), dark, 0.014)


def _scallops(half: float, y: float, k: int) -> np.ndarray:
    """The wavy rim under a bell, from right to left."""
    x = np.linspace(half, -half, 12 * k)
    return np.stack([x, y + 0.03 * np.abs(np.sin(np.pi * k * (x + half) / (2 * half)))], axis=1)


def _draw_crab(img: np.ndarray, at: Place) -> None:
    body = CONTENT_COLOURS["crab"]
    light = _shade(body, 1.5)
    for sx in (-1, 1):
        for k in range(3):  # legs bend outwards and down
            y0 = 0.04 + k * 0.05
            leg = _bezier((sx * 0.15, y0), (sx * 0.3, y0 - 0.06), (sx * (0.3 + 0.015 * k), y0 + 0.11), n=16)
            _fill(img, at, _ribbon(leg, 0.04, 0.018), body, _LINE)
        arm = _bezier((sx * 0.12, -0.01), (sx * 0.25, -0.03), (sx * 0.21, -0.13), n=16)
        _fill(img, at, _ribbon(arm, 0.05, 0.04), body, _LINE)
        claw = np.concatenate(
            [
                _bezier((sx * 0.17, -0.12), (sx * 0.12, -0.26), (sx * 0.21, -0.32), n=16),
                _bezier((sx * 0.21, -0.32), (sx * 0.2, -0.25), (sx * 0.23, -0.21), n=8),  # inner jaw
                _bezier((sx * 0.23, -0.21), (sx * 0.3, -0.25), (sx * 0.31, -0.31), n=8),  # notch
                _bezier((sx * 0.31, -0.31), (sx * 0.36, -0.17), (sx * 0.25, -0.1), n=16),
            ]
        )
        _fill(img, at, claw, body, _LINE)
        _stroke(img, at, np.array([[sx * 0.05, -0.08], [sx * 0.07, -0.16]]), body, 0.022)
        _dot(img, at, sx * 0.07, -0.17, 0.035, WHITE)
        _dot(img, at, sx * 0.072, -0.175, 0.018, INK)
    _fill(img, at, _ellipse(0.0, 0.05, 0.2, 0.135), body, _LINE)
    _stroke(img, at, _ellipse(0.0, 0.08, 0.1, 0.05, a0=0.3, a1=np.pi - 0.3, n=16), light, 0.014)
    for x in (-0.1, 0.0, 0.1):
        _dot(img, at, x, 0.0, 0.015, light)


def _draw_octopus(img: np.ndarray, at: Place) -> None:
    """Drawn pointing N; ``at.turns`` turns it. An arrow: a broad arrowhead reaching the N edge,
    a shaft of tentacles, and a small head at the tail end, so the shape reads even at 24 px
    per cell and the mass of the colour lies forward of the centre."""
    body = CONTENT_COLOURS["octopus"]
    dark = _shade(body, 0.7)
    for sx in (-1, 1):  # outer tentacles hug the shaft and reach the arrowhead's barbs
        line = _bezier((sx * 0.08, 0.17), (sx * 0.26, 0.14), (sx * 0.24, -0.02), (sx * 0.2, -0.12), n=24)
        _fill(img, at, _ribbon(line, 0.07, 0.045), body, _LINE)
    for x, wave in ((-0.1, 0.03), (-0.035, -0.03), (0.035, 0.03), (0.1, -0.03)):
        line = _bezier((x * 0.8, 0.14), (x + wave, 0.06), (x - wave, -0.04), (x * 1.2, -0.16), n=24)
        _fill(img, at, _ribbon(line, 0.075, 0.06), body, _LINE)
    head = np.array(
        [[0.0, -0.455], [0.28, -0.13], [0.14, -0.14], [0.0, -0.11], [-0.14, -0.14], [-0.28, -0.13]]
    )
    _fill(img, at, head, body, _LINE)
    _fill(img, at, _ellipse(0.0, 0.22, 0.125, 0.105), body, _LINE)
    for sx in (-1, 1):
        _dot(img, at, sx * 0.05, 0.19, 0.033, WHITE)
        _dot(img, at, sx * 0.05, 0.178, 0.017, INK)  # pupils look where it points
    _stroke(img, at, _ellipse(0.0, 0.255, 0.035, 0.02, a0=0.2, a1=np.pi - 0.2, n=12), dark, 0.012)
    for y in (0.02, -0.07):  # suckers along the inner tentacles
        for x in (-0.1, 0.1):
            _dot(img, at, x, y, 0.013, dark)


def _draw_seagull(img: np.ndarray, at: Place) -> None:
    at = Place(at.cx, at.cy + 0.09 * at.size, at.size, at.turns)  # raised wings: centre the whole bird
    grey, tips = _hex("#a9b6c3"), _hex("#2b2f36")
    beak = _hex("#f5b82e")
    back = np.concatenate(
        [
            _bezier((-0.02, 0.02), (-0.12, -0.22), (-0.3, -0.28), (-0.42, -0.2), n=24),
            _bezier((-0.42, -0.2), (-0.28, -0.17), (-0.16, -0.06), (-0.1, 0.06), n=24),
        ]
    )
    front = np.concatenate(
        [
            _bezier((0.0, 0.0), (0.08, -0.24), (0.25, -0.36), (0.4, -0.32), n=24),
            _bezier((0.4, -0.32), (0.26, -0.22), (0.14, -0.06), (0.1, 0.04), n=24),
        ]
    )
    _fill(img, at, back, _shade(grey, 0.85), _LINE)
    _fill(img, at, np.array([[-0.42, -0.2], [-0.33, -0.26], [-0.3, -0.185]]), tips)
    _fill(img, at, np.array([[-0.22, 0.05], [-0.36, 0.0], [-0.37, 0.1], [-0.2, 0.1]]), WHITE, _LINE)  # tail
    _fill(img, at, _ellipse(0.0, 0.07, 0.22, 0.085, angle=-0.1), WHITE, _LINE)
    _fill(img, at, _ellipse(0.2, 0.01, 0.075, 0.068), WHITE, _LINE)
    _fill(img, at, np.array([[0.25, 0.0], [0.36, 0.025], [0.25, 0.045]]), beak, _LINE)
    _dot(img, at, 0.305, 0.033, 0.009, _hex("#d8402a"))
    _dot(img, at, 0.215, -0.005, 0.014, INK)
    _fill(img, at, front, grey, _LINE)
    _fill(img, at, np.array([[0.4, -0.32], [0.29, -0.33], [0.31, -0.255]]), tips)


# Per-species scale so every animal keeps clear of both frames (circle and rounded square).
_FIT: dict[str, float] = {
    "fish": 0.93,
    "ray": 0.9,
    "turtle": 0.95,
    "starfish": 0.95,
    "jellyfish": 0.97,
    "crab": 0.86,
}

_DRAWERS = {
    "fish": _draw_fish,
    "ray": _draw_ray,
    "turtle": _draw_turtle,
    "starfish": _draw_starfish,
    "jellyfish": _draw_jellyfish,
    "crab": _draw_crab,
    "octopus": _draw_octopus,
    "seagull": _draw_seagull,
}


_FRAME_WIDTH = 0.05


def _frame_shape(frame: str, grow: float = 0.0) -> np.ndarray:
    """Centre line of a set's frame (grown outwards by ``grow`` cell units)."""
    if frame == "circle":
        return _ellipse(0.0, 0.0, 0.42 + grow, 0.42 + grow, n=128)
    return _rounded_square(0.4 + grow, 0.1 + grow)


def _draw_frame(img: np.ndarray, at: Place, frame: str) -> None:
    _stroke(img, at, _frame_shape(frame), FRAME_COLOURS[frame], _FRAME_WIDTH, closed=True)


def draw_content(img: np.ndarray, at: Place, content: str, frame: str | None) -> None:
    """Draw one cell's frame and animal onto ``img`` in place (content as in the catalog)."""
    name, _, points = content.partition(":")
    if name not in _DRAWERS:
        raise ValueError(f"unknown cell content {content!r}")
    if (name == "octopus") != bool(points) or (points and points not in DIRECTIONS):
        raise ValueError(f"an octopus needs exactly one direction N/E/S/W: {content!r}")
    if frame is not None:
        if frame not in FRAME_COLOURS:
            raise ValueError(f"unknown frame {frame!r}")
        _draw_frame(img, at, frame)
    turned = Place(at.cx, at.cy, at.size, DIRECTIONS.index(points)) if points else at
    _DRAWERS[name](img, turned.scaled(_FIT.get(name, 1.0)))


# ---------------------------------------------------------------- backgrounds


def _gradient(h: int, w: int, top: BGR, bottom: BGR) -> np.ndarray:
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    col = (1 - t) * np.asarray(top, np.float32) + t * np.asarray(bottom, np.float32)
    return np.broadcast_to(col, (h, w, 3)).copy()


@lru_cache(maxsize=16)
def _sea(h: int, w: int, px_per_mm: float) -> np.ndarray:
    """Sea blue with faint parallel wave lines (about 6 mm apart); kept subtle so it never
    competes with the animals."""
    img = _gradient(h, w, SEA_TOP, SEA_BOTTOM)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
    v = (y + 1.2 * np.sin(2 * np.pi * x / 17.0) + 0.5 * np.sin(2 * np.pi * (x + 2 * y) / 41.0)) / 6.0
    d = np.abs(v - np.round(v)) * 6.0  # mm from the nearest wave line
    crest = np.exp(-((d / 0.35) ** 2)) * (0.5 + 0.5 * np.sin(2 * np.pi * x / 23.0 + y / 5.0)) ** 2
    img += crest[..., None] * 22.0
    out = np.clip(img, 0, 255).astype(np.uint8)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=16)
def _sky(h: int, w: int, px_per_mm: float) -> np.ndarray:
    """Light sky blue with a few soft clouds."""
    img = _gradient(h, w, SKY_TOP, SKY_BOTTOM)
    mask = np.zeros((h, w), np.float32)
    for x, y, rx, ry in ((12, 22, 14, 4), (46, 52, 12, 3.5), (20, 80, 15, 4), (50, 8, 9, 3)):
        cv2.ellipse(
            mask,
            (round(x * px_per_mm), round(y * px_per_mm)),
            (round(rx * px_per_mm), round(ry * px_per_mm)),
            0,
            0,
            360,
            1.0,
            -1,
            _AA,
        )
    k = max(3, int(px_per_mm * 3) | 1)
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    img += (255 - img) * (mask[..., None] * 0.45)
    out = np.clip(img, 0, 255).astype(np.uint8)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def _parchment(h: int, w: int, px_per_mm: float) -> np.ndarray:
    """Warm paper: blotchy low-frequency tone and a darker rim. Seeded, so always the same."""
    rng = np.random.default_rng(1907)
    small = rng.normal(0.0, 1.0, (12, 8)).astype(np.float32)
    blotch = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(
        rng.normal(0.0, 1.0, (90, 60)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR
    )
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum(np.minimum(x, w - 1 - x), np.minimum(y, h - 1 - y)) / px_per_mm
    rim = np.exp(-edge / 6.0)
    tone = 1.0 + 0.025 * blotch + 0.012 * fine - 0.16 * rim
    out = np.clip(np.asarray(PARCHMENT, np.float32) * tone[..., None], 0, 255).astype(np.uint8)
    out.flags.writeable = False
    return out


# ---------------------------------------------------------------- faces


def _cell_px(px_per_mm: float) -> int:
    return round(CELL_MM * px_per_mm)


def render_cell(content: str, frame: str | None, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """One 30 mm cell as BGR: a species, 'octopus:N|E|S|W' or 'seagull' (frame None)."""
    n = _cell_px(px_per_mm)
    background = _sky(n, n, px_per_mm) if content == "seagull" else _sea(n, n, px_per_mm)
    img = background.copy()
    draw_content(img, Place(n / 2, n / 2, CELL_MM * px_per_mm), content, frame)
    return img


def _card_size(px_per_mm: float) -> tuple[int, int]:
    return round(CARD_MM[1] * px_per_mm), round(CARD_MM[0] * px_per_mm)


def _cell_place(row: int, col: int, px_per_mm: float) -> Place:
    s = CELL_MM * px_per_mm
    return Place((col + 0.5) * s, (row + 0.5) * s, s)


def _border(img: np.ndarray, px_per_mm: float, colour: BGR = WHITE) -> np.ndarray:
    """The thin card edge (1 mm) every face shares."""
    b = max(1, round(1.0 * px_per_mm))
    img[:b], img[-b:], img[:, :b], img[:, -b:] = colour, colour, colour, colour
    return img


def _render_cells(
    cells: list[list[str]], frame: str | None, background: np.ndarray, px_per_mm: float
) -> np.ndarray:
    img = background.copy()
    for r, row in enumerate(cells):
        for c, content in enumerate(row):
            draw_content(img, _cell_place(r, c, px_per_mm), content, frame)
    return img


def _text(img: np.ndarray, text: str, cx: float, cy: float, height: float, colour: BGR) -> None:
    """Bold centred text whose digits are ``height`` pixels tall, with an ink outline."""
    font = cv2.FONT_HERSHEY_DUPLEX
    (_, h0), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / h0
    thick = max(1, round(height * 0.16))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(cx - w / 2), round(cy + h / 2))
    cv2.putText(img, text, org, font, scale, INK, thick + max(2, round(height * 0.08)), _AA)
    cv2.putText(img, text, org, font, scale, colour, thick, _AA)


def _badge(img: np.ndarray, at: Place, species: str | None, frame: str, px_per_mm: float) -> None:
    """A patch of sea shaped like the set's frame, with a species in it (or a ripple: the set's
    emblem), for the parchment side."""
    shape = _frame_shape(frame, _FRAME_WIDTH / 2)
    sea = _sea(img.shape[0], img.shape[1], px_per_mm)
    pts = at.px(shape)
    x0, y0 = np.maximum(pts.min(axis=0) // _ONE - 2, 0)
    x1, y1 = pts.max(axis=0) // _ONE + 3
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)  # blend only around the badge: it is most of the cost
    cv2.fillPoly(mask, [pts - np.array([x0, y0]) * _ONE], 255, _AA, _SHIFT)
    alpha = mask[..., None].astype(np.float32) / 255
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - alpha) + sea[y0:y1, x0:x1] * alpha).astype(np.uint8)
    _stroke(img, at, _frame_shape(frame, _FRAME_WIDTH / 2 + 0.015), INK, 0.03, closed=True)
    if species is not None:
        draw_content(img, at, species, frame)
        return
    _draw_frame(img, at, frame)
    x = np.linspace(-0.24, 0.24, 48)
    for dy in (-0.07, 0.07):
        _stroke(img, at, np.stack([x, dy + 0.04 * np.sin(x / 0.24 * 2 * np.pi)], 1), WHITE, 0.05)


def _ripple(img: np.ndarray, at: Place, colour: BGR) -> None:
    x = np.linspace(-0.5, 0.5, 48)
    for dy in (-0.12, 0.12):
        _stroke(img, at, np.stack([x, dy + 0.08 * np.sin(x * 4 * np.pi)], 1), colour, 0.09)


def _render_objective(face: dict, frame: str, px_per_mm: float) -> np.ndarray:
    """Parchment: the plus species with "+2", the minus species with "-1", the set's emblem below."""
    h, w = _card_size(px_per_mm)
    img = _parchment(h, w, px_per_mm).copy()
    s = CELL_MM * px_per_mm
    brown = _hex("#a88a55")
    inset = 2.5 * px_per_mm
    cv2.rectangle(
        img,
        (round(inset), round(inset)),
        (round(w - 1 - inset), round(h - 1 - inset)),
        brown,
        max(1, round(0.35 * px_per_mm)),
        _AA,
    )
    for row, (species, label, colour) in enumerate(
        ((face["plus"], "+2", _hex("#2f9e44")), (face["minus"], "-1", _hex("#d0312d")))
    ):
        _badge(img, _cell_place(row, 0, px_per_mm).scaled(0.88), species, frame, px_per_mm)
        _text(img, label, 1.43 * s, (row + 0.5) * s, 0.44 * s, colour)
    for y in (1.0, 2.0):
        cv2.line(
            img,
            (round(0.14 * w), round(y * s)),
            (round(0.86 * w), round(y * s)),
            brown,
            max(1, round(0.3 * px_per_mm)),
            _AA,
        )
    emblem = Place(w / 2, 2.5 * s, s * 0.62)
    _badge(img, emblem, None, frame, px_per_mm)
    for side in (-1, 1):
        _ripple(img, Place(w / 2 + side * 0.62 * s, 2.5 * s, s * 0.2), _hex("#2f86c4"))
    return _border(img, px_per_mm)


@lru_cache(maxsize=48)  # a set of faces at one resolution; about 2 MB each at 300 dpi
def _render_face_cached(
    kind: str, cells: tuple[tuple[str, ...], ...], frame: str, plus: str, minus: str, px_per_mm: float
) -> np.ndarray:
    h, w = _card_size(px_per_mm)
    if kind == "objective":
        img = _render_objective({"plus": plus, "minus": minus}, frame, px_per_mm)
    elif kind == "seagull":
        img = _border(
            _render_cells([list(r) for r in cells], None, _sky(h, w, px_per_mm), px_per_mm), px_per_mm
        )
    elif kind == "sea":
        img = _border(
            _render_cells([list(r) for r in cells], frame, _sea(h, w, px_per_mm), px_per_mm), px_per_mm
        )
    else:
        raise ValueError(f"unknown face kind {kind!r}")
    img.flags.writeable = False
    return img


def render_card_face(component: dict, face: str, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """One face ('front' or 'back') of a catalog component as BGR, 60 x 90 mm, portrait, upright."""
    data = component["faces"][face]
    kind = data["kind"]
    cells = tuple(tuple(row) for row in data.get("cells", ()))
    if kind in ("sea", "seagull") and (len(cells) != CELLS[1] or any(len(r) != CELLS[0] for r in cells)):
        raise ValueError(f"{component.get('id')} {face}: cells must be {CELLS[1]} rows of {CELLS[0]}")
    frame = "" if kind == "seagull" else component["set"]  # seagull sides look the same in both sets
    img = _render_face_cached(
        kind, cells, frame, data.get("plus", ""), data.get("minus", ""), float(px_per_mm)
    )
    return img.copy()


# ---------------------------------------------------------------- reading the art back


def dominant_cell_content_colour(cell: np.ndarray) -> BGR:
    """The most common non-background colour inside a cell's frame: the body colour of its animal.

    Works on a rendered cell (sea or sky around it); colours are binned coarsely so a slightly
    blurred or resampled cell still reads.
    """
    h, w = cell.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    inside = (x - w / 2) ** 2 + (y - h / 2) ** 2 < (0.36 * min(h, w)) ** 2
    px = cell[inside].astype(np.int32)
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    background = (b > r + 40) & (b >= g)  # sea and sky blues
    px = px[~background]
    if len(px) == 0:
        return (0, 0, 0)
    bins = px // 24
    keys = (bins[:, 0] * 64 + bins[:, 1]) * 64 + bins[:, 2]
    top = np.bincount(keys).argmax()
    return tuple(int(v) for v in px[keys == top].mean(axis=0).round())  # type: ignore[return-value]


def closest_content(colour: BGR) -> str:
    """The content ('fish', ..., 'octopus', 'seagull') whose body colour is nearest in Lab."""
    names = list(CONTENT_COLOURS)
    swatch = np.array([[colour] + [CONTENT_COLOURS[n] for n in names]], np.uint8)
    lab = cv2.cvtColor(swatch, cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    return names[int(np.argmin(np.linalg.norm(lab[1:] - lab[0], axis=1)))]


def octopus_pointing(cell: np.ndarray, tolerance: int = 60) -> tuple[str, float]:
    """Side an octopus points to, read from where its colour's mass lies relative to the cell
    centre, and how far off centre that mass is (fraction of the cell side)."""
    h, w = cell.shape[:2]
    dist = np.linalg.norm(cell.astype(np.int32) - np.asarray(CONTENT_COLOURS["octopus"]), axis=2)
    ys, xs = np.nonzero(dist < tolerance)
    if len(xs) == 0:
        raise ValueError("no octopus colour in this cell")
    dx, dy = (xs.mean() + 0.5) / w - 0.5, (ys.mean() + 0.5) / h - 0.5
    if abs(dx) > abs(dy):
        return ("E" if dx > 0 else "W"), float(abs(dx))
    return ("S" if dy > 0 else "N"), float(abs(dy))

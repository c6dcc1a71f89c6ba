"""A simulated hand's look and pose, in table millimetres: skin, nails, sleeve and what it holds
(`_Look`, drawn at random), and its parts (palm, fingers, thumb, sleeve, pencil) as shapes posed to
point at, hover over or rest beside the table (`_pose`). `vision.synth.hands` places the parts in a
photo and renders them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

_SKIN_RGB = np.array(
    [
        (246, 220, 205),
        (238, 203, 182),
        (232, 189, 160),
        (222, 174, 138),
        (208, 156, 116),
        (192, 138, 96),
        (168, 116, 80),
        (141, 95, 64),
        (113, 75, 52),
        (87, 58, 42),
        (62, 43, 33),
    ],
    np.float64,
)
_NAIL_TINT = np.array((200.0, 204.0, 240.0))  # pinkish white, BGR
_PAINTED_NAILS = ((40, 30, 185), (45, 25, 110), (170, 120, 240), (35, 30, 35), (150, 170, 215))
_CLOTH_BGR = (
    (70, 40, 25),  # navy
    (40, 40, 40),  # black
    (120, 120, 120),  # grey
    (210, 210, 210),  # white
    (40, 40, 150),  # red
    (60, 100, 50),  # green
    (130, 90, 60),  # denim
    (120, 160, 190),  # beige
    (60, 90, 130),  # brown
    (120, 60, 110),  # purple
)
_PENCIL_BGR = ((30, 190, 235), (40, 40, 190), (150, 80, 30), (50, 130, 50), (40, 40, 40), (200, 200, 200))

# Fingers, index to little: MCP knuckle (u, v), radius, phalanx lengths, direction (rad, + toward the thumb).
_FINGERS = (
    ((0.97, 0.33), 0.115, (0.48, 0.29, 0.24), 0.10),
    ((1.03, 0.11), 0.117, (0.54, 0.33, 0.26), 0.02),
    ((0.99, -0.11), 0.110, (0.50, 0.31, 0.25), -0.07),
    ((0.89, -0.32), 0.095, (0.40, 0.24, 0.22), -0.19),
)
# Joint flexion ranges (degrees, MCP / PIP / DIP) per finger state; a flexed joint foreshortens what follows.
_FLEX = {
    "straight": ((-5.0, 18.0), (0.0, 22.0), (0.0, 15.0)),
    "bent": ((10.0, 45.0), (35.0, 75.0), (20.0, 50.0)),
    "curled": ((68.0, 84.0), (90.0, 90.0), (0.0, 0.0)),
}


@dataclass
class _Shape:
    """A convex piece: "cap" (a tube tapering from r0 to r1 along the axis pts[0] -> pts[1], round ends),
    "band" (the same tube with flat ends) or "poly" (the outline pts)."""

    kind: str
    pts: np.ndarray
    r0: float = 0.0
    r1: float = 0.0

    def outline(self) -> np.ndarray:
        p0, p1 = self.pts[0], self.pts[-1]
        if self.kind == "cap":  # an arc round each end, joined by the common tangents
            d = p1 - p0
            ln = float(np.hypot(d[0], d[1]))
            if ln <= abs(self.r0 - self.r1) + 1e-9:
                big = (p0, self.r0) if self.r0 >= self.r1 else (p1, self.r1)
                return big[0] + _CIRCLE * big[1]
            a = math.atan2(d[1], d[0])
            b = math.asin((self.r0 - self.r1) / ln)
            back = a + np.linspace(0.5 * math.pi - b, 1.5 * math.pi + b, 11)
            front = a + np.linspace(-0.5 * math.pi + b, 0.5 * math.pi - b, 11)
            return np.vstack(
                [
                    p0 + self.r0 * np.stack([np.cos(back), np.sin(back)], 1),
                    p1 + self.r1 * np.stack([np.cos(front), np.sin(front)], 1),
                ]
            )
        if self.kind == "band":
            d = p1 - p0
            n = _perp(d / max(float(np.linalg.norm(d)), 1e-9))
            return np.array([p0 + n * self.r0, p1 + n * self.r1, p1 - n * self.r1, p0 - n * self.r0])
        return self.pts

    def mapped(self, fn: Callable[[np.ndarray], np.ndarray], rscale: float) -> _Shape:
        return _Shape(self.kind, fn(self.pts), self.r0 * rscale, self.r1 * rscale)

    def inside(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Distance to the outline inside the piece (negative outside), on the grid x (1, W) by y (H, 1)."""
        if self.kind == "poly":
            c = self.pts.mean(0)
            e = np.roll(self.pts, -1, 0) - self.pts
            out = None
            for v, ed in zip(self.pts, e, strict=True):
                ln = float(np.hypot(ed[0], ed[1]))
                if ln < 1e-9:
                    continue
                nx, ny = -ed[1] / ln, ed[0] / ln
                if nx * (c[0] - v[0]) + ny * (c[1] - v[1]) < 0:
                    nx, ny = -nx, -ny
                d = (x * np.float32(nx) - np.float32(nx * v[0] + ny * v[1])) + y * np.float32(ny)
                out = d if out is None else np.minimum(out, d, out=out)
            return out
        p0, p1 = self.pts[0], self.pts[-1]
        d = p1 - p0
        ln = float(np.hypot(d[0], d[1]))
        px, py = x - np.float32(p0[0]), y - np.float32(p0[1])
        if ln < 1e-6:
            return np.float32(self.r0) - np.sqrt(px * px + py * py)
        ux, uy = d[0] / ln, d[1] / ln
        s = px * np.float32(ux / ln) + py * np.float32(uy / ln)
        np.clip(s, 0.0, 1.0, out=s)
        ex = px - s * np.float32(ux * ln)
        ey = py - s * np.float32(uy * ln)
        return s * np.float32(self.r1 - self.r0) + np.float32(self.r0) - cv2.magnitude(ex, ey)


def _cap(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float, kind: str = "cap") -> _Shape:
    return _Shape(kind, np.array([p0, p1], np.float64), r0, r1)


@dataclass
class _Part:
    """One shaded solid of the hand (local units until placed, image px after)."""

    shapes: list[_Shape]
    colour: np.ndarray  # BGR base colour
    radius: float  # rounding: distance from the silhouette at which the surface faces the camera
    ao: float = 0.3  # ambient occlusion it casts on what lies under it
    gloss: float = 1.0
    creases: list[np.ndarray] = field(default_factory=list)  # open polylines, darkened
    crease_strength: float = 0.25
    nails: list[np.ndarray] = field(default_factory=list)  # convex outlines, tinted
    fade: tuple[np.ndarray, np.ndarray, float, float] | None = None  # (point, dir, start, end): alpha ramp
    poly_colours: list[np.ndarray] | None = None  # a colour per shape (a pencil's sections)
    polys: list[np.ndarray] = field(default_factory=list)  # the shapes' outlines, once placed


@dataclass
class _Look:
    skin: np.ndarray
    nail: np.ndarray
    sleeve: np.ndarray | None
    sleeve_end: float
    pencil: tuple[str, np.ndarray]
    gloss: float
    power: float
    ambient: float
    elevation: float
    exposure: float
    edge_sigma: float
    shadow_dark: float
    shadow_offset: float
    shadow_sigma: float


def _random_look(rng: np.random.Generator) -> _Look:
    x = rng.uniform(0, len(_SKIN_RGB) - 1)
    i = min(int(x), len(_SKIN_RGB) - 2)
    rgb = _SKIN_RGB[i] + (x - i) * (_SKIN_RGB[i + 1] - _SKIN_RGB[i])
    skin = rgb[::-1] * rng.normal(1.0, 0.03, 3) * rng.uniform(0.92, 1.04)
    skin = np.clip(skin, 15, 250)
    if rng.random() < 0.08:
        nail = np.asarray(_PAINTED_NAILS[int(rng.integers(len(_PAINTED_NAILS)))], np.float64)
    else:
        nail = skin + rng.uniform(0.25, 0.45) * (_NAIL_TINT - skin)
    sleeve = None
    if rng.random() < 0.6:
        sleeve = np.asarray(_CLOTH_BGR[int(rng.integers(len(_CLOTH_BGR)))], np.float64)
        sleeve = np.clip(sleeve * rng.uniform(0.85, 1.1, 3), 10, 245)
    kind = "pencil" if rng.random() < 0.6 else "pen"
    pencil = np.asarray(_PENCIL_BGR[int(rng.integers(len(_PENCIL_BGR)))], np.float64)
    return _Look(
        skin=skin,
        nail=nail,
        sleeve=sleeve,
        sleeve_end=float(rng.uniform(0.3, 3.0)),
        pencil=(kind, pencil),
        gloss=float(rng.uniform(0.05, 0.16)),
        power=float(rng.integers(6, 15)),
        ambient=float(rng.uniform(0.42, 0.55)),
        elevation=math.radians(rng.uniform(30.0, 55.0)),
        exposure=float(rng.uniform(0.85, 1.05)),
        edge_sigma=float(rng.uniform(0.5, 1.0)),
        shadow_dark=float(rng.uniform(0.25, 0.5)),
        shadow_offset=float(rng.uniform(0.04, 0.14)),
        shadow_sigma=float(rng.uniform(0.04, 0.09)),
    )


# ---------------------------------------------------------------------------------------------- geometry


def _perp(d: np.ndarray) -> np.ndarray:
    return np.array([-d[1], d[0]])


def _unit(a: float) -> np.ndarray:
    return np.array([math.cos(a), math.sin(a)])


_CIRCLE = np.stack(
    [
        np.cos(np.linspace(0, 2 * np.pi, 20, endpoint=False)),
        np.sin(np.linspace(0, 2 * np.pi, 20, endpoint=False)),
    ],
    1,
)


def _hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(np.asarray(points, np.float32))[:, 0, :].astype(np.float64)


def _circles(spec: list[tuple[float, float, float]]) -> _Shape:
    return _Shape("poly", _hull(np.vstack([np.array([u, v]) + _CIRCLE[::2] * r for u, v, r in spec])))


_OVAL = _CIRCLE[::2, :, None]  # 10 points, for broadcasting against direction vectors
_ACROSS = np.linspace(-1.0, 1.0, 5)[:, None]


def _ellipse(c: np.ndarray, d: np.ndarray, a: float, b: float) -> np.ndarray:
    return c + _OVAL[:, 0] * a * d + _OVAL[:, 1] * b * _perp(d)


def _crease(j: np.ndarray, d: np.ndarray, half: float, bow: float) -> np.ndarray:
    return j + _ACROSS * half * _perp(d) + bow * (1 - _ACROSS * _ACROSS) * d


def _finger(
    rng: np.random.Generator,
    look: _Look,
    base: np.ndarray,
    ang: float,
    r: float,
    lengths: tuple[float, ...],
    flex: list[float],
    nail_width: float = 0.62,
) -> tuple[_Part, float]:
    """A finger (or the thumb's outer two phalanges when `base` is its MCP) from its knuckle: tapered
    capsules whose projected lengths shrink as the joints flex down toward the table. Returns the part and
    the farthest u its tip reaches."""
    radii = (r * 1.04, r, r * 0.93, r * 0.84)
    polys, creases, nails = [], [], []
    joint = np.asarray(base, np.float64)
    d_prev = _unit(ang)
    cum = 0.0
    a = ang
    tip_u = float(joint[0])
    drawn = 0
    for k, (length, fl) in enumerate(zip(lengths, flex, strict=True)):
        cum += fl
        c = math.cos(math.radians(cum))
        if cum >= 88.0 or c <= 0.03:
            break
        a += float(rng.normal(0, 0.05))
        d = _unit(a)
        nxt = joint + d * length * c
        start = joint - d * 0.3 if k == 0 else joint
        polys.append(_cap(start, nxt, radii[k], radii[k + 1]))
        if k > 0 and rng.random() < 0.8:  # knuckle creases on the back of the joint
            dm = d_prev + d
            dm /= np.linalg.norm(dm)
            n_lines = 3 if k == 1 else 2
            for i in range(int(rng.integers(1, n_lines + 1))):
                off = (i - 0.5 * (n_lines - 1)) * 0.16 * radii[k] * max(c, 0.4)
                half = radii[k] * float(rng.uniform(0.45, 0.7))
                creases.append(_crease(joint + dm * off, dm, half, 0.06 * radii[k]))
        if k == len(lengths) - 1 and c > 0.3:  # a nail on the last phalanx
            seg = length * c
            nail_len = 0.55 * seg + 0.2 * radii[k + 1]
            centre = nxt + d * (0.55 * radii[k + 1] - nail_len / 2)
            nails.append(_ellipse(centre, d, nail_len / 2, nail_width * radii[k + 1]))
        joint, d_prev = nxt, d
        tip_u = max(tip_u, float(nxt[0] + d[0] * radii[k + 1]))
        drawn += 1
    if drawn == 0:  # fully tucked: only the knuckle shows
        polys.append(_cap(joint - _unit(ang) * 0.3, joint + _unit(ang) * 0.05, radii[0], radii[0]))
    part = _Part(
        polys,
        look.skin,
        radius=r,
        ao=0.35,
        creases=creases,
        crease_strength=float(rng.uniform(0.1, 0.2)),
        nails=nails,
        fade=(np.asarray(base, np.float64), _unit(ang), -0.12, 0.10),
    )
    return part, tip_u


def _flex(rng: np.random.Generator, state: str) -> list[float]:
    return [float(rng.uniform(lo, hi)) for lo, hi in _FLEX[state]]


def _pose(rng: np.random.Generator, look: _Look, mode: str, arm_len: float) -> tuple[list[_Part], float]:
    """The hand's parts in drawing order (local hand units) and the u its extended fingertips reach."""
    skin = look.skin
    if mode == "pencil":
        states = ["straight", "bent", str(rng.choice(["bent", "curled"])), "curled"]
        thumb = "out"
    elif mode == "tips":
        n = int(rng.integers(1, 4))
        first = int(rng.integers(0, 5 - n)) if n < 4 else 0
        first = min(first, 4 - n)
        states = ["straight" if first <= i < first + n else "curled" for i in range(4)]
        thumb = "tucked" if rng.random() < 0.7 else "out"
    else:
        kind = rng.choice(["open", "reach", "point", "fist", "mixed"], p=[0.38, 0.22, 0.15, 0.1, 0.15])
        if kind == "open":
            states = [str(rng.choice(["straight", "bent"], p=[0.7, 0.3])) for _ in range(4)]
            thumb = "out"
        elif kind == "reach":
            states = [
                "straight",
                "straight",
                str(rng.choice(["bent", "curled"])),
                str(rng.choice(["bent", "curled"])),
            ]
            thumb = "out"
        elif kind == "point":
            states = ["straight", "curled", "curled", "curled"]
            thumb = "tucked" if rng.random() < 0.5 else "out"
        elif kind == "fist":
            states = ["curled"] * 4
            thumb = "out"
        else:
            states = [str(rng.choice(["straight", "bent", "curled"])) for _ in range(4)]
            thumb = str(rng.choice(["out", "tucked"]))
    spread = float(rng.uniform(0.5, 1.7))

    if look.sleeve is None:
        arm_polys = [
            _cap(np.array([-3.0, 0.0]), np.array([0.05, 0.0]), 0.42, 0.31),
            _cap(np.array([-arm_len, 0.0]), np.array([-3.0, 0.0]), 0.5, 0.42),
        ]
    else:  # only what shows out of the sleeve
        back = min(look.sleeve_end + 0.4, 3.0)
        arm_polys = [_cap(np.array([-back, 0.0]), np.array([0.05, 0.0]), 0.31 + 0.11 * back / 3.0, 0.31)]
    arm = _Part(arm_polys, skin, radius=0.33, ao=0.0)
    parts = [arm]
    if look.sleeve is not None:
        c = look.sleeve_end
        end = -c + 0.02 * rng.normal()
        sleeve = _Shape(
            "poly",
            _hull(
                np.array(
                    [
                        [-arm_len, 0.62],
                        [-arm_len, -0.62],
                        [end, -0.52],
                        [end + 0.05, -0.3],
                        [end + 0.07, 0.0],
                        [end + 0.05, 0.3],
                        [end, 0.52],
                    ]
                )
            ),
        )
        cuff = [
            np.array([[end - 0.08, 0.5], [end - 0.06, 0.0], [end - 0.08, -0.5]]),
            np.array([[end - 0.3, 0.35], [end - 0.5, 0.05], [end - 0.75, -0.2]]),
        ]
        parts.append(
            _Part([sleeve], look.sleeve, radius=0.3, ao=0.45, gloss=0.15, creases=cuff, crease_strength=0.3)
        )

    # Thumb: a metacarpal leaving the side of the palm near the wrist, then two phalanges.
    t_ang = float(rng.uniform(0.35, 0.8)) if thumb == "out" else float(rng.uniform(0.15, 0.35))
    if mode == "pencil":
        t_ang = float(rng.uniform(0.3, 0.6))
    t_base = np.array([0.12, 0.24])
    t_len = 0.45 if thumb == "out" else 0.38
    t_mcp = t_base + _unit(t_ang) * t_len
    meta = _Part([_cap(t_base, t_mcp, 0.16, 0.13)], skin, radius=0.14, ao=0.3)
    thumb_parts = []
    if thumb == "out":
        f1 = float(rng.uniform(0, 35)) if mode != "pencil" else float(rng.uniform(20, 45))
        f2 = float(rng.uniform(0, 35))
        tp, _ = _finger(
            rng, look, t_mcp, t_ang - float(rng.uniform(0.15, 0.45)), 0.118, (0.34, 0.29), [f1, f2], 0.5
        )
        thumb_parts.append(tp)

    palm = _Part(
        [
            _circles(
                [(-0.14, 0.26, 0.05), (-0.14, -0.26, 0.05), (0.38, 0.40, 0.07), (0.32, -0.38, 0.06)]
                + [(mcp[0], mcp[1], r) for mcp, r, _, _ in _FINGERS]
            )
        ],
        skin,
        radius=0.38,
        ao=0.25,
        fade=(np.zeros(2), np.array([1.0, 0.0]), -0.12, 0.06),
    )
    fingers = []
    tip_u = 1.0
    for (mcp, r, lengths, ang), state in zip(_FINGERS, states, strict=True):
        a = ang * spread + float(rng.normal(0, 0.04))
        fp, tu = _finger(rng, look, np.array(mcp), a, r, lengths, _flex(rng, state))
        fingers.append(fp)
        if state == "straight":
            tip_u = max(tip_u, tu)

    if mode != "pencil":
        return [*parts, meta, *thumb_parts, palm, *fingers[::-1]], tip_u

    # The pencil lies under the index fingertip and over the web between thumb and index.
    index = fingers[0]
    dist = index.shapes[-1].pts
    g = dist.mean(0)
    along = dist[1] - dist[0]
    # Along the index finger, turned toward the thumb: it rests in the web between thumb and index.
    d = _unit(math.atan2(along[1], along[0]) - float(rng.uniform(0.1, 0.3)))
    tip = g + d * float(rng.uniform(0.3, 0.55))
    kind, colour = look.pencil
    rp = 0.044 if kind == "pencil" else 0.055
    length = float(rng.uniform(1.3, 1.75))
    back = tip - d * length

    def band(s0: float, s1: float, r0: float, r1: float) -> _Shape:
        return _cap(back + d * s0, back + d * s1, r0, r1, "band")

    cone = 0.2
    if kind == "pencil":
        specs = [
            (0.0, 0.06, rp, rp, np.array((150.0, 140.0, 235.0))),
            (0.06, 0.1, rp * 1.03, rp * 1.03, np.array((180.0, 185.0, 190.0))),
            (0.1, length - cone, rp, rp, colour),
            (length - cone, length - 0.035, rp, rp * 0.3, np.array((140.0, 190.0, 225.0))),
            (length - 0.035, length, rp * 0.3, 0.004, np.array((60.0, 60.0, 60.0))),
        ]
    else:
        body = np.array((235.0, 235.0, 235.0)) if colour.sum() < 300 else np.array((60.0, 60.0, 60.0))
        specs = [
            (0.0, 0.38 * length, rp * 1.08, rp * 1.08, colour * 0.8),
            (0.38 * length, length - 0.16, rp, rp, body),
            (length - 0.16, length - 0.025, rp, rp * 0.35, colour),
            (length - 0.025, length, rp * 0.35, 0.004, np.array((170.0, 170.0, 175.0))),
        ]
    pencil = _Part(
        [band(s0, s1, r0, r1) for s0, s1, r0, r1, _ in specs],
        colour,
        radius=rp,
        ao=0.35,
        gloss=1.5,
        poly_colours=[np.asarray(c, np.float64) for *_, c in specs],
    )
    return [*parts, meta, palm, *fingers[:0:-1], pencil, index, *thumb_parts], tip_u

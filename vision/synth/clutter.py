"""Table clutter for the photo simulator: mugs, dice, pencils and pens as small 3D models, paper notes.

Objects are values in table millimetres (x right, y toward the player, z up is the negative world Z,
the table surface is Z = 0). `draw_object` renders one into a BGR image through a `View` (a 3x4
projection of world mm to pixels, the camera centre and the light), facet by facet with Lambert shading.
Shadows are left to the caller (`shadow_polygon` gives the shadow's outline on the table), so that they
darken whatever already lies there. Notes are flat: `note_image` draws their paper and the caller lays
them like any other flat piece.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

CLUTTER_KINDS: tuple[str, ...] = ("mug", "die", "pencil", "pen", "note")

_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class View:
    """How the scene is seen: world mm -> pixel projection, camera centre (world mm), unit light vector
    pointing toward the light (world; the table's up is -Z)."""

    P: np.ndarray
    center: np.ndarray
    light: np.ndarray

    def project(self, xyz: np.ndarray) -> np.ndarray:
        pts = np.asarray(xyz, np.float64).reshape(-1, 3)
        h = pts @ self.P[:, :3].T + self.P[:, 3]
        return h[:, :2] / h[:, 2:3]


@dataclass(frozen=True)
class Mug:
    center_mm: tuple[float, float]
    radius_mm: float
    height_mm: float
    handle_deg: float
    colour: tuple[int, int, int]
    contents: tuple[int, int, int] | None  # drink colour, None when empty


@dataclass(frozen=True)
class Die:
    center_mm: tuple[float, float]
    size_mm: float
    angle_deg: float
    colour: tuple[int, int, int]
    pip_colour: tuple[int, int, int]
    top: int


@dataclass(frozen=True)
class Stick:
    """A pencil (hexagonal, sharpened) or a pen (round, with a cap)."""

    center_mm: tuple[float, float]
    length_mm: float
    radius_mm: float
    angle_deg: float
    kind: str
    colour: tuple[int, int, int]


ClutterObject = Mug | Die | Stick

_MUG_COLOURS = ((235, 235, 235), (40, 40, 170), (150, 90, 40), (40, 40, 40), (90, 170, 210), (120, 150, 80))
_DRINKS = ((20, 40, 70), (30, 70, 120), (60, 120, 170), (200, 210, 215))
_DIE_COLOURS = (
    ((235, 235, 235), (30, 30, 30)),
    ((40, 40, 190), (235, 235, 235)),
    ((30, 30, 30), (235, 235, 235)),
    ((60, 140, 40), (235, 235, 235)),
    ((150, 70, 30), (235, 235, 235)),
    ((40, 190, 230), (30, 30, 30)),
)
_STICK_COLOURS = ((30, 190, 235), (40, 40, 190), (150, 80, 30), (50, 130, 50), (40, 40, 40), (200, 200, 200))
_NOTE_COLOURS = ((120, 230, 250), (200, 170, 250), (250, 210, 150), (160, 240, 170), (240, 244, 246))


def random_object(rng: np.random.Generator, kind: str) -> ClutterObject:
    """An object of `kind` (not "note") centred at the origin; place it with `placed`."""
    if kind == "mug":
        contents = _DRINKS[int(rng.integers(len(_DRINKS)))] if rng.random() < 0.7 else None
        return Mug(
            (0.0, 0.0),
            float(rng.uniform(36, 46)),
            float(rng.uniform(80, 105)),
            float(rng.uniform(0, 360)),
            _MUG_COLOURS[int(rng.integers(len(_MUG_COLOURS)))],
            contents,
        )
    if kind == "die":
        body, pips = _DIE_COLOURS[int(rng.integers(len(_DIE_COLOURS)))]
        return Die(
            (0.0, 0.0),
            float(rng.uniform(12, 18)),
            float(rng.uniform(0, 360)),
            body,
            pips,
            int(rng.integers(1, 7)),
        )
    if kind in ("pencil", "pen"):
        return Stick(
            (0.0, 0.0),
            float(rng.uniform(120, 180) if kind == "pencil" else rng.uniform(130, 150)),
            3.6 if kind == "pencil" else float(rng.uniform(4.5, 5.5)),
            float(rng.uniform(0, 360)),
            kind,
            _STICK_COLOURS[int(rng.integers(len(_STICK_COLOURS)))],
        )
    raise ValueError(f"unknown clutter kind {kind!r}")


def placed(obj: ClutterObject, center_mm: tuple[float, float], angle_deg: float) -> ClutterObject:
    if isinstance(obj, Mug):
        return replace(obj, center_mm=center_mm, handle_deg=angle_deg)
    return replace(obj, center_mm=center_mm, angle_deg=angle_deg)


def height_mm(obj: ClutterObject) -> float:
    if isinstance(obj, Mug):
        return obj.height_mm
    if isinstance(obj, Die):
        return obj.size_mm
    return 2 * obj.radius_mm


def radius_mm(obj: ClutterObject) -> float:
    """Radius of a circle around the footprint (for placement)."""
    if isinstance(obj, Mug):
        return obj.radius_mm + 0.45 * obj.radius_mm + 6
    if isinstance(obj, Die):
        return obj.size_mm * 0.71
    return obj.length_mm / 2


def footprint(obj: ClutterObject) -> np.ndarray:
    """Convex outline (N, 2) of what the object covers on the table, mm."""
    cx, cy = obj.center_mm
    if isinstance(obj, Mug):
        a = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        r = obj.radius_mm
        pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
        h = np.radians(obj.handle_deg)
        reach = r + 0.45 * r
        handle = np.array([[reach * np.cos(h), reach * np.sin(h)]])
        pts = np.vstack([pts, handle])
        hull = cv2.convexHull(pts.astype(np.float32))[:, 0, :].astype(np.float64)
        return hull + (cx, cy)
    if isinstance(obj, Die):
        s = obj.size_mm / 2
        local = np.array([[-s, -s], [s, -s], [s, s], [-s, s]])
    else:
        hl, r = obj.length_mm / 2, obj.radius_mm
        local = np.array([[-hl, -r], [hl, -r], [hl, r], [-hl, r]])
    return _turn(local, obj.angle_deg) + (cx, cy)


def shadow_polygon(obj: ClutterObject, light: np.ndarray) -> np.ndarray:
    """Outline of the object's shadow on the table (mm): the footprint swept along the light to the
    object's top."""
    fp = footprint(obj)
    up = max(-light[2], 0.15)
    offset = -light[:2] / up * height_mm(obj)  # shadow points away from the light
    pts = np.vstack([fp, fp + offset]).astype(np.float32)
    return cv2.convexHull(pts)[:, 0, :].astype(np.float64)


def _turn(pts: np.ndarray, angle_deg: float) -> np.ndarray:
    a = np.radians(angle_deg)
    c, s = np.cos(a), np.sin(a)
    return pts @ np.array([[c, s], [-s, c]])


# ---------------------------------------------------------------------------------------------- drawing


def _fill(img: np.ndarray, pts: np.ndarray, colour: np.ndarray | tuple[float, ...]) -> None:
    if len(pts) < 3 or not np.all(np.isfinite(pts)):
        return
    fixed = np.round(np.asarray(pts) * _ONE).astype(np.int32)
    cv2.fillConvexPoly(img, fixed, tuple(float(c) for c in colour), cv2.LINE_AA, _SHIFT)


def _shade(
    colour: tuple[int, int, int] | np.ndarray,
    normal: np.ndarray,
    view: View,
    gloss: float = 0.0,
    at: np.ndarray | None = None,
) -> np.ndarray:
    """Lambert shading plus, for glossy surfaces seen from `at`, a Blinn-Phong highlight."""
    n = normal / (np.linalg.norm(normal) + 1e-12)
    lambert = max(0.0, float(n @ view.light))
    col = np.asarray(colour, np.float64) * (0.35 + 0.75 * lambert)
    if gloss > 0 and at is not None:
        v = view.center - at
        half = view.light + v / (np.linalg.norm(v) + 1e-12)
        spec = max(0.0, float(n @ half) / (np.linalg.norm(half) + 1e-12)) ** 60
        col = col + gloss * 255 * spec
    return np.clip(col, 0, 255)


def _faces(img: np.ndarray, faces: list[tuple[np.ndarray, np.ndarray, np.ndarray]], view: View) -> None:
    """Draw the camera-facing faces (verts (k, 3), outward normal, colour) of one convex solid: first its
    silhouette in the mean colour (so facet seams do not let the background through), then the facets."""
    seen = [(v, c) for v, n, c in faces if float(n @ (view.center - v.mean(0))) > 0]
    if not seen:
        return
    proj = [view.project(v) for v, _ in seen]
    allp = np.vstack(proj).astype(np.float32)
    if not np.all(np.isfinite(allp)):
        return
    hull = cv2.convexHull(allp)[:, 0, :]
    _fill(img, hull, np.mean([c for _, c in seen], 0))
    for p, (_, c) in zip(proj, seen, strict=True):
        _fill(img, p, c)


def _circle3d(center: np.ndarray, radius: float, z: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([center[0] + radius * np.cos(a), center[1] + radius * np.sin(a), np.full(n, z)], 1)


def draw_object(img: np.ndarray, obj: ClutterObject, view: View) -> None:
    """Render `obj` into `img` (BGR uint8, in place)."""
    if isinstance(obj, Mug):
        _draw_mug(img, obj, view)
    elif isinstance(obj, Die):
        _draw_die(img, obj, view)
    else:
        _draw_stick(img, obj, view)


def _draw_mug(img: np.ndarray, m: Mug, view: View) -> None:
    c = np.array([m.center_mm[0], m.center_mm[1]])
    n = 40
    bottom = _circle3d(c, m.radius_mm, 0.0, n)
    top = _circle3d(c, m.radius_mm, -m.height_mm, n)
    faces = []
    for i in range(n):
        j = (i + 1) % n
        quad = np.array([top[i], top[j], bottom[j], bottom[i]])
        normal = np.append(quad[:, :2].mean(0) - c, 0.0)
        faces.append((quad, normal, _shade(m.colour, normal, view, gloss=0.6, at=quad.mean(0))))

    # Handle: a thick "D" in the vertical plane through the axis, drawn behind or in front of the body.
    h = np.radians(m.handle_deg)
    d = np.array([np.cos(h), np.sin(h)])
    t = np.linspace(-np.pi / 2, np.pi / 2, 14)
    reach = 0.55 * m.radius_mm
    radial = m.radius_mm - 2 + reach * np.cos(t)
    zs = -m.height_mm * 0.55 + 0.3 * m.height_mm * np.sin(t)
    path = np.stack([c[0] + d[0] * radial, c[1] + d[1] * radial, zs], 1)
    path_px = view.project(path)
    scale = np.linalg.norm(view.project(path[7] + [0, 0, 0]) - view.project(path[7] + [0, 0, -6.0]))
    thick = max(1, int(round(scale * 1.3)))
    handle_col = tuple(float(v) for v in _shade(m.colour, np.append(d, 0.0), view))
    in_front = float(d @ (view.center[:2] - c)) > 0

    def handle() -> None:
        if np.all(np.isfinite(path_px)):
            pts = np.round(path_px * _ONE).astype(np.int32)
            cv2.polylines(img, [pts], False, handle_col, thick, cv2.LINE_AA, _SHIFT)

    if not in_front:
        handle()
    _faces(img, faces, view)
    if in_front:
        handle()

    # Rim, opening and drink (only when the camera is above the rim, which it always is here).
    wall = 3.5
    rim_col = _shade(m.colour, np.array([0.0, 0.0, -1.0]), view) * 1.1
    _fill(img, view.project(top), rim_col)
    inner = _circle3d(c, m.radius_mm - wall, -m.height_mm, n)
    opening = view.project(inner).astype(np.float32)
    _fill(img, opening, np.asarray(m.colour, np.float64) * 0.55)
    if m.contents is not None:
        level = _circle3d(c, m.radius_mm - wall, -m.height_mm + float(0.12 * m.height_mm), n)
        ok, liquid = cv2.intersectConvexConvex(opening, view.project(level).astype(np.float32))
        if ok > 0 and liquid is not None:
            top_n = np.array([0.0, 0.0, -1.0])
            _fill(img, liquid[:, 0, :], _shade(m.contents, top_n, view, gloss=0.5, at=level.mean(0)))


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _draw_die(img: np.ndarray, die: Die, view: View) -> None:
    s = die.size_mm / 2
    a = np.radians(die.angle_deg)
    ex = np.array([np.cos(a), np.sin(a), 0.0])
    ey = np.array([-np.sin(a), np.cos(a), 0.0])
    ez = np.array([0.0, 0.0, -1.0])  # up
    centre = np.array([die.center_mm[0], die.center_mm[1], -s])
    # Faces as (normal axis, in-face axes, number): top shows `top`, opposite faces sum to 7.
    side_numbers = [n for n in (1, 2, 3, 4, 5, 6) if n not in (die.top, 7 - die.top)]
    specs = [(ez, ex, ey, die.top)]
    for k, (nrm, u) in enumerate(((ex, ey), (ey, -ex), (-ex, -ey), (-ey, ex))):
        num = side_numbers[k % 2] if k < 2 else 7 - side_numbers[k % 2]
        specs.append((nrm, u, ez, num))
    faces = []
    for nrm, u, v, _ in specs:
        fc = centre + nrm * s
        quad = np.array([fc - u * s - v * s, fc + u * s - v * s, fc + u * s + v * s, fc - u * s + v * s])
        faces.append((quad, nrm, _shade(die.colour, nrm, view, gloss=0.3, at=fc)))
    _faces(img, faces, view)
    for nrm, u, v, num in specs:
        fc = centre + nrm * s
        if float(nrm @ (view.center - fc)) <= 0:
            continue
        pip_col = _shade(die.pip_colour, nrm, view)
        r = s * 0.17
        ang = np.linspace(0, 2 * np.pi, 12, endpoint=False)
        for px, py in _PIPS[num]:
            pc = fc + nrm * 0.01 + u * px * s * 0.5 + v * py * s * 0.5
            ring = pc + np.outer(np.cos(ang), u) * r + np.outer(np.sin(ang), v) * r
            _fill(img, view.project(ring), pip_col)


def _draw_stick(img: np.ndarray, st: Stick, view: View) -> None:
    a = np.radians(st.angle_deg)
    axis = np.array([np.cos(a), np.sin(a), 0.0])
    side = np.array([-np.sin(a), np.cos(a), 0.0])
    up = np.array([0.0, 0.0, -1.0])
    sides = 6 if st.kind == "pencil" else 12
    r = st.radius_mm
    base = np.array([st.center_mm[0], st.center_mm[1], -r]) - axis * st.length_mm / 2
    phase = np.pi / 6 if st.kind == "pencil" else 0.0
    ang = np.linspace(0, 2 * np.pi, sides, endpoint=False) + phase
    ring_dirs = np.outer(np.cos(ang), side) + np.outer(np.sin(ang), up)

    # Sections along the axis: (start, end, start radius, end radius, colour).
    L = st.length_mm
    if st.kind == "pencil":
        wood = (140, 190, 225)
        sections = [
            (0.0, 0.05 * L, r * 0.98, r * 0.98, (140, 140, 235)),  # eraser
            (0.05 * L, 0.09 * L, r * 1.02, r * 1.02, (180, 185, 190)),  # ferrule
            (0.09 * L, L - 17, r, r, st.colour),
            (L - 17, L - 3, r, r * 0.28, wood),
            (L - 3, L, r * 0.28, 0.05, (60, 60, 60)),
        ]
    else:
        cap = tuple(int(v * 0.8) for v in st.colour)
        sections = [
            (0.0, 0.38 * L, r * 1.08, r * 1.08, cap),
            (0.38 * L, L - 14, r, r, (235, 235, 235) if sum(st.colour) < 300 else (60, 60, 60)),
            (L - 14, L - 2, r, r * 0.35, st.colour),
            (L - 2, L, r * 0.35, 0.2, (170, 170, 175)),
        ]
    faces = []
    for s0, s1, r0, r1, col in sections:
        ring0 = base + axis * s0 + ring_dirs * r0
        ring1 = base + axis * s1 + ring_dirs * r1
        slope = (r0 - r1) / max(s1 - s0, 1e-6)
        for i in range(sides):
            j = (i + 1) % sides
            quad = np.array([ring0[i], ring0[j], ring1[j], ring1[i]])
            mid_dir = ring_dirs[i] + ring_dirs[j]
            normal = mid_dir / np.linalg.norm(mid_dir) + axis * slope
            faces.append((quad, normal, _shade(col, normal, view, gloss=0.4, at=quad.mean(0))))
    faces.append((base + ring_dirs * sections[0][2], -axis, _shade(sections[0][4], -axis, view)))
    # Sections are drawn far to near so the nearer one overlaps at the joints.
    by_section = [faces[k * sides : (k + 1) * sides] for k in range(len(sections))]
    order = range(len(sections))
    if float(axis @ (view.center - base)) < 0:  # the far end is the tip end
        order = reversed(range(len(sections)))
    _faces(img, [faces[-1]], view)
    for k in order:
        _faces(img, by_section[k], view)


# ---------------------------------------------------------------------------------------------- notes


def random_note_size(rng: np.random.Generator) -> tuple[float, float]:
    """Sticky note, score pad sheet or an index card, mm (width, height)."""
    return [(76.0, 76.0), (100.0, 148.0), (127.0, 76.0), (105.0, 74.0)][int(rng.integers(4))]


def note_image(rng: np.random.Generator, size_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """Paper with pencil or ink scribbles (score keeping), BGR uint8, upright, at about `px_per_mm`."""
    p = float(np.clip(px_per_mm, 1.0, 8.0))
    w, h = max(8, int(size_mm[0] * p)), max(8, int(size_mm[1] * p))
    paper = np.asarray(_NOTE_COLOURS[int(rng.integers(len(_NOTE_COLOURS)))], np.float64)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(paper * rng.uniform(0.92, 1.02), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:  # ruled
        for y in np.arange(12 * p, h, 7 * p):
            cv2.line(img, (0, int(y)), (w, int(y)), (200, 170, 150), max(1, int(0.25 * p)), cv2.LINE_AA)
    ink = [(110, 40, 20), (40, 40, 40), (100, 100, 100), (30, 30, 150)][int(rng.integers(4))]
    thick = max(1, int(round(0.45 * p)))
    y = 10 * p
    while y < h - 6 * p:
        x = 6 * p + rng.uniform(0, 4 * p)
        x_end = rng.uniform(0.4, 0.95) * w
        while x < x_end:  # a "word": a wiggly stroke
            n = int(rng.integers(4, 12))
            xs = x + np.cumsum(rng.uniform(0.8, 2.2, n)) * p
            ys = y + rng.normal(0, 1.3, n) * p
            pts = np.round(np.stack([xs, ys], 1) * _ONE).astype(np.int32)
            cv2.polylines(img, [pts], False, ink, thick, cv2.LINE_AA, _SHIFT)
            x = xs[-1] + rng.uniform(2, 5) * p
        y += 7 * p
    return img

"""Procedural art for scorecam's print-and-play Mondo tiles.

A face (one side of a tile, as in the kit manifest) is drawn in three steps:

1. Regions. Every area that reaches sides gets seeds: its sides, a short spine from each side into the
   tile and, when it joins several sides, curves from the spines to a hub. Each pixel takes the area
   of its nearest seed (a Voronoi map of connected seed sets, so each region hangs together), looked up
   through a gentle warp, smoothed, and with water shrunk towards its edges. All three fade out near
   the edges, so every edge strip stays exactly its side's terrain and boundaries between sides run
   into the corners. Interior patches are blobs stamped inside their host area. The catalog generator
   (make_mondo_catalog) checks every face's regions and gives a face another seed where they fail.
2. Paint. Each terrain has its own colour and texture (waves, tree crowns, dunes, grass tufts); every
   area boundary is a thin dark line; water gets a light foam band along the coast.
3. Badges. Animals are dark silhouettes on light round badges, volcanoes a cone with a glowing top on
   a badge of their own; backs get soft clouds instead.

Everything is derived from the face's data and ``art`` (seed, badge and patch positions in mm), so the
same face always gives the same pixels.
"""

from __future__ import annotations

import functools
import json
import math

import cv2
import numpy as np

TILE_MM = 50.0
DEFAULT_PX_PER_MM = 300 / 25.4
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
TERRAINS: tuple[str, ...] = ("water", "forest", "desert", "plains")
LAND_TERRAINS: tuple[str, ...] = ("forest", "desert", "plains")
SPECIES: tuple[str, ...] = ("elephant", "giraffe", "monkey", "parrot", "turtle", "lion")

EDGE_STRIP_MM = 3.0  # depth along each edge that always shows the side's terrain
BADGE_RADIUS_MM = 4.5  # animals and volcanoes: 9 mm across, countable in a phone photo
PATCH_EDGE_MARGIN_MM = 4.0  # interior patches keep at least this far from every edge
PATCH_SHAPE_MAX = 1.2  # a patch's outline stays within this factor of its nominal radius

# Base colours (BGR). Far apart in hue and lightness so the edge read-back and a small CNN separate them.
TERRAIN_BGR: dict[str, tuple[int, int, int]] = {
    "water": (196, 128, 44),
    "forest": (52, 100, 38),
    "desert": (96, 178, 228),
    "plains": (88, 210, 158),
}
_LINE_BGR = (34, 34, 38)
_FOAM_BGR = (246, 236, 214)
_BADGE_BGR = (222, 240, 248)
_INK_BGR = (28, 30, 40)

# Seed geometry, in mm.
_SPINE_MM = {"water": (2.0, 6.0), "land": (8.0, 15.0)}
_ANCHOR_SPAN = (0.38, 0.62)  # where a spine leaves its side, as a fraction of the side
_WARP_FREE_MM = 6.0  # no warp this close to an edge: edge strips and corner boundaries stay exact
_WARP_RAMP_MM = 8.0
_WEIGHT_MM = {"water": (9.0, 13.0), "land": (-1.0, 1.0)}
_SMOOTH_MM = 1.0
# Each side as a segment (mm, x right, y down), in the order N E S W.
SIDE_SEGMENTS_MM: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "N": ((0.0, 0.0), (TILE_MM, 0.0)),
    "E": ((TILE_MM, 0.0), (TILE_MM, TILE_MM)),
    "S": ((0.0, TILE_MM), (TILE_MM, TILE_MM)),
    "W": ((0.0, 0.0), (0.0, TILE_MM)),
}
_INWARD = {"N": (0.0, 1.0), "E": (-1.0, 0.0), "S": (0.0, -1.0), "W": (1.0, 0.0)}


def tile_size_px(px_per_mm: float) -> int:
    """Side length in pixels of a face drawn at ``px_per_mm``."""
    return max(8, round(TILE_MM * px_per_mm))


def _face_seed(face: dict) -> int:
    return int(face.get("art", {}).get("seed", 0))


def _side_point(side: str, t: float) -> np.ndarray:
    (x0, y0), (x1, y1) = SIDE_SEGMENTS_MM[side]
    return np.array([x0 + t * (x1 - x0), y0 + t * (y1 - y0)])


def _bezier(p0: np.ndarray, p1: np.ndarray, bend: float, steps: int = 24) -> np.ndarray:
    """A quadratic curve from p0 to p1 whose middle is pushed sideways by ``bend`` mm."""
    d = p1 - p0
    normal = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    c = (p0 + p1) / 2 + bend * normal
    u = np.linspace(0.0, 1.0, steps)[:, None]
    return (1 - u) ** 2 * p0 + 2 * (1 - u) * u * c + u**2 * p1


def mondo_seed_curves(face: dict) -> list[list[np.ndarray]]:
    """Interior seed curves (mm, x right, y down) of each area, spines and hub curves; [] for patches.

    The sides themselves are seeds too but are not listed. The catalog generator uses these to check
    that different areas' seeds keep apart, which keeps every corridor wide enough to read.
    """
    rng = np.random.default_rng(_face_seed(face))
    centre = np.array([TILE_MM / 2, TILE_MM / 2])
    curves: list[list[np.ndarray]] = []
    for area in face["areas"]:
        sides = area["sides"]
        kind = "water" if area["terrain"] == "water" else "land"
        tips, spines = [], []
        for side in sides:
            anchor = _side_point(side, rng.uniform(*_ANCHOR_SPAN))
            tip = anchor + rng.uniform(*_SPINE_MM[kind]) * np.array(_INWARD[side])
            spines.append(_bezier(anchor, tip, rng.normal(0.0, 0.8), steps=8))
            tips.append(tip)
        area_curves = list(spines)
        if len(sides) >= 2:
            # The hub sits between the spine tips, pulled towards the centre so joins run through the tile.
            hub = np.mean(tips, axis=0)
            hub = hub + 0.3 * (centre - hub) + rng.normal(0.0, 1.5, 2)
            hub = np.clip(hub, 12.0, TILE_MM - 12.0)
            for tip in tips:
                area_curves.append(_bezier(tip, hub, rng.normal(0.0, 2.5)))
        curves.append(area_curves)
    return curves


def _warp_field(seed: int, n: int, px_per_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sampling coordinates (pixels) for the region lookup, identity near the edges and gently wavy inside,
    and the envelope (0 at the edges, 1 inside) that fades the warp in."""
    rng = np.random.default_rng(seed + 7919)
    mm = (np.arange(n, dtype=np.float32) + 0.5) / px_per_mm
    dx = np.zeros((n, n), np.float32)
    dy = np.zeros((n, n), np.float32)
    for out in (dx, dy):
        for _ in range(3):
            wavelength = rng.uniform(18.0, 34.0)
            angle = rng.uniform(0, 2 * math.pi)
            fx, fy = (
                (2 * math.pi / wavelength) * math.cos(angle),
                (2 * math.pi / wavelength) * math.sin(angle),
            )
            phase = rng.uniform(0, 2 * math.pi)
            amp = 1.2
            # sin(fx x + fy y + p) split into row and column factors: two outer products instead of n*n sines.
            sx, cx = np.sin(fx * mm + phase), np.cos(fx * mm + phase)
            sy, cy = np.sin(fy * mm), np.cos(fy * mm)
            out += amp * (np.outer(cy, sx) + np.outer(sy, cx))
    edge = np.minimum(mm, TILE_MM - mm)
    edge_dist = np.minimum(edge[:, None], edge[None, :])
    ramp = np.clip((edge_dist - _WARP_FREE_MM) / _WARP_RAMP_MM, 0.0, 1.0)
    envelope = ramp * ramp * (3 - 2 * ramp)
    grid = np.arange(n, dtype=np.float32)
    map_x = grid[None, :] + dx * envelope * px_per_mm
    map_y = grid[:, None] + dy * envelope * px_per_mm
    return map_x.astype(np.float32), map_y.astype(np.float32), envelope.astype(np.float32)


def _area_weights_mm(face: dict) -> list[float]:
    """Extra distance (mm) each area's seeds count for inside the tile: positive shrinks the area."""
    rng = np.random.default_rng(_face_seed(face) + 3571)
    return [
        float(rng.uniform(*_WEIGHT_MM["water" if a["terrain"] == "water" else "land"])) for a in face["areas"]
    ]


def _seed_distance(polylines: list[np.ndarray], n: int, px_per_mm: float) -> np.ndarray:
    """Distance in pixels from every pixel to the nearest of the polylines (given in mm)."""
    canvas = np.full((n, n), 255, np.uint8)
    shift = 4
    # Clamped so that the sides at x or y = TILE_MM land on the last pixel row or column, not beyond it.
    pts = [
        np.round(np.clip(p * px_per_mm - 0.5, 0, n - 1) * (1 << shift)).astype(np.int32) for p in polylines
    ]
    cv2.polylines(canvas, pts, False, 0, 1, cv2.LINE_8, shift)
    return cv2.distanceTransform(canvas, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)


@functools.lru_cache(maxsize=32)
def _side_regions_cached(face_json: str, px_per_mm: float) -> np.ndarray:
    face = json.loads(face_json)
    n = tile_size_px(px_per_mm)
    curves = mondo_seed_curves(face)
    map_x, map_y, envelope = _warp_field(_face_seed(face), n, px_per_mm)
    weights = _area_weights_mm(face)
    big = np.float32(1e6)
    sigma = _SMOOTH_MM * px_per_mm
    dists = []
    for area, area_curves, weight in zip(face["areas"], curves, weights, strict=True):
        if not area["sides"]:
            dists.append(np.full((n, n), big, np.float32))
            continue
        lines = [np.array(SIDE_SEGMENTS_MM[s]) for s in area["sides"]] + area_curves
        d = _seed_distance(lines, n, px_per_mm)
        d = cv2.remap(d, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # Blurring the distance rounds off the kinks where seed curves end; the weight shifts the boundary
        # inside the tile only, so sea stays a coastal strip and the edges keep their exact terrain.
        d = cv2.GaussianBlur(d, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
        dists.append(d + np.float32(weight * px_per_mm) * envelope)
    labels = np.argmin(np.stack(dists), axis=0).astype(np.int16)
    labels.flags.writeable = False
    return labels


def _face_key(face: dict) -> str:
    return json.dumps(face, sort_keys=True, separators=(",", ":"))


def mondo_side_regions(face: dict, px_per_mm: float = 4.0) -> np.ndarray:
    """Label map (indices into ``face["areas"]``) of the areas that reach sides, before patches are stamped."""
    return _side_regions_cached(_face_key(face), float(px_per_mm)).copy()


def patch_outline_mm(patch: dict, seed: int, points: int = 48) -> np.ndarray:
    """Outline (mm) of an interior patch: a wobbly blob within PATCH_SHAPE_MAX times its radius."""
    rng = np.random.default_rng(seed * 31 + int(patch["area"]))
    theta = np.linspace(0, 2 * math.pi, points, endpoint=False)
    wobble = (
        1.0 + 0.07 * np.sin(2 * theta + rng.uniform(0, 6.3)) + 0.06 * np.sin(3 * theta + rng.uniform(0, 6.3))
    )
    stretch = rng.uniform(0.85, 1.0)
    turn = rng.uniform(0, math.pi)
    r = float(patch["r"]) * wobble
    x, y = r * np.cos(theta), stretch * r * np.sin(theta)
    xr = x * math.cos(turn) - y * math.sin(turn)
    yr = x * math.sin(turn) + y * math.cos(turn)
    return np.stack([xr + float(patch["x"]), yr + float(patch["y"])], axis=1)


def _to_px(points_mm: np.ndarray, px_per_mm: float, shift: int = 4) -> np.ndarray:
    return np.round((points_mm * px_per_mm - 0.5) * (1 << shift)).astype(np.int32)


def mondo_face_regions(face: dict, px_per_mm: float = 4.0) -> np.ndarray:
    """Label map (int16, indices into ``face["areas"]``) of a face drawn at ``px_per_mm``, patches included.

    Badges are not part of it: they sit on top of the regions.
    """
    labels = mondo_side_regions(face, px_per_mm)
    seed = _face_seed(face)
    for patch in face.get("art", {}).get("patches", []):
        mask = np.zeros(labels.shape, np.uint8)
        cv2.fillPoly(mask, [_to_px(patch_outline_mm(patch, seed), px_per_mm)], 1, cv2.LINE_8, 4)
        labels[mask > 0] = int(patch["area"])
    return labels


# ---------------------------------------------------------------------------------------------- paint


def _boundary_distance(labels: np.ndarray) -> np.ndarray:
    """Distance in pixels to the nearest boundary between two areas (large where there is none)."""
    edge = np.zeros(labels.shape, bool)
    edge[:, :-1] |= labels[:, :-1] != labels[:, 1:]
    edge[:-1, :] |= labels[:-1, :] != labels[1:, :]
    if not edge.any():
        return np.full(labels.shape, 1e4, np.float32)
    return cv2.distanceTransform(np.where(edge, 0, 255).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)


def _smooth_noise(rng: np.random.Generator, n: int, cells: int) -> np.ndarray:
    grid = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(grid, (n, n), interpolation=cv2.INTER_CUBIC)


def _jittered_grid(rng: np.random.Generator, spacing: float, jitter: float) -> np.ndarray:
    """Points (mm) on a staggered grid over the tile, each moved a little at random."""
    rows = int(TILE_MM / (spacing * 0.866)) + 2
    cols = int(TILE_MM / spacing) + 2
    pts = []
    for r in range(rows):
        for c in range(cols):
            pts.append(((c + 0.5 * (r % 2)) * spacing - spacing / 2, r * spacing * 0.866 - spacing / 2))
    pts_arr = np.array(pts) + rng.uniform(-jitter, jitter, (len(pts), 2))
    return pts_arr


def _shade(bgr: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    if factor >= 1:
        return tuple(int(round(c + (255 - c) * (factor - 1))) for c in bgr)  # type: ignore[return-value]
    return tuple(int(round(c * factor)) for c in bgr)  # type: ignore[return-value]


class _Painter:
    """Draws texture marks onto a face image, only where a mark fits inside its own terrain's area."""

    def __init__(
        self, img: np.ndarray, labels: np.ndarray, terrains: list[str], clear_mm: np.ndarray, px_per_mm: float
    ):
        self.img, self.labels, self.terrains = img, labels, terrains
        self.clear_mm, self.ppm = clear_mm, px_per_mm
        self.n = labels.shape[0]
        self.shift = 4

    def fits(self, p: np.ndarray, terrain: str, radius_mm: float) -> bool:
        j, i = int(p[0] * self.ppm), int(p[1] * self.ppm)
        if not (0 <= i < self.n and 0 <= j < self.n):
            return False
        return self.terrains[self.labels[i, j]] == terrain and self.clear_mm[i, j] >= radius_mm

    def px(self, p: np.ndarray) -> tuple[int, int]:
        q = (np.asarray(p) * self.ppm - 0.5) * (1 << self.shift)
        return int(round(q[0])), int(round(q[1]))

    def width(self, mm: float) -> int:
        return max(1, int(round(mm * self.ppm)))

    def polyline(self, pts_mm: np.ndarray, colour: tuple[int, int, int], width_mm: float) -> None:
        pts = _to_px(pts_mm, self.ppm, self.shift)
        cv2.polylines(self.img, [pts], False, colour, self.width(width_mm), cv2.LINE_AA, self.shift)

    def circle(self, c: np.ndarray, r_mm: float, colour: tuple[int, int, int], width_mm: float = -1) -> None:
        w = -1 if width_mm < 0 else self.width(width_mm)
        r = int(round(r_mm * self.ppm * (1 << self.shift)))
        cv2.circle(self.img, self.px(c), r, colour, w, cv2.LINE_AA, self.shift)


def _paint_water(p: _Painter, rng: np.random.Generator) -> None:
    light = _shade(TERRAIN_BGR["water"], 1.45)
    for c in _jittered_grid(rng, 5.2, 1.4):
        length, amp = rng.uniform(2.6, 3.8), rng.uniform(0.35, 0.5)
        if not p.fits(c, "water", length / 2 + 0.4):
            continue
        u = np.linspace(-0.5, 0.5, 12)
        wave = np.stack([c[0] + u * length, c[1] - amp * np.sin(2 * math.pi * u)], 1)
        p.polyline(wave, light, 0.32)


def _paint_forest(p: _Painter, rng: np.random.Generator) -> None:
    base = TERRAIN_BGR["forest"]
    outline = _shade(base, 0.55)
    crowns = []
    for c in _jittered_grid(rng, 3.3, 0.8):
        r = rng.uniform(1.45, 2.05)
        if p.fits(c, "forest", r + 0.25):
            crowns.append((c, r, rng.uniform(1.08, 1.28)))
    # Lower crowns overlap the ones behind them, like a canopy seen slightly from the side.
    for c, r, tone in sorted(crowns, key=lambda t: t[0][1]):
        p.circle(c, r, _shade(base, tone))
        p.circle(c, r, outline, 0.22)
        p.circle(c + np.array([-0.35, -0.4]) * r, 0.38 * r, _shade(base, tone + 0.22))


def _paint_desert(p: _Painter, rng: np.random.Generator) -> None:
    dark = _shade(TERRAIN_BGR["desert"], 0.74)
    for c in _jittered_grid(rng, 6.5, 1.8):
        length, height = rng.uniform(5.0, 8.0), rng.uniform(0.9, 1.5)
        if p.fits(c, "desert", length / 2 + 0.3):
            u = np.linspace(-1, 1, 16)
            dune = np.stack([c[0] + u * length / 2, c[1] - height * (1 - u**2) + 0.3 * u], 1)
            p.polyline(dune, dark, 0.3)
    pebble = _shade(TERRAIN_BGR["desert"], 0.82)
    for c in _jittered_grid(rng, 5.0, 2.4):
        if rng.random() < 0.35 and p.fits(c, "desert", 0.6):
            p.circle(c, rng.uniform(0.2, 0.32), pebble)


def _paint_plains(p: _Painter, rng: np.random.Generator) -> None:
    grass = (40, 132, 92)
    for c in _jittered_grid(rng, 4.3, 1.2):
        if not p.fits(c, "plains", 1.9):
            continue
        if rng.random() < 0.12:
            colour = (250, 250, 250) if rng.random() < 0.5 else (60, 210, 250)
            for k in range(4):
                a = k * math.pi / 2 + 0.4
                p.circle(c + 0.32 * np.array([math.cos(a), math.sin(a)]), 0.24, colour)
            p.circle(c, 0.18, (40, 150, 230))
            continue
        height = rng.uniform(1.3, 1.8)
        for angle in (-0.45, 0.0, 0.45):
            tip = c + height * np.array([math.sin(angle), -math.cos(angle)]) * (0.8 if angle else 1.0)
            p.polyline(np.stack([c, tip]), grass, 0.26)


_PAINTERS = {"water": _paint_water, "forest": _paint_forest, "desert": _paint_desert, "plains": _paint_plains}


def _paint_regions(labels: np.ndarray, terrains: list[str], px_per_mm: float, seed: int) -> np.ndarray:
    n = labels.shape[0]
    rng = np.random.default_rng(seed + 104729)
    palette = np.array([TERRAIN_BGR[t] for t in terrains], np.float32)
    img = palette[labels]
    # A soft light-dark wash, like printed watercolour, gives texture without changing the hue.
    wash = 1.0 + 0.045 * _smooth_noise(rng, n, 6)
    img = np.clip(img * wash[..., None], 0, 255).astype(np.uint8)
    clear_px = _boundary_distance(labels)
    painter = _Painter(img, labels, terrains, clear_px / px_per_mm, px_per_mm)
    for terrain in TERRAINS:
        if terrain in terrains:
            _PAINTERS[terrain](painter, rng)
    # Foam along the coast, on the water side, so land and sea read apart even in poor light.
    water = np.array([t == "water" for t in terrains])[labels]
    foam_w = 1.1 * px_per_mm
    foam = np.where(water, np.clip(1.0 - clear_px / foam_w, 0.0, 1.0) * 0.85, 0.0)
    img = _blend(img, _FOAM_BGR, foam)
    # Every area boundary: a thin dark line (anti-aliased through the distance to the boundary).
    half = max(0.7, 0.2 * px_per_mm)
    line = np.clip(half + 0.5 - clear_px, 0.0, 1.0)
    return _blend(img, _LINE_BGR, line)


def _blend(img: np.ndarray, colour: tuple[int, int, int], alpha: np.ndarray) -> np.ndarray:
    a = alpha.astype(np.float32)[..., None]
    out = img.astype(np.float32) * (1 - a) + np.array(colour, np.float32) * a
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------- badges

# Silhouettes in a 100 x 100 box (y down), as (shape, colour, params). "ink" is the dark silhouette,
# "paper" cuts light details back out of it.
_Shape = tuple[str, str, tuple]

_MONKEY_TAIL = (  # a curled tail: the points of one thick line
    (42, 72), (34, 78), (25, 80), (17, 76), (13, 68), (13, 60), (17, 53), (23, 51), (28, 54), (29, 59),
)  # fmt: skip

_SILHOUETTES: dict[str, list[_Shape]] = {
    "elephant": [
        ("ellipse", "ink", (57, 50, 27, 19, 0)),
        ("circle", "ink", (29, 40, 15)),
        ("line", "ink", ((20, 46), (13, 58), (12, 70), (17, 76), 7)),
        ("rect", "ink", (36, 56, 45, 82)),
        ("rect", "ink", (49, 60, 58, 82)),
        ("rect", "ink", (64, 60, 73, 82)),
        ("rect", "ink", (76, 56, 84, 80)),
        ("line", "ink", ((82, 44), (89, 56), 2.5)),
        ("ellipse", "paper", (38, 41, 7, 10, 0)),
        ("ellipse", "ink", (38, 41, 5, 8, 0)),
        ("line", "paper", ((21, 53), (27, 60), 2.5)),
        ("circle", "paper", (24, 36, 2)),
    ],
    "giraffe": [
        ("ellipse", "ink", (40, 56, 21, 11, -8)),
        ("poly", "ink", ((48, 52), (58, 50), (77, 20), (70, 15))),
        ("ellipse", "ink", (78, 17, 10, 5, 25)),
        ("line", "ink", ((71, 12), (69, 4), 2.5)),
        ("line", "ink", ((76, 11), (75, 3), 2.5)),
        ("circle", "ink", (69, 4, 2.5)),
        ("circle", "ink", (75, 3, 2.5)),
        ("rect", "ink", (23, 58, 28, 93)),
        ("rect", "ink", (31, 60, 36, 93)),
        ("rect", "ink", (47, 58, 52, 93)),
        ("rect", "ink", (55, 56, 60, 93)),
        ("line", "ink", ((20, 52), (13, 68), 2)),
        ("circle", "paper", (32, 53, 3.2)),
        ("circle", "paper", (42, 58, 3.2)),
        ("circle", "paper", (50, 51, 2.8)),
        ("circle", "paper", (60, 40, 2.3)),
        ("circle", "paper", (67, 30, 2.0)),
    ],
    "monkey": [
        ("line", "ink", (*_MONKEY_TAIL, 4.5)),
        ("ellipse", "ink", (52, 58, 15, 20, 0)),
        ("ellipse", "ink", (50, 80, 17, 8, 0)),
        ("line", "ink", ((62, 46), (75, 58), (71, 71), 6)),
        ("circle", "ink", (46, 22, 5.5)),
        ("circle", "ink", (74, 22, 5.5)),
        ("circle", "ink", (60, 26, 13)),
        ("ellipse", "paper", (60, 30, 8, 7, 0)),
        ("circle", "ink", (56, 28, 1.6)),
        ("circle", "ink", (64, 28, 1.6)),
        ("line", "ink", ((57, 34), (63, 34), 1.4)),
    ],
    "parrot": [
        ("line", "ink", ((18, 74), (86, 74), 4)),
        ("poly", "ink", ((52, 58), (70, 92), (60, 95), (44, 62))),
        ("ellipse", "ink", (50, 45, 13, 22, -20)),
        ("circle", "ink", (42, 24, 12)),
        ("poly", "ink", ((33, 18), (22, 22), (22, 30), (27, 34), (31, 30))),
        ("circle", "paper", (43, 21, 2.6)),
        ("circle", "ink", (43, 21, 1.2)),
        ("line", "paper", ((53, 38), (60, 50), (58, 62), 2)),
        ("line", "ink", ((44, 66), (42, 74), 3)),
        ("line", "ink", ((53, 66), (54, 74), 3)),
    ],
    "turtle": [
        ("ellipse", "ink", (28, 30, 9, 5, -40)),
        ("ellipse", "ink", (72, 30, 9, 5, 40)),
        ("ellipse", "ink", (28, 72, 8, 4.5, 40)),
        ("ellipse", "ink", (72, 72, 8, 4.5, -40)),
        ("circle", "ink", (50, 13, 8)),
        ("poly", "ink", ((46, 82), (54, 82), (50, 92))),
        ("ellipse", "ink", (50, 51, 24, 29, 0)),
        ("poly", "paper", ((50, 37), (60, 44), (60, 57), (50, 64), (40, 57), (40, 44))),
        ("poly", "ink", ((50, 40), (57, 45), (57, 56), (50, 61), (43, 56), (43, 45))),
        ("line", "paper", ((40, 44), (30, 36), 2)),
        ("line", "paper", ((60, 44), (70, 36), 2)),
        ("line", "paper", ((40, 57), (30, 66), 2)),
        ("line", "paper", ((60, 57), (70, 66), 2)),
        ("line", "paper", ((50, 64), (50, 78), 2)),
        ("line", "paper", ((50, 37), (50, 24), 2)),
    ],
    "lion": [
        ("ellipse", "ink", (60, 52, 25, 13, 0)),
        ("rect", "ink", (40, 56, 48, 84)),
        ("rect", "ink", (51, 58, 58, 84)),
        ("rect", "ink", (68, 58, 75, 84)),
        ("rect", "ink", (78, 54, 85, 84)),
        ("line", "ink", ((84, 48), (92, 40), (94, 30), 2.5)),
        ("circle", "ink", (94, 27, 4.5)),
        ("star", "ink", (30, 40, 20, 15, 14)),
        ("circle", "paper", (27, 42, 9.5)),
        ("circle", "ink", (24, 39, 1.6)),
        ("circle", "ink", (31, 39, 1.6)),
        ("poly", "ink", ((25, 45), (30, 45), (27.5, 48.5))),
        ("line", "ink", ((27.5, 48), (27.5, 50), (24, 51.5), 1.2)),
    ],
}

_VOLCANO: list[_Shape] = [
    ("circle", (206, 208, 212), (40, 22, 8)),
    ("circle", (206, 208, 212), (51, 15, 9)),
    ("circle", (206, 208, 212), (61, 21, 7)),
    ("poly", (62, 74, 86), ((12, 84), (88, 84), (62, 38), (38, 38))),
    ("poly", (88, 100, 112), ((38, 38), (50, 38), (44, 84), (12, 84))),
    ("poly", (20, 70, 230), ((37, 38), (63, 38), (60, 44), (40, 44))),
    ("poly", (20, 110, 245), ((41, 42), (47, 42), (44, 60))),
    ("poly", (20, 110, 245), ((52, 42), (59, 42), (57, 55))),
    ("ellipse", (40, 170, 255), (50, 37, 10, 3, 0)),
    ("line", (60, 70, 80), ((8, 84), (92, 84), 3)),
]


def _draw_shapes(
    canvas: np.ndarray, shapes: list[_Shape], box: tuple[float, float, float], colours: dict
) -> None:
    """Draws shapes given in the 100-unit box onto canvas; box = (x0, y0, size) in canvas pixels."""
    x0, y0, size = box
    s = size / 100.0

    def pt(x: float, y: float) -> tuple[int, int]:
        return int(round(x0 + x * s)), int(round(y0 + y * s))

    for kind, colour_key, params in shapes:
        colour = colours.get(colour_key, colour_key) if isinstance(colour_key, str) else colour_key
        if kind == "circle":
            cx, cy, r = params
            cv2.circle(canvas, pt(cx, cy), max(1, round(r * s)), colour, -1, cv2.LINE_AA)
        elif kind == "ellipse":
            cx, cy, rx, ry, angle = params
            axes = (max(1, round(rx * s)), max(1, round(ry * s)))
            cv2.ellipse(canvas, pt(cx, cy), axes, angle, 0, 360, colour, -1, cv2.LINE_AA)
        elif kind == "rect":
            xa, ya, xb, yb = params
            cv2.fillPoly(
                canvas, [np.array([pt(xa, ya), pt(xb, ya), pt(xb, yb), pt(xa, yb)])], colour, cv2.LINE_AA
            )
        elif kind == "poly":
            cv2.fillPoly(canvas, [np.array([pt(*q) for q in params])], colour, cv2.LINE_AA)
        elif kind == "line":
            *pts, width = params
            cv2.polylines(
                canvas,
                [np.array([pt(*q) for q in pts])],
                False,
                colour,
                max(1, round(width * s)),
                cv2.LINE_AA,
            )
        elif kind == "star":
            cx, cy, r_out, r_in, spikes = params
            a = np.linspace(0, 2 * math.pi, 2 * spikes, endpoint=False)
            r = np.where(np.arange(2 * spikes) % 2 == 0, r_out, r_in)
            star = [pt(cx + ri * math.cos(ai), cy + ri * math.sin(ai)) for ri, ai in zip(r, a, strict=True)]
            cv2.fillPoly(canvas, [np.array(star)], colour, cv2.LINE_AA)


@functools.lru_cache(maxsize=64)
def _badge_sprite(kind: str, size_px: int) -> tuple[np.ndarray, np.ndarray]:
    """(BGR, alpha) of a round badge with an animal silhouette or a volcano, supersampled then reduced."""
    ss = 4
    big = size_px * ss
    pad = big * 0.08  # room for the ring and the drop shadow
    canvas = np.zeros((big, big, 3), np.uint8)
    alpha = np.zeros((big, big), np.uint8)
    c = (big // 2, big // 2)
    radius = int(big / 2 - pad)
    shadow_off = max(1, int(big * 0.03))
    cv2.circle(alpha, (c[0] + shadow_off, c[1] + shadow_off), radius, 110, -1, cv2.LINE_AA)
    cv2.circle(alpha, c, radius, 255, -1, cv2.LINE_AA)
    cv2.circle(canvas, c, radius, _BADGE_BGR, -1, cv2.LINE_AA)
    cv2.circle(canvas, c, radius, _INK_BGR, max(1, int(big * 0.035)), cv2.LINE_AA)
    inner = radius * 2 * 0.74
    box = (c[0] - inner / 2, c[1] - inner / 2, inner)
    shapes = _VOLCANO if kind == "volcano" else _SILHOUETTES[kind]
    _draw_shapes(canvas, shapes, box, {"ink": _INK_BGR, "paper": _BADGE_BGR})
    bgr = cv2.resize(canvas, (size_px, size_px), interpolation=cv2.INTER_AREA)
    a = cv2.resize(alpha, (size_px, size_px), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    bgr.flags.writeable = False
    a.flags.writeable = False
    return bgr, a


def _paste_badge(img: np.ndarray, kind: str, x_mm: float, y_mm: float, px_per_mm: float) -> None:
    # The sprite's padding (8% each side) is outside the badge, so scale it to keep the badge 9 mm across.
    size = max(6, int(round(2 * BADGE_RADIUS_MM * px_per_mm / 0.84)))
    bgr, a = _badge_sprite(kind, size)
    n = img.shape[0]
    x0 = int(round(x_mm * px_per_mm - size / 2))
    y0 = int(round(y_mm * px_per_mm - size / 2))
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(n, x0 + size), min(n, y0 + size)
    if xa >= xb or ya >= yb:
        return
    sub_bgr = bgr[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32)
    sub_a = a[ya - y0 : yb - y0, xa - x0 : xb - x0, None]
    region = img[ya:yb, xa:xb].astype(np.float32)
    # Shadow pixels have alpha but a black sprite colour: they darken the tile softly.
    img[ya:yb, xa:xb] = np.clip(region * (1 - sub_a) + sub_bgr * sub_a + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------- clouds


def _cloud_puffs(rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Circles (x, y, r in mm) of two to four cumulus clouds, each moved to keep 6 mm off every edge."""
    count = int(rng.integers(2, 5))
    centres: list[np.ndarray] = []
    for _ in range(200):
        c = rng.uniform(13, 37, 2)
        if all(np.linalg.norm(c - d) >= 16 - count for d in centres):
            centres.append(c)
        if len(centres) == count:
            break
    margin = 6.0
    puffs = []
    for cx, cy in centres:
        width = rng.uniform(13, 17) if len(centres) >= 3 else rng.uniform(17, 24)
        cloud = [(cx + u * width / 2, cy + 1.5, rng.uniform(2.6, 3.4)) for u in np.linspace(-0.8, 0.8, 5)]
        cloud += [
            (cx + rng.uniform(-0.45, 0.45) * width / 2, cy - rng.uniform(0.5, 2.5), rng.uniform(3.8, 5.2))
            for _ in range(3)
        ]
        left = min(x - r for x, _, r in cloud) - margin
        right = max(x + r for x, _, r in cloud) - (TILE_MM - margin)
        top = min(y - r for _, y, r in cloud) - margin
        bottom = max(y + r for _, y, r in cloud) - (TILE_MM - margin)
        sx = -left if left < 0 else -right if right > 0 else 0.0
        sy = -top if top < 0 else -bottom if bottom > 0 else 0.0
        puffs += [(x + sx, y + sy, r) for x, y, r in cloud]
    return puffs


def _paint_clouds(img: np.ndarray, seed: int, px_per_mm: float) -> np.ndarray:
    """Soft white cumulus clouds, kept off the edge strips so the back's terrain still reads at every edge."""
    n = img.shape[0]
    body = np.zeros((n, n), np.float32)
    for x, y, r in _cloud_puffs(np.random.default_rng(seed + 15485863)):
        centre = (int(round(x * px_per_mm)), int(round(y * px_per_mm)))
        cv2.circle(body, centre, int(round(r * px_per_mm)), 1.0, -1, cv2.LINE_AA)
    # A soft shadow on the ground, an opaque white body with a soft rim, and a cool grey underside.
    shadow = np.roll(body, (int(1.2 * px_per_mm), int(0.6 * px_per_mm)), (0, 1))
    img = _blend(img, (0, 0, 0), np.clip(cv2.GaussianBlur(shadow, (0, 0), 1.2 * px_per_mm), 0, 1) * 0.22)
    soft = np.clip(cv2.GaussianBlur(body, (0, 0), 0.25 * px_per_mm), 0, 1)
    img = _blend(img, (252, 250, 250), soft * 0.97)
    above = cv2.GaussianBlur(np.roll(body, -int(1.0 * px_per_mm), 0), (0, 0), 0.6 * px_per_mm)
    underside = cv2.GaussianBlur(np.clip(body - above, 0, 1), (0, 0), 0.5 * px_per_mm)
    return _blend(img, (226, 212, 200), underside * 0.75 * soft)


# --------------------------------------------------------------------------------------------- render


@functools.lru_cache(maxsize=128)
def _render_cached(face_json: str, px_per_mm: float) -> np.ndarray:
    face = json.loads(face_json)
    labels = mondo_face_regions(face, px_per_mm)
    terrains = [a["terrain"] for a in face["areas"]]
    seed = _face_seed(face)
    img = _paint_regions(labels, terrains, px_per_mm, seed)
    art = face.get("art", {})
    if art.get("clouds"):
        img = _paint_clouds(img, seed, px_per_mm)
    for volcano in art.get("volcanoes", []):
        _paste_badge(img, "volcano", volcano["x"], volcano["y"], px_per_mm)
    for animal in art.get("animals", []):
        _paste_badge(img, animal["species"], animal["x"], animal["y"], px_per_mm)
    img.flags.writeable = False
    return img


def render_mondo_face(face: dict, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """A face drawn upright as a square BGR image, ``TILE_MM * px_per_mm`` pixels across.

    Deterministic for the same face; cached on the face's content and the resolution.
    """
    return _render_cached(_face_key(face), float(px_per_mm)).copy()

"""Find Mondo islands in a photo: their outline as a projective quad, their grid size and cell quads.

A tiny segmentation net (models/mondo-locator.onnx, see models/README.md) maps a picture to two
maps at half its resolution: the island's *occupied cells* (a gapless region: the seams between
tiles are filled in, loose tiles are left out) and a blob at every tile's centre. The rest is
classical geometry, in two passes:

1. Find. The photo at ~320 px long side -> maps. Every connected region of occupied cells with at
   least 3 tile centres is a candidate. A lattice is fitted to its centres (guesses from the
   region's hull cut down to 4 sides, and from local steps between neighbouring centres; the guess
   that puts most centres on a compact lattice wins; a centre counts once per lattice point, only
   on an occupied cell, and only inside the grid-sized window that holds most of them, so a
   tile-like pattern on the table cannot stretch the grid), tile centres outside the region that
   sit on the lattice join it (an island tile whose neighbours are all empty looks loose to the
   net), and the occupied lattice points give the grid's extent and size (3 or 4; `grid` forces it).
   The photo is searched at 320 and 640 px long side, where a small island's tiles are blobs of a
   few pixels; so every island found is then looked at again: pass 1 on a window around it, cut
   from a finer decode of the photo where needed, at the scales where a cell spans 30 and 45 px
   (the sizes the net learnt). A lattice finer than the net knows, or far from the occupied cells
   it was fitted in, is not taken; its window is then cut around the occupied cells instead.
2. Refine. The photo is rectified onto the found grid (plus a margin) at 256 px, where every
   cell has the same size whatever the tilt, and the net runs again; its centres are fitted to a
   lattice afresh and relabelled to agree with pass 1 (so pass 1 may be off by a fair part of a
   cell). One least-squares homography from the tile centres at their lattice points *and* the
   outline points along the grid's 4 outer lines (both constraints are linear in the image ->
   lattice map, so one eigenproblem solves them) is then polished by a few Levenberg-Marquardt
   steps that also ask the grid to be square on the table as a phone camera sees it: the outline
   settles the corners, the centres keep a notch of empty cells honest, and the camera keeps an
   empty corner cell, which only extrapolation reaches, from tilting with the hand-placed tiles.

Lattice guesses are also checked against that camera: a sheared labelling of few centres fits a
homography as well as the true one, but no camera sees a square grid that way.

The net's input size, normalization and output layout come from the model's ONNX metadata.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.mondo.lattice import (
    GRIDS,
    _settle,
    apply_h,
    assign,
    camera_plausible,
    grid_extent,
    lattice_guesses,
    other_extents,
    to_lattice,
)
from vision.onnx_model import load_session, models_dir

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "mondo-locator.onnx"

PEAK_MIN = 0.15  # a tile-centre peak counts from this probability
CELLS_MIN = 0.5  # occupied-cells threshold
MIN_CENTRES = 3  # an island shows at least this many tile centres on one lattice
REACH_TOL = 0.45  # ... while refitting once the lattice is known (extrapolation is worst at the rim)
ADOPT_TOL = 0.2  # ... for a tile outside the island's region (loose tiles lie off the lattice)
SIDE_WEIGHT = 0.9  # the outline along one cell's side weighs as much as this many tile centres
LINE_BAND = 0.2  # outline points within this (cells) of an outer grid line are on it
UPSAMPLE = 4  # the cells map is upsampled this much before tracing its outline
MAX_SHIFT = 1.0  # cells: the refined outline may move this far from the first one, unless it holds more tiles
AGAIN_SHIFT = 0.15  # cells: a refinement that moved a corner this far is refined once more
FOCAL_RATIO = 25.5 / 43.27  # a phone's main camera: 23-28 mm equivalent over the 36x24 mm diagonal
CAMERA_PRIOR = 10.0  # weight of "square grid, seen by that camera" against the data (cells)
MAX_LINE_POINTS = 400  # outline points in the final fit, at most
OCCUPIED_MIN = 0.5  # a tile centre counts where the cells map's mean over its cell's middle reaches this
PUSH_MAX = 0.45  # cells: a tile centre this far from its cell's middle still belongs to the cell
OFFSET_DEADBAND = 0.04  # cells: a crop follows its tile only beyond this (the centre's own error)
SECOND_ISLAND = 6  # tile centres on a lattice that make a second island whatever the first has
IDEAL_CELL = 30.0  # net input px per cell: where the net sees tiles best (passes are chosen by it)
MIN_CELL_IN = 9.0  # net input px per cell: a lattice finer than this is no island (the net learnt 12-50)
ZOOM_BELOW = 1e9  # net input px per cell: an island seen smaller is looked at again, zoomed in
REGION_RATIO = 2.2  # a grid's area over its occupied cells' beyond which (either way) its lattice is wrong
REGION_BEYOND = 1.3  # cells: a grid corner this far outside its occupied cells' box means the same
ZOOM_CELLS = (IDEAL_CELL, 1.5 * IDEAL_CELL)  # px a cell spans in a zoomed look (the net knows 12-50)
ZOOM_MARGIN = 1.5  # cells of table around a zoomed island: room for a row the first look missed
FINER_BELOW = 0.8  # refine on a finer view of the photo when a cell has less than this share of its
# rectified size in the reduced one


@dataclass(frozen=True, eq=False)  # eq=False: numpy fields
class FoundIsland:
    quad: np.ndarray  # 4x2 float32 image px, TL TR BR BL (clockwise on screen)
    grid: int
    cell_quads: np.ndarray  # (grid*grid, 4, 2) float32, reading order
    tiles_seen: int
    score: float  # 0..1
    # Other places of the grid that hold the same tiles (outer quads, as `quad`): where the tiles
    # leave a whole outer row or column empty, the photo alone does not say on which side it is.
    alternatives: tuple[np.ndarray, ...] = ()
    cut: bool = False  # the island runs off the photo's edge


@dataclass(frozen=True, eq=False)
class LocateResult:
    islands: tuple[FoundIsland, ...]  # largest first; empty when none
    timing_ms: dict[str, float]


@dataclass(frozen=True, eq=False)
class LocatorModel:
    session: ort.InferenceSession
    meta: dict


@lru_cache(maxsize=2)
def load_locator(path: str | None = None) -> LocatorModel:
    """The ONNX session (one thread: the reader runs one photo a core) and its "scorecam" metadata."""
    session, meta = load_session(path or models_dir() / MODEL_PATH.name, task="mondo-locator")
    return LocatorModel(session, meta)


# ------------------------------------------------------------------------------------------ model

Affine = tuple[float, float, float, float]  # map px -> picture px: x * ax + bx, y * ay + by


def net_maps(model: LocatorModel, picture: np.ndarray) -> tuple[np.ndarray, np.ndarray, Affine]:
    """Run the net on a picture already at input scale: (cells, centres) maps and map px -> picture px."""
    spec = model.meta["input"]
    h, w = picture.shape[:2]
    m = spec["multiple"]
    pad_y, pad_x = -h % m, -w % m
    if pad_x or pad_y:
        picture = cv2.copyMakeBorder(picture, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
    x = (picture.astype(np.float32) - np.float32(spec["mean"])) / np.float32(spec["std"])
    maps = model.session.run(None, {spec["name"]: x.transpose(2, 0, 1)[None]})[0][0]
    out = model.meta["outputs"]["maps"]
    stride, offset = out["stride"], out["offset"]
    hm, wm = -(-h // stride), -(-w // stride)  # the part that covers the picture, not the padding
    names = out["channels"]
    cells, centres = maps[names.index("cells"), :hm, :wm], maps[names.index("centres"), :hm, :wm]
    return cells, centres, (float(stride), float(stride), float(offset), float(offset))


def pass_sides(model: LocatorModel, image_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The long sides the whole photo is searched at (the model's metadata lists them; a finer pass
    only where the photo has the pixels for it): a small island's tiles are lost at the first."""
    spec = model.meta["input"]
    sides = spec.get("long_sides", [spec["long_side"]])
    top = max(image_shape[:2])
    return tuple(int(s) for s in sides if s == sides[0] or s <= top)


def photo_maps(
    model: LocatorModel, image: np.ndarray, long_side: int | None = None
) -> tuple[np.ndarray, np.ndarray, Affine]:
    """The maps of the whole photo, scaled to `long_side` (default: the model's input size); map px ->
    image px."""
    h, w = image.shape[:2]
    s = (long_side or model.meta["input"]["long_side"]) / max(h, w)
    size = (max(1, round(w * s)), max(1, round(h * s)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    cells, centres, (ax, ay, bx, by) = net_maps(model, small)
    sx, sy = size[0] / w, size[1] / h
    # input px -> image px: (p + 0.5) / s - 0.5 (cv2.resize keeps pixel centres)
    return cells, centres, (ax / sx, ay / sy, (bx + 0.5) / sx - 0.5, (by + 0.5) / sy - 0.5)


def map_to_image(pts: np.ndarray, affine: Affine) -> np.ndarray:
    ax, ay, bx, by = affine
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    return np.column_stack([p[:, 0] * ax + bx, p[:, 1] * ay + by])


@dataclass(frozen=True, eq=False)
class CellsMap:
    """The occupied-cells map and its map px -> picture px affine."""

    values: np.ndarray
    affine: Affine

    def occupancy(self, g: np.ndarray, lattice: np.ndarray) -> np.ndarray:
        """Mean of the map over the middle (0.6 x 0.6 cell) of each lattice cell, `g` mapping picture
        px -> lattice: about 1 under a tile, low on the table. A tile-like pattern on the table (a
        stripe, a printed card) makes a peak the lattice may take in, but no occupied cell."""
        if not len(lattice):
            return np.zeros(0)
        offs = np.stack(np.meshgrid(np.linspace(-0.3, 0.3, 5), np.linspace(-0.3, 0.3, 5)), -1).reshape(-1, 2)
        pts = apply_h(np.linalg.inv(g), (np.asarray(lattice, float)[:, None, :] + offs).reshape(-1, 2))
        ax, ay, bx, by = self.affine
        mx = ((pts[:, 0] - bx) / ax).astype(np.float32).reshape(1, -1)
        my = ((pts[:, 1] - by) / ay).astype(np.float32).reshape(1, -1)
        vals = cv2.remap(self.values.astype(np.float32), mx, my, cv2.INTER_LINEAR, borderValue=0.0)
        return vals.reshape(len(lattice), -1).mean(1)


def find_peaks(heat: np.ndarray, threshold: float = PEAK_MIN) -> np.ndarray:
    """Local maxima of `heat` above `threshold`: (N, 2) sub-pixel xy, map px."""
    dilated = cv2.dilate(heat, np.ones((5, 5), np.uint8))
    ys, xs = np.nonzero((heat >= dilated) & (heat > threshold))
    h, w = heat.shape
    inner = (xs > 0) & (xs < w - 1) & (ys > 0) & (ys < h - 1)
    dx, dy = np.zeros(len(xs)), np.zeros(len(xs))
    xi, yi = xs[inner], ys[inner]
    c = heat[yi, xi].astype(np.float64)
    # a parabola through the peak and its neighbours, per axis
    left, right = heat[yi, xi - 1], heat[yi, xi + 1]
    up, down = heat[yi - 1, xi], heat[yi + 1, xi]
    with np.errstate(divide="ignore", invalid="ignore"):
        dx[inner] = np.clip(np.nan_to_num(0.5 * (left - right) / (left - 2 * c + right)), -0.5, 0.5)
        dy[inner] = np.clip(np.nan_to_num(0.5 * (up - down) / (up - 2 * c + down)), -0.5, 0.5)
    return np.column_stack([xs + dx, ys + dy])


# ------------------------------------------------------------------------------------------ outline


def region_outline(cells: np.ndarray, labels: np.ndarray, label: int) -> np.ndarray:
    """The region's outer boundary (N, 2) in map px, traced on the upsampled probability map so that
    it lies where the probability crosses the threshold, not on the map's pixel steps."""
    ys, xs = np.nonzero(labels == label)
    h, w = cells.shape
    x0, y0 = max(0, xs.min() - 2), max(0, ys.min() - 2)
    x1, y1 = min(w, xs.max() + 3), min(h, ys.max() + 3)
    keep = cv2.dilate((labels[y0:y1, x0:x1] == label).astype(np.uint8), np.ones((3, 3), np.uint8))
    roi = np.where(keep > 0, cells[y0:y1, x0:x1], 0).astype(np.float32)
    big = cv2.resize(roi, ((x1 - x0) * UPSAMPLE, (y1 - y0) * UPSAMPLE), interpolation=cv2.INTER_LINEAR)
    contours, _ = cv2.findContours(
        (big > CELLS_MIN).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    if not contours:
        return np.zeros((0, 2))
    pts = max(contours, key=cv2.contourArea)[:, 0, :].astype(np.float64)
    return (pts + 0.5) / UPSAMPLE - 0.5 + [x0, y0]


def _cross(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float, float]:
    # plain floats: np.cross costs more than the whole arithmetic for 3-vectors
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _line_through(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    return _cross((float(a[0]), float(a[1]), 1.0), (float(b[0]), float(b[1]), 1.0))


def _meet(l1: tuple[float, float, float], l2: tuple[float, float, float]) -> np.ndarray | None:
    x, y, w = _cross(l1, l2)
    return None if abs(w) < 1e-12 else np.array([x / w, y / w])


def hull_to_quad(hull: np.ndarray) -> np.ndarray | None:
    """Cut a convex polygon down to 4 sides, each time dropping the side whose removal (extending its
    two neighbours to meet) adds the least area: short cut corners and jagged bits go first."""
    poly = [np.asarray(p, np.float64) for p in hull]
    while len(poly) > 4:
        n = len(poly)
        best, best_cost, best_pt = -1, np.inf, None
        for i in range(n):
            a, b, c, d = poly[i - 1], poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
            p = _meet(_line_through(a, b), _line_through(c, d))
            # the meeting point must lie beyond b (along a->b) and before c (along d->c): outside
            if p is None or np.dot(p - b, b - a) < 0 or np.dot(p - c, c - d) < 0:
                continue
            cost = abs(float((b[0] - p[0]) * (c[1] - p[1]) - (c[0] - p[0]) * (b[1] - p[1]))) / 2
            if cost < best_cost:
                best, best_cost, best_pt = i, cost, p
        if best < 0:
            return None
        poly[best] = best_pt
        del poly[(best + 1) % n]
    return np.array(poly) if len(poly) == 4 else None


def outline_quad(outline: np.ndarray) -> np.ndarray | None:
    """A first guess at the grid's outline: the region's convex hull cut down to 4 sides (right when
    at most a corner cell is empty; the lattice fit checks it against the tile centres)."""
    if len(outline) < 8:
        return None
    hull = cv2.convexHull(outline.astype(np.float32))
    hull = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True)[:, 0, :].astype(np.float64)
    return hull_to_quad(hull) if len(hull) >= 4 else None


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The same quad, ordered clockwise on screen (y down)."""
    q = np.asarray(quad, np.float64)
    area = float(np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1]))
    return q if area > 0 else q[::-1].copy()


def upright(quad: np.ndarray) -> np.ndarray:
    """Start the clockwise quad at the corner that is top-left after the smallest rotation: the
    top and bottom sides then run closest to the image's x axis, left to right."""
    best, best_cos = quad, -2.0
    for k in range(4):
        q = np.roll(quad, -k, 0)
        d = (q[1] - q[0]) + (q[2] - q[3])
        c = d[0] / (np.hypot(*d) + 1e-12)
        if c > best_cos:
            best, best_cos = q, c
    return best


def tile_points(
    g: np.ndarray, pts: np.ndarray, grid: int | None, cells: CellsMap | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centres that are the island's tiles under lattice map G: on a lattice point, on an
    occupied cell (where `cells` is given), one per lattice point (the closest), and inside the
    grid-sized window of the lattice that holds most of them (a false centre beyond the island
    would otherwise stretch the grid). (lattice coords, tile mask, residuals)."""
    idx, ok, r = assign(g, pts)
    if cells is not None and ok.any():
        ok[ok] = cells.occupancy(g, idx[ok]) >= OCCUPIED_MIN
    seen: set[tuple[int, int]] = set()
    for k in np.flatnonzero(ok)[np.argsort(r[ok])]:
        key = (int(idx[k, 0]), int(idx[k, 1]))
        ok[k] = key not in seen
        seen.add(key)
    size = grid or max(GRIDS)
    if ok.any() and (idx[ok].max(0) - idx[ok].min(0) + 1).max() > size:
        lo, hi = idx[ok].min(0), idx[ok].max(0)
        best, best_in = 0, ok
        for x0 in range(int(lo[0]), int(max(lo[0], hi[0] - size + 1)) + 1):
            for y0 in range(int(lo[1]), int(max(lo[1], hi[1] - size + 1)) + 1):
                inside = ok & np.all((idx >= [x0, y0]) & (idx < [x0 + size, y0 + size]), axis=1)
                if inside.sum() > best:
                    best, best_in = int(inside.sum()), inside
        ok = best_in
    return idx, ok, r


def fit_lattice(
    pts: np.ndarray,
    quad0: np.ndarray | None,
    grid: int | None,
    camera: np.ndarray | None = None,
    cells: CellsMap | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The map G (picture -> lattice, tile centres at integer points) that puts most tile centres
    (see `tile_points`) on a lattice that fits a grid, a camera-plausible one first; with the
    centres' lattice coordinates and tile mask."""
    best = None
    for blocks in (False, True):
        if best is not None and best[0][0]:
            break  # a camera-plausible lattice: no need to read the outline as a part of a grid
        for g in lattice_guesses(pts, quad0, grid, blocks):
            # a tile a cell beyond the rest is where a fit extrapolates worst: look for it again
            g = _settle(_settle(g, pts, REACH_TOL), pts)
            if not np.all(np.isfinite(g)) or np.linalg.cond(g) > 1e10:
                continue  # collinear centres: no plane lattice from them
            if blocks and not camera_plausible(g, camera):
                continue  # a fallback for an implausible lattice must do better than that
            idx, ok, r = tile_points(g, pts, grid, cells)
            if ok.sum() < MIN_CENTRES or grid_extent(idx[ok], grid) is None:
                continue
            # a sheared labelling fits the same points as well: the compact one is right
            span = idx[ok].max(0) - idx[ok].min(0) + 1
            key = (
                camera_plausible(g, camera),
                int(ok.sum()),
                -int(span.max()),
                -int(span.sum()),
                -float(np.sum(r[ok] ** 2)),
            )
            if best is None or key > best[0]:
                best = (key, g, idx, ok)
    return None if best is None else best[1:]


def adopt(
    g_h: np.ndarray, cells: np.ndarray, others: np.ndarray, grid: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Tile centres outside the region that sit on free lattice points (an island tile whose
    neighbours are all empty looks loose to the net), as long as the grid stays a grid: up to 3
    cells across, or up to what the region's own tiles (or the caller's grid) already span."""
    o_idx, o_ok, o_r = assign(g_h, others, ADOPT_TOL)
    taken = {tuple(p) for p in cells}
    limit = grid or max(3, int((cells.max(0) - cells.min(0) + 1).max()))
    adopted = np.zeros(len(others), bool)
    for k in np.argsort(o_r):
        key = tuple(o_idx[k])
        if not o_ok[k] or key in taken:
            continue
        grown = np.vstack([cells, o_idx[k]])
        if (grown.max(0) - grown.min(0) + 1).max() > limit:
            continue
        cells, adopted[k] = grown, True
        taken.add(key)
    return o_idx, adopted


# ------------------------------------------------------------------------------------------ refinement


def boundary_lines(extent: tuple[int, int, int]) -> np.ndarray:
    """The grid's 4 outer lines in lattice coordinates (tile centres at integers), a X + b Y + c = 0."""
    i0, j0, g = extent
    x0, x1, y0, y1 = i0 - 0.5, i0 - 0.5 + g, j0 - 0.5, j0 - 0.5 + g
    return np.array([[1.0, 0.0, -x0], [1.0, 0.0, -x1], [0.0, 1.0, -y0], [0.0, 1.0, -y1]])


def outline_on_lines(
    g_h: np.ndarray, outline: np.ndarray, extent: tuple[int, int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The outline points near one of the grid's outer lines (within LINE_BAND cells, away from the
    corners), which line, and their weights: SIDE_WEIGHT per cell of side they cover, however
    densely traced. The notch of an empty cell lies a whole cell inside and is left out; a side
    seen along one cell only weighs a third, so the tile centres hold its direction."""
    lines = boundary_lines(extent)
    u = apply_h(g_h, outline)
    dist = np.abs(u @ lines[:, :2].T + lines[:, 2])  # (N, 4): the lines have unit normals
    near = dist.argmin(1)
    along = np.where(near < 2, u[:, 1] - extent[1], u[:, 0] - extent[0]) + 0.5
    keep = (dist.min(1) < LINE_BAND) & (along > 0.1) & (along < extent[2] - 0.1)
    near, cell = near[keep], np.floor(along[keep]).astype(int)
    weights = np.zeros(len(near))
    for side in range(4):
        on = near == side
        if on.any():
            weights[on] = SIDE_WEIGHT * len(np.unique(cell[on])) / on.sum()
    return outline[keep], near, weights


def refine_homography(
    g_h: np.ndarray,
    centres: np.ndarray,
    lattice: np.ndarray,
    outline: np.ndarray,
    extent: tuple[int, int, int],
) -> np.ndarray:
    """One least-squares map from the tile centres at their lattice points and the outline points
    along the grid's outer lines (weighed by `outline_on_lines`). Twice: the points on the lines are chosen with the better map."""
    lines = boundary_lines(extent)
    for _ in range(2):
        pts, which, lw = outline_on_lines(g_h, outline, extent)
        g_new = to_lattice(centres, lattice, np.ones(len(centres)), lines[which], pts, lw)
        if g_new is None:
            break
        g_h = g_new
    return g_h


@dataclass(frozen=True, eq=False)
class _Found:
    g_h: np.ndarray  # image px -> lattice (tile centres at integer points)
    extent: tuple[int, int, int]  # first column, first row, grid size
    used: np.ndarray  # which of the photo's tile centres are this island's
    lattice: np.ndarray  # their lattice points


def find_island(
    centres: np.ndarray,
    mine: np.ndarray,
    free: np.ndarray,
    outline: np.ndarray,
    grid: int | None,
    camera: np.ndarray | None = None,
    cells: CellsMap | None = None,
) -> _Found | None:
    """Pass 1: lattice from the region's tile centres (guided by its outline), free centres on it
    (see `adopt`), grid extent from the occupied lattice points, then a first joint fit."""
    fit = fit_lattice(centres[mine], outline_quad(outline), grid, camera, cells)
    if fit is None:
        return None
    g_h, idx_m, ok_m = fit
    others = free & ~mine
    o_idx, adopted = adopt(g_h, idx_m[ok_m], centres[others], grid)
    used = np.zeros(len(centres), bool)
    used[np.flatnonzero(mine)[ok_m]] = True
    used[np.flatnonzero(others)[adopted]] = True
    idx = np.zeros((len(centres), 2), int)
    idx[np.flatnonzero(mine)] = idx_m
    idx[np.flatnonzero(others)] = o_idx
    extent = grid_extent(idx[used], grid, apply_h(g_h, outline))
    if extent is None:
        return None
    lattice = idx[used].astype(float)
    g_h = refine_homography(g_h, centres[used], lattice, outline, extent)
    return _Found(g_h, extent, used, lattice)


def rectify(
    image: np.ndarray, g_h: np.ndarray, extent: tuple[int, int, int], size: int, margin: float
) -> tuple[np.ndarray, np.ndarray]:
    """The photo warped so that the grid (`g_h`: image px -> lattice, `extent`) plus `margin` cells
    around it fills a `size` square: (picture, lattice -> picture px map). Every cell gets the same
    size, whatever the tilt. Training makes its rectified samples with this very function."""
    i0, j0, g = extent
    s = size / (g + 2 * margin)
    # lattice x -> picture px: (x - (i0 - 0.5 - margin)) * s - 0.5 (pixel centres at integers)
    to_px = np.array(
        [[s, 0, -(i0 - 0.5 - margin) * s - 0.5], [0, s, -(j0 - 0.5 - margin) * s - 0.5], [0, 0, 1]]
    )
    warp = to_px @ g_h
    # sampling one photo pixel per picture pixel or coarser: shrink the photo first, don't alias
    cell_px = np.sqrt(abs(cv2.contourArea(quad_of(g_h, extent).astype(np.float32)))) / g
    shrink = 1
    while cell_px / shrink > 2.2 * s:
        shrink *= 2
    src = image
    for _ in range(shrink.bit_length() - 1):
        src = cv2.pyrDown(src)
    if shrink > 1:
        # photo px -> shrunk px (pyrDown halves: x' = (x + 0.5) / 2 - 0.5)
        down = np.array([[1 / shrink, 0, 0.5 / shrink - 0.5], [0, 1 / shrink, 0.5 / shrink - 0.5], [0, 0, 1]])
        warp_src = warp @ np.linalg.inv(down)
    else:
        warp_src = warp
    picture = cv2.warpPerspective(
        src, warp_src, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return picture, to_px


def refine_rectified(
    model: LocatorModel, image: np.ndarray, found: _Found
) -> tuple[np.ndarray, np.ndarray] | None:
    """Pass 2: the net on the rectified grid, where cells are big and square; the same joint fit
    there. Returns the refined image -> lattice map and the tile centres it saw, image px (None:
    keep pass 1's)."""
    spec = model.meta.get("rectified", {"size": 256, "margin": 0.35})
    picture, to_px = rectify(image, found.g_h, found.extent, spec["size"], spec["margin"])
    cells, heat, affine = net_maps(model, picture)
    peaks = map_to_image(find_peaks(heat), affine)  # picture px
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        (cells > CELLS_MIN).astype(np.uint8), connectivity=8
    )
    if n < 2 or len(peaks) < MIN_CENTRES:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    outline = map_to_image(region_outline(cells, labels, k), affine)
    camera = to_px @ found.g_h @ nominal_camera(image.shape)  # intrinsics in picture px
    from_px = lattice_in_picture(
        peaks, outline, np.linalg.inv(to_px), found.extent[2], camera, CellsMap(cells, affine)
    )
    if from_px is None:
        return None
    idx, ok, _ = assign(from_px, peaks)
    i0, j0, g = found.extent
    ok &= np.all((idx >= [i0, j0]) & (idx < [i0 + g, j0 + g]), axis=1)
    if ok.sum() < MIN_CENTRES:
        return None
    g_px = refine_homography(from_px, peaks[ok], idx[ok].astype(float), outline, found.extent)
    g_h = g_px @ to_px @ found.g_h
    # back to photo px, where the camera is known, for the final fit
    back = np.linalg.inv(to_px @ found.g_h)
    g_cam = fit_on_camera(
        g_h,
        apply_h(back, peaks[ok]),
        idx[ok].astype(float),
        apply_h(back, outline),
        found.extent,
        image.shape,
    )
    if g_cam is not None:
        g_h = g_cam
    # A refinement that moves a corner far is a misreading, unless the big cells of the rectified
    # view show more tiles on the grid than the first pass saw: then the first pass was off.
    if _moved(g_h, found) > MAX_SHIFT and ok.sum() <= found.used.sum():
        return None
    return g_h / np.linalg.norm(g_h), apply_h(back, peaks[ok])


def nominal_camera(shape: tuple[int, ...]) -> np.ndarray:
    """Intrinsics of a phone's main camera for a photo of this shape: principal point in the middle,
    focal length FOCAL_RATIO of the diagonal."""
    h, w = shape[:2]
    f = FOCAL_RATIO * float(np.hypot(w, h))
    return np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])


def fit_on_camera(
    g_h: np.ndarray,
    centres: np.ndarray,
    lattice: np.ndarray,
    outline: np.ndarray,
    extent: tuple[int, int, int],
    shape: tuple[int, ...],
    iterations: int = 6,
) -> np.ndarray | None:
    """The joint fit again, now knowing that the grid is *square on a table seen by a camera*: in
    the camera's normalized coordinates the lattice -> image map's first two columns are the table's
    axes, orthogonal and of equal length. A general homography has two more degrees of freedom, which
    only the data pin down; where a corner cell is empty, hand-placed tiles' jitter then tilts the
    grid. Soft constraints (the focal length is only nominal) with a few Levenberg-Marquardt steps."""
    k = nominal_camera(shape)
    k_inv = np.linalg.inv(k)
    pts, which, lw = outline_on_lines(g_h, outline, extent)
    lines = boundary_lines(extent)[which]
    if len(pts) > MAX_LINE_POINTS:  # every few points carry the same information: thin them
        step = int(np.ceil(len(pts) / MAX_LINE_POINTS))
        pts, lines, lw = pts[::step], lines[::step], lw[::step] * step
    xc, xl = apply_h(k_inv, centres), apply_h(k_inv, pts)
    sw = np.sqrt(lw)
    hn = k_inv @ np.linalg.inv(g_h)  # lattice -> normalized camera coordinates
    if abs(hn[2, 2]) < 1e-12:
        return None
    p = (hn / hn[2, 2]).ravel()[:8]

    def residuals(p: np.ndarray) -> np.ndarray:
        h = np.append(p, 1.0).reshape(3, 3)
        g = np.linalg.inv(h)
        rc = (apply_h(g, xc) - lattice).ravel()
        u = apply_h(g, xl)
        rl = sw * (np.sum(u * lines[:, :2], 1) + lines[:, 2])
        m1, m2 = h[:, 0], h[:, 1]
        n1, n2 = np.linalg.norm(m1), np.linalg.norm(m2)
        prior = CAMERA_PRIOR * np.array([m1 @ m2 / (n1 * n2), (n1 - n2) / (n1 + n2)])
        return np.concatenate([rc, rl, prior])

    r = residuals(p)
    damping = 1e-3
    for _ in range(iterations):
        jac = np.empty((len(r), 8))
        for i in range(8):
            dp = np.zeros(8)
            dp[i] = 1e-6 * max(1.0, abs(p[i]))
            jac[:, i] = (residuals(p + dp) - r) / dp[i]
        a = jac.T @ jac
        step = np.linalg.solve(a + damping * np.diag(np.diag(a) + 1e-12), -jac.T @ r)
        r_new = residuals(p + step)
        if r_new @ r_new < r @ r:
            p, r, damping = p + step, r_new, damping * 0.3
        else:
            damping *= 10
    h = np.append(p, 1.0).reshape(3, 3)
    g = np.linalg.inv(k @ h)
    return g / np.linalg.norm(g)


def lattice_in_picture(
    peaks: np.ndarray,
    outline: np.ndarray,
    first: np.ndarray,
    grid: int,
    camera: np.ndarray,
    cells: CellsMap | None = None,
) -> np.ndarray | None:
    """The lattice of the rectified picture's tile centres, labelled as the first pass labelled it.

    Fitted afresh (where the first pass was off, the picture is skewed and its labels would put
    centres in the wrong cells); then the new labels are mapped onto the first pass's by the symmetry
    of the square plus the integer shift that agrees best with where `first` (picture px -> lattice)
    put the centres: averaged over all of them, its errors do not matter."""
    fit = fit_lattice(peaks, outline_quad(outline), grid, camera, cells)
    if fit is None:
        return first
    g_new, idx, ok = fit
    old = apply_h(first, peaks[ok])
    x = np.column_stack([idx[ok], np.ones(int(ok.sum()))])
    a, *_ = np.linalg.lstsq(x, old, rcond=None)  # new labels -> old coordinates, affine
    lin, shift = np.round(a[:2].T), np.round(a[2])
    if (
        abs(abs(np.linalg.det(lin)) - 1) > 1e-6
        or np.abs(lin).sum() != 2
        or np.abs(a[:2].T - lin).max() > 0.25
    ):
        return None  # not a symmetry of the square: the two fits disagree
    relabel = np.eye(3)
    relabel[:2, :2], relabel[:2, 2] = lin, shift
    return relabel @ g_new


def _moved(g_h: np.ndarray, found: _Found) -> float:
    """How far (cells) the grid corners of `found` move under the new map `g_h`."""
    corners = quad_corners(found.extent)
    return float(np.abs(apply_h(g_h, apply_h(np.linalg.inv(found.g_h), corners)) - corners).max())


def quad_corners(extent: tuple[int, int, int]) -> np.ndarray:
    i0, j0, g = extent
    x0, y0 = i0 - 0.5, j0 - 0.5
    return np.array([[x0, y0], [x0 + g, y0], [x0 + g, y0 + g], [x0, y0 + g]])


def quad_of(g_h: np.ndarray, extent: tuple[int, int, int]) -> np.ndarray:
    """The grid's outer corners in image px, clockwise on screen."""
    return clockwise(apply_h(np.linalg.inv(g_h), quad_corners(extent)))


# ------------------------------------------------------------------------------------------ islands


def group_regions(
    centres: np.ndarray, peak_label: np.ndarray, areas: np.ndarray, grid: int | None, camera: np.ndarray
) -> list[list[int]]:
    """Regions of occupied cells (labels, largest first), those that make one island together
    grouped: an empty row through an island splits its region in two, but all their tile centres
    sit on one lattice that fits a grid. Two islands side by side do not: together they span more
    than a grid. Single tiles (loose ones, mostly) are left to `adopt`."""
    order = [int(k) for k in np.argsort(-areas) if k > 0]
    counts = np.bincount(peak_label, minlength=len(areas))
    groups: list[list[int]] = []
    done: set[int] = set()
    for k in order:
        if k in done:
            continue
        group = [k]
        done.add(k)
        for j in order:
            if j in done or counts[j] < 2 or counts[k] < 2:
                continue
            pts = centres[np.isin(peak_label, [*group, j])]
            fit = fit_lattice(pts, None, grid, camera)
            if fit is not None and fit[2].sum() >= len(pts) - 1 and camera_plausible(fit[0], camera):
                group.append(j)
                done.add(j)
        groups.append(group)
    return groups


def sane_quad(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a grid outline can be a photographed island: finite, convex, not folded, and within a
    photo's size of the photo (a homography fitted to few points can throw a corner to infinity)."""
    if not np.all(np.isfinite(quad)):
        return False
    h, w = shape[:2]
    if np.any(quad < [-w, -h]) or np.any(quad > [2 * w, 2 * h]):
        return False
    return (
        bool(cv2.isContourConvex(quad.astype(np.float32)))
        and abs(cv2.contourArea(quad.astype(np.float32))) > 1
    )


def inside_any(point: np.ndarray, quads: list[np.ndarray]) -> bool:
    p = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(q.astype(np.float32), p, False) >= 0 for q in quads)


@dataclass(frozen=True, eq=False)
class _Candidate:
    found: _Found
    centres: np.ndarray  # this pass's tile centres, image px (found.used indexes them)
    quad: np.ndarray  # first-pass outline, image px
    cell_in: float  # cell side in the net's input px at this pass
    cut: bool  # its occupied region runs off the photo (another player's island at the edge)
    region: np.ndarray  # the bounding box of its occupied cells, image px: x0, y0, x1, y1
    region_area: float  # their area, image px^2

    def implausible(self) -> bool:
        """Whether the lattice is far from the occupied cells it was fitted in: a grid with many
        times their area (or a small part of them), or with a corner well beyond them, came from a
        few centres fitted wrongly (an empty outer row puts a corner one cell beyond them)."""
        area = abs(cv2.contourArea(self.quad.astype(np.float32)))
        ratio = area / max(self.region_area, 1.0)
        cell = np.sqrt(area) / self.found.extent[2]
        beyond = np.maximum(self.region[:2] - self.quad, self.quad - self.region[2:]).max() / max(cell, 1e-6)
        return not (1 / REGION_RATIO <= ratio <= REGION_RATIO) or beyond > REGION_BEYOND


_MAPS_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray, Affine]] = {}


def cached_photo_maps(
    model: LocatorModel, image: np.ndarray, long_side: int
) -> tuple[np.ndarray, np.ndarray, Affine]:
    """`photo_maps`, kept for the last photos: the reader locates a doubtful island again with the
    other grid size, on the same maps (the key samples the pixels, not only the buffer's address)."""
    key = (
        id(model),
        image.__array_interface__["data"][0],
        image.shape,
        long_side,
        image[::97, ::89].tobytes(),
    )
    if key not in _MAPS_CACHE:
        if len(_MAPS_CACHE) >= 6:
            _MAPS_CACHE.clear()
        _MAPS_CACHE[key] = photo_maps(model, image, long_side)
    return _MAPS_CACHE[key]


def first_pass(
    model: LocatorModel,
    image: np.ndarray,
    long_side: int,
    grid: int | None,
    camera: np.ndarray | None = None,
) -> list[_Candidate]:
    """Islands found by the net's maps of the whole photo at `long_side`; or of a window of a larger
    photo, when `camera` gives the intrinsics in px of `image` (a window's maps are not kept)."""
    maps = cached_photo_maps if camera is None else photo_maps
    cells, heat, affine = maps(model, image, long_side)
    peaks = find_peaks(heat)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        (cells > CELLS_MIN).astype(np.uint8), connectivity=8
    )
    h, w = labels.shape
    peak_px = np.clip(np.round(peaks).astype(int), 0, [w - 1, h - 1])
    peak_label = labels[peak_px[:, 1], peak_px[:, 0]]
    centres = map_to_image(peaks, affine)
    camera = nominal_camera(image.shape) if camera is None else camera
    out: list[_Candidate] = []
    free = np.ones(len(centres), bool)
    to_input = long_side / max(image.shape[:2])
    for group in group_regions(centres, peak_label, stats[:, cv2.CC_STAT_AREA], grid, camera):
        mine = np.isin(peak_label, group) & free
        # too few tiles for an island, or a fragment of one already found (glare, a seam)
        if mine.sum() < MIN_CENTRES or inside_any(centres[mine].mean(0), [c.quad for c in out]):
            continue
        outline = np.vstack([map_to_image(region_outline(cells, labels, k), affine) for k in group])
        found = find_island(centres, mine, free, outline, grid, camera, CellsMap(cells, affine))
        if found is None or found.used.sum() < MIN_CENTRES:
            continue
        free &= ~found.used
        quad = quad_of(found.g_h, found.extent)
        cell = np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))) / found.extent[2]
        x0, y0 = stats[group, cv2.CC_STAT_LEFT].min(), stats[group, cv2.CC_STAT_TOP].min()
        x1 = (stats[group, cv2.CC_STAT_LEFT] + stats[group, cv2.CC_STAT_WIDTH]).max()
        y1 = (stats[group, cv2.CC_STAT_TOP] + stats[group, cv2.CC_STAT_HEIGHT]).max()
        cut = bool(x0 <= 0 or y0 <= 0 or x1 >= w or y1 >= h)
        if cell * to_input < MIN_CELL_IN or not sane_quad(quad, image.shape):
            # a lattice of the tiles' own art or of the table's pattern (no tile is that small), or a
            # fit thrown off by few centres
            continue
        box = np.array([*map_to_image([[x0, y0]], affine)[0], *map_to_image([[x1, y1]], affine)[0]])
        area = float(stats[group, cv2.CC_STAT_AREA].sum()) * affine[0] * affine[1]
        out.append(_Candidate(found, centres, quad, float(cell * to_input), cut, box, area))
    return out


def zoom_pass(
    model: LocatorModel,
    image: np.ndarray,
    cand: _Candidate,
    grid: int | None,
    finer: Callable[[float], tuple[np.ndarray, float]] | None,
    cell_px: float = IDEAL_CELL,
) -> _Candidate | None:
    """Pass 1 again on a window around a candidate the whole-photo passes saw small, cut from the
    photo (a finer decode of it where needed) at the scale where a cell spans `cell_px`: a small
    island's tile centres are faint blobs of a few pixels at the whole-photo scales, and a lattice
    fitted to the few seen puts the grid a row off or takes in a loose tile. Returns the window's
    candidate for the same island, in `image` px (None: nothing there)."""
    if cand.implausible():
        # the lattice is wrong, so is its cell size: take the occupied cells' instead (3 or 4 a side)
        cell = np.sqrt(cand.region_area) / 3.5
        lo, hi = cand.region[:2], cand.region[2:]
    else:
        cell = np.sqrt(abs(cv2.contourArea(cand.quad.astype(np.float32)))) / cand.found.extent[2]
        # the grid and the occupied cells it was fitted in (a grid fitted to part of them misses some)
        lo, hi = np.minimum(cand.quad.min(0), cand.region[:2]), np.maximum(cand.quad.max(0), cand.region[2:])
    k = cell / cell_px  # image px per window px
    source, k_src = (image, 1.0) if finer is None or k >= 1 else finer(k)  # k_src: image px per source px
    # the window: the candidate plus ZOOM_MARGIN cells around it (a grid a row off, a missed row)
    lo = lo - ZOOM_MARGIN * cell
    hi = hi + ZOOM_MARGIN * cell
    h, w = source.shape[:2]
    x0, y0 = (np.maximum(np.floor(lo / k_src), 0)).astype(int)
    x1, y1 = (np.minimum(np.ceil(hi / k_src), [w, h])).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    f = k_src / k  # window px per source px
    size = (max(1, round((x1 - x0) * f)), max(1, round((y1 - y0) * f)))
    interpolation = cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
    window = cv2.resize(source[y0:y1, x0:x1], size, interpolation=interpolation)
    fx, fy = size[0] / (x1 - x0), size[1] / (y1 - y0)
    # image px -> window px (pixel centres kept: (p + 0.5) * f - 0.5)
    to_win = np.array(
        [
            [fx / k_src, 0, (0.5 - x0) * fx - 0.5],
            [0, fy / k_src, (0.5 - y0) * fy - 0.5],
            [0, 0, 1.0],
        ]
    )
    camera = to_win @ nominal_camera(image.shape)
    found = first_pass(model, window, max(window.shape[:2]), grid, camera)
    back = np.linalg.inv(to_win)
    centre, box = cand.quad.mean(0), cand.quad
    if cand.implausible():
        (x0, y0), (x1, y1) = cand.region[:2], cand.region[2:]
        centre, box = cand.region.reshape(2, 2).mean(0), np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    best = None
    for c in found:
        quad = apply_h(back, c.quad)
        if not (inside_any(centre, [quad]) or inside_any(quad.mean(0), [box])):
            continue
        if best is None or c.found.used.sum() > best.found.used.sum():
            best = replace(
                c,
                found=replace(c.found, g_h=c.found.g_h @ to_win),
                centres=apply_h(back, c.centres),
                quad=quad,
                cut=cand.cut,
                region=np.concatenate(
                    [apply_h(back, c.region[:2][None])[0], apply_h(back, c.region[2:][None])[0]]
                ),
                region_area=c.region_area / (to_win[0, 0] * to_win[1, 1]),
            )
    return best


def merge_passes(passes: list[list[_Candidate]]) -> list[_Candidate]:
    """One candidate per island over the passes: where two passes found the same island, the one
    that put more tile centres on its lattice (then the one that saw its cells nearest the size the
    net knows best). A pass that sees the island too small or too large finds few of its tiles.
    Candidates with under half the tiles of the best one are dropped unless they have many: a
    false lattice on a pattern, a fragment, not a second island."""
    merged: list[_Candidate] = []

    def key(c: _Candidate) -> tuple[bool, int, float, float]:
        # then the pass that saw more of the island's occupied cells (another split it in two)
        scale = -abs(float(np.log(c.cell_in / IDEAL_CELL)))
        return not c.implausible(), int(c.found.used.sum()), round(c.region_area, -2), scale

    for candidates in passes:
        for c in candidates:
            same = [
                i
                for i, m in enumerate(merged)
                if inside_any(c.quad.mean(0), [m.quad]) or inside_any(m.quad.mean(0), [c.quad])
            ]
            if not same:
                merged.append(c)
            elif key(c) > key(merged[same[0]]):
                merged[same[0]] = c
    most = max((int(c.found.used.sum()) for c in merged), default=0)
    return [c for c in merged if c.found.used.sum() >= min(SECOND_ISLAND, most / 2)]


def locate_islands(
    image: np.ndarray,
    *,
    grid: int | None = None,
    model: LocatorModel | None = None,
    finer: Callable[[float], tuple[np.ndarray, float]] | None = None,
) -> LocateResult:
    """Every island in a BGR photo (any size; ~1000 px long side is plenty to find them), largest
    first; islands cut by the photo's edge only when no whole one is in it.

    `finer(scale)` gives the photo with at most `scale` px of `image` per px, as (picture, its px per
    px of `image`); a small island is then refined on it, where its cells have the pixels they need
    (the quads returned stay in `image` px)."""
    if grid is not None and grid not in GRIDS:
        raise ValueError(f"grid must be one of {GRIDS}, got {grid}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ValueError(f"expected a BGR image, got an array of shape {image.shape}")
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    t0 = time.perf_counter()
    model = model or load_locator()
    sides = pass_sides(model, image.shape)
    candidates = merge_passes([first_pass(model, image, side, grid) for side in sides])
    if not candidates and len(sides) > 1 and max(image.shape[:2]) > sides[-1]:
        # nothing at the usual scales: a very small island may still show at a finer one
        finest = min(max(image.shape[:2]), int(sides[-1] * 1.5))
        candidates = merge_passes([first_pass(model, image, finest, grid)])
    whole = [c for c in candidates if not c.cut]
    candidates = whole or candidates
    for n, cand in enumerate(candidates):
        if cand.cell_in < ZOOM_BELOW or cand.implausible():
            looks = [zoom_pass(model, image, cand, grid, finer, cell_px) for cell_px in ZOOM_CELLS]
            zoomed = max(
                (z for z in looks if z is not None),
                key=lambda z: (not z.implausible(), int(z.found.used.sum())),
                default=None,
            )
            if zoomed is not None and (
                zoomed.found.used.sum() >= cand.found.used.sum()
                or (cand.implausible() and not zoomed.implausible())
            ):
                candidates[n] = zoomed
    t2 = time.perf_counter()
    out = []
    rect_cell = model.meta.get("rectified", {"size": 256, "margin": 0.35})
    for cand in candidates:
        found = cand.found
        g = found.extent[2]
        cell_px = np.sqrt(abs(cv2.contourArea(cand.quad.astype(np.float32)))) / g
        need = rect_cell["size"] / (g + 2 * rect_cell["margin"])  # px a cell spans in the rectified view
        source, k = image, 1.0
        if finer is not None and cell_px < FINER_BELOW * need:
            source, k = finer(cell_px / need)  # k: image px per px of source
        to_src = _scaling(1.0 / k)
        in_src = replace(found, g_h=found.g_h @ np.linalg.inv(to_src))
        refined = refine_rectified(model, source, in_src)
        if refined is not None and _moved(refined[0], in_src) > AGAIN_SHIFT:
            # the first pass was far off: the rectified view was skewed, so look once more
            refined = refine_rectified(model, source, replace(in_src, g_h=refined[0])) or refined
        g_h, seen = (None, None) if refined is None else (refined[0] @ to_src, refined[1])
        if g_h is not None and not sane_quad(quad_of(g_h, found.extent), image.shape):
            g_h, seen = None, None  # the refinement's fit broke down (a corner thrown far off): keep pass 1's
        # the tile centres seen, image px: the refinement's where it ran
        seen = cand.centres[found.used] if seen is None else apply_h(np.linalg.inv(to_src), seen)
        quad = upright(quad_of(g_h, found.extent) if g_h is not None else cand.quad).astype(np.float32)
        score = island_score(found, g_h if g_h is not None else found.g_h, cand.centres)
        others = tuple(
            upright(quad_of(g_h if g_h is not None else found.g_h, e)).astype(np.float32)
            for e in other_extents(found.lattice, found.extent)
        )
        final = g_h if g_h is not None else found.g_h
        offsets = tile_offsets(final, seen, found.extent)
        cell_quads = offset_cell_quads(final, found.extent, offsets, quad)
        out.append(FoundIsland(quad, g, cell_quads, int(found.used.sum()), score, others, cut=cand.cut))
    out.sort(key=lambda f: (-f.tiles_seen, -abs(cv2.contourArea(f.quad))))
    t3 = time.perf_counter()
    timing = {"find": 1000 * (t2 - t0), "refine": 1000 * (t3 - t2), "total": 1000 * (t3 - t0)}
    return LocateResult(tuple(out), timing)


def tile_offsets(g_h: np.ndarray, centres: np.ndarray, extent: tuple[int, int, int]) -> np.ndarray:
    """(grid*grid, 2) lattice units, reading order: how far the tile seen on each cell lies from the
    cell's middle (0 where no tile centre was seen). Tiles are laid by hand: one pushed a third of a
    cell out of line would stick out of a crop cut from the lattice."""
    i0, j0, g = extent
    out = np.zeros((g * g, 2))
    if not len(centres):
        return out
    u = apply_h(g_h, np.asarray(centres, np.float64))
    best = np.full(g * g, np.inf)
    for p in u:
        i, j = np.round(p).astype(int)
        d = p - (i, j)
        k = (j - j0) * g + (i - i0)
        if not (i0 <= i < i0 + g and j0 <= j < j0 + g) or np.hypot(*d) > PUSH_MAX:
            continue
        if np.hypot(*d) < best[k]:
            best[k], out[k] = np.hypot(*d), d
    # a centre's own error is a few hundredths of a cell: follow only what is more than that
    size = np.hypot(out[:, 0], out[:, 1])
    keep = np.clip(size - OFFSET_DEADBAND, 0, None) / np.maximum(size, 1e-9)
    return out * keep[:, None]


def offset_cell_quads(
    g_h: np.ndarray, extent: tuple[int, int, int], offsets: np.ndarray, quad: np.ndarray
) -> np.ndarray:
    """The cell quads of the grid, each moved by its tile's offset (lattice units), in the reading
    order of `quad` (the upright outline: its top-left corner is cell (0, 0))."""
    i0, j0, g = extent
    to_img = np.linalg.inv(g_h)
    corners = quad_corners(extent)
    # which lattice corner the upright outline starts at, and which way it runs
    img_corners = apply_h(to_img, corners)
    start = int(np.argmin(np.hypot(*(img_corners - quad[0]).T)))
    step = (
        1
        if np.hypot(*(img_corners[(start + 1) % 4] - quad[1]))
        < np.hypot(*(img_corners[(start - 1) % 4] - quad[1]))
        else -1
    )
    a, b, d = corners[start], corners[(start + step) % 4], corners[(start - step) % 4]
    across, down = (b - a) / g, (d - a) / g  # lattice steps along a row and down a column of the reading
    quads = []
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    for row in range(g):
        for col in range(g):
            pts = a + np.outer(unit[:, 0] + col, across) + np.outer(unit[:, 1] + row, down)
            centre = a + (col + 0.5) * across + (row + 0.5) * down
            i, j = np.round(centre).astype(int)
            pts = pts + offsets[(j - j0) * g + (i - i0)]
            quads.append(apply_h(to_img, pts))
    return np.array(quads, np.float32)


def _scaling(r: float) -> np.ndarray:
    """px -> px of a picture `r` times as large (pixel centres kept: x' = (x + 0.5) r - 0.5)."""
    return np.array([[r, 0.0, 0.5 * r - 0.5], [0.0, r, 0.5 * r - 0.5], [0.0, 0.0, 1.0]])


def island_score(found: _Found, g_h: np.ndarray, centres: np.ndarray) -> float:
    """Confidence 0..1: the share of the grid's cells with a tile centre seen on them (an island
    has at most a few empty cells) times how closely those centres sit on their lattice points."""
    g = found.extent[2]
    filled = min(1.0, float(found.used.sum()) / (g * g - 1))  # one empty cell costs nothing
    r = np.hypot(*(apply_h(g_h, centres[found.used]) - found.lattice).T)
    rms = float(np.sqrt(np.mean(r**2))) if len(r) else 1.0
    return float(np.clip(filled * np.exp(-((rms / 0.15) ** 2)), 0.0, 1.0))

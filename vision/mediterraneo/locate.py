"""Find the sea in a photo and fit its cell lattice.

The locator net (``models/mediterraneo-locator.onnx``) draws two maps of a picture: the visible sea
cells (objective cards and loose cards are not sea) and a blob at each visible cell's centre.
Geometry does the rest (``vision.lattice``):

1. the whole photo at the model's input size: the centre peaks on the sea give a first lattice;
2. the sea's region again, from a decode of the photo fine enough that a cell spans about the
   model's ``cell_px`` (``Photo.at_scale``): the sea is found at any size in the frame, and its
   cells are placed from a picture where each spans the same number of pixels; repeated on the sea
   found while it grows by whole cards with a lattice as tight (a first look at the whole photo can
   see only some of a small sea's cards, those of one frame in bad light);
3. the lattice relabelled upright (x right, y down as the photo shows it), the sea's cells kept as
   one 4-connected group of lattice nodes (a loose card that happens to sit on the lattice is not
   joined to it), each node's cell quad following the centre seen on it (cards lie by hand), and
   the ring of cells around them added for the cell model to read (a centre the net missed).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.errors import PhotoError
from vision.lattice import (
    LatticeFit,
    apply_h,
    assign,
    cell_size,
    fit_lattice,
    node_quads,
    reduced,
    support,
    upright,
)
from vision.locator_net import LocatorModel, load_locator_model, run_locator
from vision.photo_io import Photo

MODEL_NAME = "mediterraneo-locator.onnx"
PEAK_MIN = 0.3  # a cell-centre peak counts from this probability
SEA_MIN = 0.5  # the sea map's value at a peak for it to be a sea cell
MIN_CELLS = 4  # fewer sea cells on one lattice than this: no sea (one card alone shows 6)
FIRST_PASS = (2 / 3, 1.0)  # whole-photo passes, as factors of the model's input long side
FINE_LONG_MAX = 1280  # the second pass's picture, long side at most (px)
NO_SEA = "no sea found: no Mediterráneo cards on one lattice in this photo"
REGION_MARGIN = 1.5  # cells around the sea found that the second pass looks at
# The second pass is repeated on the sea it found, up to GROW_PASSES times, while the last pass found
# more cells than the one before it and the new one finds at least GROW_MIN more (a missed cell beside
# the sea is read anyway: the ring) and its lattice fits the centres seen about as well (mean distance
# from their nodes at most GROW_DOUBT cells and GROW_RATIO times the pass before's). Dev seeds 9622
# and 9624 stress (160 photos): seas whose first pass saw one frame's cards only grew by whole cards
# with the fit at 0.06-0.09; a patterned table's dots and a loose card joined to a sea took it to
# 0.13-0.14.
GROW_PASSES = 3
GROW_MIN = 3
GROW_DOUBT = 0.1
GROW_RATIO = 1.5
MIN_CELL_PX = 2.0  # a lattice whose cells are smaller than this (view px) is no sea the net could see


@lru_cache(maxsize=2)
def load_locator(path: str | None = None) -> LocatorModel:
    return load_locator_model(path, MODEL_NAME, task="mediterraneo-locator")


@dataclass(frozen=True, eq=False)
class Maps:
    """The net's two maps of a picture, and the map px -> photo px affine (x * ax + bx, y * ay + by)
    in the coordinates of the photo's reduced view."""

    sea: np.ndarray
    centres: np.ndarray
    affine: tuple[float, float, float, float]

    def to_photo(self, pts: np.ndarray) -> np.ndarray:
        ax, ay, bx, by = self.affine
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        return np.column_stack([p[:, 0] * ax + bx, p[:, 1] * ay + by])

    def sample(self, values: np.ndarray, pts: np.ndarray) -> np.ndarray:
        """Values of a map at photo points (bilinear; 0 outside)."""
        ax, ay, bx, by = self.affine
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        mx = ((p[:, 0] - bx) / ax).astype(np.float32).reshape(1, -1)
        my = ((p[:, 1] - by) / ay).astype(np.float32).reshape(1, -1)
        return cv2.remap(values.astype(np.float32), mx, my, cv2.INTER_LINEAR, borderValue=0.0).ravel()


def run_net(model: LocatorModel, picture: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sea, centres) maps of a picture at input scale (padded to the net's multiple, cut back)."""
    maps = run_locator(model, picture)
    names = model.meta["outputs"]["maps"]["channels"]
    return maps[names.index("sea")], maps[names.index("centres")]


def picture_maps(model: LocatorModel, image: np.ndarray, scale: float, origin=(0.0, 0.0)) -> Maps:
    """The maps of `image` resized by `scale`; `origin` is where image px (0, 0) lies in the photo's
    reduced view and `image` px per view px is given by the caller through `scale` (see callers)."""
    h, w = image.shape[:2]
    size = (max(16, round(w * scale)), max(16, round(h * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sea, centres = run_net(model, small)
    out = model.meta["outputs"]["maps"]
    stride, offset = float(out["stride"]), float(out["offset"])
    sx, sy = size[0] / w, size[1] / h
    # map px -> small px (j * stride + offset) -> image px ((p + 0.5) / s - 0.5) -> view px
    return Maps(sea, centres, (stride / sx, stride / sy, (offset + 0.5) / sx - 0.5 + origin[0],
                               (offset + 0.5) / sy - 0.5 + origin[1]))  # fmt: skip


def find_peaks(heat: np.ndarray, threshold: float = PEAK_MIN) -> tuple[np.ndarray, np.ndarray]:
    """Local maxima of `heat` above `threshold`: ((N, 2) sub-pixel xy in map px, their values)."""
    dilated = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= dilated) & (heat > threshold))
    h, w = heat.shape
    dx, dy = np.zeros(len(xs)), np.zeros(len(xs))
    inner = (xs > 0) & (xs < w - 1) & (ys > 0) & (ys < h - 1)
    xi, yi = xs[inner], ys[inner]
    c = heat[yi, xi].astype(np.float64)
    left, right, up, down = heat[yi, xi - 1], heat[yi, xi + 1], heat[yi - 1, xi], heat[yi + 1, xi]
    with np.errstate(divide="ignore", invalid="ignore"):
        dx[inner] = np.clip(np.nan_to_num(0.5 * (left - right) / (left - 2 * c + right)), -0.5, 0.5)
        dy[inner] = np.clip(np.nan_to_num(0.5 * (up - down) / (up - 2 * c + down)), -0.5, 0.5)
    return np.column_stack([xs + dx, ys + dy]), heat[ys, xs].astype(np.float64)


def sea_peaks(maps: Maps) -> tuple[np.ndarray, np.ndarray]:
    """Centre peaks that lie on the sea map, in view px, with their heights."""
    pts, values = find_peaks(maps.centres)
    if not len(pts):
        return np.zeros((0, 2)), np.zeros(0)
    on_sea = maps.sea[np.round(pts[:, 1]).astype(int), np.round(pts[:, 0]).astype(int)] > SEA_MIN
    return maps.to_photo(pts[on_sea]), values[on_sea]


def largest_group(nodes: np.ndarray) -> np.ndarray:
    """Mask of the nodes in the largest 4-connected group of distinct lattice nodes."""
    index = {tuple(n): i for i, n in enumerate(nodes.tolist())}
    group = -np.ones(len(nodes), int)
    sizes = []
    for start in range(len(nodes)):
        if group[start] >= 0:
            continue
        g = len(sizes)
        stack, group[start], size = [start], g, 0
        while stack:
            i = stack.pop()
            size += 1
            x, y = nodes[i]
            for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                j = index.get(nb)
                if j is not None and group[j] < 0:
                    group[j] = g
                    stack.append(j)
        sizes.append(size)
    return group == int(np.argmax(sizes)) if sizes else np.zeros(0, bool)


@dataclass(frozen=True, eq=False)
class FoundSea:
    """The sea's lattice in the photo's reduced view: G (view px -> lattice, upright, sea cells from
    (0, 0)), the sea's cells (nodes) and each one's quad in view px (following the centre seen)."""

    g: np.ndarray
    nodes: np.ndarray  # (N, 2) int
    quads: np.ndarray  # (N, 4, 2) view px, NW NE SE SW in lattice terms
    seen: np.ndarray  # (N,) bool: a centre peak was seen on the cell (else the sea map alone)
    sea_values: np.ndarray  # (N,) the sea map at the cell's middle
    cell_px: float  # a cell's side in view px, at the sea's middle
    lattice_doubt: float  # mean distance of the seen centres from their nodes (cells)
    # the same centres on the lattice's shortest pair of steps at the sea's middle, where that differs
    # from the fit's: a fit can settle on a step and a diagonal, which puts every centre on a node too,
    # its cells parallelograms across the cards; but under a steep tilt the shortest pair in the photo
    # is not the cards' either, so the reader keeps whichever its cells read surer (``read_sea``)
    other_basis: FoundSea | None = None


def cell_px_at(g: np.ndarray, at: np.ndarray, max_px: float) -> float | None:
    """A cell's side in view px at lattice point `at`, or None where the lattice is degenerate there:
    G not invertible or not finite (nodes seen on one line leave the other direction's scale free, and
    a least-squares fit then maps the photo onto that line), or a cell with a side under MIN_CELL_PX
    or over `max_px` (the photo's long side), or no finite quad (beyond the lattice's horizon)."""
    if not np.isfinite(g).all():
        return None
    try:
        with np.errstate(divide="ignore", invalid="ignore"):  # beyond the horizon: inf, told below
            quad = node_quads(g, np.asarray(at, np.float64)[None])[0]
            sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    except np.linalg.LinAlgError:
        return None
    if not np.isfinite(sides).all() or sides.min() < MIN_CELL_PX or sides.max() > max_px:
        return None
    cell = cell_size(g, at)  # a quad folded flat has sides but no area
    return cell if cell >= MIN_CELL_PX else None


def usable(fit: LatticeFit | None, max_px: float) -> bool:
    """Whether `fit` is a lattice a sea can lie on: a cell has a size at its nodes' middle."""
    if fit is None or fit.count < 3:
        return False
    return cell_px_at(fit.g, fit.nodes[fit.inliers].mean(0), max_px) is not None


def _fit(pts: np.ndarray, max_px: float, start: np.ndarray | None = None) -> LatticeFit | None:
    """The usable lattice of `pts` with the most support (the one refined from `start` on a tie)."""
    fits = [fit_lattice(pts, start=start)] if start is not None else []
    fits.append(fit_lattice(pts))
    return max((f for f in fits if usable(f, max_px)), key=support, default=None)


def _sea_of(
    fit: LatticeFit, pts: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nodes of the sea's group, one per node (the highest peak), with their peaks."""
    best: dict[tuple[int, int], int] = {}
    for i in np.flatnonzero(fit.inliers):
        key = (int(fit.nodes[i, 0]), int(fit.nodes[i, 1]))
        if key not in best or values[i] > values[best[key]]:
            best[key] = i
    keep = np.array(sorted(best.values()), int)
    nodes = fit.nodes[keep]
    group = largest_group(nodes)
    return nodes[group], pts[keep][group], values[keep][group]


def locate_sea(photo: Photo, model: LocatorModel | None = None) -> tuple[FoundSea, np.ndarray]:
    """The sea in `photo` (a PhotoError "no sea found" when there is none) and the picture its cells
    are placed in (a finer decode where the sea is small), as (FoundSea in view px, picture)."""
    model = model or load_locator()
    spec = model.meta["input"]
    view = photo.image
    h, w = view.shape[:2]
    max_px = float(max(h, w))  # a cell larger than the photo holds no four seen centres
    # the net learnt cells of 12-44 px: a large sea is seen whole at the smaller size, a small one
    # at the larger; the finest size only when neither finds a sea
    best = None
    for sizes in (FIRST_PASS, (FIRST_PASS[-1] * 2,)):
        for factor in sizes:
            long_side = round(spec["long_side"] * factor)
            maps = picture_maps(model, view, long_side / max(h, w))
            pts, values = sea_peaks(maps)
            fit = _fit(pts, max_px)
            if fit is not None and (best is None or support(fit) > support(best[0])):
                best = (fit, pts, values, maps)
        if best is not None and best[0].count >= MIN_CELLS:
            break
    if best is None or best[0].count < MIN_CELLS:
        raise PhotoError(NO_SEA, kind="no_board")
    fit, pts, values, maps = best
    nodes, seen_pts, _ = _sea_of(fit, pts, values)
    cell = cell_px_at(fit.g, nodes.mean(0), max_px) if len(nodes) >= MIN_CELLS else None
    if cell is None:
        raise PhotoError(NO_SEA, kind="no_board")
    # the sea's region again, grown while the sea found in it grows (a first pass on the whole photo
    # can see only part of a small sea: cards of one frame missed in bad light)
    doubt = None
    for n_pass in range(GROW_PASSES):
        second = _second_pass(photo, model, fit, nodes, cell, max_px)
        if second is None:
            break
        now = _doubt(second[0].g, second[1])
        # a pass that finds no more of the sea than the one before leaves its reading, and so does one
        # whose lattice fits its centres worse (a patterned table's dots or a loose card joined to it)
        if n_pass and (len(second[3]) < len(nodes) + GROW_MIN or now > min(GROW_DOUBT, GROW_RATIO * doubt)):
            break
        grew = len(second[3]) > len(nodes)
        fit, seen_pts, maps, nodes = second
        doubt = now
        cell = cell_px_at(fit.g, nodes.mean(0), max_px) or cell
        if not grew:
            # no more of the sea than the pass before, so the next one looks at the same region:
            # on development seeds 9211 / 9212 stress (150 photos) it changed 1 reading (5 of a
            # stress sea's cells missed, its totals right and flagged either way) and saves ~40 ms
            break
    found = _found(fit, nodes, seen_pts, maps, max_px)
    if found is None:
        raise PhotoError(NO_SEA, kind="no_board")
    other = _found(fit, nodes, seen_pts, maps, max_px, reduce=True)
    if other is not None and not np.allclose(other.g, found.g):
        found = replace(found, other_basis=other)
    return found, view


def _second_pass(
    photo: Photo, model: LocatorModel, fit: LatticeFit, nodes: np.ndarray, cell: float, max_px: float
) -> tuple[LatticeFit, np.ndarray, Maps, np.ndarray] | None:
    """The sea's region again, a cell spanning about the net's cell_px, from a fine enough decode:
    (fit, seen centres, maps, sea nodes), or None when it finds less of a sea than the first pass
    (the first pass's reading stands)."""
    spec = model.meta["input"]
    h, w = photo.image.shape[:2]
    lo, hi = nodes.min(0) - REGION_MARGIN, nodes.max(0) + REGION_MARGIN
    box = apply_h(
        np.linalg.inv(fit.g), np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    )
    if not np.isfinite(box).all():
        return None  # the region reaches the lattice's horizon: no region to look at again
    x0, y0 = np.floor(np.clip(box.min(0), 0, [w - 1, h - 1])).astype(int)
    x1, y1 = np.ceil(np.clip(box.max(0), 1, [w, h])).astype(int)
    want = float(spec.get("cell_px", 24.0)) / cell  # picture px per view px
    want = min(want, FINE_LONG_MAX / max(x1 - x0, y1 - y0, 1))
    fine, fine_scale = photo.at_scale(photo.scale / max(want, 1e-6))
    k = photo.scale / fine_scale  # fine px per view px
    fx0, fy0, fx1, fy1 = (int(round(v * k)) for v in (x0, y0, x1, y1))
    region = fine[fy0:fy1, fx0:fx1]
    maps2 = picture_maps(model, region, want / k, origin=(0.0, 0.0))
    # map px -> region px -> view px
    ax, ay, bx, by = maps2.affine
    maps2 = Maps(maps2.sea, maps2.centres, (ax / k, ay / k, bx / k + x0, by / k + y0))
    pts2, values2 = sea_peaks(maps2)
    fit2 = _fit(pts2, max_px, start=fit.g) if len(pts2) >= 3 else None
    if fit2 is None or fit2.count < MIN_CELLS:
        return None
    nodes2, seen2, _ = _sea_of(fit2, pts2, values2)
    if len(nodes2) < MIN_CELLS or cell_px_at(fit2.g, nodes2.mean(0), max_px) is None:
        return None
    return fit2, seen2, maps2, nodes2


def _doubt(g: np.ndarray, seen_pts: np.ndarray) -> float:
    """Mean distance of the seen centres from their lattice nodes (cells)."""
    return float(np.mean(assign(g, seen_pts).residuals)) if len(seen_pts) else 0.0


def _found(
    fit: LatticeFit, nodes: np.ndarray, seen_pts: np.ndarray, maps: Maps, max_px: float, reduce: bool = False
) -> FoundSea | None:
    """The sea's cells and the ring around them, upright; None where the lattice is degenerate at the
    sea (no cell size there, or a seen cell's quad beyond the lattice's horizon). ``reduce``: on the
    lattice's shortest pair of steps at the sea's middle (``lattice.reduced``)."""
    try:
        middle = apply_h(np.linalg.inv(fit.g), nodes.mean(0)[None])[0]
        g = upright(reduced(fit.g, middle) if reduce else fit.g, middle)
    except np.linalg.LinAlgError:
        return None
    if not np.isfinite(g).all():
        return None
    nodes = np.round(apply_h(g, seen_pts)).astype(int)
    # every lattice cell next to a seen one is read too: a cell whose centre the net missed is still
    # read by the cell model ("none" for the table); the sea map's value there goes with it
    seen = {tuple(n) for n in nodes.tolist()}
    ring = {(x + dx, y + dy) for x, y in seen for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - seen
    extra = sorted(ring)
    all_nodes = np.array([*nodes.tolist(), *extra], int).reshape(-1, 2)
    with np.errstate(divide="ignore", invalid="ignore"):  # a ring cell beyond the horizon: inf, dropped
        quads = node_quads(g, all_nodes)
    finite = np.isfinite(quads).all(axis=(1, 2))
    if not finite[: len(nodes)].all():
        return None
    all_nodes, quads = all_nodes[finite], quads[finite]  # a ring cell beyond the horizon is not read
    # each seen cell's quad moved onto the centre seen on it (cards lie by hand, off the lattice)
    centres = apply_h(np.linalg.inv(g), all_nodes[: len(nodes)].astype(float))
    quads[: len(nodes)] += (seen_pts - centres)[:, None, :]
    offset = all_nodes.min(0)
    g = np.array([[1, 0, -offset[0]], [0, 1, -offset[1]], [0, 0, 1]], float) @ g
    residuals = assign(g, seen_pts).residuals if len(seen_pts) else np.zeros(1)
    cell_px = cell_px_at(g, (all_nodes - offset).mean(0), max_px)
    if cell_px is None:
        return None
    return FoundSea(
        g=g,
        nodes=all_nodes - offset,
        quads=quads,
        seen=np.arange(len(all_nodes)) < len(nodes),
        sea_values=_cover(g, (all_nodes - offset).astype(float), maps),
        cell_px=cell_px,
        lattice_doubt=float(np.mean(residuals)),
    )


def _cover(g: np.ndarray, nodes: np.ndarray, maps: Maps) -> np.ndarray:
    """Mean of the sea map over the middle (0.5 x 0.5) of each node's cell."""
    if not len(nodes):
        return np.zeros(0)
    offs = np.stack(np.meshgrid(np.linspace(-0.25, 0.25, 3), np.linspace(-0.25, 0.25, 3)), -1).reshape(-1, 2)
    pts = apply_h(np.linalg.inv(g), (nodes[:, None, :] + offs).reshape(-1, 2))
    return maps.sample(maps.sea, pts).reshape(len(nodes), -1).mean(1)

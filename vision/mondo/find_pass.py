"""Pass 1 of the Mondo locator: islands found in the net's maps of the whole photo, then each looked
at again, zoomed.

The photo is searched at two long sides (see `locator_maps.pass_sides`). Every connected region of
occupied cells with at least 3 tile centres is a candidate; regions whose centres sit on one lattice
that fits a grid are one island (an empty row splits a region). A lattice is fitted to the centres
(`lattice_search`), free centres on it join it, and the occupied lattice points give the grid's
extent and size. Where two passes found the same island, the one that put more tile centres on its
lattice wins (`merge_passes`). A small island's tile centres are faint blobs of a few pixels at the
whole-photo scales, so each island is then looked at again (`zoom_pass`): the same pass on a window
around it, cut from a finer decode of the photo where needed, at the scales where a cell spans the
sizes the net learnt. A lattice finer than the net knows, or far from the occupied cells it was
fitted in (`Candidate.implausible`), is not taken. `locate` then refines each island (pass 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.mondo.grid_fit import nominal_camera, refine_homography
from vision.mondo.lattice import apply_h, camera_plausible, grid_extent, quad_corners
from vision.mondo.lattice_search import MIN_CENTRES, adopt, fit_lattice
from vision.mondo.locator_maps import (
    CELLS_MIN,
    CellsMap,
    LocatorModel,
    cached_photo_maps,
    find_peaks,
    map_to_image,
    photo_maps,
)
from vision.mondo.outline import clockwise, inside_any, outline_quad, sane_quad

UPSAMPLE = 4  # the cells map is upsampled this much before tracing its outline
SECOND_ISLAND = 6  # tile centres on a lattice that make a second island whatever the first has
IDEAL_CELL = 30.0  # net input px per cell: where the net sees tiles best (passes are chosen by it)
WELL_SEEN_CELL = 14.0  # net input px per cell: an island seen whole this large needs no finer pass
MIN_CELL_IN = 9.0  # net input px per cell: a lattice finer than this is no island (the net learnt 12-50)
REGION_RATIO = 2.2  # a grid's area over its occupied cells' beyond which (either way) its lattice is wrong
REGION_BEYOND = 1.3  # cells: a grid corner this far outside its occupied cells' box means the same
ZOOM_CELLS = (IDEAL_CELL, 1.5 * IDEAL_CELL)  # px a cell spans in a zoomed look (the net knows 12-50)
ISLAND_CELLS = 3.5  # cells a side of an island whose grid is not known (3 or 4): its cell size from its area
ZOOM_MARGIN = 1.5  # cells of table around a zoomed island: room for a row the first look missed


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


@dataclass(frozen=True, eq=False)
class Found:
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
) -> Found | None:
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
    return Found(g_h, extent, used, lattice)


def quad_of(g_h: np.ndarray, extent: tuple[int, int, int]) -> np.ndarray:
    """The grid's outer corners in image px, clockwise on screen."""
    return clockwise(apply_h(np.linalg.inv(g_h), quad_corners(extent)))


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


@dataclass(frozen=True, eq=False)
class Candidate:
    found: Found
    centres: np.ndarray  # this pass's tile centres, image px (found.used indexes them)
    quad: np.ndarray  # first-pass outline, image px
    cell_in: float  # cell side in the net's input px at this pass
    cut: bool  # its occupied region runs off the photo (another player's island at the edge)
    region: np.ndarray  # the bounding box of its occupied cells, image px: x0, y0, x1, y1
    region_area: float  # their area, image px^2

    def well_seen(self) -> bool:
        """Whether this pass saw the island whole and at a scale where the net knows tiles well: a
        finer pass would see its cells larger than the net learnt, and find nothing more."""
        g = self.found.extent[2]
        return (
            not self.cut
            and self.cell_in >= WELL_SEEN_CELL
            and int(self.found.used.sum()) >= g * g - 1
            and not self.implausible()
        )

    def complete(self) -> bool:
        """Whether this look put a tile centre on every cell of a grid it trusts: a zoomed look at
        another scale is then not needed (the reader keeps the first of equal looks)."""
        g = self.found.extent[2]
        return not self.implausible() and int(self.found.used.sum()) >= g * g

    def implausible(self) -> bool:
        """Whether the lattice is far from the occupied cells it was fitted in: a grid with many
        times their area (or a small part of them), or with a corner well beyond them, came from a
        few centres fitted wrongly (an empty outer row puts a corner one cell beyond them)."""
        area = abs(cv2.contourArea(self.quad.astype(np.float32)))
        ratio = area / max(self.region_area, 1.0)
        cell = np.sqrt(area) / self.found.extent[2]
        beyond = np.maximum(self.region[:2] - self.quad, self.quad - self.region[2:]).max() / max(cell, 1e-6)
        return not (1 / REGION_RATIO <= ratio <= REGION_RATIO) or beyond > REGION_BEYOND


def first_pass(
    model: LocatorModel,
    image: np.ndarray,
    long_side: int,
    grid: int | None,
    camera: np.ndarray | None = None,
) -> list[Candidate]:
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
    out: list[Candidate] = []
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
        out.append(Candidate(found, centres, quad, float(cell * to_input), cut, box, area))
    return out


def zoom_pass(
    model: LocatorModel,
    image: np.ndarray,
    cand: Candidate,
    grid: int | None,
    finer: Callable[[float], tuple[np.ndarray, float]] | None,
    cell_px: float = IDEAL_CELL,
) -> Candidate | None:
    """Pass 1 again on a window around a candidate the whole-photo passes saw small, cut from the
    photo (a finer decode of it where needed) at the scale where a cell spans `cell_px`: a small
    island's tile centres are faint blobs of a few pixels at the whole-photo scales, and a lattice
    fitted to the few seen puts the grid a row off or takes in a loose tile. Returns the window's
    candidate for the same island, in `image` px (None: nothing there)."""
    if cand.implausible():
        # the lattice is wrong, so is its cell size: take the occupied cells' instead (3 or 4 a side)
        cell = np.sqrt(cand.region_area) / ISLAND_CELLS
        lo, hi = cand.region[:2], cand.region[2:]
    else:
        cell = np.sqrt(abs(cv2.contourArea(cand.quad.astype(np.float32)))) / cand.found.extent[2]
        # the grid and the occupied cells it was fitted in (a grid fitted to part of them misses some)
        lo, hi = np.minimum(cand.quad.min(0), cand.region[:2]), np.maximum(cand.quad.max(0), cand.region[2:])
    # the window: the candidate plus ZOOM_MARGIN cells around it (a grid a row off, a missed row)
    cut_out = window_of(image, lo - ZOOM_MARGIN * cell, hi + ZOOM_MARGIN * cell, cell / cell_px, finer)
    if cut_out is None:
        return None
    window, to_win = cut_out
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


def window_of(
    image: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    k: float,
    finer: Callable[[float], tuple[np.ndarray, float]] | None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The box `lo`-`hi` (image px) of the photo at `k` image px per px, cut from a finer decode of
    it where `image` has too few pixels: (window, image px -> window px map); None when the box is
    (nearly) outside the photo."""
    source, k_src = (image, 1.0) if finer is None or k >= 1 else finer(k)  # k_src: image px per source px
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
    return window, to_win


def merge_passes(passes: list[list[Candidate]]) -> list[Candidate]:
    """One candidate per island over the passes: where two passes found the same island, the one
    that put more tile centres on its lattice (then the one that saw its cells nearest the size the
    net knows best). A pass that sees the island too small or too large finds few of its tiles.
    Candidates with under half the tiles of the best one are dropped unless they have many: a
    false lattice on a pattern, a fragment, not a second island."""
    merged: list[Candidate] = []

    def key(c: Candidate) -> tuple[bool, int, float, float]:
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

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

The net's input size, normalization and output layout come from the model's ONNX metadata. The
pieces live beside this module: `locator_maps` (the net and its maps), `outline` (a region's quad),
`lattice_search` (which lattice the centres lie on), `grid_fit` (the image -> lattice map and its
camera prior), `cell_quads` (crops that follow tiles).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.mondo.cell_quads import offset_cell_quads, tile_offsets
from vision.mondo.grid_fit import fit_on_camera, nominal_camera, refine_homography
from vision.mondo.lattice import (
    GRIDS,
    apply_h,
    assign,
    camera_plausible,
    grid_extent,
    other_extents,
    quad_corners,
)
from vision.mondo.lattice_search import MIN_CENTRES, adopt, fit_lattice
from vision.mondo.locator_maps import (
    CELLS_MIN,
    CellsMap,
    LocatorModel,
    cached_photo_maps,
    find_peaks,
    load_locator,
    map_to_image,
    net_maps,
    pass_sides,
    photo_maps,
)
from vision.mondo.outline import clockwise, inside_any, outline_quad, sane_quad, upright

UPSAMPLE = 4  # the cells map is upsampled this much before tracing its outline
MAX_SHIFT = 1.0  # cells: the refined outline may move this far from the first one, unless it holds more tiles
AGAIN_SHIFT = 0.15  # cells: a refinement that moved a corner this far is refined once more
SECOND_ISLAND = 6  # tile centres on a lattice that make a second island whatever the first has
IDEAL_CELL = 30.0  # net input px per cell: where the net sees tiles best (passes are chosen by it)
WELL_SEEN_CELL = 14.0  # net input px per cell: an island seen whole this large needs no finer pass
# an outline taken for a grid must be this close to a square on the table (true grids: < 0.05, < 1.05)
OUTLINE_SKEW, OUTLINE_ASPECT = 0.1, 1.15
MIN_CELL_IN = 9.0  # net input px per cell: a lattice finer than this is no island (the net learnt 12-50)
REGION_RATIO = 2.2  # a grid's area over its occupied cells' beyond which (either way) its lattice is wrong
REGION_BEYOND = 1.3  # cells: a grid corner this far outside its occupied cells' box means the same
ZOOM_CELLS = (IDEAL_CELL, 1.5 * IDEAL_CELL)  # px a cell spans in a zoomed look (the net knows 12-50)
ISLAND_CELLS = 3.5  # cells a side of an island whose grid is not known (3 or 4): its cell size from its area
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


# ------------------------------------------------------------------------------------------ refinement


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


@dataclass(frozen=True, eq=False)
class _Candidate:
    found: _Found
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
        cell = np.sqrt(cand.region_area) / ISLAND_CELLS
        lo, hi = cand.region[:2], cand.region[2:]
    else:
        cell = np.sqrt(abs(cv2.contourArea(cand.quad.astype(np.float32)))) / cand.found.extent[2]
        # the grid and the occupied cells it was fitted in (a grid fitted to part of them misses some)
        lo, hi = np.minimum(cand.quad.min(0), cand.region[:2]), np.maximum(cand.quad.max(0), cand.region[2:])
    # the window: the candidate plus ZOOM_MARGIN cells around it (a grid a row off, a missed row)
    cut_out = _window(image, lo - ZOOM_MARGIN * cell, hi + ZOOM_MARGIN * cell, cell / cell_px, finer)
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
    passes = [first_pass(model, image, sides[0], grid)]
    if not any(c.well_seen() for c in passes[0]):
        # the finer passes are for islands the first sees small; one it saw whole is looked at
        # zoomed below anyway
        passes += [first_pass(model, image, side, grid) for side in sides[1:]]
    candidates = merge_passes(passes)
    if not candidates and len(sides) > 1 and max(image.shape[:2]) > sides[-1]:
        # nothing at the usual scales: a very small island may still show at a finer one
        finest = min(max(image.shape[:2]), int(sides[-1] * 1.5))
        candidates = merge_passes([first_pass(model, image, finest, grid)])
    whole = [c for c in candidates if not c.cut]
    candidates = whole or candidates
    for n, cand in enumerate(candidates):  # every island looked at again, zoomed
        looks: list[_Candidate | None] = []
        for cell_px in ZOOM_CELLS:
            looks.append(zoom_pass(model, image, cand, grid, finer, cell_px))
            if looks[-1] is not None and looks[-1].complete():
                # the next look can at most tie, and a tie keeps this one (with no grid given, a
                # full 3x3 might still be part of a 4x4 a closer look sees: no reading of 200
                # development photos changed, either way the grid is given)
                break
        zoomed = max(
            (z for z in looks if z is not None),
            key=lambda z: (not z.implausible(), int(z.found.used.sum())),
            default=None,
        )
        # a closer look replaces the first unless it made a lattice the first did not trust
        if zoomed is not None and (not zoomed.implausible(), int(zoomed.found.used.sum())) >= (
            not cand.implausible(),
            int(cand.found.used.sum()),
        ):
            candidates[n] = zoomed
    t2 = time.perf_counter()
    out = [_finish(model, image, finer, c.found, c.centres, c.quad, c.cut) for c in candidates]
    out.sort(key=lambda f: (-f.tiles_seen, -abs(cv2.contourArea(f.quad))))
    t3 = time.perf_counter()
    timing = {"find": 1000 * (t2 - t0), "refine": 1000 * (t3 - t2), "total": 1000 * (t3 - t0)}
    return LocateResult(tuple(out), timing)


def _window(
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


def outline_islands(
    image: np.ndarray,
    near: np.ndarray,
    *,
    sizes: tuple[int, ...] = GRIDS,
    cut: bool = False,
    model: LocatorModel | None = None,
    finer: Callable[[float], tuple[np.ndarray, float]] | None = None,
) -> list[FoundIsland]:
    """Grids laid on the outline of the occupied cells round `near` (a grid's quad, image px), one per
    size, not fitted to tile centres: on a busy or terrain-coloured table a small island's centres
    blur into blobs of its art, and their lattice settles on a wrong pitch, while the region the
    island covers stays clean. The window is looked at where a cell of a 3-4 cell island spans the
    size the net knows best; each grid is then refined as any other (its tile centres on the
    rectified view). The reader lets the tile model judge them. `cut`: the island runs off the photo
    (as the grid near it said; the grids keep saying so). Empty where no outline is found."""
    model = model or load_locator()
    near = np.asarray(near, np.float64)
    cell = np.sqrt(abs(cv2.contourArea(near.astype(np.float32)))) / ISLAND_CELLS
    lo, hi = near.min(0) - ZOOM_MARGIN * cell, near.max(0) + ZOOM_MARGIN * cell
    cut_out = _window(image, lo, hi, cell / IDEAL_CELL, finer)
    if cut_out is None:
        return []
    window, to_win = cut_out
    cells, _, affine = net_maps(model, window)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        (cells > CELLS_MIN).astype(np.uint8), connectivity=8
    )
    if n < 2:
        return []
    # the region under the grid's middle, else the largest
    middle = np.clip(np.round((apply_h(to_win, near.mean(0)[None])[0] - affine[2:]) / affine[:2]), 0, None)
    mx, my = np.minimum(middle.astype(int), [labels.shape[1] - 1, labels.shape[0] - 1])
    label = int(labels[my, mx]) or 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    quad_win = outline_quad(map_to_image(region_outline(cells, labels, label), affine))
    if quad_win is None:
        return []
    quad = clockwise(apply_h(np.linalg.inv(to_win), quad_win))
    if not sane_quad(quad, image.shape):
        return []
    out = []
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for g in sizes:
        corners = np.float32([[-0.5, -0.5], [g - 0.5, -0.5], [g - 0.5, g - 0.5], [-0.5, g - 0.5]])
        g_h = cv2.getPerspectiveTransform(quad.astype(np.float32), corners).astype(np.float64)
        found = _Found(g_h, (0, 0, g), np.zeros(0, bool), np.zeros((0, 2)))
        island = _finish(model, image, finer, found, np.zeros((0, 2)), quad, cut)
        to_square = cv2.getPerspectiveTransform(island.quad, square).astype(np.float64)
        # a grid that is no square on the table is not the island's: one with an empty outer row or
        # column (the outline is narrower than its grid), or tiles and table in one region
        if camera_plausible(to_square, nominal_camera(image.shape), OUTLINE_SKEW, OUTLINE_ASPECT):
            out.append(island)
    return out


def _finish(
    model: LocatorModel,
    image: np.ndarray,
    finer: Callable[[float], tuple[np.ndarray, float]] | None,
    found: _Found,
    centres: np.ndarray,
    first_quad: np.ndarray,
    cut: bool,
) -> FoundIsland:
    """Pass 2 on a pass-1 island (`centres`: that pass's tile centres, `found.used` indexes them),
    on a finer view of the photo where its cells are small, and the island as the reader takes it:
    outline, cells following their tiles, confidence, the grid's other places."""
    g = found.extent[2]
    cell_px = np.sqrt(abs(cv2.contourArea(first_quad.astype(np.float32)))) / g
    rect_cell = model.meta.get("rectified", {"size": 256, "margin": 0.35})
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
    seen = centres[found.used] if seen is None else apply_h(np.linalg.inv(to_src), seen)
    quad = upright(quad_of(g_h, found.extent) if g_h is not None else first_quad).astype(np.float32)
    score = island_score(found, g_h if g_h is not None else found.g_h, centres)
    others = tuple(
        upright(quad_of(g_h if g_h is not None else found.g_h, e)).astype(np.float32)
        for e in (other_extents(found.lattice, found.extent) if len(found.lattice) else ())
    )
    final = g_h if g_h is not None else found.g_h
    offsets = tile_offsets(final, seen, found.extent)
    cell_quads = offset_cell_quads(final, found.extent, offsets, quad)
    return FoundIsland(quad, g, cell_quads, int(found.used.sum()), score, others, cut=cut)


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

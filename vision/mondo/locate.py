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
pieces live beside this module: `find_pass` (pass 1 and the zoomed looks), `locator_maps` (the net
and its maps), `outline` (a region's quad), `lattice_search` (which lattice the centres lie on),
`grid_fit` (the image -> lattice map and its camera prior), `cell_quads` (crops that follow tiles).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.mondo.cell_quads import offset_cell_quads, tile_offsets
from vision.mondo.find_pass import (
    IDEAL_CELL,
    ISLAND_CELLS,
    ZOOM_CELLS,
    ZOOM_MARGIN,
    Candidate,
    Found,
    first_pass,
    merge_passes,
    quad_of,
    region_outline,
    window_of,
    zoom_pass,
)
from vision.mondo.grid_fit import fit_on_camera, nominal_camera, refine_homography
from vision.mondo.lattice import (
    GRIDS,
    apply_h,
    assign,
    camera_plausible,
    other_extents,
    quad_corners,
)
from vision.mondo.lattice_search import MIN_CENTRES, fit_lattice
from vision.mondo.locator_maps import (
    CELLS_MIN,
    CellsMap,
    LocatorModel,
    find_peaks,
    load_locator,
    map_to_image,
    net_maps,
    pass_sides,
)
from vision.mondo.outline import clockwise, outline_quad, sane_quad, upright

MAX_SHIFT = 1.0  # cells: the refined outline may move this far from the first one, unless it holds more tiles
AGAIN_SHIFT = 0.15  # cells: a refinement that moved a corner this far is refined once more
# an outline taken for a grid must be this close to a square on the table (true grids: < 0.05, < 1.05)
OUTLINE_SKEW, OUTLINE_ASPECT = 0.1, 1.15
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


# ------------------------------------------------------------------------------------------ refinement


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
    model: LocatorModel, image: np.ndarray, found: Found
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


def _moved(g_h: np.ndarray, found: Found) -> float:
    """How far (cells) the grid corners of `found` move under the new map `g_h`."""
    corners = quad_corners(found.extent)
    return float(np.abs(apply_h(g_h, apply_h(np.linalg.inv(found.g_h), corners)) - corners).max())


# ------------------------------------------------------------------------------------------ islands


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
        looks: list[Candidate | None] = []
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
    cut_out = window_of(image, lo, hi, cell / IDEAL_CELL, finer)
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
        found = Found(g_h, (0, 0, g), np.zeros(0, bool), np.zeros((0, 2)))
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
    found: Found,
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


def island_score(found: Found, g_h: np.ndarray, centres: np.ndarray) -> float:
    """Confidence 0..1: the share of the grid's cells with a tile centre seen on them (an island
    has at most a few empty cells) times how closely those centres sit on their lattice points."""
    g = found.extent[2]
    filled = min(1.0, float(found.used.sum()) / (g * g - 1))  # one empty cell costs nothing
    r = np.hypot(*(apply_h(g_h, centres[found.used]) - found.lattice).T)
    rms = float(np.sqrt(np.mean(r**2))) if len(r) else 1.0
    return float(np.clip(filled * np.exp(-((rms / 0.15) ** 2)), 0.0, 1.0))

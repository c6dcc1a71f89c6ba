"""Training data for the Mondo island locator: simulated photos with label maps drawn from their truth.

Each photo gives two samples, each a picture and two label maps of the same size:

- the whole photo scaled to the locator's input size (landscape; portrait photos are stored
  transposed, a mirror the task does not care about), which the locator's first pass sees;
- the photo rectified onto the island's grid as the second pass sees it (``locate.rectify``), from
  the truth grid disturbed by about as much as the first pass errs, in any of the 8 turns and
  mirrors of the lattice, with a margin drawn around the runtime's.

The maps:

- ``cells``: the union of the *occupied* grid cells of the island (truth cell quads). Cells tile the
  grid without gaps, so this region has no seams between neighbouring tiles and its outer boundary
  lies on the grid's outline wherever an outer cell is occupied. Loose tiles are not in it.
- ``centres``: a Gaussian blob at the centre of every tile, loose ones included, its width a fixed
  fraction of that tile's size in the photo.

Photos come from ``vision.synth.dataset.make_scene`` with seeds below 9000 only (9000 and up are
held out for evaluation). Samples are cached under ``build/`` keyed by every parameter.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import quad_middle
from vision.mondo.locate import rectify
from vision.synth.dataset import make_scene, photo_rng
from vision.synth.world import World, draw_conditions
from vision.training.common import cache_path, read_cache, write_cache

CENTRE_SIGMA = 0.12  # heat blob sigma as a fraction of the tile's side in the photo


@dataclass(frozen=True)
class DataSpec:
    seed: int = 1
    n: int = 2000
    # simulator resolution: enough for a cell to span `render_cell_px` (within these bounds); the
    # samples are then area-scaled to the net's sizes
    render_long_side: tuple[int, int] = (640, 1600)
    render_cell_px: float = 48.0
    input_long: int = 320
    input_short: int = 240
    fine_long: int = 640  # the finer whole-photo pass (runtime: both)
    fine_cell_px: tuple[float, float] = (12.0, 50.0)  # cells in the finer pass's windows, input px
    rect_size: int = 256  # rectified samples: square picture side
    rect_margin: float = 0.35  # cells around the grid at run time; training draws around it
    rect_noise: float = 0.07  # cells: sigma of the disturbance of each grid corner
    exclude_tables: tuple[str, ...] = ()  # table families held out (the unseen-family run)
    stress: bool = False  # photos from the hard end of every condition (`World(stress=True)`)
    version: int = 2
    lights: tuple[str, ...] = ()  # the lights drawn from (`World(lights=...)`); empty: the world's mix

    def cache_path(self) -> Path:
        return cache_path(self, "locator-data", "mondo-locator", unset=("lights",))


def fill_polygons(shape: tuple[int, int], quads: list[np.ndarray]) -> np.ndarray:
    """Anti-aliased 0..255 union of quads (image px, pixel centres at integers)."""
    m = np.zeros(shape, np.uint8)
    for q in quads:
        cv2.fillConvexPoly(m, np.round(np.asarray(q) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return m


def heat_map(shape: tuple[int, int], centres: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """0..255 map: the max over Gaussian blobs at `centres`, sigma = CENTRE_SIGMA * side."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    heat = np.zeros(shape, np.float32)
    for (cx, cy), side in zip(centres, sides, strict=True):
        s = max(1.0, CENTRE_SIGMA * float(side))
        r = int(4 * s) + 1
        x0, x1, y0, y1 = (
            max(0, int(cx) - r),
            min(w, int(cx) + r + 2),
            max(0, int(cy) - r),
            min(h, int(cy) + r + 2),
        )
        if x0 >= x1 or y0 >= y1:
            continue
        blob = np.exp(-((xs[y0:y1, x0:x1] - cx) ** 2 + (ys[y0:y1, x0:x1] - cy) ** 2) / (2 * s * s))
        heat[y0:y1, x0:x1] = np.maximum(heat[y0:y1, x0:x1], blob)
    return np.round(heat * 255).astype(np.uint8)


def scale_points(pts: np.ndarray, src_size: tuple[int, int], dst_size: tuple[int, int]) -> np.ndarray:
    """Pixel coordinates under cv2.resize from (w, h) `src_size` to `dst_size` (pixel centres kept)."""
    sx, sy = dst_size[0] / src_size[0], dst_size[1] / src_size[1]
    p = np.asarray(pts, np.float64)
    return np.stack([(p[..., 0] + 0.5) * sx - 0.5, (p[..., 1] + 0.5) * sy - 0.5], -1)


def _labels(
    shape: tuple[int, int], cells: list[np.ndarray], tiles: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """(cells, centres) label maps of `shape` from occupied cell quads and tile quads (px)."""
    centres = np.array([quad_middle(q) for q in tiles]).reshape(-1, 2)
    sides = np.array([np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) for q in tiles])
    return fill_polygons(shape, cells), heat_map(shape, centres, sides)


def _rect_sample(
    spec: DataSpec,
    photo: np.ndarray,
    truth: dict,
    cells: list[np.ndarray],
    tiles: list[np.ndarray],
    index: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo rectified onto a disturbed truth grid, with its label maps."""
    rng = np.random.default_rng([spec.seed, index, 1])
    g = truth["scene"]["grid"]
    square = np.array([[0, 0], [g, 0], [g, g], [0, g]], np.float64) - 0.5
    # the first pass's lattice may be turned and mirrored: any of the 8 symmetries of the square
    turn = np.roll(square, int(rng.integers(4)), 0)
    if rng.random() < 0.5:
        turn = turn[::-1]
    noisy = turn + np.clip(
        rng.normal(0, spec.rect_noise, (4, 2)), -2.5 * spec.rect_noise, 2.5 * spec.rect_noise
    )
    quad = np.array(truth["island_quad"], np.float32)
    g_h = cv2.getPerspectiveTransform(quad, noisy.astype(np.float32)).astype(np.float64)
    margin = spec.rect_margin + float(rng.uniform(-0.1, 0.1))
    picture, to_px = rectify(photo, g_h, (0, 0, g), spec.rect_size, margin)
    warp = to_px @ g_h

    def moved(q: np.ndarray) -> np.ndarray:
        p = np.column_stack([q, np.ones(len(q))]) @ warp.T
        return p[:, :2] / p[:, 2:3]

    size = (spec.rect_size, spec.rect_size)
    cell_map, heat = _labels(size, [moved(q) for q in cells], [moved(q) for q in tiles])
    return picture, cell_map, heat


def render_side(spec: DataSpec, index: int) -> int:
    """The photo's long side: its cells span about `render_cell_px` (a 4x4 grid assumed), within bounds.
    The island's size in the frame is the scene's first draw, so it is known before rendering."""
    conditions = draw_conditions(photo_rng(spec.seed, index), world_of(spec))
    side = spec.render_cell_px * 4 / (0.75 * conditions.span)
    lo, hi = spec.render_long_side
    return int(np.clip(round(side / 16) * 16, lo, hi))


def world_of(spec: DataSpec) -> World:
    return World(exclude_tables=spec.exclude_tables, stress=spec.stress, lights=spec.lights or None)


def _window_sample(
    spec: DataSpec,
    photo: np.ndarray,
    truth: dict,
    cells: list[np.ndarray],
    tiles: list[np.ndarray],
    index: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A `input_long` x `input_short` window of the photo scaled so that a cell spans a random size
    from `fine_cell_px`, around the island: what the finer whole-photo pass sees of a small island."""
    rng = np.random.default_rng([spec.seed, index, 2])
    quad = np.array(truth["island_quad"], np.float64)
    g = truth["scene"]["grid"]
    cell = np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))) / g
    h0, w0 = photo.shape[:2]
    ww, wh = spec.input_long, spec.input_short
    # the window lies wholly in the photo (a mirrored border would show unlabelled islands)
    s = max(float(rng.uniform(*spec.fine_cell_px)) / cell, ww / w0, wh / h0)
    size = (max(ww, round(w0 * s)), max(wh, round(h0 * s)))
    big = cv2.resize(photo, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    centre = scale_points(quad.mean(0), (w0, h0), size)
    # the island anywhere in the window, partly outside now and then
    cx = centre[0] + rng.uniform(-0.6, 0.6) * ww
    cy = centre[1] + rng.uniform(-0.6, 0.6) * wh
    x0 = int(np.clip(cx - ww / 2, 0, big.shape[1] - ww))
    y0 = int(np.clip(cy - wh / 2, 0, big.shape[0] - wh))
    window = big[y0 : y0 + wh, x0 : x0 + ww]

    def moved(q: np.ndarray) -> np.ndarray:
        return scale_points(q, (w0, h0), size) - [x0, y0]

    cell_map, heat = _labels((wh, ww), [moved(q) for q in cells], [moved(q) for q in tiles])
    return np.ascontiguousarray(window), cell_map, heat


def edge_cells(truth: dict) -> list[np.ndarray]:
    """Another island's tiles at the frame edge, each grown to its cell: they are an island's cells
    too (the locator then sees that island runs off the photo, and leaves it)."""
    pitch = truth["scene"]["pitch_mm"] / 50.0
    out = []
    for corners in truth.get("edge_tiles", []):
        q = np.asarray(corners, np.float64)
        out.append(q.mean(0) + (q - q.mean(0)) * pitch)
    return out


def make_sample(spec: DataSpec, index: int) -> tuple[np.ndarray, ...]:
    """(image, cells, centres) at the input size, landscape; the same of a window at the finer pass's
    scale; then (image, cells, centres) rectified; all uint8."""
    scene = make_scene("mondo", spec.seed, index, render_side(spec, index), world=world_of(spec))
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    h0, w0 = photo.shape[:2]
    truth = scene.truth
    occupied = {(t["row"], t["col"]) for t in truth["tiles"]}
    cells = [np.array(c["quad"]) for c in truth["cells"] if (c["row"], c["col"]) in occupied]
    island_cells = list(cells)
    cells += edge_cells(truth)
    tiles = [np.array(t["corners"]) for t in truth["tiles"]] + [
        np.asarray(c) for c in truth.get("loose_tiles", []) + truth.get("edge_tiles", [])
    ]
    rect = _rect_sample(spec, photo, truth, island_cells, tiles, index)
    window = _window_sample(spec, photo, truth, cells, tiles, index)

    portrait = h0 > w0
    size = (spec.input_short, spec.input_long) if portrait else (spec.input_long, spec.input_short)
    image = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
    scaled = (
        [scale_points(q, (w0, h0), size) for q in cells],
        [scale_points(q, (w0, h0), size) for q in tiles],
    )
    cell_map, heat = _labels((size[1], size[0]), *scaled)
    if portrait:
        image, cell_map, heat = image.transpose(1, 0, 2), cell_map.T, heat.T
    full = tuple(np.ascontiguousarray(a) for a in (image, cell_map, heat))
    return full + window + rect


def _sample_job(job: tuple[DataSpec, int]) -> tuple[np.ndarray, ...]:
    cv2.setNumThreads(1)  # one process a core
    return make_sample(*job)


def build_dataset(spec: DataSpec, jobs: int = 2, log=print) -> dict[str, np.ndarray]:
    """All samples of `spec` as arrays (images N,H,W,3; cells and centres N,H,W; the same with
    prefix "rect_" for the rectified samples), cached on disk."""
    data = read_cache(spec)
    if data is not None:
        return data
    work = [(spec, i) for i in range(spec.n)]
    out: list[tuple[np.ndarray, ...]] = []
    with ProcessPoolExecutor(jobs) as pool:
        for k, sample in enumerate(pool.map(_sample_job, work, chunksize=8)):
            out.append(sample)
            if log and (k + 1) % 200 == 0:
                log(f"  data {k + 1}/{spec.n}")
    names = (
        "images", "cells", "centres", "fine_images", "fine_cells", "fine_centres",
        "rect_images", "rect_cells", "rect_centres",
    )  # fmt: skip
    return write_cache(spec, {name: np.stack([s[i] for s in out]) for i, name in enumerate(names)})

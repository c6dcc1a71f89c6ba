"""Cell crops cut from simulated Mondo photos, labelled head by head, for the tile model.

Every crop is cut the way the runtime reader cuts it: the photo decoded from its JPEG bytes (so the
crops carry JPEG artefacts), brought to a reduced size where a tile spans about 1-2.5 crops, then
``vision.geometry.crop_quads`` on the truth cell quad with its corners jittered (the locator is not
exact). Empty spaces are rare inside simulated islands, so a few cells of the ring just outside the
grid are cut too, as empty cells. Labels are ``vision.mondo.heads.tile_labels`` encoded as class
indices in HEADS order, -1 where a head says nothing (the tile-only heads of an empty cell).

This module imports no torch: the 90-degree label permutation here is tested without the extra.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from scoring.mondo import island_from_json
from vision.geometry import CROP_MARGIN, crop_quads, quad_middle
from vision.mondo.heads import HEADS, tile_labels
from vision.synth.dataset import make_scene
from vision.synth.world import World

# Seeds from here on are held out for evaluation: training data never uses them.
EVAL_SEEDS_FROM = 9000
PHOTO_LONG_SIDES = (1000, 1300, 1600)
CACHE_DIR = Path("build/mondo-tiles")
# Bump when the crops a spec gives change, so stale caches are not reused.
DATA_VERSION = 4


@dataclass(frozen=True)
class CropSpec:
    """How crops are cut from one photo."""

    size: int = 72
    variants: int = 2  # crops per cell, each at its own scale and jitter
    shrink: tuple[float, float] = (0.85, 2.8)  # cell px in the photo / cell px in the crop
    corner_jitter: float = 0.025  # each corner, fraction of the cell side
    shift_jitter: float = 0.02  # the whole quad, fraction of the cell side
    ring_cells: int = 2  # empty cells per variant taken from the ring just outside the grid
    # The world the photos come from: every family of vision.synth.world, the island large in the
    # frame (the reader reads a small island from a finer decode, so its cells look the same).
    span: tuple[float, float] = (0.35, 0.9)
    exclude_tables: tuple[str, ...] = ()
    # Every other condition from its hard end (World.stress): faded and over-inked prints, dim light,
    # messy placement, back-side tiles, steep tilts. The island stays at ``span`` all the same.
    stress: bool = False
    # The lights drawn from (`World(lights=...)`, a light named twice drawn twice as often); empty:
    # the world's own mix. A fine-tune weighs the light the stress set reads worst.
    lights: tuple[str, ...] = ()


@dataclass(frozen=True)
class CropSet:
    crops: np.ndarray  # (n, size, size, 3) uint8 BGR
    labels: np.ndarray  # (n, len(HEADS)) int8 class index, -1: no label
    photo: np.ndarray  # (n,) int32 photo index the crop came from
    ring: np.ndarray  # (n,) bool: an empty cell from outside the grid (not a grid cell)
    seed: int
    photos: int


# --- labels ----------------------------------------------------------------------------------------


def encode_labels(labels: Mapping[str, str]) -> np.ndarray:
    """Class index of every head in HEADS order; -1 for heads ``labels`` lacks."""
    return np.array([HEADS[name].index(labels[name]) if name in labels else -1 for name in HEADS], np.int8)


# --- crops of one photo ----------------------------------------------------------------------------


def cell_labels(truth: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """(cell quad, encoded labels) of every grid cell in a Mondo truth, empty cells included. A cell's
    quad is moved to its tile's middle, as the reader's crops follow the tile centres it sees (a tile
    pushed out of line would stick out of a crop cut from the lattice)."""
    island = island_from_json(truth["board"])
    corners = {(t["row"], t["col"]): np.array(t["corners"], np.float64) for t in truth["tiles"]}
    out = []
    for cell in truth["cells"]:
        tile = island.tile_at(cell["row"], cell["col"])
        quad = np.array(cell["quad"], np.float64)
        here = corners.get((cell["row"], cell["col"]))
        if here is not None:
            quad = quad + (quad_middle(here) - quad_middle(quad))
        out.append((quad.astype(np.float32), encode_labels(tile_labels(tile))))
    return out


def jittered_quads(quads: np.ndarray, spec: CropSpec, rng: np.random.Generator) -> np.ndarray:
    side = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)[:, None, None]
    shift = rng.uniform(-1, 1, (len(quads), 1, 2)) * spec.shift_jitter
    corners = rng.uniform(-1, 1, quads.shape) * spec.corner_jitter
    return (quads + (shift + corners) * side).astype(np.float32)


def reduced_photo(image: np.ndarray, quads: np.ndarray, spec: CropSpec, rng: np.random.Generator):
    """The photo at a random reduced size, and the quads scaled with it."""
    cell_px = float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
    in_crop_px = spec.size / (1.0 + 2.0 * CROP_MARGIN)
    scale = rng.uniform(*spec.shrink) * in_crop_px / cell_px
    if scale >= 1.0:  # the photo is already at or below this size: never enlarge
        return image, quads
    # the reader's reduced JPEG decode averages like INTER_AREA; some bilinear for variety
    interp = cv2.INTER_AREA if rng.random() < 0.75 else cv2.INTER_LINEAR
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=interp)
    return small, quads * np.float32(scale)


def ring_quads(truth: dict) -> np.ndarray:
    """Quads of the ring of cells just outside the grid: more empty cells to learn from.

    An empty space inside an island is rare in the simulator's mix (a few per hundred cells); the
    table next to the island looks the same to the model's centre, with tiles on one side only.
    The grid is extended by a homography fitted on every truth cell corner.
    """
    grid = truth["scene"]["grid"]
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    src = np.concatenate([unit + np.float32([c["col"], c["row"]]) for c in truth["cells"]])
    dst = np.concatenate([np.array(c["quad"], np.float32) for c in truth["cells"]])
    homography, _ = cv2.findHomography(src, dst)
    outside = [
        (row, col)
        for row in range(-1, grid + 1)
        for col in range(-1, grid + 1)
        if not (0 <= row < grid and 0 <= col < grid)
    ]
    corners = np.stack([unit + np.float32([col, row]) for row, col in outside])
    return cv2.perspectiveTransform(corners.reshape(1, -1, 2), homography).reshape(-1, 4, 2)


def clear_ring_quads(
    truth: dict, loose_tiles: tuple[np.ndarray, ...], image_shape: tuple[int, ...]
) -> np.ndarray:
    """Ring quads whose crop lies inside the photo and whose cell no loose tile reaches into.

    A loose tile in the crop's margin is fine (the cell is still empty); one inside the cell is not.
    """
    h, w = image_shape[:2]
    keep = []
    for quad in ring_quads(truth):
        centre = quad.mean(axis=0)
        reach = (quad - centre) * (1.0 + 2.0 * CROP_MARGIN) + centre  # the crop's own outline
        if reach.min() < 0 or reach[:, 0].max() >= w or reach[:, 1].max() >= h:
            continue
        core = ((quad - centre) * 0.9 + centre).astype(np.float32)
        if any(cv2.intersectConvexConvex(core, np.asarray(t, np.float32))[0] > 0 for t in loose_tiles):
            continue
        keep.append(quad)
    return np.array(keep, np.float32).reshape(-1, 4, 2)


def photo_crops(seed: int, index: int, spec: CropSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All crops of simulated photo (seed, index): crops, encoded labels, and which are ring cells.

    Each variant cuts every grid cell and up to ``spec.ring_cells`` cells of the ring outside.
    """
    rng = np.random.default_rng([seed, index, 7])  # apart from the photo's own generator
    long_side = int(rng.choice(PHOTO_LONG_SIDES))
    world = World(
        span=spec.span, exclude_tables=spec.exclude_tables, stress=spec.stress, lights=spec.lights or None
    )
    scene = make_scene("mondo", seed, index, long_side_px=long_side, world=world)
    image = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    cells = cell_labels(scene.truth)
    grid_quads = np.stack([quad for quad, _ in cells])
    grid_labels = np.stack([label for _, label in cells])
    others = [np.asarray(q) for q in scene.truth.get("loose_tiles", []) + scene.truth.get("edge_tiles", [])]
    ring = clear_ring_quads(scene.truth, tuple(others), image.shape)
    empty = encode_labels(tile_labels(None))
    crops, labels, is_ring = [], [], []
    for _ in range(spec.variants):
        picked = ring[rng.permutation(len(ring))[: spec.ring_cells]]
        quads = np.concatenate([grid_quads, picked])
        small, scaled = reduced_photo(image, quads, spec, rng)
        crops.append(crop_quads(small, jittered_quads(scaled, spec, rng), spec.size))
        labels += [grid_labels, np.tile(empty, (len(picked), 1))]
        is_ring.append(np.arange(len(quads)) >= len(grid_quads))
    return np.concatenate(crops), np.concatenate(labels), np.concatenate(is_ring)


def _photo_job(job: tuple[int, int, CropSpec]) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    seed, index, spec = job
    cv2.setNumThreads(1)  # one process a core: threads inside would only fight
    return (index, *photo_crops(seed, index, spec))


# --- datasets --------------------------------------------------------------------------------------


def build_crops(
    seed: int,
    photos: int,
    spec: CropSpec,
    *,
    jobs: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> CropSet:
    """Crops of photos 0..photos-1 of ``seed``, in photo order whatever the process count."""
    if seed >= EVAL_SEEDS_FROM:
        raise ValueError(f"seed {seed} is reserved for evaluation (>= {EVAL_SEEDS_FROM})")
    work = [(seed, i, spec) for i in range(photos)]
    parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    pool = get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        results = pool.imap_unordered(_photo_job, work, chunksize=2) if pool else map(_photo_job, work)
        for index, *part in results:
            parts[index] = tuple(part)  # type: ignore[assignment]
            if progress:
                progress(len(parts), photos)
    finally:
        if pool:
            pool.close()
            pool.join()
    order = range(photos)
    return CropSet(
        crops=np.concatenate([parts[i][0] for i in order]),
        labels=np.concatenate([parts[i][1] for i in order]),
        photo=np.concatenate([np.full(len(parts[i][1]), i, np.int32) for i in order]),
        ring=np.concatenate([parts[i][2] for i in order]),
        seed=seed,
        photos=photos,
    )


# Fields added to CropSpec after DATA_VERSION 4: left out of the cache key at their default, so the
# crops cached before them stay valid.
_LATER_FIELDS = {"stress": False, "lights": ()}


def cache_path(seed: int, photos: int, spec: CropSpec, cache_dir: Path = CACHE_DIR) -> Path:
    fields = {k: v for k, v in asdict(spec).items() if not (k in _LATER_FIELDS and v == _LATER_FIELDS[k])}
    key = json.dumps({"v": DATA_VERSION, "heads": HEADS, **fields}, sort_keys=True)
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    return cache_dir / f"crops-s{seed}-n{photos}-{spec.size}px-{digest}.npz"


def load_or_build_crops(
    seed: int,
    photos: int,
    spec: CropSpec,
    *,
    jobs: int = 2,
    cache_dir: Path = CACHE_DIR,
    log: Callable[[str], None] = print,
) -> CropSet:
    """The crop set from its cache under ``cache_dir``, built and cached on first use."""
    path = cache_path(seed, photos, spec, cache_dir)
    if path.exists():
        with np.load(path) as data:
            log(f"crops: {path} (cached)")
            return CropSet(data["crops"], data["labels"], data["photo"], data["ring"], seed, photos)
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            log(f"  seed {seed}: {done}/{total} photos, {time.perf_counter() - start:.0f} s")

    crop_set = build_crops(seed, photos, spec, jobs=jobs, progress=progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp, crops=crop_set.crops, labels=crop_set.labels, photo=crop_set.photo, ring=crop_set.ring
    )
    tmp.replace(path)
    log(f"crops: {len(crop_set.labels)} from {photos} photos of seed {seed} -> {path}")
    return crop_set


def joined(first: CropSet, second: CropSet) -> CropSet:
    """Both crop sets as one; the second's photo indices follow the first's."""
    return CropSet(
        crops=np.concatenate([first.crops, second.crops]),
        labels=np.concatenate([first.labels, second.labels]),
        photo=np.concatenate([first.photo, second.photo + first.photos]),
        ring=np.concatenate([first.ring, second.ring]),
        seed=first.seed,
        photos=first.photos + second.photos,
    )


def head_counts(labels: np.ndarray) -> dict[str, list[int]]:
    """How often each class of each head occurs (for the log: rare classes need watching)."""
    return {
        name: [int((labels[:, h] == c).sum()) for c in range(len(HEADS[name]))]
        for h, name in enumerate(HEADS)
    }

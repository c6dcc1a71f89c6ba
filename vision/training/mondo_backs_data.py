"""Crops of tiles lying back side up in simulated Mondo photos, for the back reader
(`vision.mondo.backs`), labelled with the terrain the back shows.

Each photo is a whole simulated 12 MP (or 7 MP) phone photo of an island with several tiles turned to
their cloud side (`mondo_scene(backs=...)`), every second one from the stress world, decoded and
cut exactly as the reader cuts it: the JPEG decoded at reduced size, the crop taken from the finer
decode the cell needs (`vision.mondo.crops.crop_source`), the middle of the truth cell quad with
its corners jittered and the whole turned a little (the locator is not exact, tiles lie turned).

This module imports no torch (the default tests import it without the `train` extra).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from vision.catalogs import load_catalog
from vision.geometry import crop_quads
from vision.mondo.backs import BACK_TERRAINS, back_terrain_of
from vision.mondo.crops import crop_source
from vision.mondo.reader import finer_view
from vision.photo_io import decode_photo
from vision.synth.dataset import photo_rng, photo_stem
from vision.synth.scenes import mondo_scene
from vision.synth.world import LIGHTS, World
from vision.training.common import cache_path, read_cache, write_cache
from vision.training.mondo_tiles_data import jittered_quads


@dataclass(frozen=True)
class BackSpec:
    seed: int = 21
    n: int = 800
    stress_every: int = 2  # every second photo from the stress world
    long_sides: tuple[int, ...] = (3000, 4000)  # 7 and 12 MP phone photos
    backs: tuple[int, int] = (3, 6)  # tiles turned to their back in a photo (inclusive)
    size: int = 96  # crop side, px
    margin: float = -0.1  # negative: the crop shows the cell's middle 80%, not its neighbours
    variants: int = 2  # crops per back tile, each with its own jitter
    corner_jitter: float = 0.03  # each corner, fraction of the cell side
    shift_jitter: float = 0.06  # the whole quad
    turn_jitter: float = 8.0  # degrees, the whole quad about its middle
    exclude_tables: tuple[str, ...] = ()
    version: int = 1

    def cache_path(self) -> Path:
        return cache_path(self, "mondo-backs", "backs")


def jittered(quads: np.ndarray, spec: BackSpec, rng: np.random.Generator) -> np.ndarray:
    """Each quad turned a little about its middle, then moved and its corners moved as the tile
    model's crops are (`mondo_tiles_data.jittered_quads`; px of the same picture)."""
    centre = quads.mean(axis=1, keepdims=True)
    angle = np.radians(rng.uniform(-spec.turn_jitter, spec.turn_jitter, len(quads)))
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    rel = quads - centre
    turned = np.stack([rel[..., 0] * c - rel[..., 1] * s, rel[..., 0] * s + rel[..., 1] * c], axis=-1)
    return jittered_quads(centre + turned, spec, rng)  # type: ignore[arg-type]  # its jitter fields


def photo_back_crops(spec: BackSpec, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Photo ``index``'s crops of every back tile (``spec.variants`` each), their terrain labels (index
    into BACK_TERRAINS) and the photo's light (index into LIGHTS)."""
    rng = np.random.default_rng([spec.seed, index, 21])  # apart from the photo's own generator
    catalog = load_catalog("mondo")
    world = World(stress=index % spec.stress_every == 1, exclude_tables=spec.exclude_tables)
    scene = mondo_scene(
        photo_rng(spec.seed, index),
        catalog,
        long_side_px=int(rng.choice(spec.long_sides)),
        name=photo_stem("mondo", spec.seed, index),
        world=world,
        backs=int(rng.integers(spec.backs[0], spec.backs[1] + 1)),
    )
    truth = scene.truth
    cells = {(c["row"], c["col"]): np.asarray(c["quad"], np.float32) for c in truth["cells"]}
    quads, labels = [], []
    for tile in truth["tiles"]:
        if tile["face"] == "back":
            quads.append(cells[(tile["row"], tile["col"])])
            labels.append(BACK_TERRAINS.index(back_terrain_of(catalog, tile["component"])))
    light = LIGHTS.index(truth["conditions"]["light"])
    if not quads:
        return np.zeros((0, spec.size, spec.size, 3), np.uint8), np.zeros(0, np.int8), np.zeros(0, np.int8)
    photo = decode_photo(scene.jpeg)
    in_view = (np.stack(quads) + 0.5) / np.float32(photo.scale) - 0.5  # px of the reduced view
    source, to_source = crop_source(photo.image, in_view, spec.size, spec.margin, finer_view(photo))
    crops = [
        crop_quads(source, to_source(jittered(in_view, spec, rng)), spec.size, spec.margin)
        for _ in range(spec.variants)
    ]
    n = len(crops) * len(quads)
    return np.concatenate(crops), np.tile(np.int8(labels), len(crops)), np.full(n, light, np.int8)


def _job(job: tuple[BackSpec, int]) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    spec, index = job
    cv2.setNumThreads(1)  # one process a core
    return (index, *photo_back_crops(spec, index))


def build_back_crops(
    spec: BackSpec, jobs: int = 2, log: Callable[[str], None] | None = print
) -> dict[str, np.ndarray]:
    """Every back crop of photos 0..n-1 of ``spec``, in photo order, cached on disk."""
    data = read_cache(spec)
    if data is not None:
        return data
    parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    start = time.perf_counter()
    pool = get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        work = [(spec, i) for i in range(spec.n)]
        results = pool.imap_unordered(_job, work, chunksize=2) if pool else map(_job, work)
        for index, *part in results:
            parts[index] = tuple(part)  # type: ignore[assignment]
            if log and len(parts) % 50 == 0:
                log(
                    f"  backs seed {spec.seed}: {len(parts)}/{spec.n} photos, {time.perf_counter() - start:.0f} s"
                )
    finally:
        if pool:
            pool.close()
            pool.join()
    order = range(spec.n)
    return write_cache(
        spec,
        {
            "crops": np.concatenate([parts[i][0] for i in order]),
            "labels": np.concatenate([parts[i][1] for i in order]),
            "light": np.concatenate([parts[i][2] for i in order]),
            "photo": np.concatenate([np.full(len(parts[i][1]), i, np.int32) for i in order]),
        },
    )

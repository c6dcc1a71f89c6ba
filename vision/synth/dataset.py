"""Folders of simulated photos with their truth: what ``scorecam synth`` writes and ``eval`` reads.

Photo ``i`` of seed ``s`` depends on (s, i) alone, so any photo can be remade by itself, in any
order or process, byte for byte. Training and evaluation use disjoint seeds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.synth.catalog import load_catalog
from vision.synth.scenes import Scene, mediterraneo_scene, mondo_scene
from vision.synth.world import World

GAMES = ("mondo", "mediterraneo", "mediatore", "snorkeling")


def photo_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng([seed, index])


def photo_stem(game: str, seed: int, index: int) -> str:
    return f"{game}-s{seed}-{index:05d}"


def make_scene(
    game: str, seed: int, index: int, long_side_px: int = 4000, *, world: World | None = None
) -> Scene:
    rng = photo_rng(seed, index)
    catalog = load_catalog(game)
    name = photo_stem(game, seed, index)
    # Only passed when given, so the scenes' everyday call stays as it always was.
    extra = {"world": world} if world is not None else {}
    if game == "mondo":
        return mondo_scene(rng, catalog, long_side_px=long_side_px, name=name, **extra)
    if game == "mediterraneo":
        return mediterraneo_scene(rng, catalog, long_side_px=long_side_px, **extra)
    if game == "mediatore":  # imported here: its art and deck are only needed for its own photos
        from vision.synth.mediatore_scene import mediatore_scene

        return mediatore_scene(rng, long_side_px=long_side_px, **extra)
    if game == "snorkeling":
        from vision.synth.snorkeling_scene import snorkeling_scene

        return snorkeling_scene(rng, catalog, long_side_px=long_side_px, **extra)
    raise ValueError(f"unknown game {game!r}")


def write_photo(
    game: str, seed: int, index: int, out_dir: Path, long_side_px: int, world: World | None = None
) -> Path:
    """Write one photo and its truth JSON; returns the photo's path."""
    scene = make_scene(game, seed, index, long_side_px, world=world)
    stem = photo_stem(game, seed, index)
    photo = out_dir / f"{stem}.jpg"
    photo.write_bytes(scene.jpeg)
    truth = {"photo": photo.name, "seed": seed, "index": index, **scene.truth}
    (out_dir / f"{stem}.json").write_text(json.dumps(truth, indent=1) + "\n")
    return photo


def _write_one(job: tuple[str, int, int, str, int, World | None]) -> str:
    game, seed, index, out_dir, long_side_px, world = job
    cv2.setNumThreads(1)  # one process a core: threads inside would only fight
    return str(write_photo(game, seed, index, Path(out_dir), long_side_px, world))


def write_photos(
    game: str,
    n: int,
    seed: int,
    out_dir: Path,
    *,
    long_side_px: int = 4000,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    world: World | None = None,
) -> list[Path]:
    """Write ``n`` photos of ``game`` from ``seed`` into ``out_dir`` (created if needed), drawn from
    ``world`` (None: the scenes' own everyday mix)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    # World is a frozen dataclass: it pickles into the worker processes with the job.
    work = [(game, seed, i, str(out_dir), long_side_px, world) for i in range(n)]
    done: list[Path] = []
    results: Iterator[str]
    if jobs > 1:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(_write_one, work)
    else:
        pool = None
        results = map(_write_one, work)
    try:
        for path in results:
            done.append(Path(path))
            if progress:
                progress(len(done), n)
    finally:
        if pool:
            pool.shutdown()
    return done


def contact_sheet(photos: list[Path], cols: int = 4, cell_px: int = 480) -> np.ndarray:
    """A grid of the photos (at most cols x cols), each scaled to fit a square cell, for a glance."""
    photos = photos[: cols * cols]
    rows = (len(photos) + cols - 1) // cols
    sheet = np.full((rows * cell_px, cols * cell_px, 3), 255, np.uint8)
    for i, path in enumerate(photos):
        image = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_4)
        scale = (cell_px - 8) / max(image.shape[:2])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        r, c = divmod(i, cols)
        y = r * cell_px + (cell_px - small.shape[0]) // 2
        x = c * cell_px + (cell_px - small.shape[1]) // 2
        sheet[y : y + small.shape[0], x : x + small.shape[1]] = small
    return sheet

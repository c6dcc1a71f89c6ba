"""What the readers' speed benches share: simulated held-out 12 MP photos of one game, each timed
decoding in full with OpenCV and reading from its file bytes, on one core, best of 3 each.
`vision.mondo.bench_read`, `vision.mediterraneo.bench_read` and `vision.mediatore.bench_read` run it
with their readers."""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from vision.photo_io import Photo, PhotoError, decode_photo
from vision.synth.dataset import make_scene


def best_of(fn: Callable[[], object], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def from_bytes(read: Callable[[Photo], object]) -> Callable[[bytes], None]:
    """``read`` of the photo decoded from file bytes, as the benches time it; a reader's refusal
    (PhotoError: "no sea found", "no cards found") costs its time too."""

    def once(data: bytes) -> None:
        with contextlib.suppress(PhotoError):
            read(decode_photo(data))

    return once


def bench_args(doc: str, seed: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=seed)
    return parser.parse_args()


def run_bench(game: str, title: str, what: str, read: Callable[[bytes], object], n: int, seed: int) -> None:
    """Print the medians of decoding and of `read(file bytes)` over `n` photos of `game`, and their
    ratio. The caller loads its models first, as a running service would."""
    cv2.setNumThreads(1)
    decode_ms, read_ms = [], []
    for index in range(n):
        data = make_scene(game, seed, index, 4000).jpeg
        buffer = np.frombuffer(data, np.uint8)
        decode_ms.append(best_of(lambda buffer=buffer: cv2.imdecode(buffer, cv2.IMREAD_COLOR)))
        read_ms.append(best_of(lambda data=data: read(data)))
    d, r = statistics.median(decode_ms), statistics.median(read_ms)
    print(f"{n} {title}photos of 12 MP (seed {seed}), one core, best of 3 each, medians:")
    print(f"  cv2.imdecode, full size          {d:7.1f} ms")
    print(
        f"  read (file bytes -> {what}){' ' * (13 - len(what))}{r:7.1f} ms   = {r / d:.2f} x the full decode"
    )

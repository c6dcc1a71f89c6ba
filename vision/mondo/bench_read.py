"""Whole-photo reading time against decoding the same photo with OpenCV, on one core.

    python -m vision.mondo.bench_read [--n 30] [--seed 9200]

Simulates held-out 12 MP photos (seeds >= 9000 are never used in training), then per photo times
(a) cv2.imdecode of the full JPEG and (b) read_photo + read_island (reduced decode, locate, crops,
tile model, catalog decoding, the reader's checks), and prints both medians and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from vision.mondo.reader import read_photo_island, tile_model
from vision.photo_io import decode_photo
from vision.synth.dataset import make_scene


def best_of(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=9200)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    tile_model()  # load once, as a running service would
    decode_ms, read_ms = [], []
    for index in range(args.n):
        data = make_scene("mondo", args.seed, index, 4000).jpeg
        buffer = np.frombuffer(data, np.uint8)
        decode_ms.append(best_of(lambda buffer=buffer: cv2.imdecode(buffer, cv2.IMREAD_COLOR)))
        # the whole reading, refusals included (a refused photo costs its time too)
        read_ms.append(best_of(lambda data=data: read_photo_island(decode_photo(data))))
    d, r = statistics.median(decode_ms), statistics.median(read_ms)
    print(f"{args.n} photos of 12 MP (seed {args.seed}), one core, best of 3 each, medians:")
    print(f"  cv2.imdecode, full size          {d:7.1f} ms")
    print(f"  read (file bytes -> island)      {r:7.1f} ms   = {r / d:.2f} x the full decode")


if __name__ == "__main__":
    main()

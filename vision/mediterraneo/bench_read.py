"""Whole-photo sea reading time against decoding the same photo with OpenCV, on one core.

    python -m vision.mediterraneo.bench_read [--n 30] [--seed 9210]

Simulates held-out 12 MP photos of Mediterráneo seas (seeds >= 9000 are never used in training),
then per photo times (a) cv2.imdecode of the full JPEG and (b) decode_photo + read_sea (reduced
decode, locating the sea, the cell model, the kit decoder, the objective cards), and prints both
medians and their ratio. The Mondo reader's bench is `vision.mondo.bench_read`.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics

import cv2
import numpy as np

from vision.mediterraneo.reader import load_cell_model, read_sea
from vision.mondo.bench_read import best_of
from vision.photo_io import PhotoError, decode_photo
from vision.synth.dataset import make_scene


def read_once(data: bytes) -> None:
    with contextlib.suppress(PhotoError):  # "no sea found" costs its time too
        read_sea(decode_photo(data))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=9210)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    load_cell_model()  # load once, as a running service would
    decode_ms, read_ms = [], []
    for index in range(args.n):
        data = make_scene("mediterraneo", args.seed, index, 4000).jpeg
        buffer = np.frombuffer(data, np.uint8)
        decode_ms.append(best_of(lambda buffer=buffer: cv2.imdecode(buffer, cv2.IMREAD_COLOR)))
        read_ms.append(best_of(lambda data=data: read_once(data)))
    d, r = statistics.median(decode_ms), statistics.median(read_ms)
    print(f"{args.n} Mediterráneo photos of 12 MP (seed {args.seed}), one core, best of 3 each, medians:")
    print(f"  cv2.imdecode, full size          {d:7.1f} ms")
    print(f"  read (file bytes -> sea)         {r:7.1f} ms   = {r / d:.2f} x the full decode")


if __name__ == "__main__":
    main()

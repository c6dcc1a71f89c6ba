"""Benchmark the photo simulator: `python -m vision.synth.bench_photo [--n N] [--threads T]`.

Scene: 9 pieces of 50 mm with flat random-coloured art, drawn styles (clutter, blur, lighting: the real
mix). Prints photos per second at 4000 px and 1600 px long side, and, as the project's speed figures
do, the ratio to decoding a JPEG of the same size. Single core by default.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from vision.synth.photo import Piece, encode_jpeg, photograph


def scene(rng: np.random.Generator) -> list[Piece]:
    pieces = []
    for k in range(9):
        art = np.empty((256, 256, 3), np.uint8)
        art[:] = rng.integers(0, 256, 3)
        r, c = divmod(k, 3)
        pieces.append(Piece(art, (50.0, 50.0), (c * 51.0, r * 51.0)))
    return pieces


def bench(long_side: int, n: int) -> tuple[float, float, float]:
    """Seconds per photo, per JPEG encode, per JPEG decode (median over n seeds)."""
    t_photo, t_enc, t_dec = [], [], []
    for seed in range(n):
        rng = np.random.default_rng(seed)
        pieces = scene(rng)
        t0 = time.perf_counter()
        shot = photograph(pieces, rng, long_side_px=long_side)
        t1 = time.perf_counter()
        data = encode_jpeg(shot.image, rng)
        t2 = time.perf_counter()
        cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        t3 = time.perf_counter()
        t_photo.append(t1 - t0)
        t_enc.append(t2 - t1)
        t_dec.append(t3 - t2)
    return float(np.median(t_photo)), float(np.median(t_enc)), float(np.median(t_dec))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=8, help="photos per size (different seeds and styles)")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads (1: one core)")
    args = ap.parse_args()
    cv2.setNumThreads(args.threads)
    photograph(scene(np.random.default_rng(0)), np.random.default_rng(0), long_side_px=320)  # warm-up
    for long_side in (4000, 1600):
        photo, enc, dec = bench(long_side, args.n)
        print(
            f"{long_side:>5} px: {1 / photo:6.2f} photos/s ({photo * 1000:6.0f} ms median over {args.n}), "
            f"{photo / dec:5.1f}x a JPEG decode of the same size; JPEG encode {enc * 1000:4.0f} ms"
        )


if __name__ == "__main__":
    main()

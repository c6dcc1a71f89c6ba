"""Whole-photo reading time against decoding the same photo with OpenCV, on one core.

    python -m vision.mondo.bench_read [--n 30] [--seed 9200]

Simulates held-out 12 MP photos (seeds >= 9000 are never used in training), then per photo times
(a) cv2.imdecode of the full JPEG and (b) read_photo + read_island (reduced decode, locate, crops,
tile model, catalog decoding, the reader's checks), and prints both medians and their ratio.
"""

from __future__ import annotations

from vision.bench_read import bench_args, from_bytes, run_bench
from vision.mondo.reader import read_photo_island, tile_model


def main() -> None:
    args = bench_args(__doc__, 9200)
    tile_model()  # load once, as a running service would
    # the whole reading, refusals included (a refused photo costs its time too)
    run_bench("mondo", "", "island", from_bytes(read_photo_island), args.n, args.seed)


if __name__ == "__main__":
    main()

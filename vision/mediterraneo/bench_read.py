"""Whole-photo sea reading time against decoding the same photo with OpenCV, on one core.

    python -m vision.mediterraneo.bench_read [--n 30] [--seed 9210]

Simulates held-out 12 MP photos of Mediterráneo seas (seeds >= 9000 are never used in training),
then per photo times (a) cv2.imdecode of the full JPEG and (b) decode_photo + read_sea (reduced
decode, locating the sea, the cell model, the kit decoder, the objective cards), and prints both
medians and their ratio. The Mondo reader's bench is `vision.mondo.bench_read`.
"""

from __future__ import annotations

from vision.bench_read import bench_args, from_bytes, run_bench
from vision.mediterraneo.reader import load_cell_model, read_sea


def main() -> None:
    args = bench_args(__doc__, 9210)
    load_cell_model()  # load once, as a running service would
    run_bench("mediterraneo", "Mediterráneo ", "sea", from_bytes(read_sea), args.n, args.seed)


if __name__ == "__main__":
    main()

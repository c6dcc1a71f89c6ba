"""Whole-photo sea reading time against decoding the same photo with OpenCV, on one core.

    python -m vision.mediterraneo.bench_read [--n 30] [--seed 9210]

Simulates held-out 12 MP photos of Mediterráneo seas (seeds >= 9000 are never used in training),
then per photo times (a) cv2.imdecode of the full JPEG and (b) decode_photo + read_sea (reduced
decode, locating the sea, the cell model, the kit decoder, the objective cards), and prints both
medians and their ratio. The Mondo reader's bench is `vision.mondo.bench_read`.
"""

from __future__ import annotations

import contextlib

from vision.bench_read import bench_args, run_bench
from vision.mediterraneo.reader import load_cell_model, read_sea
from vision.photo_io import PhotoError, decode_photo


def read_once(data: bytes) -> None:
    with contextlib.suppress(PhotoError):  # "no sea found" costs its time too
        read_sea(decode_photo(data))


def main() -> None:
    args = bench_args(__doc__, 9210)
    load_cell_model()  # load once, as a running service would
    run_bench("mediterraneo", "Mediterráneo ", "sea", read_once, args.n, args.seed)


if __name__ == "__main__":
    main()

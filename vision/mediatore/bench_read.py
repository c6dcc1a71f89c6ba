"""Whole-photo reading time of won Mediatore cards against decoding the same photo with OpenCV, on
one core.

    python -m vision.mediatore.bench_read [--n 30] [--seed 9230]

Simulates held-out 12 MP photos of a side's won cards (seeds >= 9000 are never used in training), then
per photo times (a) cv2.imdecode of the full JPEG and (b) decode_photo + read_cards (reduced decode,
the locator's looks, the corner model, the cards and their checks), and prints both medians and their
ratio: the ratio holds where the machine's own speed varies from day to day.
"""

from __future__ import annotations

from vision.bench_read import bench_args, from_bytes, run_bench
from vision.mediatore.locate import load_locator
from vision.mediatore.reader import load_corner_model, read_cards


def main() -> None:
    args = bench_args(__doc__, 9230)
    load_locator()  # load once, as a running service would
    load_corner_model()
    run_bench("mediatore", "Mediatore ", "cards", from_bytes(read_cards), args.n, args.seed)


if __name__ == "__main__":
    main()

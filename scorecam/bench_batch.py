"""Batch throughput on every core against one process, on the same photos.

    python -m scorecam.bench_batch [--copies 10] [--jobs 2]

Copies the committed sample photos (samples/mondo) ``--copies`` times into a temporary folder, scores
it with ``run_batch`` in this process (jobs=1) and with a pool of ``--jobs`` worker processes, and
prints photos per second for each and their ratio. Each figure is the whole batch as a user waits for
it, from start to the last line written: worker start-up and model loading included (about half a
second; a batch of a hundred photos or more makes it small). The two runs must write the same CSV
(checked). Other work on the machine's cores lowers the ratio: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from scorecam.batch import run_batch

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mondo"


def timed_batch(folder: Path, out: Path, jobs: int) -> float:
    start = time.perf_counter()
    run_batch(folder, out, None, jobs=jobs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--copies", type=int, default=10, help="copies of the sample photos (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes to compare (default 2)")
    args = parser.parse_args()
    photos = sorted(SAMPLES.glob("*.jpg"))
    with tempfile.TemporaryDirectory(prefix="scorecam-bench-batch-") as tmp:
        folder = Path(tmp) / "photos"
        folder.mkdir()
        for copy in range(args.copies):
            for photo in photos:
                shutil.copy(photo, folder / f"c{copy}-{photo.name}")
        n = args.copies * len(photos)
        one = timed_batch(folder, Path(tmp) / "one.csv", 1)
        many = timed_batch(folder, Path(tmp) / "many.csv", args.jobs)
        same = (Path(tmp) / "one.csv").read_bytes() == (Path(tmp) / "many.csv").read_bytes()
    print(f"{n} photos ({args.copies} x samples/mondo), {os.cpu_count()} cores on this machine:")
    print(f"  jobs=1 (this process)     {n / one:6.2f} photos/s   ({one:.1f} s)")
    print(f"  jobs={args.jobs} (worker processes) {n / many:6.2f} photos/s   ({many:.1f} s)")
    print(f"  ratio                     {one / many:6.2f} x   (target >= 1.8 on 2 cores)")
    print(f"  same CSV from both: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()

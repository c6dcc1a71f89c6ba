"""Simulator speed, whole scenes: photos per second at 12 MP and at training size, one process.

    python -m vision.synth.bench_synth [--n 6]

Prints, per game and size, the median seconds per photo (scene building, art, photograph, JPEG),
photos per second, and for Mondo the time 10,000 training tile crops take on 2 processes.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2

from vision.synth.dataset import make_scene

SEED = 9950  # held-out range: benchmarks never touch training seeds


def time_scenes(game: str, n: int, long_side: int) -> tuple[float, float]:
    """(median seconds per photo, mean grid cells per photo)."""
    seconds, cells = [], []
    for index in range(n):
        start = time.perf_counter()
        scene = make_scene(game, SEED, index, long_side)
        seconds.append(time.perf_counter() - start)
        cells.append(len(scene.truth.get("cells", [])))
    return statistics.median(seconds), statistics.mean(cells)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=6, help="photos per figure (default 6)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    make_scene("mondo", SEED, 0, 640)  # warm the art caches, as a long run would be
    make_scene("mediterraneo", SEED, 0, 640)
    print(f"{'game':<14}{'long side':>10}{'s/photo':>10}{'photos/s':>10}")
    for game in ("mondo", "mediterraneo"):
        for long_side in (4000, 1300):
            median, cells = time_scenes(game, args.n, long_side)
            print(f"{game:<14}{long_side:>10}{median:>10.3f}{1 / median:>10.2f}")
            if game == "mondo" and long_side == 1300:
                minutes = 10_000 / cells * median / 2 / 60
                print(f"  10,000 Mondo tile crops at 1300 px on 2 processes: about {minutes:.1f} minutes")


if __name__ == "__main__":
    main()

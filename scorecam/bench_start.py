"""Whole-process time of ``scorecam score photo.jpg``: from the start of the process to the printed table.

    python -m scorecam.bench_start [--rounds 3] [PHOTO ...]

Runs the installed ``scorecam`` command as a subprocess on each photo (default: every committed
sample photo, samples/mondo, so that the figure is a photo as a player takes it, not one chosen to
be quick or slow), ``--rounds`` times each after one untimed run that warms the file cache, and prints
the median and 90th percentile over all runs, beside the bare interpreter's start-up and
decoding the same photo with OpenCV for scale. Then one run under ``python -X importtime`` names the
packages whose imports cost the most. A player pays all of it for every photo scored one at a time.

Python runs as a user's does: the project's modules are compiled once into ``__pycache__`` (by the
untimed run) and loaded from there; PYTHONDONTWRITEBYTECODE, where set, is dropped for the runs, as
compiling the project on every run would add some 70 ms that no installed copy pays.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mondo"
ANSWERED = (0, 4)  # scored, or refused with its reason (no island it can vouch for): both a finished run
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def scorecam_command() -> list[str]:
    """The console script beside this interpreter (what a user runs), else ``python -m scorecam``."""
    script = Path(sys.executable).with_name("scorecam")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "scorecam"]


def wall_ms(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode not in ANSWERED:
        reason = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise SystemExit(f"bench_start: {' '.join(command)} exited {done.returncode}: {reason[0]}")
    return elapsed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def import_costs(photo: Path, env: dict[str, str]) -> tuple[float, dict[str, float]]:
    """Total import ms of one ``scorecam score`` run, and the import ms (own time) per top-level package."""
    command = [sys.executable, "-X", "importtime", "-m", "scorecam", "score", str(photo)]
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    per_package: dict[str, float] = defaultdict(float)
    total = 0.0
    for line in done.stderr.decode(errors="replace").splitlines():
        match = IMPORT_LINE.match(line)
        if match:
            own_us, name = int(match.group(1)), match.group(4)
            per_package[name.split(".")[0]] += own_us / 1000
            total += own_us / 1000
    return total, dict(per_package)


def decode_ms(photo: Path) -> float:
    import cv2  # only the benchmark's own yardstick needs it here

    start = time.perf_counter()
    cv2.imread(str(photo), cv2.IMREAD_COLOR)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("photos", nargs="*", type=Path, metavar="PHOTO", help="default: samples/mondo/*.jpg")
    parser.add_argument("--rounds", type=int, default=3, help="timed runs per photo (default 3)")
    parser.add_argument("--top", type=int, default=8, help="packages listed by import cost (default 8)")
    args = parser.parse_args()
    photos = args.photos or sorted(SAMPLES.glob("*.jpg"))
    # colour and terminal detection off, as when the table is piped; the same for every run
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    commands = {photo: [*scorecam_command(), "score", str(photo)] for photo in photos}
    for command in commands.values():
        wall_ms(command, env)  # warm the file cache: every later run finds the same state
    runs: dict[Path, list[float]] = defaultdict(list)
    for _ in range(args.rounds):  # round-robin, so that a slow moment of the machine is shared
        for photo, command in commands.items():
            runs[photo].append(wall_ms(command, env))
    every = [ms for photo_runs in runs.values() for ms in photo_runs]
    bare = statistics.median(wall_ms([sys.executable, "-c", "pass"], env) for _ in range(5))
    decode = statistics.median(min(decode_ms(photo) for _ in range(3)) for photo in photos)
    median = statistics.median(every)
    print(f"`scorecam score PHOTO`, whole process, {len(photos)} photos x {args.rounds} runs:")
    print(f"  median {median:6.0f} ms   p90 {percentile(every, 0.9):6.0f} ms   min {min(every):6.0f} ms")
    print(
        "  median per photo: "
        + ", ".join(f"{p.stem[-5:]} {statistics.median(r):.0f}" for p, r in runs.items())
    )
    print(f"  bare interpreter start-up {bare:6.0f} ms; cv2.imread of a photo {decode:6.0f} ms (median)")
    print(f"  median = {median / decode:.1f} x a photo's full decode")
    total, per_package = import_costs(photos[0], env)
    print(f"imports (python -X importtime, one run): {total:.0f} ms in all; most costly packages:")
    for name, ms in sorted(per_package.items(), key=lambda item: -item[1])[: args.top]:
        print(f"  {name:24s} {ms:6.0f} ms")


if __name__ == "__main__":
    main()

"""Benchmark the island locator on held-out simulated photos.

    python -m vision.mondo.bench_locate --n 200 --seed 9100

Photos are simulated at full phone size (12 MP by default) with held-out seeds (>= 9000), cached
under build/, decoded at reduced size as the reader does (cv2.IMREAD_REDUCED_COLOR_4: 1000 px long
side) and located on one core. Quads are scaled back to full-photo px and compared with the truth by
`vision.mondo.grid_match`: an island is *found* when the largest island reported has the right grid
size and every tile lies wholly inside its cell's crop. The outline corners' distance from the
simulator's grid is printed too (how many within 0.1 cell).

Time is the process's CPU time: decoding and locating run on one thread each, so it is one core's
time whether or not other jobs share the machine (wall time is printed too). The ratio to the
reduced decode of the same photo is what DESIGN.md asks benchmarks for.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.mondo.grid_match import match_grid, outer_tile_insets
from vision.mondo.locate import load_locator, locate_islands
from vision.mondo.locator_maps import MODEL_PATH
from vision.synth.dataset import photo_stem, write_photo

ROOT = Path(__file__).resolve().parents[2]
CORNER_TOL = 0.1  # cells: the outline figure printed beside "found"
REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


def _simulate(job: tuple[int, int, str, int]) -> None:
    seed, index, folder, long_side = job
    cv2.setNumThreads(1)  # one process a core
    write_photo("mondo", seed, index, Path(folder), long_side)


def photos_for(n: int, seed: int, long_side: int, jobs: int) -> Path:
    """The folder of simulated photos with truth; photos already there are reused (photo i of a seed
    is the same whatever n), the missing ones are made."""
    out = ROOT / "build" / "locator-bench" / f"mondo-s{seed}-{long_side}px"
    out.mkdir(parents=True, exist_ok=True)
    missing = [i for i in range(n) if not (out / f"{photo_stem('mondo', seed, i)}.json").exists()]
    if missing:
        print(f"simulating {len(missing)} photos at {long_side} px into {out} ...", flush=True)
        work = [(seed, i, str(out), long_side) for i in missing]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                list(pool.map(_simulate, work))
        else:
            for job in work:
                _simulate(job)
    return out


def bench(folder: Path, n: int, seed: int, reduce: int, model_path: Path) -> dict:
    cv2.setNumThreads(1)  # one core, as the reader runs
    model = load_locator(str(model_path))
    rows, times, cpu_times, decode_times, insets = [], [], [], [], []
    for i in range(n):
        stem = photo_stem("mondo", seed, i)
        truth = json.loads((folder / f"{stem}.json").read_text())
        insets.append(outer_tile_insets(truth))
        data = np.fromfile(folder / f"{stem}.jpg", np.uint8)
        c0 = time.process_time()
        image = cv2.imdecode(data, REDUCED[reduce])
        t1, c1 = time.perf_counter(), time.process_time()
        result = locate_islands(image, model=model)
        t2, c2 = time.perf_counter(), time.process_time()
        decode_times.append(c1 - c0)
        times.append(t2 - t1)
        cpu_times.append(c2 - c1)  # one thread throughout: CPU time is one core's time, busy machine or not
        full_w, full_h = truth["camera"]["image_size"]
        scale = np.array([full_w / image.shape[1], full_h / image.shape[0]])
        g = truth["scene"]["grid"]
        row = {"stem": stem, "grid": g, "kind": truth["scene"]["kind"], "islands": len(result.islands)}
        if result.islands:
            best = result.islands[0]
            # image px of the reduced photo -> full photo px (pixel centres kept)
            quad = (best.quad.astype(np.float64) + 0.5) * scale - 0.5
            match = match_grid(quad, best.grid, truth)
            row.update(
                {"found_grid": best.grid, "max_err": match.corner_error, "clearance": match.tile_clearance}
            )
            row["found"] = match.found
        else:
            row["found"] = False
        rows.append(row)
    found = np.array([r["found"] for r in rows])
    located = [r for r in rows if r["islands"]]
    grid_ok = np.array([r.get("found_grid") == r["grid"] for r in rows])
    errs = np.array([r["max_err"] for r in located if r.get("found_grid") == r["grid"]])
    clearances = np.array([r["clearance"] for r in located if r.get("found_grid") == r["grid"]])
    insets = np.concatenate(insets)
    return {
        "photos": n,
        "seed": seed,
        "found_rate": float(found.mean()),
        "grid_accuracy": float(grid_ok.mean()),
        "no_island": int(sum(1 for r in rows if not r["islands"])),
        "several_islands": int(sum(1 for r in rows if r["islands"] > 1)),
        "corners_within_tol": float(np.mean([r.get("max_err", np.inf) <= CORNER_TOL for r in rows])),
        "worst_corner_err_median_cells": float(np.median(errs)) if len(errs) else None,
        "worst_corner_err_p95_cells": float(np.percentile(errs, 95)) if len(errs) else None,
        "tile_clearance_min_cells": float(clearances.min()) if len(clearances) else None,
        "outer_tile_inset_cells": [float(insets.min()), float(np.median(insets)), float(insets.max())],
        "locate_ms_median": 1000 * float(np.median(times)),
        "locate_ms_p95": 1000 * float(np.percentile(times, 95)),
        "locate_cpu_ms_median": 1000 * float(np.median(cpu_times)),
        "locate_cpu_ms_p95": 1000 * float(np.percentile(cpu_times, 95)),
        "decode_cpu_ms_median": 1000 * float(np.median(decode_times)),
        "failures": [r for r in rows if not r["found"]],
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=9100, help="held-out simulator seed (>= 9000)")
    p.add_argument("--long-side", type=int, default=4000, help="simulated photo size (4000: 12 MP)")
    p.add_argument("--reduce", type=int, default=4, choices=sorted(REDUCED), help="JPEG decode reduction")
    p.add_argument("--jobs", type=int, default=2, help="processes simulating photos")
    p.add_argument("--model", type=Path, default=MODEL_PATH)
    p.add_argument("--json", type=Path, help="write the full results (with failures) here")
    args = p.parse_args(argv)
    if args.seed < 9000:
        p.error("evaluation seeds start at 9000 (lower seeds train the models)")
    folder = photos_for(args.n, args.seed, args.long_side, args.jobs)
    res = bench(folder, args.n, args.seed, args.reduce, args.model)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1) + "\n")
    print(
        f"photos                 {res['photos']} (seed {res['seed']}, {args.long_side} px, decoded 1/{args.reduce})"
    )
    print(
        f"islands found          {100 * res['found_rate']:.1f}%  (grid right, every tile inside its cell's crop)"
    )
    print(f"grid size right        {100 * res['grid_accuracy']:.1f}%")
    print(f"no island / several    {res['no_island']} / {res['several_islands']}")
    if res["worst_corner_err_median_cells"] is not None:
        print(f"least tile clearance   {res['tile_clearance_min_cells']:.3f} cell")
        print(
            f"outline corners        {100 * res['corners_within_tol']:.1f}% within {CORNER_TOL} cell of the truth; "
            f"worst corner: median {res['worst_corner_err_median_cells']:.3f}, 95th pct {res['worst_corner_err_p95_cells']:.3f}"
        )
    lo, mid, hi = res["outer_tile_inset_cells"]
    print(
        f"truth: outer tiles lie {lo:.3f} to {hi:.3f} cell (median {mid:.3f}) inside the simulator's outline"
    )
    print(
        f"locate time, one core  median {res['locate_cpu_ms_median']:.1f} ms CPU, "
        f"95th pct {res['locate_cpu_ms_p95']:.1f} ms (wall median {res['locate_ms_median']:.1f} ms)"
    )
    print(
        f"vs reduced decode      {res['decode_cpu_ms_median']:.1f} ms CPU: "
        f"locate / decode = {res['locate_cpu_ms_median'] / res['decode_cpu_ms_median']:.2f}"
    )
    for r in res["failures"][:20]:
        print(f"  miss {r['stem']}: grid {r['grid']} {r['kind']}, found grid {r.get('found_grid')}, "
              f"tile clearance {r.get('clearance', float('nan')):.3f}, islands {r['islands']}")  # fmt: skip


if __name__ == "__main__":
    main()

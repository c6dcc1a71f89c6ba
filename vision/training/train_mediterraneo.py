"""Train the Mediterráneo sea locator and cell model on simulated photos, export both to ONNX.

    python -m vision.training.train_mediterraneo --out-dir models
    python -m vision.training.train_mediterraneo --out-dir /tmp/smoke --smoke   # a few minutes

Both models learn from one cached data set (``mediterraneo_data``): the locator (the Mondo
locator's small U-net, ``train_locator.LocatorNet``) draws two maps, the visible sea cells and a
blob at each visible cell's centre, from the whole photo at 384 px and from windows at any scale;
the cell model (the Mondo tile model's plain CNN, ``mondo_tiles_model.TileNet``, on 40 px crops)
reads each lattice cell's content, octopus direction and frame. Training photos use seeds below
9000 only; sizes, normalisation and labels go into each file's "scorecam" metadata.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from vision.mediterraneo.cells import HEADS
from vision.training import train_locator as loc
from vision.training.common import build_data, export_crop_model, fit_crop_model, mixed_batches, one_cycle
from vision.training.export_onnx import scorecam_metadata
from vision.training.locator_data import CENTRE_SIGMA
from vision.training.mediterraneo_data import DataSpec, build_dataset
from vision.training.mondo_tiles_model import TileNet, TrainConfig, parameter_count

CELL_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1))  # 40 px -> 5 x 5
CELL_POOL = 5
LOCATOR_CHANNELS = ("sea", "centres")
VALID_SHARE = 20
SEAGULL_REPEAT = 4  # photos 0 .. n/20 - 1 are validation


# ------------------------------------------------------------------------------------------ locator


def train_locator(
    data: dict[str, np.ndarray], epochs: int, seed: int, log=print
) -> tuple[torch.nn.Module, dict]:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sets = [
        (data["images"], np.stack([data["sea"], data["centres"]], -1)),
        (data["win_images"], np.stack([data["win_sea"], data["win_centres"]], -1)),
    ]
    n = len(data["images"])
    n_val = max(16, n // VALID_SHARE)
    batch, lr = 16, 4e-3
    net = loc.LocatorNet().to(memory_format=torch.channels_last)
    per_epoch = 2 * ((n - n_val) // batch)
    opt, sched = one_cycle(net, lr, epochs * per_epoch)
    t0 = time.perf_counter()
    val: dict = {}
    for epoch in range(epochs):
        jobs = mixed_batches([np.arange(n_val, n)] * 2, batch, rng)  # whole photos and windows
        total = loc.train_epoch(net, sets, jobs, rng, opt, sched)
        val = {
            name: loc.evaluate(net, sets[k][0][:n_val], sets[k][1][:n_val])
            for k, name in enumerate(("photo", "window"))
        }
        log(f"  locator epoch {epoch + 1}/{epochs}: train loss {total / len(jobs):.4f}, val "
            + ", ".join(f"{k} loss {v['loss']:.4f} sea IoU {v['cells_iou']:.3f}" for k, v in val.items())
            + f" ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    return net, {"epochs": epochs, "val": val, "train_s": round(time.perf_counter() - t0, 1)}


def export_locator(net: torch.nn.Module, out: Path, spec: DataSpec, info: dict) -> None:
    meta = loc.locator_metadata(
        "mediterraneo-locator",
        spec.input_long,
        LOCATOR_CHANNELS,
        info,
        # the second pass sees the sea's region scaled so a cell spans about this many px
        input_extra={"cell_px": 24.0, "cell_px_trained": list(spec.window_cell_px)},
        maps_extra={"centre_sigma": CENTRE_SIGMA},
    )
    loc.save_onnx(net, out, (spec.input_short, spec.input_long), meta)


# ------------------------------------------------------------------------------------------ cells


def split_cells(data: dict[str, np.ndarray]) -> tuple[torch.Tensor, ...]:
    n_val = max(16, len(data["images"]) // VALID_SHARE)
    valid = data["photo"] < n_val
    x, y = torch.from_numpy(data["crops"]), torch.from_numpy(data["labels"].astype(np.int64))
    # seagull cells are rare (two cards of 18, played seagull side a third of the time) and pale like
    # the objective cards that are "none": each is shown SEAGULL_REPEAT times
    train = np.flatnonzero(~valid)
    gulls = train[data["labels"][train, 0] == HEADS["content"].index("seagull")]
    train = np.concatenate([train, *([gulls] * (SEAGULL_REPEAT - 1))])
    return x[train], y[train], x[valid], y[valid]


def run_cells(
    data: dict[str, np.ndarray], spec: DataSpec, out: Path, epochs: int, seed: int, log=print
) -> dict:
    train_x, train_y, valid_x, valid_y = split_cells(data)
    log(f"cells: {len(train_x)} training crops, {len(valid_x)} validation crops")
    torch.manual_seed(seed)
    model = TileNet(HEADS, CELL_BLOCKS, CELL_POOL)
    t0 = time.perf_counter()
    config = TrainConfig(epochs=epochs, batch=128, lr=3e-3, seed=seed, turns=False)  # crops come turned
    logits, temps, accuracy = fit_crop_model(model, train_x, train_y, valid_x, valid_y, config, HEADS, log)
    none = HEADS["content"].index("none")
    content = valid_y[:, 0]
    sea_cells = content != none
    wrong = logits[0].argmax(1) != content
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        "sea_cells_wrong_content": int((wrong & sea_cells).sum()),
        "sea_cells": int(sea_cells.sum()),
        "empty_cells_wrong": int((wrong & ~sea_cells).sum()),
        "calibration": dict(zip(HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    training = {
        "data_seed": spec.seed,
        "photos": spec.n,
        "crops": int(len(train_x)),
        "epochs": epochs,
        "seagull_repeat": SEAGULL_REPEAT,
        "torch_seed": seed,
        "params": parameter_count(model),
        "train_s": round(time.perf_counter() - t0, 1),
        "command": "python -m vision.training.train_mediterraneo --out-dir " + str(out.parent),
    }
    meta = scorecam_metadata("mediterraneo-cells", spec.crop_size, HEADS, training, metrics)
    meta["input"]["crop_margin"] = spec.crop_margin
    meta["input"]["cell_px"] = list(spec.crop_cell_px)
    export_crop_model(model, temps, spec.crop_size, meta, out, valid_x, metrics, log)
    return metrics


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out-dir", type=Path, default=Path("models"))
    p.add_argument("--n", type=int, default=DataSpec.n, help="simulated training photos (seed 1)")
    p.add_argument("--locator-epochs", type=int, default=9)
    p.add_argument("--cell-epochs", type=int, default=6)
    p.add_argument("--seed", type=int, default=0, help="torch and augmentation seed")
    p.add_argument("--only", choices=("locator", "cells"), help="train one model")
    p.add_argument("--smoke", action="store_true", help="tiny run (40 photos, 1 epoch each)")
    p.add_argument("--data-only", action="store_true")
    args = p.parse_args(argv)
    if args.smoke:
        args.n, args.locator_epochs, args.cell_epochs = 40, 1, 1
    torch.set_num_threads(1)  # a shared machine: one core
    spec = DataSpec(n=args.n)
    t0 = time.perf_counter()
    data, t_data = build_data(spec, build_dataset)
    if args.data_only:
        return
    if args.only in (None, "cells"):
        run_cells(data, spec, args.out_dir / "mediterraneo-cells.onnx", args.cell_epochs, args.seed)
    if args.only in (None, "locator"):
        net, info = train_locator(data, args.locator_epochs, args.seed)
        params = sum(q.numel() for q in net.parameters())
        info |= {"photos": spec.n, "data_seed": spec.seed, "torch_seed": args.seed, "params": params,
                 "data_s": round(t_data, 1),
                 "command": "python -m vision.training.train_mediterraneo --out-dir " + str(args.out_dir)}  # fmt: skip
        out = args.out_dir / "mediterraneo-locator.onnx"
        export_locator(net, out, spec, info)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB, {params} parameters)")
    print(f"done in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

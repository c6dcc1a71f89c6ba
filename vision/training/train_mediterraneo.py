"""Train the Mediterráneo sea locator and cell model on simulated photos, export both to ONNX.

    python -m vision.training.train_mediterraneo --out-dir models     # the shipped models
    python -m vision.training.train_mediterraneo --out-dir /tmp/smoke --smoke   # a few minutes
    python -m vision.training.train_mediterraneo --out-dir build/models-new --only locator \
        --locator-init models/mediterraneo-locator.onnx --locator-epochs 3 --locator-lr 1e-3

Both models learn from one cached data set (``mediterraneo_data``): the locator (the Mondo
locator's small U-net, ``train_locator.LocatorNet``) draws two maps, the visible sea cells and a
blob at each visible cell's centre, from the whole photo at 384 px and from windows at any scale;
the cell model (the Mondo tile model's plain CNN, ``mondo_tiles_model.TileNet``, on 40 px crops)
reads each lattice cell's content, octopus direction and frame. Training photos use seeds below
9000 only; sizes, normalisation and labels go into each file's "scorecam" metadata.

Besides the 900 photos of seed 1, both models learn from ``--stress-n`` photos of each of
``--stress-seeds`` (default 2, 3, 4, 5: 500 each), every second from the stress world (the hard end
of every condition); the first photos of the first such set validate both models on the stress
world (``stress_validation`` in the metadata). ``--locator-init`` trains the locator on from a
shipped file rather than from scratch.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from vision.mediterraneo.cells import HEADS
from vision.training import train_locator as loc
from vision.training.common import (
    add_stress_options,
    build_data,
    command_line,
    export_crop_model,
    fit_crop_model,
    merge_sets,
    mixed_batches,
    one_cycle,
    sets_metadata,
    stress_specs,
)
from vision.training.export_onnx import scorecam_metadata
from vision.training.locator_data import CENTRE_SIGMA
from vision.training.mediterraneo_data import DataSpec, build_dataset
from vision.training.mondo_tiles_model import TileNet, TrainConfig, parameter_count

CELL_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1))  # 40 px -> 5 x 5
CELL_POOL = 5
LOCATOR_CHANNELS = ("sea", "centres")
VALID_SHARE = 20  # photos 0 .. n/20 - 1 of a set are validation
SEAGULL_REPEAT = 4
HARD_LIGHT = 0.35  # share of training crops under the hard end of the light (mondo_tiles_model.hard_light)
STRESS_SEEDS = "2,3,4,5"  # the stress sets the shipped models learnt from (--stress-n photos each)


def n_valid(n: int) -> int:
    """How many of a set's first photos validate."""
    return max(16, n // VALID_SHARE)


# ------------------------------------------------------------------------------------------ locator


def _locator_validation(net: torch.nn.Module, sets: list, photos: np.ndarray) -> dict:
    return {
        name: loc.evaluate(net, sets[k][0][photos], sets[k][1][photos])
        for k, name in enumerate(("photo", "window"))
    }


def train_locator(
    data: dict[str, np.ndarray],
    epochs: int,
    seed: int,
    log=print,
    *,
    valid: np.ndarray | None = None,
    stress_valid: np.ndarray | None = None,
    lr: float = 4e-3,
    init: Path | None = None,
) -> tuple[torch.nn.Module, dict]:
    """The locator trained for `epochs` on every photo of `data` but the `valid` and `stress_valid`
    ones (default: the first ``n_valid``), from scratch or from the shipped file `init`."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sets = [
        (data["images"], np.stack([data["sea"], data["centres"]], -1)),
        (data["win_images"], np.stack([data["win_sea"], data["win_centres"]], -1)),
    ]
    n = len(data["images"])
    valid = np.arange(n_valid(n)) if valid is None else valid
    held = np.concatenate([valid, np.array([], int) if stress_valid is None else stress_valid])
    train = np.setdiff1d(np.arange(n), held)
    batch = 16
    net = (loc.from_onnx(init) if init is not None else loc.LocatorNet()).to(
        memory_format=torch.channels_last
    )
    per_epoch = 2 * (len(train) // batch)
    opt, sched = one_cycle(net, lr, epochs * per_epoch)
    t0 = time.perf_counter()
    info: dict = {"epochs": epochs, "peak_lr": lr}
    if init is not None:
        info["continued_from"] = str(init)
        log(f"  locator before training: val {loc._in_words(_locator_validation(net, sets, valid))}")
    for epoch in range(epochs):
        jobs = mixed_batches([train] * 2, batch, rng)  # whole photos and windows
        total = loc.train_epoch(net, sets, jobs, rng, opt, sched)
        info["val"] = _locator_validation(net, sets, valid)
        line = f"  locator epoch {epoch + 1}/{epochs}: train loss {total / len(jobs):.4f}, val {loc._in_words(info['val'])}"
        if stress_valid is not None:
            info["stress_val"] = _locator_validation(net, sets, stress_valid)
            line += f"; stress {loc._in_words(info['stress_val'])}"
        log(f"{line} ({time.perf_counter() - t0:.0f} s)")
    return net, info | {"train_s": round(time.perf_counter() - t0, 1)}


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


def split_cells(
    data: dict[str, np.ndarray], valid_photos: np.ndarray, stress_photos: np.ndarray | None = None
) -> tuple[torch.Tensor, ...]:
    """(train x, train y, valid x, valid y, stress x, stress y): the crops of `valid_photos` and of
    `stress_photos` held out (the last two empty without them), the rest to train on."""
    valid = np.isin(data["photo"], valid_photos)
    stress = np.isin(data["photo"], [] if stress_photos is None else stress_photos)
    x, y = torch.from_numpy(data["crops"]), torch.from_numpy(data["labels"].astype(np.int64))
    # seagull cells are rare (two cards of 18, played seagull side a third of the time) and pale like
    # the objective cards that are "none": each is shown SEAGULL_REPEAT times
    train = np.flatnonzero(~valid & ~stress)
    gulls = train[data["labels"][train, 0] == HEADS["content"].index("seagull")]
    train = np.concatenate([train, *([gulls] * (SEAGULL_REPEAT - 1))])
    return x[train], y[train], x[valid], y[valid], x[stress], y[stress]


def _cell_figures(logits: list[torch.Tensor], y: torch.Tensor) -> dict:
    """Sea cells and empty cells read wrong (content) of held-out crops."""
    none = HEADS["content"].index("none")
    sea_cells = y[:, 0] != none
    wrong = logits[0].argmax(1) != y[:, 0]
    return {
        "sea_cells_wrong_content": int((wrong & sea_cells).sum()),
        "sea_cells": int(sea_cells.sum()),
        "empty_cells_wrong": int((wrong & ~sea_cells).sum()),
    }


def run_cells(
    data: dict[str, np.ndarray],
    spec: DataSpec,
    out: Path,
    epochs: int,
    seed: int,
    log=print,
    *,
    stress_photos: np.ndarray | None = None,
    stress_sets: Sequence[DataSpec] = (),
    hard_light: float = HARD_LIGHT,
    command: str = "",
) -> dict:
    """Train the cell model on `data` (the first set's first photos and `stress_photos` held out)
    and export it to `out`; its metrics."""
    train_x, train_y, valid_x, valid_y, stress_x, stress_y = split_cells(
        data, np.arange(n_valid(spec.n)), stress_photos
    )
    log(
        f"cells: {len(train_x)} training crops, {len(valid_x)} validation crops, {len(stress_x)} stress validation"
    )
    torch.manual_seed(seed)
    model = TileNet(HEADS, CELL_BLOCKS, CELL_POOL)
    t0 = time.perf_counter()
    # crops come turned; a share of them under a hard light
    config = TrainConfig(epochs=epochs, batch=128, lr=3e-3, seed=seed, turns=False, hard_light=hard_light)
    logits, temps, accuracy = fit_crop_model(model, train_x, train_y, valid_x, valid_y, config, HEADS, log)
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        **_cell_figures(logits, valid_y),
        "calibration": dict(zip(HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    if len(stress_x):
        from vision.training.mondo_tiles_model import head_accuracy, predict_logits

        stress_logits = predict_logits(model, stress_x)
        metrics["stress_validation"] = {
            **{k: round(v, 4) for k, v in head_accuracy(stress_logits, stress_y, tuple(HEADS)).items()},
            "crops": int(len(stress_x)),
            **_cell_figures(stress_logits, stress_y),
        }
        log(f"stress validation: {json.dumps(metrics['stress_validation'])}")
    training = {
        "data_seed": spec.seed,
        "photos": spec.n,
        "stress_sets": sets_metadata(stress_sets),
        "crops": int(len(train_x)),
        "epochs": epochs,
        "seagull_repeat": SEAGULL_REPEAT,
        "hard_light": hard_light,
        "torch_seed": seed,
        "params": parameter_count(model),
        "train_s": round(time.perf_counter() - t0, 1),
        "command": command or "python -m vision.training.train_mediterraneo --out-dir " + str(out.parent),
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
    add_stress_options(p, default_n=500, default_seeds=STRESS_SEEDS)
    p.add_argument("--locator-init", type=Path, help="a shipped locator (.onnx) to train the locator on from")
    p.add_argument("--locator-lr", type=float, default=4e-3, help="the locator's peak learning rate")
    p.add_argument(
        "--hard-light", type=float, default=HARD_LIGHT, help="share of cell crops under a hard light"
    )
    args = p.parse_args(argv)
    command = command_line("vision.training.train_mediterraneo", argv)
    if args.smoke:
        args.n, args.locator_epochs, args.cell_epochs = 40, 1, 1
        if args.stress_seeds == STRESS_SEEDS:
            args.stress_n = 10
    torch.set_num_threads(1)  # a shared machine: one core
    spec = DataSpec(n=args.n)
    t0 = time.perf_counter()
    data, t_data = build_data(spec, build_dataset)
    stress_sets = stress_specs(spec, args.stress_seeds, args.stress_n)
    stress_data = []
    for extra in stress_sets:
        more, seconds = build_data(extra, build_dataset)
        stress_data.append(more)
        t_data += seconds
    if args.data_only:
        return
    stress_valid = None
    if stress_sets:  # one data set, the first set's photos first; the stress sets' first photos held out too
        data = merge_sets([data, *stress_data], [spec.n, *(x.n for x in stress_sets)])
        del stress_data
        first = stress_sets[0].n
        stress_valid = spec.n + np.arange(min(n_valid(first), first // 2))  # (a tiny set still trains)
    if args.only in (None, "cells"):
        run_cells(
            data, spec, args.out_dir / "mediterraneo-cells.onnx", args.cell_epochs, args.seed,
            stress_photos=stress_valid, stress_sets=stress_sets, hard_light=args.hard_light, command=command,
        )  # fmt: skip
    if args.only in (None, "locator"):
        net, info = train_locator(
            data, args.locator_epochs, args.seed, valid=np.arange(n_valid(spec.n)), stress_valid=stress_valid,
            lr=args.locator_lr, init=args.locator_init,
        )  # fmt: skip
        params = sum(q.numel() for q in net.parameters())
        info |= {"photos": spec.n, "data_seed": spec.seed, "stress_sets": sets_metadata(stress_sets),
                 "torch_seed": args.seed, "params": params, "data_s": round(t_data, 1), "command": command}  # fmt: skip
        out = args.out_dir / "mediterraneo-locator.onnx"
        export_locator(net, out, spec, info)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB, {params} parameters)")
    print(f"done in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

"""Train the Mondo back model: which land terrain a tile lying back side up shows, from a fine crop of
the middle of its cell (`vision.mondo.backs`), exported to ONNX.

    python -m vision.training.train_mondo_backs --out models/mondo-backs.onnx
    python -m vision.training.train_mondo_backs --out /tmp/smoke.onnx --smoke   # a few minutes

Data: `mondo_backs_data` (seed 21 for training, 22 for validation; every second photo from the stress
world). The net is the tile model's plain CNN (`mondo_tiles_model.TileNet`) with one head and a global
average (a terrain's marks are the same all over the crop); training turns crops by quarter turns and
puts a hard light (overexposure, casts, shadow edges) on a share of them, like the tile model's, and
on half of them colour that lies (greyed, or a cast of any hue): the marks must decide, not the hue.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

from vision.mondo.backs import BACK_TERRAINS, HEAD
from vision.synth.world import LIGHTS
from vision.training.common import build_data, command_line, export_crop_model, fit_crop_model
from vision.training.export_onnx import scorecam_metadata
from vision.training.mondo_backs_data import BackSpec, build_back_crops
from vision.training.mondo_tiles_model import TileNet, TrainConfig, parameter_count

BLOCKS = ((16, 2), (32, 2), (32, 1), (48, 2), (48, 1), (64, 1))
HIDDEN = 64
TRAIN_SEED, VALID_SEED = 21, 22


def accuracy_by_light(logits: torch.Tensor, labels: np.ndarray, light: np.ndarray) -> dict[str, float]:
    """Validation accuracy over every crop and for each light of the photos they come from."""
    right = logits.argmax(1).numpy() == labels
    out = {"all": float(right.mean())}
    for i, name in enumerate(LIGHTS):
        pick = light == i
        if pick.any():
            out[name] = float(right[pick].mean())
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path("models/mondo-backs.onnx"))
    p.add_argument("--photos", type=int, default=BackSpec.n, help="training photos (seed --train-seed)")
    p.add_argument("--valid-photos", type=int, default=150)
    p.add_argument("--train-seed", type=int, default=TRAIN_SEED)
    p.add_argument("--valid-seed", type=int, default=VALID_SEED)
    p.add_argument("--epochs", type=int, default=16)
    p.add_argument("--hard-light", type=float, default=0.35, help="share of crops under a hard light")
    p.add_argument("--lying-colour", type=float, default=0.5, help="share of crops greyed or cast any hue")
    p.add_argument("--exclude-tables", default="", help="table families to hold out (comma-separated)")
    p.add_argument("--jobs", type=int, default=2, help="processes generating photos")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--smoke", action="store_true", help="tiny run (24 photos, 1 epoch)")
    p.add_argument("--data-only", action="store_true", help="build (and cache) the crops, then stop")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    held_out = tuple(f for f in args.exclude_tables.split(",") if f)
    train_spec = BackSpec(seed=args.train_seed, n=24 if args.smoke else args.photos, exclude_tables=held_out)
    valid_spec = replace(train_spec, seed=args.valid_seed, n=12 if args.smoke else args.valid_photos)
    train, train_s = build_data(train_spec, build_back_crops, jobs=args.jobs)
    valid, valid_s = build_data(valid_spec, build_back_crops, jobs=args.jobs)
    if args.data_only:
        return
    to_x = lambda d: torch.from_numpy(d["crops"])  # noqa: E731
    to_y = lambda d: torch.from_numpy(d["labels"].astype(np.int64))[:, None]  # noqa: E731
    heads = {HEAD: BACK_TERRAINS}
    model = TileNet(heads, blocks=BLOCKS, pool_grid=1, hidden=HIDDEN)
    config = TrainConfig(
        epochs=1 if args.smoke else args.epochs, hard_light=args.hard_light, lying_colour=args.lying_colour
    )
    print(
        f"{len(train['labels'])} training crops, {len(valid['labels'])} validation; "
        f"{parameter_count(model)} parameters",
        flush=True,
    )
    start = time.perf_counter()
    logits, temps, _ = fit_crop_model(
        model, to_x(train), to_y(train), to_x(valid), to_y(valid), config, [HEAD]
    )
    seconds = time.perf_counter() - start
    by_light = accuracy_by_light(logits[0], valid["labels"], valid["light"])  # validation logits
    metrics = {"validation_accuracy": by_light, "temperature": temps[0], "crops": len(valid["labels"])}
    training = {
        "command": command_line("vision.training.train_mondo_backs", argv),
        "train": {"seed": train_spec.seed, "photos": train_spec.n, "crops": len(train["labels"])},
        "valid": {"seed": valid_spec.seed, "photos": valid_spec.n},
        "exclude_tables": list(held_out),
        "data_seconds": round(train_s + valid_s),
        "train_seconds": round(seconds),
        "epochs": config.epochs,
        "hard_light": config.hard_light,
        "lying_colour": config.lying_colour,
    }
    meta = scorecam_metadata("mondo-backs", train_spec.size, heads, training, metrics)
    meta["input"]["crop_margin"] = train_spec.margin
    export_crop_model(model, temps, train_spec.size, meta, args.out, to_x(valid), metrics)


if __name__ == "__main__":
    main()

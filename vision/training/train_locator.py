"""Train the Mondo island locator: a tiny fully-convolutional net on simulated photos, exported to ONNX.

    python -m vision.training.train_locator --out models/mondo-locator.onnx
    python -m vision.training.train_locator --out /tmp/smoke.onnx --smoke   # a minute, for checks

The net sees the photo at 320 px long side (first pass) or rectified onto the island's grid at
256 px (second pass), and predicts two maps at half that resolution: the occupied island cells
(gapless, loose tiles excluded) and a blob at every tile's centre (see ``locator_data``); it trains
on both kinds of picture. ``vision.mondo.locate`` turns the maps into island quads and grid sizes.
Training photos use seeds below 9000 only; the input size, normalization, rectification and output
layout go into the ONNX metadata key "scorecam", where the runtime reads them.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.onnx_model import load_session
from vision.training.common import (
    HELD_OUT_SEED,
    build_data,
    command_line,
    mixed_batches,
    one_cycle,
    step,
    train_mode,
    weights_from_onnx,
)
from vision.training.locator_data import CENTRE_SIGMA, DataSpec, build_dataset

# Photos from the hard end of every condition (`World(stress=True)`: small islands in the frame, steep
# tilts, tables in the terrains' hues, loose tiles touching, ...), added to the everyday mix, and a
# stress validation set reported apart; the same seeds as the tile model's (`train_mondo_tiles`).
STRESS_TRAIN_SEED = 3
STRESS_VALID_SEED = 4

STRIDE = 2  # output maps are at half the input resolution
MULTIPLE = 16  # four stride-2 levels: input sides must divide by this
MEAN, STD = 127.5, 64.0
CHANNELS = ("cells", "centres")


def _cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1, k: int = 3) -> list[nn.Module]:
    pad = dilation * (k // 2)
    return [
        nn.Conv2d(cin, cout, k, stride, pad, dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    ]


class LocatorNet(nn.Module):
    """A small U-shaped net: four stride-2 levels down (the deepest dilated, so that a tile sees its
    neighbours and a loose tile can be told from an island's), bilinear skips back up to stride 2."""

    def __init__(self) -> None:
        super().__init__()
        self.e1 = nn.Sequential(*_cbr(3, 16, 2))
        self.e2 = nn.Sequential(*_cbr(16, 24, 2), *_cbr(24, 24))
        self.e3 = nn.Sequential(*_cbr(24, 40, 2), *_cbr(40, 40))
        self.e4 = nn.Sequential(*_cbr(40, 48, 2), *_cbr(48, 48, dilation=2))
        self.d3 = nn.Sequential(*_cbr(88, 32, k=1), *_cbr(32, 32))
        self.d2 = nn.Sequential(*_cbr(56, 24, k=1), *_cbr(24, 24))
        self.d1 = nn.Sequential(*_cbr(40, 16, k=1), nn.Conv2d(16, len(CHANNELS), 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.e1(x)
        b = self.e2(a)
        c = self.e3(b)
        d = self.e4(c)
        c = self.d3(torch.cat([_up(d), c], 1))
        b = self.d2(torch.cat([_up(c), b], 1))
        return self.d1(torch.cat([_up(b), a], 1))  # logits


class Exported(nn.Module):
    """What ships: probabilities, not logits."""

    def __init__(self, net: LocatorNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.net(x))


def from_onnx(path: Path) -> LocatorNet:
    """A ``LocatorNet`` holding the weights of a shipped (or quantised) locator, to train further
    (``common.weights_from_onnx``: its batch norms hold the folded weights, frozen by ``train_mode``)."""
    return weights_from_onnx(LocatorNet(), path)


def _up(t: torch.Tensor) -> torch.Tensor:
    return F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False)


# ------------------------------------------------------------------------------------------ batches


def _augment(
    images: np.ndarray, labels: np.ndarray, rng: np.random.Generator, cast: float = 0.1
) -> tuple[np.ndarray, np.ndarray]:
    """Flips (the task has no preferred direction) and photometric jitter the simulator may lack;
    ``cast``: each channel's own gain drawn within 1 +- this (a colour cast of the light)."""
    if rng.random() < 0.5:
        images, labels = images[:, :, ::-1], labels[:, :, ::-1]
    if rng.random() < 0.5:
        images, labels = images[:, ::-1], labels[:, ::-1]
    x = images.astype(np.float32)
    n = len(x)
    gain = rng.uniform(0.75, 1.25, (n, 1, 1, 1)) * rng.uniform(1.0 - cast, 1.0 + cast, (n, 1, 1, 3))
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    contrast = rng.uniform(0.75, 1.25, (n, 1, 1, 1))
    x = (x - mean) * contrast + mean
    x = x * gain + rng.normal(0, 3, x.shape).astype(np.float32) * (rng.random((n, 1, 1, 1)) < 0.3)
    return np.clip(x, 0, 255).astype(np.float32), np.ascontiguousarray(labels)


def _to_tensors(x: np.ndarray, labels: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    xt = (torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32)) - MEAN) / STD
    yt = torch.from_numpy(labels.astype(np.float32) / 255.0).permute(0, 3, 1, 2)
    # labels at the output resolution: area-averaged, so map pixel j covers input pixels 2j, 2j+1
    yt = F.avg_pool2d(yt, STRIDE)
    return xt.contiguous(memory_format=torch.channels_last), yt


def _loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    cells = F.binary_cross_entropy_with_logits(logits[:, 0], target[:, 0])
    # centre blobs cover little of the photo: weigh their pixels up so the net does not ignore them
    weight = 1.0 + 20.0 * target[:, 1]
    centres = F.binary_cross_entropy_with_logits(logits[:, 1], target[:, 1], weight=weight)
    return cells + centres


# ------------------------------------------------------------------------------------------ training


def _sets(data: dict[str, np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(pictures, labels N,H,W,2) for the whole-photo passes (the photo at the first pass's size,
    then windows at the finer pass's: both 320 x 240, photo i and N + i) and for rectified grids."""
    whole = tuple(np.concatenate([data[k], data[f"fine_{k}"]]) for k in ("images", "cells", "centres"))
    rect = tuple(data[f"rect_{k}"] for k in ("images", "cells", "centres"))
    return [(images, np.stack([cells, centres], -1)) for images, cells, centres in (whole, rect)]


def train(
    data: dict[str, np.ndarray],
    epochs: int,
    batch: int,
    lr: float,
    seed: int,
    log=print,
    init: Path | None = None,
) -> tuple[LocatorNet, dict]:
    """The locator trained on ``data``: from scratch, or on from the shipped net ``init``."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sets = _sets(data)
    n = len(data["images"])  # photos; the whole-photo set holds two samples of each
    n_val = max(batch, n // 20)
    photos_train, photos_val = np.arange(n_val, n), np.arange(n_val)
    split = [
        (np.concatenate([photos_train, n + photos_train]), np.concatenate([photos_val, n + photos_val])),
        (photos_train, photos_val),
    ]
    net = (from_onnx(init) if init else LocatorNet()).to(memory_format=torch.channels_last)
    per_epoch = sum(len(t) // batch for t, _ in split)
    steps = epochs * per_epoch
    opt, sched = one_cycle(net, lr, max(steps, 1))
    t0 = time.perf_counter()
    val: dict = {}
    for epoch in range(epochs):
        # one batch is one kind of picture (their sizes differ), 16 samples drawn at random;
        # the kinds interleave at random
        jobs = mixed_batches([train_idx for train_idx, _ in split], batch, rng)
        total = train_epoch(net, sets, jobs, rng, opt, sched)
        val = {
            name: evaluate(net, *(a[split[k][1]] for a in sets[k]))
            for k, name in enumerate(("photo", "rectified"))
        }
        log(f"  epoch {epoch + 1}/{epochs}: train loss {total / max(1, len(jobs)):.4f}, val "
            + _in_words(val)
            + f" ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    return net, {"epochs": epochs, "steps": steps, "val": val, "train_s": round(time.perf_counter() - t0, 1)}


def _in_words(val: dict[str, dict]) -> str:
    """Validation figures per kind of picture, as the training log prints them."""
    return ", ".join(f"{k} loss {v['loss']:.4f} cells IoU {v['cells_iou']:.3f}" for k, v in val.items())


def train_epoch(
    net: LocatorNet,
    sets: list[tuple[np.ndarray, np.ndarray]],
    jobs: list[tuple[int, np.ndarray]],
    rng: np.random.Generator,
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler,
) -> float:
    """One epoch over ``jobs`` ((kind, indices) batches of ``sets[kind]``'s pictures and labels),
    augmented; the sum of the batches' losses."""
    train_mode(net)
    total = 0.0
    for kind, pick in jobs:
        pictures, labels = sets[kind]
        pick = np.sort(pick)
        x, y = _to_tensors(*_augment(pictures[pick], labels[pick], rng))
        total += step(opt, sched, _loss(net(x), y))
    return total


@torch.no_grad()
def evaluate(net: LocatorNet, images: np.ndarray, labels: np.ndarray) -> dict:
    net.eval()
    losses, inter, union = [], 0.0, 0.0
    for k in range(0, len(images), 32):
        x, y = _to_tensors(images[k : k + 32].astype(np.float32), labels[k : k + 32])
        logits = net(x)
        losses.append(float(_loss(logits, y)) * len(x))
        p, t = logits[:, 0] > 0, y[:, 0] > 0.5
        inter += float((p & t).sum())
        union += float((p | t).sum())
    return {"loss": round(sum(losses) / len(images), 4), "cells_iou": round(inter / max(union, 1.0), 4)}


# ------------------------------------------------------------------------------------------ export


def save_onnx(net: nn.Module, out: Path, input_hw: tuple[int, int], meta: dict) -> None:
    """A locator net (``LocatorNet`` or another of its inputs and outputs) to ONNX at ``out``: any
    picture size, sigmoid maps, ``meta`` under the metadata key "scorecam"; ``input_hw``: the size
    it is traced at."""
    import onnx

    net = net.to(memory_format=torch.contiguous_format).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, *input_hw)
    torch.onnx.export(
        Exported(net),
        (dummy,),
        str(out),
        input_names=["image"],
        output_names=["maps"],
        dynamic_axes={"image": {0: "n", 2: "height", 3: "width"}, "maps": {0: "n", 2: "h2", 3: "w2"}},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(out))
    entry = model.metadata_props.add()
    entry.key, entry.value = "scorecam", json.dumps(meta)
    onnx.save(model, str(out))


def locator_metadata(
    task: str,
    long_side: int,
    channels: tuple[str, ...],
    info: dict,
    input_extra: dict | None = None,
    maps_extra: dict | None = None,
) -> dict:
    """The "scorecam" metadata of a game's locator (``vision.locator_net`` reads it): the input a
    picture is made into, the maps and where their pixels lie, ``info`` on its training; each
    game's own entries go after the common ones of "input" and of the maps."""
    return {
        "format": 1,
        "task": task,
        "input": {
            "name": "image",
            "layout": "NCHW",
            "channels": "BGR",
            "long_side": long_side,
            "multiple": MULTIPLE,
            "mean": [MEAN] * 3,
            "std": [STD] * 3,
            "resize": "cv2.INTER_AREA from the photo; pad bottom/right to the multiple",
            **(input_extra or {}),
        },
        "outputs": {
            "maps": {
                "channels": list(channels),
                "activation": "sigmoid",
                "stride": STRIDE,
                "offset": (STRIDE - 1) / 2,
                **(maps_extra or {}),
            }
        },
        "training": info,
    }


def export_onnx(net: LocatorNet, out: Path, spec: DataSpec, info: dict) -> None:
    meta = {
        "format": 1,
        "task": "mondo-locator",
        "input": {
            "name": "image",
            "layout": "NCHW",
            "channels": "BGR",
            "long_side": spec.input_long,
            # the whole photo is searched at each of these long sides (the finer one for small islands)
            "long_sides": [spec.input_long, spec.fine_long],
            "multiple": MULTIPLE,
            "mean": [MEAN] * 3,
            "std": [STD] * 3,
            "resize": "cv2.INTER_AREA from the photo; pad bottom/right to the multiple",
        },
        "outputs": {
            "maps": {
                "channels": list(CHANNELS),
                "activation": "sigmoid",
                "stride": STRIDE,
                # map pixel (i, j) is the mean of input pixels stride*i .. stride*i + stride - 1
                "offset": (STRIDE - 1) / 2,
                "centre_sigma": CENTRE_SIGMA,
            }
        },
        # second pass: the photo rectified onto the found grid, `margin` cells around it, `size` px square
        "rectified": {"size": spec.rect_size, "margin": spec.rect_margin},
        "training": info,
    }
    save_onnx(net, out, (spec.input_short, spec.input_long), meta)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=Path("models/mondo-locator.onnx"))
    p.add_argument("--n", type=int, default=DataSpec.n, help="simulated training photos")
    p.add_argument("--data-seed", type=int, default=1, help=f"simulator seed (< {HELD_OUT_SEED})")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument(
        "--exclude-tables", default="", help="table families to hold out of training (comma-separated)"
    )
    p.add_argument("--stress-photos", type=int, default=1000, help="more training photos, stress world")
    p.add_argument("--stress-valid-photos", type=int, default=100, help="validation photos, stress world")
    p.add_argument(
        "--stress-seed", type=int, default=STRESS_TRAIN_SEED, help="simulator seed of the stress photos"
    )
    p.add_argument(
        "--stress-lights",
        default="",
        help="the stress photos' lights, comma-separated (a light named twice drawn twice as often; "
        "default: the stress world's mix)",
    )
    p.add_argument("--init-from", type=Path, help="a shipped locator (.onnx) to train on from")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=4e-3)
    p.add_argument("--seed", type=int, default=0, help="torch and augmentation seed")
    p.add_argument("--jobs", type=int, default=2, help="processes generating photos")
    # one thread: on a shared machine a second one mostly waits for the first (and slows it down)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--smoke", action="store_true", help="tiny run (48 photos, 1 epoch) to check the pipeline")
    p.add_argument("--data-only", action="store_true", help="build (and cache) the samples, then stop")
    args = p.parse_args(argv)
    if args.smoke:
        args.n, args.epochs = 48, 1
        args.stress_photos, args.stress_valid_photos = (
            min(args.stress_photos, 16),
            min(args.stress_valid_photos, 8),
        )
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    held_out = tuple(f for f in args.exclude_tables.split(",") if f)
    spec = DataSpec(seed=args.data_seed, n=args.n, exclude_tables=held_out)
    data, t_data = build_data(spec, build_dataset, jobs=args.jobs)
    stress_valid = None
    if args.stress_photos:
        lights = tuple(light for light in args.stress_lights.split(",") if light)
        stress_spec = replace(spec, seed=args.stress_seed, n=args.stress_photos, stress=True, lights=lights)
        stress, t_stress = build_data(stress_spec, build_dataset, jobs=args.jobs)
        # the validation split is the first photos of `data`: everyday ones, as before
        data, t_data = {k: np.concatenate([data[k], stress[k]]) for k in data}, t_data + t_stress
    if args.stress_valid_photos:
        valid_spec = replace(spec, seed=STRESS_VALID_SEED, n=args.stress_valid_photos, stress=True)
        stress_valid, t_valid = build_data(valid_spec, build_dataset, jobs=args.jobs)
        t_data += t_valid
    if args.data_only:
        return
    net, info = train(data, args.epochs, args.batch, args.lr, args.seed, init=args.init_from)
    if stress_valid is not None:
        sets = _sets(stress_valid)
        figures = {name: evaluate(net, *sets[k]) for k, name in enumerate(("photo", "rectified"))}
        info["stress_val"] = figures | {"seed": STRESS_VALID_SEED, "photos": args.stress_valid_photos}
        print("  stress validation: " + _in_words(figures))
    params = sum(p.numel() for p in net.parameters())
    info.update(
        {
            "photos": spec.n,
            "data_seed": spec.seed,
            "stress_photos": args.stress_photos,
            "stress_seed": args.stress_seed if args.stress_photos else None,
            "stress_lights": args.stress_lights or None,
            "render_long_side": list(spec.render_long_side),
            "exclude_tables": list(held_out),
            "torch_seed": args.seed,
            "init_from": str(args.init_from) if args.init_from else None,
            # the training of the net it started from (and so on back): the whole history in one file
            "before": load_session(args.init_from, task="mondo-locator")[1].get("training")
            if args.init_from
            else None,
            "batch": args.batch,
            "lr": args.lr,
            "params": params,
            "data_s": round(t_data, 1),
            "command": command_line("vision.training.train_locator", argv),
        }
    )
    export_onnx(net, args.out, spec, info)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB, {params} parameters) "
          f"in {math.ceil(time.perf_counter() - t0)} s")  # fmt: skip


if __name__ == "__main__":
    main()

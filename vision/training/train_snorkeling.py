"""Train the Snorkeling locator and card model on simulated photos, export both to ONNX.

    python -m vision.training.train_snorkeling --out-dir models
    python -m vision.training.train_snorkeling --out-dir /tmp/smoke --smoke   # a few minutes

Both models learn from one cached data set (``snorkeling_data``): the locator (the Mondo locator's
small U-net, ``train_locator.LocatorNet``) draws two maps, the diver mats and the central pile's
top card, from the whole photo at 512 px long side; the card model (the Mondo tile model's plain
CNN, ``mondo_tiles_model.TileNet``, on 96 px crops) reads, from a crop around each mat found, the
mat's number and the top card of the pile on it (value and colour), and from a crop around the
central pile its top card. Training photos use seeds below 9000 only; sizes, normalisation and
labels go into each file's "scorecam" metadata.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.snorkeling.heads import HEADS, LOCATOR_CHANNELS
from vision.training import train_locator as loc
from vision.training.common import ROOT, build_data, export_crop_model, fit_crop_model, one_cycle, step
from vision.training.export_onnx import scorecam_metadata
from vision.training.mondo_tiles_model import TileNet, TrainConfig, parameter_count
from vision.training.snorkeling_data import DataSpec, build_dataset

CARD_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1), (96, 1))  # 96 px -> 12 x 12
CARD_POOL = 3
VALID_SHARE = 20  # photos 0 .. n/20 - 1 are validation
WINDOW = (224, 320)  # the locator trains on windows of the stored pictures (fully convolutional)


# ------------------------------------------------------------------------------------------ locator


def _loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    mats = F.binary_cross_entropy_with_logits(logits[:, 0], target[:, 0], weight=1.0 + 2.0 * target[:, 0])
    centre = F.binary_cross_entropy_with_logits(logits[:, 1], target[:, 1], weight=1.0 + 8.0 * target[:, 1])
    return mats + centre


def _windows(images: np.ndarray, maps: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    h, w = WINDOW
    y0 = int(rng.integers(0, images.shape[1] - h + 1)) // 2 * 2
    x0 = int(rng.integers(0, images.shape[2] - w + 1)) // 2 * 2
    return images[:, y0 : y0 + h, x0 : x0 + w], maps[:, y0 : y0 + h, x0 : x0 + w]


@torch.no_grad()
def evaluate_locator(net: torch.nn.Module, images: np.ndarray, maps: np.ndarray) -> dict:
    net.eval()
    losses, inter, union = [], np.zeros(2), np.zeros(2)
    for k in range(0, len(images), 16):
        x, y = loc._to_tensors(images[k : k + 16].astype(np.float32), maps[k : k + 16])
        logits = net(x)
        losses.append(float(_loss(logits, y)) * len(x))
        for c in range(2):
            p, t = logits[:, c] > 0, y[:, c] > 0.5
            inter[c] += float((p & t).sum())
            union[c] += float((p | t).sum())
    iou = inter / np.maximum(union, 1.0)
    return {
        "loss": round(sum(losses) / len(images), 4),
        "mats_iou": round(float(iou[0]), 4),
        "centre_iou": round(float(iou[1]), 4),
    }


def train_locator(
    data: dict[str, np.ndarray], epochs: int, seed: int, log=print
) -> tuple[torch.nn.Module, dict]:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images = np.concatenate([data["images"], data["win_images"]])
    maps = np.concatenate([data["maps"], data["win_maps"]])
    n = len(data["images"])
    n_val = max(8, n // VALID_SHARE)
    train_idx = np.concatenate([np.arange(n_val, n), n + np.arange(n_val, n)])
    val_idx = np.concatenate([np.arange(n_val), n + np.arange(n_val)])
    batch, lr = 12, 4e-3
    net = loc.LocatorNet().to(memory_format=torch.channels_last)
    per_epoch = len(train_idx) // batch
    opt, sched = one_cycle(net, lr, epochs * per_epoch)
    t0 = time.perf_counter()
    val: dict = {}
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(train_idx)
        total = 0.0
        for i in range(per_epoch):
            pick = np.sort(order[i * batch : (i + 1) * batch])
            x, y = loc._to_tensors(*loc._augment(*_windows(images[pick], maps[pick], rng), rng))
            total += step(opt, sched, _loss(net(x), y))
        val = evaluate_locator(net, images[val_idx], maps[val_idx])
        log(f"  locator epoch {epoch + 1}/{epochs}: train loss {total / per_epoch:.4f}, val {val}"
            f" ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    return net, {"epochs": epochs, "val": val, "train_s": round(time.perf_counter() - t0, 1)}


def export_locator(net: torch.nn.Module, out: Path, spec: DataSpec, info: dict) -> None:
    meta = loc.locator_metadata("snorkeling-locator", spec.input_long, LOCATOR_CHANNELS, info)
    loc.save_onnx(net, out, (spec.input_short, spec.input_long), meta)


# ------------------------------------------------------------------------------------------ cards


def run_cards(
    data: dict[str, np.ndarray], spec: DataSpec, out: Path, epochs: int, seed: int, log=print
) -> dict:
    n_val = max(8, len(data["images"]) // VALID_SHARE)
    valid = data["photo"] < n_val
    x, y = torch.from_numpy(data["crops"]), torch.from_numpy(data["labels"].astype(np.int64))
    train_x, train_y, valid_x, valid_y = x[~valid], y[~valid], x[valid], y[valid]
    log(f"cards: {len(train_x)} training crops, {len(valid_x)} validation crops")
    torch.manual_seed(seed)
    model = TileNet(HEADS, CARD_BLOCKS, CARD_POOL)
    t0 = time.perf_counter()
    config = TrainConfig(epochs=epochs, batch=64, lr=3e-3, seed=seed, turns=False)  # crops come turned
    logits, temps, accuracy = fit_crop_model(model, train_x, train_y, valid_x, valid_y, config, HEADS, log)
    has_card = valid_y[:, 1] >= 0
    card_right = (logits[1].argmax(1) == valid_y[:, 1]) & (logits[2].argmax(1) == valid_y[:, 2])
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        "cards": int(has_card.sum()),
        "cards_wrong": int((has_card & ~card_right).sum()),
        "calibration": dict(zip(HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    training = {
        "data_seed": spec.seed,
        "photos": spec.n,
        "stress_every": spec.stress_every,
        "crops": int(len(train_x)),
        "epochs": epochs,
        "torch_seed": seed,
        "params": parameter_count(model),
        "train_s": round(time.perf_counter() - t0, 1),
        "command": "python -m vision.training.train_snorkeling --out-dir " + str(out.parent),
    }
    meta = scorecam_metadata("snorkeling-cards", spec.crop_size, HEADS, training, metrics)
    meta["input"]["crop_span"] = spec.crop_span
    meta["input"]["crop_k"] = list(spec.crop_k)
    export_crop_model(model, temps, spec.crop_size, meta, out, valid_x, metrics, log)
    _keep_weights(model, out)
    return metrics


def _keep_weights(model: torch.nn.Module, out: Path) -> None:
    """The torch weights beside the data cache (build/, not shipped): a later run may start from them."""
    path = ROOT / "build" / "snorkeling-weights" / f"{out.stem}.pt"
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), path)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out-dir", type=Path, default=Path("models"))
    p.add_argument("--n", type=int, default=DataSpec.n, help="simulated training photos (seed 1)")
    p.add_argument("--locator-epochs", type=int, default=5)
    p.add_argument("--card-epochs", type=int, default=18)
    p.add_argument("--seed", type=int, default=0, help="torch and augmentation seed")
    p.add_argument("--only", choices=("locator", "cards"), help="train one model")
    p.add_argument("--smoke", action="store_true", help="tiny run (40 photos, 1 epoch each)")
    p.add_argument("--data-only", action="store_true")
    args = p.parse_args(argv)
    if args.smoke:
        args.n, args.locator_epochs, args.card_epochs = 40, 1, 1
    torch.set_num_threads(1)  # a shared machine: one core
    spec = DataSpec(n=args.n)
    t0 = time.perf_counter()
    data, t_data = build_data(spec, build_dataset)
    if args.data_only:
        return
    if args.only in (None, "cards"):
        run_cards(data, spec, args.out_dir / "snorkeling-cards.onnx", args.card_epochs, args.seed)
    if args.only in (None, "locator"):
        net, info = train_locator(data, args.locator_epochs, args.seed)
        params = sum(q.numel() for q in net.parameters())
        info |= {"photos": spec.n, "data_seed": spec.seed, "stress_every": spec.stress_every,
                 "torch_seed": args.seed, "params": params, "data_s": round(t_data, 1),
                 "command": "python -m vision.training.train_snorkeling --out-dir " + str(args.out_dir)}  # fmt: skip
        out = args.out_dir / "snorkeling-locator.onnx"
        export_locator(net, out, spec, info)
        _keep_weights(net, out)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB, {params} parameters)", flush=True)
    print(f"done in {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()

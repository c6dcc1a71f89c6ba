"""Train the Snorkeling locator and card model on simulated photos, export both to ONNX.

    python -m vision.training.train_snorkeling --out-dir models
    python -m vision.training.train_snorkeling --out-dir /tmp/smoke --smoke   # a few minutes

Both models learn from one cached data set (``snorkeling_data``): the locator (the Mondo locator's
small U-net, ``train_locator.LocatorNet``) draws two maps, the diver mats and the central pile's
top card, from the whole photo at 512 px long side; the card model (the Mondo tile model's plain
CNN, ``mondo_tiles_model.TileNet``, on 96 px crops) reads, from a crop around each mat found, the
mat's number and the top card of the pile on it (value and colour), and from a crop around the
central pile its top card. Training photos use seeds below 9000 only; sizes, normalisation and
labels go into each file's "scorecam" metadata. ``--data-seeds 1,2,3`` learns from several seeds'
photos (every fourth from the stress world); ``--stress-seeds 4,5`` adds ``--stress-n`` photos of
each of those seeds, every second from the stress world (validation stays the first seed's).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.onnx_model import load_session
from vision.snorkeling.heads import HEADER_HEADS, HEADS, LOCATOR_CHANNELS
from vision.training import train_locator as loc
from vision.training.common import (
    add_stress_options,
    build_data,
    command_line,
    export_crop_model,
    keep_weights,
    merge_sets,
    one_cycle,
    sets_metadata,
    step,
    stress_specs,
)
from vision.training.export_onnx import scorecam_metadata
from vision.training.mondo_tiles_model import (
    TileNet,
    TrainConfig,
    fit_temperatures,
    head_accuracy,
    heads_loss,
    parameter_count,
    photometric,
    predict_logits,
    to_float_nchw,
)
from vision.training.snorkeling_data import DataSpec, HeaderSpec, build_dataset, build_headers

CARD_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1), (96, 1))  # 96 px -> 12 x 12
CARD_POOL = 3
HEADER_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1))  # 48 px -> 6 x 6
HEADER_POOL = 3
# the header crops are read from a decode with at least this many photo px per crop px: on the dev
# photos (seeds 9642-9644, 140) 0.4 read every round as 0.8 did, and spares most photos a finer
# decode (about 40 ms a 12 MP photo); many training crops are that soft too (a 2000 px render)
HEADER_READ_K_LO = 0.4
LOCATOR_ARRAYS = ("images", "maps", "win_images", "win_maps")  # what each model learns from
CARD_ARRAYS = ("crops", "labels", "photo")
VALID_SHARE = 20  # photos 0 .. n/20 - 1 are validation
WINDOW = (224, 320)  # the locator trains on windows of the stored pictures (fully convolutional)
CARD_TURN_DEG, CARD_SCALE_SD, CARD_SHIFT = (
    6.0,
    0.05,
    0.05,
)  # the card crops' geometric jitter (shift: of half the crop)
MAT_AREA = 400.0  # map px: a mat of typical size in the locator's output (the loss weighs smaller ones up)


# ------------------------------------------------------------------------------------------ locator


def _instance_weight(mats: torch.Tensor) -> torch.Tensor:
    """Weight of each map pixel in the mats loss: a mat's pixels count as much as a typical mat's
    however small it lies in the frame (area ``MAT_AREA`` map px; a far table's mats would otherwise
    count for little), and the table between two mats near them counts double (where regions join)."""
    import cv2

    target = (mats > 0.5).cpu().numpy().astype(np.uint8)
    weight = np.ones(target.shape, np.float32)
    ring = np.ones((5, 5), np.uint8)
    for b in range(len(target)):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(target[b], connectivity=4)
        if count <= 1:
            continue
        per = np.clip(np.sqrt(MAT_AREA / np.maximum(stats[:, cv2.CC_STAT_AREA], 1.0)), 1.0, 4.0) * 3.0
        per[0] = 1.0
        weight[b] = per[labels].astype(np.float32)
        near = cv2.dilate(target[b], ring) & (1 - target[b])
        weight[b][near.astype(bool)] = 2.0
    return torch.from_numpy(weight)


def _loss(logits: torch.Tensor, target: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    if weight is None:
        weight = 1.0 + 2.0 * target[:, 0]
    mats = F.binary_cross_entropy_with_logits(logits[:, 0], target[:, 0], weight=weight)
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
    data: dict[str, np.ndarray],
    epochs: int,
    seed: int,
    log=print,
    on_epoch=None,
    n_val: int | None = None,
    lr: float = 4e-3,
    init: Path | None = None,
    cast: float = 0.1,
) -> tuple[torch.nn.Module, dict]:
    """The locator, ``epochs`` passes; ``on_epoch(net, info)`` after each (a long run keeps each).
    The first ``n_val`` photos validate (a twentieth of them unless told); ``init``: a shipped
    locator to train on from (``train_locator.from_onnx``) rather than a new net; ``cast``: each
    colour channel's gain jittered within 1 +- this (``train_locator._augment``)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images = np.concatenate([data["images"], data["win_images"]])
    maps = np.concatenate([data["maps"], data["win_maps"]])
    n = len(data["images"])
    n_val = max(8, n // VALID_SHARE) if n_val is None else n_val
    train_idx = np.concatenate([np.arange(n_val, n), n + np.arange(n_val, n)])
    val_idx = np.concatenate([np.arange(n_val), n + np.arange(n_val)])
    batch = 12
    net = (loc.from_onnx(init) if init else loc.LocatorNet()).to(memory_format=torch.channels_last)
    per_epoch = len(train_idx) // batch
    opt, sched = one_cycle(net, lr, epochs * per_epoch)
    t0 = time.perf_counter()
    val: dict = {}
    if init:
        log(
            f"  locator before training (from {init}): val {evaluate_locator(net, images[val_idx], maps[val_idx])}"
        )
    for epoch in range(epochs):
        loc.train_mode(net)
        order = rng.permutation(train_idx)
        total = 0.0
        for i in range(per_epoch):
            pick = np.sort(order[i * batch : (i + 1) * batch])
            x, y = loc._to_tensors(*loc._augment(*_windows(images[pick], maps[pick], rng), rng, cast))
            total += step(opt, sched, _loss(net(x), y, _instance_weight(y[:, 0])))
            if epoch == 0 and i == 9:
                log(f"  locator: {(time.perf_counter() - t0) / 10:.2f} s a step, {per_epoch} steps an epoch")
        val = evaluate_locator(net, images[val_idx], maps[val_idx])
        log(f"  locator epoch {epoch + 1}/{epochs}: train loss {total / per_epoch:.4f}, val {val}"
            f" ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
        if on_epoch is not None:
            on_epoch(net, {"epochs": epoch + 1, "val": val, "train_s": round(time.perf_counter() - t0, 1)})
    return net, {"epochs": epochs, "val": val, "train_s": round(time.perf_counter() - t0, 1)}


def export_locator(net: torch.nn.Module, out: Path, spec: DataSpec, info: dict) -> None:
    meta = loc.locator_metadata("snorkeling-locator", spec.input_long, LOCATOR_CHANNELS, info)
    loc.save_onnx(net, out, (spec.input_short, spec.input_long), meta)


# ------------------------------------------------------------------------------------------ cards


def _geometric(x: torch.Tensor, generator: torch.Generator, half_turns: bool = True) -> torch.Tensor:
    """Each crop moved a little as the locator's spots wander: shifted, scaled, turned by a few degrees,
    or half round (a card lies either way up; the labels hold; not a header's numeral, cut upright)."""
    n = len(x)
    angle = (torch.rand(n, generator=generator) - 0.5) * 2 * CARD_TURN_DEG * torch.pi / 180
    if half_turns:
        angle = angle + torch.pi * (torch.rand(n, generator=generator) < 0.5)
    scale = torch.exp(torch.randn(n, generator=generator) * CARD_SCALE_SD)
    shift = (torch.rand(n, 2, generator=generator) - 0.5) * 2 * CARD_SHIFT
    cos, sin = torch.cos(angle) * scale, torch.sin(angle) * scale
    theta = torch.stack(
        [torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1
    )
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def train_cards(
    model: torch.nn.Module,
    train_x: torch.Tensor,
    train_y: torch.Tensor,
    valid_x: torch.Tensor,
    valid_y: torch.Tensor,
    config: TrainConfig,
    log=print,
    heads: tuple[str, ...] = tuple(HEADS),
    half_turns: bool = True,
) -> None:
    """The card model (or the header model), trained in place: the tile model's recipe (AdamW, one
    cycle, photometric jitter) with the crops also moved (``_geometric``): 7,400 crops are few for
    240 k weights."""
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    per_epoch = -(-len(train_x) // config.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, config.lr, total_steps=config.epochs * per_epoch, pct_start=0.2
    )
    for epoch in range(config.epochs):
        t0 = time.perf_counter()
        model.train()
        order = torch.randperm(len(train_x), generator=generator)
        total = 0.0
        for i in range(per_epoch):
            pick = order[i * config.batch : (i + 1) * config.batch]
            x = _geometric(photometric(to_float_nchw(train_x[pick]), generator), generator, half_turns)
            total += step(opt, sched, heads_loss(model(x), train_y[pick]))
        accuracy = head_accuracy(predict_logits(model, valid_x), valid_y, heads)
        log(f"{heads[0]} epoch {epoch + 1}/{config.epochs}  loss {total / per_epoch:.4f}  "
            f"{time.perf_counter() - t0:.0f} s  " + "  ".join(f"{k} {v:.4f}" for k, v in accuracy.items()))  # fmt: skip


def run_cards(
    data: dict[str, np.ndarray],
    spec: DataSpec,
    out: Path,
    epochs: int,
    seed: int,
    log=print,
    n_val: int | None = None,
    seeds: list[int] | None = None,
    command: str = "python -m vision.training.train_snorkeling",
    sets: list[dict] | None = None,
) -> dict:
    """The card model from ``data`` (photos of ``seeds``, ``spec.n`` each; the first ``n_val``
    validate), exported to ``out``; ``command``: the run's, for the metadata."""
    n_val = max(8, (int(data["photo"].max()) + 1) // VALID_SHARE) if n_val is None else n_val
    valid = data["photo"] < n_val
    x, y = torch.from_numpy(data["crops"]), torch.from_numpy(data["labels"].astype(np.int64))
    train_x, train_y, valid_x, valid_y = x[~valid], y[~valid], x[valid], y[valid]
    log(f"cards: {len(train_x)} training crops, {len(valid_x)} validation crops")
    torch.manual_seed(seed)
    model = TileNet(HEADS, CARD_BLOCKS, CARD_POOL)
    t0 = time.perf_counter()
    config = TrainConfig(epochs=epochs, batch=64, lr=3e-3, seed=seed, turns=False)  # crops come turned
    train_cards(model, train_x, train_y, valid_x, valid_y, config, log)
    logits = predict_logits(model, valid_x)
    temps = fit_temperatures(logits, valid_y)
    accuracy = head_accuracy(logits, valid_y, tuple(HEADS))
    has_card = valid_y[:, 1] >= 0
    card_right = (logits[1].argmax(1) == valid_y[:, 1]) & (logits[2].argmax(1) == valid_y[:, 2])
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        "cards": int(has_card.sum()),
        "cards_wrong": int((has_card & ~card_right).sum()),
        "calibration": dict(zip(HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    training = _training(spec, len(train_x), epochs, seed, model, t0, command) | {
        "data_seeds": seeds or [spec.seed]
    }
    if sets:  # each set's seed, photos and stress share (``--stress-seeds``)
        training |= {"sets": sets, "photos": sum(x["photos"] for x in sets)}
    meta = scorecam_metadata("snorkeling-cards", spec.crop_size, HEADS, training, metrics)
    meta["input"]["crop_span"] = spec.crop_span
    meta["input"]["crop_k"] = list(spec.crop_k)
    export_crop_model(model, temps, spec.crop_size, meta, out, valid_x, metrics, log)
    keep_weights(model, out, "snorkeling-weights")
    return metrics


def _training(
    spec, crops: int, epochs: int, seed: int, model: torch.nn.Module, t0: float, command: str
) -> dict:
    """What a crop model's metadata says of its training."""
    return {
        "data_seed": spec.seed,
        "photos": spec.n,
        "stress_every": spec.stress_every,
        "crops": int(crops),
        "epochs": epochs,
        "torch_seed": seed,
        "params": parameter_count(model),
        "train_s": round(time.perf_counter() - t0, 1),
        "command": command,
    }


def run_headers(
    spec: HeaderSpec,
    out: Path,
    epochs: int,
    seed: int,
    command: str = "python -m vision.training.train_snorkeling --only headers",
    log=print,
) -> dict:
    """The header model: a header disc's numeral (or none) from a 48 px crop (``HeaderSpec``);
    ``command``: the run's, for the metadata."""
    data, t_data = build_data(spec, build_headers)
    valid = data["photo"] < max(8, spec.n // VALID_SHARE)
    x, y = torch.from_numpy(data["crops"]), torch.from_numpy(data["labels"].astype(np.int64))
    train_x, train_y, valid_x, valid_y = x[~valid], y[~valid], x[valid], y[valid]
    log(f"headers: {len(train_x)} training crops, {len(valid_x)} validation crops")
    torch.manual_seed(seed)
    model = TileNet(HEADER_HEADS, HEADER_BLOCKS, HEADER_POOL, hidden=64)
    t0 = time.perf_counter()
    config = TrainConfig(epochs=epochs, batch=64, lr=3e-3, seed=seed, turns=False)
    train_cards(model, train_x, train_y, valid_x, valid_y, config, log, tuple(HEADER_HEADS), half_turns=False)
    logits = predict_logits(model, valid_x)
    temps = fit_temperatures(logits, valid_y)
    accuracy = head_accuracy(logits, valid_y, tuple(HEADER_HEADS))
    numeral = valid_y[:, 0] > 0
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        "numerals": int(numeral.sum()),
        "numerals_wrong": int((numeral & (logits[0].argmax(1) != valid_y[:, 0])).sum()),
        "none_read_as_numeral": int((~numeral & (logits[0].argmax(1) > 0)).sum()),
        "calibration": dict(zip(HEADER_HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    training = _training(spec, len(train_x), epochs, seed, model, t0, command) | {"data_s": round(t_data, 1)}
    meta = scorecam_metadata("snorkeling-headers", spec.crop_size, HEADER_HEADS, training, metrics)
    meta["input"]["crop_span"] = spec.crop_span
    # the reader cuts from the coarsest decode with HEADER_READ_K_LO photo px per crop px or more
    meta["input"]["crop_k"] = [HEADER_READ_K_LO, spec.crop_k[1]]
    meta["input"]["crop_k_trained"] = list(spec.crop_k)
    export_crop_model(model, temps, spec.crop_size, meta, out, valid_x, metrics, log)
    keep_weights(model, out, "snorkeling-weights")
    return metrics


def _reader_models() -> str:
    """The shipped locator's and card model's hashes: the reader spots the header crops are cut at
    come from them."""
    import hashlib

    from vision.onnx_model import models_dir

    files = ("snorkeling-locator.onnx", "snorkeling-cards.onnx")
    return ",".join(hashlib.sha1((models_dir() / f).read_bytes()).hexdigest()[:12] for f in files)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out-dir", type=Path, default=Path("models"))
    p.add_argument("--n", type=int, default=DataSpec.n, help="simulated training photos of each data seed")
    p.add_argument(
        "--data-seeds", default="1", help="simulator seeds of the training photos, comma-separated "
        "(validation: the first twentieth of the first seed's)"
    )  # fmt: skip
    add_stress_options(p, default_n=600)
    p.add_argument("--init-from", type=Path, help="a shipped locator (.onnx) to train the locator on from")
    p.add_argument("--locator-lr", type=float, default=4e-3, help="the locator's peak learning rate")
    p.add_argument("--locator-epochs", type=int, default=14)
    p.add_argument(
        "--locator-cast", type=float, default=0.1, help="each colour channel's gain jittered within 1 +- this"
    )
    p.add_argument(
        "--wide-turn",
        type=float,
        default=0.0,
        help="the card crops' wide turn (snorkeling_data.DataSpec.wide_turn)",
    )
    p.add_argument("--card-epochs", type=int, default=24)
    p.add_argument("--seed", type=int, default=0, help="torch and augmentation seed")
    p.add_argument("--header-epochs", type=int, default=20)
    p.add_argument("--only", choices=("locator", "cards", "headers"), help="train one model")
    p.add_argument("--smoke", action="store_true", help="tiny run (40 photos, 1 epoch each)")
    p.add_argument("--data-only", action="store_true")
    p.add_argument("--threads", type=int, default=1, help="torch threads (1: a shared machine)")
    args = p.parse_args(argv)
    if args.smoke:
        args.n, args.locator_epochs, args.card_epochs, args.header_epochs = 40, 1, 1, 1
        args.stress_n = min(args.stress_n, 40)
    torch.set_num_threads(args.threads)  # one by default: a shared machine
    seeds = [int(s) for s in args.data_seeds.split(",")]
    command = command_line("vision.training.train_snorkeling", argv)
    spec = DataSpec(seed=seeds[0], n=args.n, wide_turn=args.wide_turn)
    n_val = max(8, spec.n // VALID_SHARE)
    t0 = time.perf_counter()
    if args.only in (None, "headers"):  # photos of their own (the reader's spots need the shipped models)
        spec_h = HeaderSpec(n=args.n, reader_models=_reader_models())
        run_headers(spec_h, args.out_dir / "snorkeling-headers.onnx", args.header_epochs, args.seed, command)
        if args.only:
            print(f"done in {time.perf_counter() - t0:.0f} s", flush=True)
            return
    # each set is 2 GB a 900 photos: one model's run keeps only the arrays it learns from
    keep = {"locator": LOCATOR_ARRAYS, "cards": CARD_ARRAYS}.get(args.only, LOCATOR_ARRAYS + CARD_ARRAYS)
    specs = [replace(spec, seed=s) for s in seeds] + stress_specs(spec, args.stress_seeds, args.stress_n)
    sets = [build_data(x, build_dataset) for x in specs]
    sets = [({k: v for k, v in d.items() if k in keep}, t) for d, t in sets]
    data, t_data = merge_sets([d for d, _ in sets], [x.n for x in specs]), sum(t for _, t in sets)
    del sets
    sets_info = sets_metadata(specs)
    if args.data_only:
        return
    if args.only in (None, "cards"):
        out = args.out_dir / "snorkeling-cards.onnx"
        run_cards(data, spec, out, args.card_epochs, args.seed, n_val=n_val, seeds=seeds, command=command,
                  sets=sets_info)  # fmt: skip
    if args.only in (None, "locator"):
        out = args.out_dir / "snorkeling-locator.onnx"
        before = (
            load_session(args.init_from, task="snorkeling-locator")[1].get("training")
            if args.init_from
            else None
        )

        def keep(net: torch.nn.Module, info: dict) -> None:  # each epoch's model: a long run may be cut short
            params = sum(q.numel() for q in net.parameters())
            info |= {"photos": sum(x.n for x in specs), "data_seed": spec.seed, "data_seeds": seeds, "sets": sets_info,
                     "stress_every": spec.stress_every, "planned_epochs": args.locator_epochs,
                     "lr": args.locator_lr, "cast": args.locator_cast, "torch_seed": args.seed, "params": params,
                     "data_s": round(t_data, 1), "command": command,
                     "init_from": str(args.init_from) if args.init_from else None, "before": before}  # fmt: skip
            export_locator(net, out, spec, info)
            keep_weights(net, out, "snorkeling-weights")
            net.to(memory_format=torch.channels_last)

        net, info = train_locator(
            data,
            args.locator_epochs,
            args.seed,
            on_epoch=keep,
            n_val=n_val,
            lr=args.locator_lr,
            init=args.init_from,
            cast=args.locator_cast,
        )
        params = sum(q.numel() for q in net.parameters())
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB, {params} parameters)", flush=True)
    print(f"done in {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()

"""Train the Mediatore corner locator and corner model on simulated photos, export both to ONNX.

    python -m vision.training.train_mediatore --out-dir models
    python -m vision.training.train_mediatore --out-dir /tmp/smoke --smoke   # a few minutes

Both models learn from one cached data set (``mediatore_data``): the locator (the Mondo locator's
small U-net, ``train_locator.LocatorNet``) draws two maps from the whole photo at 512 px long side
or from a twice-larger window (the reader's zoomed look): every corner box whose index shows
(shrunk) and a disk at its centre; the corner model (the Mondo tile model's plain CNN,
``mondo_tiles_model.TileNet``, on 48 px crops) reads a corner's rank (or "none": not a corner, or
one too covered to read) and suit. Training photos use seeds below 9000 only; sizes,
normalisation and labels go into each file's "scorecam" metadata. One process, one torch thread.
With ``--fine-photos N`` the corner model also learns from N photos rendered at 3200 px
(``mediatore_data.FINE``, crops only): the sharper corners of a 12 MP photo (not used for the
shipped model: too slow to render on the shared machine). Both models also learn from
``--stress-n`` photos of each of ``--stress-seeds`` (4, 5, 6, 7, 9, 10), every second from the stress
world, and the corner model from the located crops of ``--located-seeds`` (3, 8, 11), under a hard
light on ``--hard-light`` of them, and of ``--located-paper-seeds`` and ``--located-dim-seeds``: photos all
on printed paper tables (newsprint, maps, posters: the text the locator finds false corners on) or all
in dim light; ``--locator-init FILE.onnx`` trains the locator on from a shipped one
(quantised or not), and ``--corners-init FILE.onnx`` the corner model (on the located crops alone,
``--corner-epochs`` at a peak rate of ``--corner-lr``: nothing else is rendered). The locator is written with 8-bit weights and activations
(``quantize_locator``, calibrated on the reader's looks at ``--quantize-photos`` photos of seed 1;
0 keeps it float): the reader's zoomed look in 40% of the time. models/README.md has the commands
the shipped models were made with (a chain of runs on from one another, which this one-process
default, a locator from scratch, was not re-run to match).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.mediatore.heads import HEADS, LOCATOR_CHANNELS
from vision.training import train_locator as loc
from vision.training.common import (
    add_stress_options,
    build_data,
    command_line,
    export_crop_model,
    fit_crop_model,
    keep_weights,
    one_cycle,
    sets_metadata,
    step,
    stress_specs,
    weights_from_onnx,
)
from vision.training.export_onnx import scorecam_metadata
from vision.training.mediatore_data import FINE, DataSpec, LocatedSpec, build_dataset, build_located
from vision.training.mondo_tiles_model import TileNet, TrainConfig, parameter_count
from vision.training.quantize_locator import quantize_locator

CORNER_BLOCKS = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1))  # 48 px -> 6 x 6
CORNER_POOL = 3
VALID_SHARE = 20  # photos 0 .. n/20 - 1 are validation
WINDOW = (224, 320)  # the locator trains on windows of the stored pictures (fully convolutional)
# share of corner crops under the hard end of the light (mondo_tiles_model.hard_light): the stress
# world's cards were missed under overexposure, casts and shadow edges (corners read under READ_MIN)
HARD_LIGHT = 0.35
# the data the shipped models learnt from beside seed 1 (models/README.md, "Mediatore")
# (the shipped locator learnt from 4-7 only: trained on with 9 and 10 as well it read the stress photos
# better and the everyday ones worse, models/README.md)
STRESS_SEEDS = "4,5,6,7,9,10"  # --stress-n photos each, every second from the stress world
LOCATED_SEEDS = "3,8,11"  # --located-photos each, every --located-stress-every-th from the stress world


# ------------------------------------------------------------------------------------------ locator


def _loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    corners = F.binary_cross_entropy_with_logits(logits[:, 0], target[:, 0], weight=1.0 + 3.0 * target[:, 0])
    centres = F.binary_cross_entropy_with_logits(logits[:, 1], target[:, 1], weight=1.0 + 10.0 * target[:, 1])
    return corners + centres


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
        "corners_iou": round(float(iou[0]), 4),
        "centres_iou": round(float(iou[1]), 4),
    }


def train_locator(
    data: dict[str, np.ndarray],
    epochs: int,
    seed: int,
    log=print,
    start: Path | dict | None = None,
    lr: float = 4e-3,
    init: Path | None = None,
    n_val: int | None = None,
) -> tuple[torch.nn.Module, dict]:
    """The locator trained for ``epochs`` (from the weights at ``start`` when given: a run continued;
    from a shipped locator file, ``init``, read back by ``train_locator.from_onnx``)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images = np.concatenate([data["images"], data["win_images"]])
    maps = np.concatenate([data["maps"], data["win_maps"]])
    n = len(data["images"])
    n_val = max(8, n // VALID_SHARE) if n_val is None else n_val  # the first photos validate
    train_idx = np.concatenate([np.arange(n_val, n), n + np.arange(n_val, n)])
    val_idx = np.concatenate([np.arange(n_val), n + np.arange(n_val)])
    batch = 12
    net = loc.from_onnx(init) if init is not None else loc.LocatorNet()
    if start is not None:
        net.load_state_dict(start if isinstance(start, dict) else torch.load(start))
    net = net.to(memory_format=torch.channels_last)
    per_epoch = len(train_idx) // batch
    opt, sched = one_cycle(net, lr, epochs * per_epoch)
    t0 = time.perf_counter()
    val: dict = {}
    if init is not None or start is not None:
        log(f"  locator before training: val {evaluate_locator(net, images[val_idx], maps[val_idx])}")
    for epoch in range(epochs):
        loc.train_mode(net)
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
    meta = loc.locator_metadata(
        "mediatore-locator",
        spec.input_long,
        LOCATOR_CHANNELS,
        info,
        input_extra={"zoom": spec.window_zoom},
        maps_extra={"box_shrink": spec.box_shrink},
    )
    loc.save_onnx(net, out, (spec.input_short, spec.input_long), meta)


# ------------------------------------------------------------------------------------------ corners


def run_corners(
    sets: list[tuple[DataSpec, dict[str, np.ndarray]]],
    out: Path,
    epochs: int,
    seed: int,
    command: str,
    log=print,
    hard_light: float = HARD_LIGHT,
    init: Path | None = None,
    lr: float = 3e-3,
    spec: DataSpec | None = None,
) -> dict:
    """The corner model on the crops of every set (the first 1/20 of each set's photos: validation);
    with ``init``, the shipped corner model at that path trained on (else a new one). ``spec``: the
    crops' size and cut (the first set's, where it is a DataSpec)."""
    spec = spec or sets[0][0]
    valid = np.concatenate([d["photo"] < max(8, s.n // VALID_SHARE) for s, d in sets])
    x = torch.from_numpy(np.concatenate([d["crops"] for _, d in sets]))
    y = torch.from_numpy(np.concatenate([d["labels"] for _, d in sets]).astype(np.int64))
    train_x, train_y, valid_x, valid_y = x[~valid], y[~valid], x[valid], y[valid]
    log(f"corners: {len(train_x)} training crops, {len(valid_x)} validation crops")
    torch.manual_seed(seed)
    model = TileNet(HEADS, CORNER_BLOCKS, CORNER_POOL, hidden=96)
    if init is not None:
        model = weights_from_onnx(model, init)
    t0 = time.perf_counter()
    # turns=False: the crops come turned, either way up
    config = TrainConfig(epochs=epochs, batch=64, lr=lr, seed=seed, turns=False, hard_light=hard_light)
    logits, temps, accuracy = fit_crop_model(model, train_x, train_y, valid_x, valid_y, config, HEADS, log)
    is_corner = valid_y[:, 0] > 0
    card_right = (logits[0].argmax(1) == valid_y[:, 0]) & (logits[1].argmax(1) == valid_y[:, 1])
    metrics = {
        "validation": {k: round(v, 4) for k, v in accuracy.items()},
        "validation_crops": int(len(valid_x)),
        "corners": int(is_corner.sum()),
        "corners_wrong": int((is_corner & ~card_right).sum()),
        "none_read_as_card": int((~is_corner & (logits[0].argmax(1) > 0)).sum()),
        "calibration": dict(zip(HEADS, [round(t, 3) for t in temps], strict=True)),
    }
    training = {
        "data": [
            {
                "seed": s.seed,
                "photos": s.n,
                "render_long_side": s.render_long_side,
                "full_every": s.full_every,  # every this many-th photo rendered at 4000 px instead
                "stress_every": s.stress_every,
                # a located set of one kind of photo: its tables, its lights
                **{k: list(v) for k in ("tables", "lights") if (v := getattr(s, k, ()))},
            }
            for s, _ in sets
        ],
        "stress_every": spec.stress_every,
        "continued_from": str(init) if init is not None else None,
        "lr": lr,
        "crops": int(len(train_x)),
        "epochs": epochs,
        "hard_light": hard_light,
        "torch_seed": seed,
        "params": parameter_count(model),
        "train_s": round(time.perf_counter() - t0, 1),
        "command": command,
    }
    meta = scorecam_metadata("mediatore-corners", spec.crop_size, HEADS, training, metrics)
    meta["input"]["crop_span"] = spec.crop_span
    meta["input"]["crop_k"] = list(spec.crop_k)
    export_crop_model(model, temps, spec.crop_size, meta, out, valid_x, metrics, log)
    keep_weights(model, out, "mediatore-weights")
    return metrics


class _CropSpec:
    """What the reader's crop cutter needs of a corner model: its input size and crop metadata."""

    def __init__(self, spec: DataSpec) -> None:
        self.input_size = spec.crop_size
        self.metadata = {"input": {"crop_span": spec.crop_span, "crop_k": list(spec.crop_k)}}


def located_specs(
    spec: DataSpec,
    locator_path: Path,
    seeds: str,
    n: int,
    stress_every: int,
    version: int = LocatedSpec.version,
    tables: tuple[str, ...] = (),
    lights: tuple[str, ...] = (),
) -> list[LocatedSpec]:
    """The located crop sets of ``n`` photos of each of ``seeds`` (comma-separated), found by the
    locator at ``locator_path`` (its hash keys the cache), labelled as ``version`` says (LocatedSpec),
    their photos on ``tables`` only and under ``lights`` only where given."""
    import hashlib

    sha = hashlib.sha1(locator_path.read_bytes()).hexdigest()[:12]
    return [
        LocatedSpec(
            seed=int(s),
            n=n,
            render_long_side=spec.render_long_side,
            locator_sha=sha,
            stress_every=stress_every,
            version=version,
            tables=tables,
            lights=lights,
        )
        for s in seeds.split(",")
        if s
    ]


def _located(
    spec: DataSpec, locator_path: Path, located: LocatedSpec
) -> tuple[LocatedSpec, dict[str, np.ndarray]]:
    """One located crop set, cut where the locator at ``locator_path`` finds corners."""
    from vision.mediatore.locate import load_locator

    locator = load_locator(str(locator_path))
    data, _ = build_data(located, build_located, locator=locator, corners=_CropSpec(spec))
    return located, data


def _located_sets(
    spec: DataSpec, args: argparse.Namespace
) -> list[tuple[LocatedSpec, dict[str, np.ndarray]]]:
    """The located crop sets the arguments ask for, cut where the locator in ``--out-dir`` finds corners."""
    locator_path = args.out_dir / "mediatore-locator.onnx"
    kinds = (  # (seeds, tables, lights): the everyday mix, then the sets of one kind of photo
        (args.located_seeds, (), ()),
        (args.located_paper_seeds, ("paper",), ()),
        (args.located_dim_seeds, (), ("dim",)),
    )
    return [
        _located(spec, locator_path, one)
        for seeds, tables, lights in kinds
        for one in located_specs(
            spec,
            locator_path,
            seeds,
            args.located_photos,
            args.located_stress_every,
            args.located_version,
            tables=tables,
            lights=lights,
        )
    ]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out-dir", type=Path, default=Path("models"))
    p.add_argument("--n", type=int, default=DataSpec.n, help="simulated training photos (seed 1)")
    p.add_argument("--locator-epochs", type=int, default=8)
    p.add_argument("--corner-epochs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0, help="torch and augmentation seed")
    p.add_argument("--only", choices=("locator", "corners"), help="train one model")
    p.add_argument("--smoke", action="store_true", help="tiny run (40 photos, 1 epoch each, few more)")
    p.add_argument("--data-only", action="store_true")
    p.add_argument(
        "--fine-photos", type=int, default=0, help="also train the corner model on N photos at 3200 px"
    )
    p.add_argument(
        "--located-photos",
        type=int,
        default=300,
        help="photos of each --located-seeds seed whose located corners the corner model learns from",
    )
    p.add_argument(
        "--located-seeds", default=LOCATED_SEEDS, help="seeds (comma-separated) of the located photos"
    )
    p.add_argument(
        "--located-paper-seeds",
        default="",
        help="seeds of located photos whose tables are all printed paper (the text corners are found on)",
    )
    p.add_argument("--located-dim-seeds", default="", help="seeds of located photos all under dim light")
    p.add_argument(
        "--located-stress-every",
        type=int,
        default=2,
        help="every this many-th located photo from the stress world",
    )
    add_stress_options(p, default_n=240, default_seeds=STRESS_SEEDS)
    p.add_argument(
        "--hard-light", type=float, default=HARD_LIGHT, help="share of corner crops under a hard light"
    )
    p.add_argument(
        "--corners-init",
        type=Path,
        help="a shipped corner model (.onnx) to train on, from the located crops alone (with --only corners)",
    )
    p.add_argument("--corner-lr", type=float, default=3e-3, help="the corner model's peak learning rate")
    p.add_argument(
        "--located-version",
        type=int,
        choices=(2, 3),
        default=LocatedSpec.version,
        help="the located crops' labels (3, the shipped model's: a partly covered corner whose rank is hidden "
        "is a 'none' crop; 2: left out, as for the model before)",
    )
    p.add_argument("--locator-from", type=Path, help="continue training the locator from these torch weights")
    p.add_argument("--locator-init", type=Path, help="a shipped locator (.onnx) to train the locator on from")
    p.add_argument("--locator-lr", type=float, default=4e-3, help="the locator's peak learning rate")
    p.add_argument(
        "--locator-more-epochs", type=int, default=8, help="then this many more at half the peak (0: none)"
    )
    p.add_argument(
        "--quantize-photos",
        type=int,
        default=24,
        help="calibrate the locator's 8-bit weights and activations on this many photos (0: keep it float)",
    )
    args = p.parse_args(argv)
    command = command_line("vision.training.train_mediatore", argv)
    if args.smoke:
        args.n, args.locator_epochs, args.corner_epochs, args.locator_more_epochs = 40, 1, 1, 1
        args.located_photos = min(args.located_photos, 10)
        args.quantize_photos = min(args.quantize_photos, 4)
        if args.stress_seeds == STRESS_SEEDS:  # (the default sets, tiny)
            args.stress_n = 10
    torch.set_num_threads(1)  # a shared machine: one core
    spec = DataSpec(n=args.n)
    t0 = time.perf_counter()
    if args.corners_init is not None:  # the shipped corner model trained on: the located crops alone
        if args.only != "corners":
            p.error("--corners-init trains the corner model alone: add --only corners")
        located = _located_sets(spec, args)
        if args.data_only:
            return
        run_corners(
            located, args.out_dir / "mediatore-corners.onnx", args.corner_epochs, args.seed, command,
            hard_light=args.hard_light, init=args.corners_init, lr=args.corner_lr, spec=spec,
        )  # fmt: skip
        print(f"done in {time.perf_counter() - t0:.0f} s", flush=True)
        return
    data, t_data = build_data(spec, build_dataset)
    sets = [(spec, data)]
    if args.fine_photos:
        fine = replace(FINE, n=args.fine_photos)
        sets.append((fine, build_data(fine, build_dataset)[0]))
    stress_sets = stress_specs(spec, args.stress_seeds, args.stress_n)
    stress_data = [build_data(extra, build_dataset)[0] for extra in stress_sets]
    sets += list(zip(stress_sets, stress_data, strict=True))  # both models learn from these
    if stress_data:  # the locator's pictures, the first set's first (its first photos validate)
        names = ("images", "maps", "win_images", "win_maps")
        data = {k: np.concatenate([data[k], *(d[k] for d in stress_data)]) for k in names}
    if args.data_only:
        return
    n_val = max(8, spec.n // VALID_SHARE)  # the first set's first photos, whatever sets follow
    if args.only in (None, "locator"):
        net, info = train_locator(
            data, args.locator_epochs, args.seed, start=args.locator_from, lr=args.locator_lr,
            init=args.locator_init, n_val=n_val,
        )  # fmt: skip
        if args.locator_more_epochs:  # a second one-cycle run from the first's weights, at a lower peak
            first = {k: v.clone() for k, v in net.state_dict().items()}
            net, more = train_locator(
                data, args.locator_more_epochs, args.seed, start=first, lr=args.locator_lr / 2,
                init=args.locator_init, n_val=n_val,  # (a net read from a file keeps its folded norms frozen)
            )  # fmt: skip
            info = {"epochs": [info["epochs"], more["epochs"]], "peak_lr": [args.locator_lr, args.locator_lr / 2],
                    "val_first": info["val"], "val": more["val"], "train_s": info["train_s"] + more["train_s"]}  # fmt: skip
        if args.locator_from is not None or args.locator_init is not None:  # (after the second run too)
            info["continued_from"] = str(args.locator_from or args.locator_init)
        params = sum(q.numel() for q in net.parameters())
        info |= {"photos": spec.n, "data_seed": spec.seed, "stress_every": spec.stress_every,
                 "stress_sets": sets_metadata(stress_sets),
                 "torch_seed": args.seed, "params": params, "data_s": round(t_data, 1),
                 "command": command}  # fmt: skip
        out = args.out_dir / "mediatore-locator.onnx"
        if args.quantize_photos:  # the reader runs it in 8-bit integers: the float net is exported first
            with tempfile.TemporaryDirectory() as tmp:
                plain = Path(tmp) / out.name
                export_locator(net, plain, spec, info)
                quantize_locator("mediatore", plain, out, photos=args.quantize_photos, command=command)
        else:
            export_locator(net, out, spec, info)
        keep_weights(net, out, "mediatore-weights")
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB, {params} parameters)", flush=True)
    if args.only in (None, "corners"):
        if args.located_photos:  # after the locator: crops where it finds corners, as the reader cuts them
            sets += _located_sets(spec, args)
        run_corners(
            sets, args.out_dir / "mediatore-corners.onnx", args.corner_epochs, args.seed, command,
            hard_light=args.hard_light,
        )  # fmt: skip
    print(f"done in {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()

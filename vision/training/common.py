"""What the training scripts and their data sets share.

Data: the held-out seeds, a data set's cache file (named by its spec), read back or written, and the
samples of the photo readers' data sets (maps of the photo for the locator, crops for the crop model)
gathered into arrays. Training: the data set built with its time, the optimiser and its one-cycle
schedule, one optimisation step, batches of several kinds of picture, and a crop model trained,
calibrated and exported.

torch is imported where it is used: the data modules (imported by the default tests, which run
without the `train` extra) share this module. The locator nets' own pieces (augmentation, loss, an
epoch over mixed batches, ONNX export) are in ``train_locator``; the crop models' in
``mondo_tiles_model`` and ``export_onnx``.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

HELD_OUT_SEED = 9000  # evaluation seeds start here
ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------------------ data


def cache_path(spec: Any, folder: str, prefix: str, unset: tuple[str, ...] = ()) -> Path:
    """build/<folder>/<prefix>-<key>.npz, the key a hash of every field of the (dataclass) spec but
    those named in ``unset`` while empty (fields added later: the caches made before keep their keys)."""
    fields = {k: v for k, v in asdict(spec).items() if not (k in unset and not v)}
    key = hashlib.sha1(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:12]
    return ROOT / "build" / folder / f"{prefix}-{key}.npz"


def read_cache(spec: Any) -> dict[str, np.ndarray] | None:
    """The arrays cached for ``spec`` (None: not built yet); a held-out seed is refused."""
    if spec.seed + 1 > HELD_OUT_SEED:
        raise ValueError(f"training seeds must be below {HELD_OUT_SEED}")
    path = spec.cache_path()
    if path.exists():
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    return None


def write_cache(spec: Any, data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    path = spec.cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **data)
    return data


def build_maps_and_crops(
    spec: Any,
    make_sample: Callable[[Any, int], tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]],
    names: Sequence[str],
    log_every: int,
    log: Callable[[str], None] | None = print,
) -> dict[str, np.ndarray]:
    """Every sample of ``spec`` (one process), cached on disk: ``make_sample(spec, i)`` gives photo
    i's maps (stacked under ``names``), crops and labels; "photo" holds each crop's photo."""
    import cv2

    data = read_cache(spec)
    if data is not None:
        return data
    cv2.setNumThreads(1)
    maps: list[tuple[np.ndarray, ...]] = []
    crops, labels, photo_of = [], [], []
    t0 = time.perf_counter()
    for i in range(spec.n):
        m, c, lab = make_sample(spec, i)
        maps.append(m)
        crops.append(c)
        labels.append(lab)
        photo_of.append(np.full(len(c), i, np.int32))
        if log and (i + 1) % log_every == 0:
            log(f"  data {i + 1}/{spec.n} ({time.perf_counter() - t0:.0f} s)")
    data = {name: np.stack([m[k] for m in maps]) for k, name in enumerate(names)}
    data |= {
        "crops": np.concatenate(crops),
        "labels": np.concatenate(labels),
        "photo": np.concatenate(photo_of),
    }
    return write_cache(spec, data)


def add_stress_options(parser: Any, default_n: int, default_seeds: str = "") -> None:
    """``--stress-seeds`` (``default_seeds``: the sets a shipped model learnt from) and ``--stress-n``
    on a training command (``stress_specs``)."""
    parser.add_argument(
        "--stress-seeds",
        default=default_seeds,
        help="more training photos: seeds (comma-separated) of --stress-n photos each, every second one "
        "from the stress world",
    )
    parser.add_argument("--stress-n", type=int, default=default_n, help="photos of each --stress-seeds seed")


def stress_specs(base: Any, seeds: str, n: int) -> list[Any]:
    """``base`` (a data spec) for each of ``seeds`` (comma-separated): ``n`` photos, every second from
    the stress world."""
    return [replace(base, seed=int(s), n=n, stress_every=2) for s in seeds.split(",") if s]


def sets_metadata(specs: Sequence[Any]) -> list[dict]:
    """What a model's metadata says of each data set it learnt from."""
    return [{"seed": x.seed, "photos": x.n, "stress_every": x.stress_every} for x in specs]


def merge_sets(sets: Sequence[dict[str, np.ndarray]], n: int | Sequence[int]) -> dict[str, np.ndarray]:
    """Several seeds' data sets (``n`` photos each, or each set's own count) as one, in order: each
    crop's "photo" index counts on over the sets, so that the validation photos (the first ones)
    stay the first set's."""
    if len(sets) == 1:
        return dict(sets[0])
    counts = [n] * len(sets) if isinstance(n, int) else list(n)
    if len(counts) != len(sets):
        raise ValueError(f"{len(sets)} data sets, {len(counts)} photo counts")
    merged = {k: np.concatenate([d[k] for d in sets]) for k in sets[0] if k != "photo"}
    if "photo" in sets[0]:  # (a locator's run keeps its pictures and maps alone)
        starts = np.cumsum([0, *counts[:-1]])
        merged["photo"] = np.concatenate([d["photo"] + start for d, start in zip(sets, starts, strict=True)])
    return merged


# ------------------------------------------------------------------------------------------ training


def build_data(spec: Any, build: Callable[..., dict[str, np.ndarray]], **options: Any) -> tuple[dict, float]:
    """``build(spec, **options)``, saying where its cache is and how long it took: (data, seconds)."""
    t0 = time.perf_counter()
    print(f"data: {spec.n} photos, seed {spec.seed}, cache {spec.cache_path()}", flush=True)
    data = build(spec, **options)
    seconds = time.perf_counter() - t0
    print(f"data ready in {seconds:.0f} s", flush=True)
    return data, seconds


def command_line(module: str, argv: Sequence[str] | None) -> str:
    """The command a training run was started with (``argv``: its arguments, else the process's),
    as a model's metadata records it."""
    import sys

    return " ".join([f"python -m {module}", *(sys.argv[1:] if argv is None else argv)])


def one_cycle(
    net: torch.nn.Module, lr: float, total_steps: int
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler]:
    """AdamW (weight decay 1e-4) under a one-cycle schedule peaking at ``lr`` after 15% of the steps."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=total_steps, pct_start=0.15)
    return opt, sched


def step(
    opt: torch.optim.Optimizer, sched: torch.optim.lr_scheduler.LRScheduler, loss: torch.Tensor
) -> float:
    """One optimisation step on ``loss``; its value."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    return loss.item()


def mixed_batches(
    train_indices: Sequence[np.ndarray], batch: int, rng: np.random.Generator
) -> list[tuple[int, np.ndarray]]:
    """(kind, indices) batches for one epoch: each kind of picture (kind k draws from
    ``train_indices[k]``) cut into whole batches, as pictures of one kind share a size, and the
    batches of all kinds in random order."""
    jobs = []
    for kind, indices in enumerate(train_indices):
        order = rng.permutation(indices)
        jobs += [(kind, order[i * batch : (i + 1) * batch]) for i in range(len(indices) // batch)]
    return [jobs[j] for j in rng.permutation(len(jobs))]


def fit_crop_model(
    model: torch.nn.Module,
    train_x: torch.Tensor,
    train_y: torch.Tensor,
    valid_x: torch.Tensor,
    valid_y: torch.Tensor,
    config: Any,
    heads: Sequence[str],
    log: Callable[[str], None] = print,
) -> tuple[list[torch.Tensor], list[float], dict[str, float]]:
    """Train a crop model (``mondo_tiles_model.TileNet``), then its validation logits, the
    temperatures that calibrate each head, and each head's validation accuracy."""
    from vision.training.mondo_tiles_model import fit_temperatures, head_accuracy, predict_logits, train

    train(model, train_x, train_y, valid_x, valid_y, config, log)
    logits = predict_logits(model, valid_x)
    temps = fit_temperatures(logits, valid_y)
    return logits, temps, head_accuracy(logits, valid_y, tuple(heads))


def export_crop_model(
    model: torch.nn.Module,
    temps: list[float],
    crop_size: int,
    meta: dict,
    out: Path,
    valid_x: torch.Tensor,
    metrics: dict,
    log: Callable[[str], None] = print,
) -> None:
    """The crop model to ONNX at ``out``, checked against torch on validation crops."""
    from vision.training.export_onnx import check_against_torch, export_onnx

    export_onnx(model, temps, crop_size, meta, out)
    gap = check_against_torch(model, temps, out, valid_x[:64].numpy())
    log(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB), onnx vs torch {gap:.2e}; {json.dumps(metrics)}")


def keep_weights(model: torch.nn.Module, out: Path, folder: str) -> None:
    """The torch weights of the model exported to ``out``, under build/``folder``/ (beside the data
    cache, not shipped): a later run may start from them."""
    import torch

    path = ROOT / "build" / folder / f"{out.stem}.pt"
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), path)


def weights_from_onnx(net: torch.nn.Module, path: Path) -> torch.nn.Module:
    """``net`` holding the weights of a shipped model file, to train further. The export folded every
    batch norm into the convolution before it, so each conv takes the folded weights and its batch
    norm becomes the folded bias alone (scale 1, statistics 0 and 1, kept frozen while training:
    ``train_mode``); the linear layers take the Gemm nodes' weights in order. The net then computes
    exactly what the file does (before the file's softmax and temperatures)."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    model = onnx.load(str(path))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    # a quantised locator (``quantize_locator``) feeds each conv its weights through DequantizeLinear
    for node in model.graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in weights:
            q, scale, zero = (weights[name] for name in node.input[:3])
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            shape = [1] * q.ndim
            if np.ndim(scale):  # per channel along ``axis`` (the output channels of a conv's weights)
                shape[axis] = -1
            values = (q.astype(np.float32) - np.reshape(zero, shape)) * np.reshape(scale, shape)
            weights[node.output[0]] = values.astype(np.float32)

    def node_weights(op: str) -> list[list[np.ndarray]]:
        return [[weights[name] for name in node.input[1:]] for node in model.graph.node if node.op_type == op]

    modules = list(net.modules())
    convs = [m for m in modules if isinstance(m, nn.Conv2d)]
    linears = [m for m in modules if isinstance(m, nn.Linear)]
    # a conv's batch norm is the module right after it (both in one nn.Sequential)
    norms = {
        id(a): b
        for a, b in zip(modules, modules[1:], strict=False)
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)
    }
    folded, gemms = node_weights("Conv"), node_weights("Gemm")
    if len(convs) != len(folded) or len(linears) != len(gemms):
        raise ValueError(
            f"{path}: {len(folded)} convolutions and {len(gemms)} linear layers, "
            f"the net has {len(convs)} and {len(linears)}"
        )
    with torch.no_grad():
        for conv, (w, b) in zip(convs, folded, strict=True):
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bn = norms.get(id(conv))
            if bn is None:
                conv.bias.copy_(torch.from_numpy(np.array(b)))
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(np.array(b)))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)  # (x - 0) / sqrt(var + eps) = x
        for linear, (w, b) in zip(linears, gemms, strict=True):
            linear.weight.copy_(torch.from_numpy(np.array(w)))
            linear.bias.copy_(torch.from_numpy(np.array(b)))
    net.frozen_norms = True
    return net


def train_mode(net: torch.nn.Module) -> None:
    """``net.train()``, but a net read back from a shipped file (``weights_from_onnx``) keeps its batch
    norms as they are: they hold the folded weights, not statistics to learn."""
    from torch import nn

    net.train()
    if getattr(net, "frozen_norms", False):
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()

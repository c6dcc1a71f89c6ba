"""Per-head accuracy of a Mondo tile model (ONNX) on the cached crops of one seed: how a model file
does on the training command's validation crops, for comparing two models on the same crops.

    python -m vision.training.tile_crop_accuracy models/mondo-tiles.onnx --seed 4 --photos 100 --stress

The crops are those `train_mondo_tiles` cuts (built and cached on first use); grid cells only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.mondo.heads import HEADS
from vision.onnx_model import load_model
from vision.training.mondo_tiles_data import CACHE_DIR, CropSpec, load_or_build_crops


def crop_accuracy(
    model_path: Path, crops: np.ndarray, labels: np.ndarray, batch: int = 256
) -> dict[str, float]:
    """Each head's share of crops with a label whose argmax is that label."""
    model = load_model(model_path)
    probs: dict[str, list[np.ndarray]] = {}
    for start in range(0, len(crops), batch):
        for head, p in model.run(crops[start : start + batch]).items():
            probs.setdefault(head, []).append(p)
    out = {}
    for h, head in enumerate(HEADS):
        called = np.concatenate(probs[head]).argmax(axis=1)
        valid = labels[:, h] >= 0
        out[head] = float((called[valid] == labels[valid, h]).mean())
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", type=Path)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--photos", type=int, default=250)
    p.add_argument("--stress", action="store_true", help="the stress world's crops (World(stress=True))")
    p.add_argument("--cache-dir", type=Path, default=CACHE_DIR)
    args = p.parse_args(argv)
    crop_set = load_or_build_crops(
        args.seed, args.photos, CropSpec(stress=args.stress), cache_dir=args.cache_dir
    )
    grid = ~crop_set.ring
    accuracy = crop_accuracy(args.model, crop_set.crops[grid], crop_set.labels[grid])
    print(f"{args.model}: {int(grid.sum())} grid-cell crops of seed {args.seed}")
    print("  ".join(f"{head} {value:.4f}" for head, value in accuracy.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

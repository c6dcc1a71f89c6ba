"""Export a trained tile model to ONNX: raw crops in, one softmax per head out, metadata inside.

The graph takes what the runtime cuts (NHWC BGR uint8 crops, any batch size) and does the cast,
layout change and normalisation itself; each head's softmax is an output named after the head, its
temperature (fitted on validation data) folded in. ONNX metadata key "scorecam" holds the JSON that
the runtime reads: input size and layout, heads and labels, training data and validation figures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch
from torch import nn

from vision.geometry import CROP_MARGIN

METADATA_KEY = "scorecam"
OPSET = 17


class SoftmaxHeads(nn.Module):
    """(N, S, S, 3) uint8 BGR -> one (N, classes) probability tensor per head."""

    def __init__(self, model: nn.Module, temperatures: Sequence[float]) -> None:
        super().__init__()
        self.model = model
        self.register_buffer("inv_temp", torch.tensor([1.0 / t for t in temperatures]))

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, ...]:
        logits = self.model(crops.permute(0, 3, 1, 2).float())
        return tuple(torch.softmax(out * self.inv_temp[h], dim=1) for h, out in enumerate(logits))


def scorecam_metadata(
    task: str, size: int, heads: dict[str, Sequence[str]], training: dict, metrics: dict
) -> dict[str, Any]:
    return {
        "format": 1,
        "task": task,
        "input": {
            "size": size,
            "channels": "BGR",
            "layout": "NHWC",
            "dtype": "uint8",
            "crop_margin": CROP_MARGIN,
        },
        "heads": {name: list(labels) for name, labels in heads.items()},
        "training": training,
        "metrics": metrics,
    }


def export_onnx(
    model: nn.Module,
    temperatures: Sequence[float],
    size: int,
    metadata: dict[str, Any],
    out: Path,
) -> None:
    """Write ``out`` (the graph and the "scorecam" metadata JSON)."""
    names = list(metadata["heads"])
    wrapper = SoftmaxHeads(model, temperatures).eval()
    example = torch.zeros(2, size, size, 3, dtype=torch.uint8)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapper,
        (example,),
        str(out),
        input_names=["crops"],
        output_names=names,
        dynamic_axes={"crops": {0: "batch"}, **{n: {0: "batch"} for n in names}},
        opset_version=OPSET,
        dynamo=False,  # the TorchScript exporter: one self-contained file, no external weights
    )
    proto = onnx.load(str(out))
    entry = proto.metadata_props.add()
    entry.key = METADATA_KEY
    entry.value = json.dumps(metadata, separators=(",", ":"))
    proto.producer_name = "scorecam"
    onnx.checker.check_model(proto)
    onnx.save(proto, str(out))


def check_against_torch(
    model: nn.Module, temperatures: Sequence[float], path: Path, crops: np.ndarray
) -> float:
    """Largest |onnxruntime - torch| over every head's probabilities on ``crops``."""
    wrapper = SoftmaxHeads(model, temperatures).eval()
    with torch.no_grad():
        expected = [t.numpy() for t in wrapper(torch.from_numpy(crops))]
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"crops": crops})
    return max(float(np.abs(a - b).max()) for a, b in zip(got, expected, strict=True))

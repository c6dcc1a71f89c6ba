"""Shipped ONNX models at run time: onnxruntime on one CPU thread, described by their own metadata.

Every scorecam model carries a JSON object under the ONNX metadata key "scorecam": its input (crop
size, channel order, layout, dtype, crop margin) and its heads (output names and class labels, in
order). Readers take these from the file, never from constants of their own, so a retrained model
with other sizes or heads needs no code change where it fits.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from vision.errors import ModelFileError

METADATA_KEY = "scorecam"


def models_dir() -> Path:
    """Where the shipped ONNX models live: $SCORECAM_MODELS, else the repository's models/."""
    return Path(os.environ.get("SCORECAM_MODELS") or Path(__file__).resolve().parents[1] / "models")


class OnnxModel:
    """One ONNX session and the model's "scorecam" metadata."""

    def __init__(self, path: Path, session: ort.InferenceSession, metadata: dict[str, Any]) -> None:
        self.path = path
        self.session = session
        self.metadata = metadata
        self.input_name = session.get_inputs()[0].name
        self.heads: dict[str, list[str]] = {name: list(labels) for name, labels in metadata["heads"].items()}

    @property
    def input_size(self) -> int:
        return int(self.metadata["input"]["size"])

    def run(self, crops: np.ndarray) -> dict[str, np.ndarray]:
        """(N, S, S, 3) uint8 BGR crops -> head name -> (N, classes) probabilities."""
        size = self.input_size
        if crops.ndim != 4 or crops.shape[1:] != (size, size, 3):
            raise ValueError(f"{self.path.name} takes (N, {size}, {size}, 3) crops, got {crops.shape}")
        if len(crops) == 0:
            return {name: np.zeros((0, len(labels)), np.float32) for name, labels in self.heads.items()}
        outputs = self.session.run(list(self.heads), {self.input_name: np.ascontiguousarray(crops, np.uint8)})
        return dict(zip(self.heads, outputs, strict=True))


def _session(path: Path) -> ort.InferenceSession:
    options = ort.SessionOptions()
    # one core: the reader runs one photo a core, batch jobs scale by processes
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # no warnings on stderr for the CLI's users
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def read_metadata(session: ort.InferenceSession, path: Path) -> dict[str, Any]:
    """The model's "scorecam" metadata; ModelFileError when it lacks any or it is not JSON."""
    raw = session.get_modelmeta().custom_metadata_map.get(METADATA_KEY)
    if raw is None:
        raise ModelFileError(f"{path}: not a scorecam model (no '{METADATA_KEY}' metadata)")
    try:
        metadata = json.loads(raw)
    except ValueError as error:
        raise ModelFileError(f"{path}: broken '{METADATA_KEY}' metadata ({error})") from None
    if not isinstance(metadata, dict):
        raise ModelFileError(f"{path}: broken '{METADATA_KEY}' metadata (not an object)")
    return metadata


def _check_heads(session: ort.InferenceSession, metadata: dict[str, Any], path: Path) -> None:
    """A head model (the tile reader) names its input size and heads, and its graph has them."""
    try:
        int(metadata["input"]["size"])
        heads = metadata["heads"]
    except (ValueError, KeyError, TypeError) as error:
        raise ModelFileError(f"{path}: broken '{METADATA_KEY}' metadata ({error})") from None
    outputs = {out.name for out in session.get_outputs()}
    missing = [name for name in heads if name not in outputs]
    if missing:
        raise ModelFileError(f"{path}: metadata names heads the graph lacks: {', '.join(missing)}")


@functools.lru_cache(maxsize=8)
def _load_session(path: Path) -> tuple[ort.InferenceSession, dict[str, Any]]:
    if not path.is_file():
        raise ModelFileError(f"{path}: model file missing (the models are built with `make model-*`)")
    try:
        session = _session(path)
    except Exception as error:  # onnxruntime raises its own untyped errors for broken files
        raise ModelFileError(f"{path}: not a readable ONNX model ({str(error).splitlines()[0]})") from None
    return session, read_metadata(session, path)


def load_session(path: str | Path, task: str | None = None) -> tuple[ort.InferenceSession, dict[str, Any]]:
    """Any scorecam model's one-thread session and metadata, loaded once per process and path.

    ``task`` (e.g. "mondo-locator") checks the metadata says the model is for that job.
    """
    resolved = Path(path).resolve()
    session, metadata = _load_session(resolved)
    if task is not None and metadata.get("task") != task:
        raise ModelFileError(f"{resolved}: a {metadata.get('task')!r} model, not {task!r}")
    return session, metadata


@functools.lru_cache(maxsize=8)
def _load(path: Path) -> OnnxModel:
    session, metadata = _load_session(path)
    _check_heads(session, metadata, path)
    return OnnxModel(path, session, metadata)


def load_model(path: str | Path) -> OnnxModel:
    """The head model at ``path`` (inputs, heads from its metadata), loaded once per process and path."""
    return _load(Path(path).resolve())

"""The locator nets of the photo readers at run time: one ONNX session with its metadata, and one
pass of the net over a picture.

A locator (Mediterráneo's sea, Snorkeling's mats and pile) is a fully convolutional net whose
metadata says its input (name, multiple, mean, std) and its output maps (channels, stride); the
games differ only in what they make of the maps.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.onnx_model import load_session, models_dir


@dataclass(frozen=True, eq=False)
class LocatorModel:
    session: object
    meta: dict


def load_locator_model(path: str | None, model_name: str, task: str) -> LocatorModel:
    """The locator at `path`, else the shipped `model_name`; its metadata must name `task`."""
    session, meta = load_session(path or models_dir() / model_name, task=task)
    return LocatorModel(session, meta)


def darkened(image: np.ndarray, gamma: float) -> np.ndarray:
    """``image`` (uint8) with its tones raised to ``gamma``: above 1, an overexposed or washed-out
    photo's pale components stand out from the table again for a locator trained on photos as shot
    (a reader's last look, where the first found nothing sure)."""
    table = (np.linspace(0.0, 1.0, 256) ** gamma * 255.0 + 0.5).astype(np.uint8)
    return cv2.LUT(image, table)


def grey_world(image: np.ndarray) -> np.ndarray:
    """``image`` (uint8 BGR) with each channel scaled to the photo's mean grey: a colour cast, or a
    table in a terrain's own hue filling most of the frame, no longer tints every component alike."""
    means = image.reshape(-1, 3).mean(axis=0)
    gains = means.mean() / np.maximum(means, 1.0)
    return np.clip(image * gains, 0, 255).astype(np.uint8)


def channels_stretched(image: np.ndarray) -> np.ndarray:
    """``image`` (uint8 BGR) with each channel stretched from its 1st to its 99th percentile: a dim or
    hazy photo's few tones spread over the whole range (and a cast evened out on the way)."""
    flat = image.reshape(-1, 3)
    low, high = np.percentile(flat, 1, axis=0), np.percentile(flat, 99, axis=0)
    scale = 255.0 / np.maximum(high - low, 1.0)
    return np.clip((image - low) * scale, 0, 255).astype(np.uint8)


def run_locator(model: LocatorModel, picture: np.ndarray) -> np.ndarray:
    """(channels, h, w) maps of a picture at input scale (padded to the net's multiple, cut back)."""
    spec = model.meta["input"]
    h, w = picture.shape[:2]
    m = spec["multiple"]
    if -h % m or -w % m:
        picture = cv2.copyMakeBorder(picture, 0, -h % m, 0, -w % m, cv2.BORDER_REPLICATE)
    maps = model.session.run(None, {spec["name"]: net_input(picture, spec["mean"], spec["std"])})[0][0]
    stride = model.meta["outputs"]["maps"]["stride"]
    return maps[:, : -(-h // stride), : -(-w // stride)]


def net_input(picture: np.ndarray, mean, std) -> np.ndarray:
    """A locator's input from a BGR picture: (1, 3, h, w) float32 ``(picture - mean) / std``, in
    OpenCV's one pass where one std serves every channel (the same numbers as numpy's, in a fifth of
    its time: 4 ms on a zoomed look's 1.6 MP)."""
    std = np.broadcast_to(np.asarray(std, np.float64), (3,))
    if np.all(std == std[0]):
        mean = tuple(float(m) for m in np.broadcast_to(np.asarray(mean, np.float64), (3,)))
        return cv2.dnn.blobFromImage(picture, 1.0 / float(std[0]), mean=mean, swapRB=False)
    x = picture.astype(np.float32)
    x -= np.float32(mean)
    x /= np.float32(std)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])

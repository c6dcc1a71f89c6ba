"""The Mondo locator net and its two maps of a picture (see models/README.md, mondo-locator): the
ONNX session, the whole photo's maps at a chosen size (kept for the last photos), the net's map
pixels back in picture px, the occupied-cells map sampled over a lattice's cells, and the tile-centre
peaks. The geometry that turns the maps into islands is `vision.mondo.locate`'s."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.locator_net import channels_stretched, darkened, grey_world, net_input
from vision.mondo.lattice import apply_h
from vision.onnx_model import load_session, models_dir

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "mondo-locator.onnx"

PEAK_MIN = 0.15  # a tile-centre peak counts from this probability
CELLS_MIN = 0.5  # occupied-cells threshold


@dataclass(frozen=True, eq=False)
class LocatorModel:
    session: ort.InferenceSession
    meta: dict
    # the net sees every picture with its tones raised to this power (`vision.locator_net.darkened`):
    # 1, the photo as shot; above 1, the reader's darker look, below 1 its brighter one (`darker`)
    gamma: float = 1.0
    # ... and with its colours balanced first: "" as shot, else a key of BALANCES (`rebalanced`)
    balance: str = ""


# The reader's looks at a photo with its colours balanced (`rebalanced`), by name.
BALANCES = {"grey world": grey_world, "channels stretched": channels_stretched}


@lru_cache(maxsize=2)
def load_locator(path: str | None = None) -> LocatorModel:
    """The ONNX session (one thread: the reader runs one photo a core) and its "scorecam" metadata."""
    session, meta = load_session(path or models_dir() / MODEL_PATH.name, task="mondo-locator")
    return LocatorModel(session, meta)


@lru_cache(maxsize=8)
def darker(model: LocatorModel, gamma: float) -> LocatorModel:
    """`model` looking at every picture with its tones raised to `gamma` (a gamma under 1
    brightens); one object per model and gamma. The maps cache keys on the net's session and the
    look's tone, not on this object."""
    return replace(model, gamma=gamma)


@lru_cache(maxsize=8)
def rebalanced(model: LocatorModel, balance: str) -> LocatorModel:
    """`model` looking at every picture with its colours balanced by `BALANCES[balance]`; one object
    per model and balance, as `darker`."""
    if balance not in BALANCES:
        raise ValueError(f"no balance {balance!r}: one of {sorted(BALANCES)}")
    return replace(model, balance=balance)


Affine = tuple[float, float, float, float]  # map px -> picture px: x * ax + bx, y * ay + by


def net_maps(model: LocatorModel, picture: np.ndarray) -> tuple[np.ndarray, np.ndarray, Affine]:
    """Run the net on a picture already at input scale: (cells, centres) maps and map px -> picture px."""
    spec = model.meta["input"]
    if model.balance:
        picture = BALANCES[model.balance](picture)
    if model.gamma != 1.0:
        picture = darkened(picture, model.gamma)
    h, w = picture.shape[:2]
    m = spec["multiple"]
    pad_y, pad_x = -h % m, -w % m
    if pad_x or pad_y:
        picture = cv2.copyMakeBorder(picture, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
    maps = model.session.run(None, {spec["name"]: net_input(picture, spec["mean"], spec["std"])})[0][0]
    out = model.meta["outputs"]["maps"]
    stride, offset = out["stride"], out["offset"]
    hm, wm = -(-h // stride), -(-w // stride)  # the part that covers the picture, not the padding
    names = out["channels"]
    cells, centres = maps[names.index("cells"), :hm, :wm], maps[names.index("centres"), :hm, :wm]
    return cells, centres, (float(stride), float(stride), float(offset), float(offset))


def pass_sides(model: LocatorModel, image_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The long sides the whole photo is searched at (the model's metadata lists them; a finer pass
    only where the photo has the pixels for it): a small island's tiles are lost at the first."""
    spec = model.meta["input"]
    sides = spec.get("long_sides", [spec["long_side"]])
    top = max(image_shape[:2])
    return tuple(int(s) for s in sides if s == sides[0] or s <= top)


def photo_maps(
    model: LocatorModel, image: np.ndarray, long_side: int | None = None
) -> tuple[np.ndarray, np.ndarray, Affine]:
    """The maps of the whole photo, scaled to `long_side` (default: the model's input size); map px ->
    image px."""
    h, w = image.shape[:2]
    s = (long_side or model.meta["input"]["long_side"]) / max(h, w)
    size = (max(1, round(w * s)), max(1, round(h * s)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    cells, centres, (ax, ay, bx, by) = net_maps(model, small)
    sx, sy = size[0] / w, size[1] / h
    # input px -> image px: (p + 0.5) / s - 0.5 (cv2.resize keeps pixel centres)
    return cells, centres, (ax / sx, ay / sy, (bx + 0.5) / sx - 0.5, (by + 0.5) / sy - 0.5)


def map_to_image(pts: np.ndarray, affine: Affine) -> np.ndarray:
    ax, ay, bx, by = affine
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    return np.column_stack([p[:, 0] * ax + bx, p[:, 1] * ay + by])


@dataclass(frozen=True, eq=False)
class CellsMap:
    """The occupied-cells map and its map px -> picture px affine."""

    values: np.ndarray
    affine: Affine

    def occupancy(self, g: np.ndarray, lattice: np.ndarray) -> np.ndarray:
        """Mean of the map over the middle (0.6 x 0.6 cell) of each lattice cell, `g` mapping picture
        px -> lattice: about 1 under a tile, low on the table. A tile-like pattern on the table (a
        stripe, a printed card) makes a peak the lattice may take in, but no occupied cell."""
        if not len(lattice):
            return np.zeros(0)
        offs = np.stack(np.meshgrid(np.linspace(-0.3, 0.3, 5), np.linspace(-0.3, 0.3, 5)), -1).reshape(-1, 2)
        pts = apply_h(np.linalg.inv(g), (np.asarray(lattice, float)[:, None, :] + offs).reshape(-1, 2))
        ax, ay, bx, by = self.affine
        mx = ((pts[:, 0] - bx) / ax).astype(np.float32).reshape(1, -1)
        my = ((pts[:, 1] - by) / ay).astype(np.float32).reshape(1, -1)
        vals = cv2.remap(
            self.values.astype(np.float32, copy=False), mx, my, cv2.INTER_LINEAR, borderValue=0.0
        )
        return vals.reshape(len(lattice), -1).mean(1)


def find_peaks(heat: np.ndarray, threshold: float = PEAK_MIN) -> np.ndarray:
    """Local maxima of `heat` above `threshold`: (N, 2) sub-pixel xy, map px."""
    dilated = cv2.dilate(heat, np.ones((5, 5), np.uint8))
    ys, xs = np.nonzero((heat >= dilated) & (heat > threshold))
    h, w = heat.shape
    inner = (xs > 0) & (xs < w - 1) & (ys > 0) & (ys < h - 1)
    dx, dy = np.zeros(len(xs)), np.zeros(len(xs))
    xi, yi = xs[inner], ys[inner]
    c = heat[yi, xi].astype(np.float64)
    # a parabola through the peak and its neighbours, per axis
    left, right = heat[yi, xi - 1], heat[yi, xi + 1]
    up, down = heat[yi - 1, xi], heat[yi + 1, xi]
    with np.errstate(divide="ignore", invalid="ignore"):
        dx[inner] = np.clip(np.nan_to_num(0.5 * (left - right) / (left - 2 * c + right)), -0.5, 0.5)
        dy[inner] = np.clip(np.nan_to_num(0.5 * (up - down) / (up - 2 * c + down)), -0.5, 0.5)
    return np.column_stack([xs + dx, ys + dy])


_MAPS_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray, Affine]] = {}


def cached_photo_maps(
    model: LocatorModel, image: np.ndarray, long_side: int
) -> tuple[np.ndarray, np.ndarray, Affine]:
    """`photo_maps`, kept for the last photos: the reader locates a doubtful island again with the
    other grid size, on the same maps (the key samples the pixels, not only the buffer's address)."""
    key = (
        id(model.session),  # the net and its look at the photo (a model object may be made again)
        model.gamma,
        model.balance,
        image.__array_interface__["data"][0],
        image.shape,
        long_side,
        image[::97, ::89].tobytes(),
    )
    if key not in _MAPS_CACHE:
        if len(_MAPS_CACHE) >= 6:
            _MAPS_CACHE.clear()
        _MAPS_CACHE[key] = photo_maps(model, image, long_side)
    return _MAPS_CACHE[key]

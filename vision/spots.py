"""Rectangles seen in a photo (a card, a mat, a card's corner box) and the upright crops cut round
them, for every reader that reads cards lying at any angle (Snorkeling's mats and cards, Mediatore's
corner boxes). The same functions cut a game's training crops and its reader's, so a model sees at
run time exactly what it learnt from.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.photo_io import Photo


@dataclass(frozen=True)
class Spot:
    """A rectangle seen in a photo: centre (x, y) in px, long side in px, and the direction of its long
    axis in degrees (image coordinates, y down; a spot and the same spot turned 180 degrees are one)."""

    x: float
    y: float
    long: float
    angle: float

    def scaled(self, factor: float) -> Spot:
        return Spot(self.x * factor, self.y * factor, self.long * factor, self.angle)


def quarter_turn_apart(a: float, b: float) -> float:
    """How far apart two axes are, in degrees (0 to 45), a quarter turn counting as none: an axis
    found from a box's edges may be its length or its width."""
    return abs((a - b + 45.0) % 90.0 - 45.0)


def moved(s: Spot, along: float, across: float, angle: float) -> Spot:
    """``s`` moved ``along`` and ``across`` its own axis (in its long sides), turned to ``angle``."""
    a = math.radians(s.angle)
    x = s.x + (along * math.cos(a) - across * math.sin(a)) * s.long
    y = s.y + (along * math.sin(a) + across * math.cos(a)) * s.long
    return Spot(x, y, s.long, angle)


def spot_of(points: np.ndarray) -> Spot:
    """The smallest rotated rectangle around ``points`` (a quad's corners, a region's pixels)."""
    return spot_and_short(points)[0]


def spot_and_short(points: np.ndarray) -> tuple[Spot, float]:
    """``spot_of(points)`` and the rectangle's short side, from one fit."""
    (x, y), (w, h), angle = cv2.minAreaRect(np.asarray(points, np.float32).reshape(-1, 1, 2))
    if w < h:  # OpenCV's angle is that of the side it calls width
        angle += 90.0
    return Spot(float(x), float(y), float(max(w, h)), float(angle)), float(min(w, h))


def crop_square(image: np.ndarray, spot: Spot, size: int, span: float) -> np.ndarray:
    """The ``size`` x ``size`` crop around ``spot``, its long axis upright, ``span`` long sides wide."""
    a = math.radians(spot.angle)
    u = np.array([math.cos(a), math.sin(a)])  # the long axis: the crop's down
    v = np.array([-math.sin(a), math.cos(a)])  # across it: the crop's right
    k = span * spot.long / size  # image px per crop px
    t = np.array([spot.x, spot.y]) - (size / 2 - 0.5) * k * (u + v)
    inverse = np.array([[k * v[0], k * u[0], t[0]], [k * v[1], k * u[1], t[1]]], np.float64)
    return cv2.warpAffine(
        image,
        inverse,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def spot_crops(
    fine: np.ndarray,
    spots: list[Spot],
    crop: Callable[[np.ndarray, Spot, int, float], np.ndarray],
    size: int,
    span: float,
    k_range: tuple[float, float],
) -> np.ndarray:
    """``crop`` of each spot (in px of ``fine``), cut from the region round it; a region with more than
    ``k_range[1]`` px per crop px is first shrunk into the range (no aliasing in the warp)."""
    k_lo, k_hi = k_range
    crops = []
    for s in spots:
        half = int(span * s.long * 0.75) + 4
        # the region round the spot, at least one px of the image (a spot beyond its edge, as a
        # mat's header may be, is cut from the edge's pixels, as the warp's border repeats them)
        x0 = min(max(0, int(s.x) - half), fine.shape[1] - 1)
        y0 = min(max(0, int(s.y) - half), fine.shape[0] - 1)
        region = fine[y0 : max(y0 + 1, int(s.y) + half), x0 : max(x0 + 1, int(s.x) + half)]
        local = Spot(s.x - x0, s.y - y0, s.long, s.angle)
        k = span * s.long / size
        if k > k_hi and min(region.shape[:2]) * (k_lo + k_hi) / 2 / k >= 2:
            shrink = (k_lo + k_hi) / 2 / k
            region = cv2.resize(region, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
            local = local.scaled(shrink)
        crops.append(crop(region, local, size, span))
    return np.stack(crops) if crops else np.zeros((0, size, size, 3), np.uint8)


def decoded_crops(
    photo: Photo,
    spots: list[Spot],
    crop: Callable[[np.ndarray, Spot, int, float], np.ndarray],
    size: int,
    span: float,
    k_range: tuple[float, float],
    long: float | None = None,
) -> np.ndarray:
    """``crop`` of each spot (view px of ``photo``), cut from the coarsest decode of the photo (the
    fastest) that still has ``k_range[0]`` full-size px or more per crop px at the spots' median size
    (or at ``long``, view px): libjpeg's 1/1, 1/2, 1/4, 1/8 give k in [k_lo, 2 k_lo), shrunk into
    ``k_range`` where past it."""
    if not spots:
        return np.zeros((0, size, size, 3), np.uint8)
    long = float(np.median([s.long for s in spots])) if long is None else long
    wanted = span * long * photo.scale / size  # full-size px per crop px
    fine, fine_scale = photo.at_scale(max(1.0, wanted / k_range[0]))
    to_fine = photo.scale / fine_scale
    return spot_crops(fine, [s.scaled(to_fine) for s in spots], crop, size, span, k_range)


def half_turn_average(
    run: Callable[[np.ndarray], dict[str, np.ndarray]], crops: np.ndarray
) -> dict[str, np.ndarray]:
    """``run``'s probabilities per head, each crop averaged with itself turned half round (a card or a
    corner box and the same one turned 180 degrees are one spot)."""
    n = len(crops)
    out = run(np.ascontiguousarray(np.concatenate([crops, crops[:, ::-1, ::-1]])))
    return {name: (p[:n] + p[n:]) / 2 for name, p in out.items()}

"""What the photo itself says about a corner box the locator found: its axis, from the straight edges
round it, and its size, from the corners around it that were read surely.

The locator's regions are small (a box of 30-60 px at stride 2, shrunk, is a region of a few map pixels), so
the axis and long side their moments give are rough: on the development photos the axis is more
than 10 degrees off for a fifth of the corners that show, the size more than 10% off for half. A
corner box lies in a card's corner, its sides along the card's edges, and the index and symbol in it
are drawn upright: the straight edges round a box run along its axis or across it. The mean
direction of the image gradients round the box, taken four times round (a direction, the one across
it and both turned half round are one), gives the axis to a quarter turn, which the reader settles by
reading the crop both ways. Cards in one photo are one size, changing slowly across it with the
view: the long side of a box is taken from the corners near it that were read surely.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.mediatore.crops import Spot, crop_corner
from vision.photo_io import Photo
from vision.spots import decoded_crops

AXIS_CROP = 64  # px: the square round a box whose gradients give its axis
AXIS_SPAN = 1.5  # ... this many box long sides wide
AXIS_SIGMA = 0.35  # the gradients weighed by a Gaussian round the box's centre, sigma in crop widths
LARGE = 2.0  # spots this many times the median size are left out of the decode's size (``typical_long``)
NEIGHBOURS = 5  # a box's long side: the median of this many nearest corners read surely


def _quarter_turn_offsets(crops: np.ndarray) -> np.ndarray:
    """Per crop (N, S, S, 3 BGR), the dominant direction of its edges modulo 90 degrees, in degrees of
    the crop's own frame (-45 to 45): gradient directions weighed by their squared magnitude and a
    Gaussian round the centre, averaged four times round."""
    n = crops.shape[1]
    yy, xx = np.mgrid[:n, :n] - (n - 1) / 2.0
    window = np.exp(-(xx**2 + yy**2) / (2.0 * (AXIS_SIGMA * n) ** 2)).astype(np.float32)
    out = np.zeros(len(crops))
    for i, crop in enumerate(crops):
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        w = (gx * gx + gy * gy) * window
        theta = np.arctan2(gy, gx)
        out[i] = np.degrees(np.arctan2((w * np.sin(4 * theta)).sum(), (w * np.cos(4 * theta)).sum()) / 4.0)
    return out


def typical_long(spots: list[Spot]) -> float | None:
    """The spots' median long side, leaving out those LARGE times it or more (boxes of cards near the
    camera that only a coarse look found): the size the photo is decoded for, so that a few large
    spots never make the others' decode coarser (they are shrunk to fit); None without spots."""
    if not spots:
        return None
    longs = np.array([s.long for s in spots])
    return float(np.median(longs[longs < LARGE * np.median(longs)]))


def refine_axes(photo: Photo, spots: list[Spot]) -> list[Spot]:
    """Each spot (view px) with its axis turned onto the straight edges round it (within 45 degrees;
    the reader also reads it a quarter turn round)."""
    if not spots:
        return []
    crops = decoded_crops(photo, spots, crop_corner, AXIS_CROP, AXIS_SPAN, (0.7, 1.6), typical_long(spots))
    # the crop's x runs across the axis and its y along it: a mirror of the photo, so an edge turned
    # by +a in the crop is turned by -a in the photo
    return [
        replace(s, angle=s.angle - float(a)) for s, a in zip(spots, _quarter_turn_offsets(crops), strict=True)
    ]


def local_long(spot: Spot, sure: list[Spot]) -> float | None:
    """The long side of a box at ``spot``: the median of its NEIGHBOURS nearest surely read corners
    (None without any)."""
    if not sure:
        return None
    xy = np.array([[s.x, s.y] for s in sure])
    d = np.hypot(xy[:, 0] - spot.x, xy[:, 1] - spot.y)
    nearest = np.argsort(d)[:NEIGHBOURS]
    return float(np.median([sure[i].long for i in nearest]))

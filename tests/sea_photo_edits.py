"""Sample sea photos edited for tests: an objective card hidden (painted over with the table around it)
or partly cropped away by the photo's edge, from the card corners in the photo's truth JSON; part of
one cell painted over."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np


def truth_of(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


def objective_corners(photo: Path) -> dict[str, np.ndarray]:
    """Each player's objective card corners in the photo (px)."""
    return {c["player"]: np.array(c["corners"]) for c in truth_of(photo)["cards"] if c["role"] == "objective"}


def hide_objective_cards(photo: Path, out: Path, players: tuple[str, ...] = ("circle", "square")) -> Path:
    """The photo with these players' objective cards painted over in the colour of the table around
    each (a little beyond its outline, so that no edge of it is left)."""
    image = cv2.imread(str(photo))
    for player in players:
        quad = objective_corners(photo)[player]
        middle = quad.mean(0)
        grown = ((quad - middle) * 1.08 + middle).astype(np.int32)
        band = ((quad - middle) * 1.2 + middle).astype(np.int32)
        inner = np.zeros(image.shape[:2], np.uint8)
        outer = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(inner, [grown], 255)
        cv2.fillPoly(outer, [band], 255)
        table = np.median(image[(outer > 0) & (inner == 0)], axis=0)
        image[inner > 0] = table.astype(np.uint8)
    cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return out


def cut_off_objective_card(photo: Path, out: Path, player: str, share: float = 0.25) -> Path | None:
    """The photo cropped at one of its edges so that about `share` of this player's objective card is
    cut away while every sea card and the other objective card stay whole; None when no edge can."""
    image = cv2.imread(str(photo))
    h, w = image.shape[:2]
    cards = truth_of(photo)["cards"]
    card = objective_corners(photo)[player]
    keep = np.concatenate(
        [np.array(c["corners"]) for c in cards if c["role"] == "sea" or c.get("player") not in (None, player)]
    )
    lo, hi = card.min(0), card.max(0)
    for axis in (0, 1):
        cut_low = lo[axis] + share * (hi[axis] - lo[axis])  # keep what lies above this coordinate
        if keep[:, axis].min() > cut_low + 2:
            crop = image[:, int(cut_low) :] if axis == 0 else image[int(cut_low) :]
            cv2.imwrite(str(out), crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
            return out
        cut_high = hi[axis] - share * (hi[axis] - lo[axis])  # keep what lies below this coordinate
        if keep[:, axis].max() < cut_high - 2:
            crop = image[:, : int(cut_high)] if axis == 0 else image[: int(cut_high)]
            cv2.imwrite(str(out), crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
            return out
    return None


def paint_over_cell(photo: Path, out: Path, quad: np.ndarray, share: float) -> Path:
    """The photo with the first `share` of a cell (`quad`: its corners in photo px, in the lattice's
    order NW NE SE SW) from its west side painted in that part's median colour: half an animal."""
    image = cv2.imread(str(photo))
    nw, ne, se, sw = np.asarray(quad, np.float64)
    part = np.array([nw, nw + (ne - nw) * share, sw + (se - sw) * share, sw]).astype(np.int32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [part], 255)
    image[mask > 0] = np.median(image[mask > 0], axis=0).astype(np.uint8)
    cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return out

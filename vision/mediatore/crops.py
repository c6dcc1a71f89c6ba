"""Where the Mediatore reader looks: a card's corner box (rank index above suit symbol) as a Spot, and
the upright square crop around it that the corner model reads.

The same functions cut the training crops (``vision.training.mediatore_data``) and the reader's, so
the model sees at run time what it learnt from. The geometry (Spot, minAreaRect, the upright crop)
is the Snorkeling reader's.
"""

from __future__ import annotations

import numpy as np

from vision.spots import Spot, crop_square, spot_of

__all__ = ["BOX_SHRINK", "CORNER_SPAN", "Spot", "box_spot", "crop_corner", "crop_square", "spot_of"]

CORNER_MM = (13.0, 27.0)  # the kit's corner box (vision/synth/mediatore_art.CORNER_MM)
CARD_MM = (58.0, 90.0)
BOX_SHRINK = 0.6  # the locator's corner regions: each box shrunk about its centre by this much
CORNER_SPAN = 1.25  # crop side over the corner box's long side
# from one corner box's centre to the other's of the same card, in box long sides (card-local mm:
# (6.5, 13.5) and (51.5, 76.5))
PAIR_DISTANCE = float(np.hypot(CARD_MM[0] - CORNER_MM[0], CARD_MM[1] - CORNER_MM[1]) / CORNER_MM[1])
# ... along the card's diagonal between them, this many degrees off the boxes' axis (the card's length)
PAIR_ANGLE = float(np.degrees(np.arctan2(CARD_MM[0] - CORNER_MM[0], CARD_MM[1] - CORNER_MM[1])))


def box_spot(quad: np.ndarray) -> Spot:
    """A corner box's quad (4 points) as a Spot: centre, long side, axis."""
    return spot_of(np.asarray(quad, np.float32))


def crop_corner(image: np.ndarray, spot: Spot, size: int, span: float = CORNER_SPAN) -> np.ndarray:
    return crop_square(image, spot, size, span)

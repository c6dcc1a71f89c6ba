"""A grainy photo's finer views softened before the Mediatore reader looks closely at them.

In dim light a phone lifts the picture, and its sensor grain with it. Far from the camera a card's
rank index is 8-15 px tall in the photo, and where the zoomed look and the corner crops take it
from the full-size decode, the grain is as large as the index's strokes: the locator then finds
few of the corners and the corner model reads fewer of them. Softened by a Gaussian of about one
full-size px, most of the grain goes and the strokes stay. Measured on the simulated dim photos of
the development and spent stress sets (seeds 9671, 9685, 9687, 9695; 169 photos, their finer views
softened by 0.7, 1.0 and 1.3 px: 3,318, 3,324 and 3,306 of their 3,383 legible cards read right,
against 3,279 as decoded; most of the gain in two rows of tiny fans, 9695-00022 and 00149).

Only a grainy photo is softened. On the others the softening changed a few readings each way and
lost overexposed cards (a washed-out index loses what contrast it has), and what counts is the
grain the full-size decode still holds: a phone's JPEG often smooths the grain of flat areas away,
and a table's fine texture (stone, a print) looks like grain in the reduced view but is smooth at
full size. So the grain (``grain``) is measured on the view first, which is cheap and leaves most
photos out, and where it reaches GRAIN_MIN there, again on the full-size decode (which the reader
mostly needs for such photos' small cards anyway; it is kept for them).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.photo_io import Photo

SOFTEN_PX = 1.0  # the Gaussian's sigma, full-size px
# full-size grey levels. The simulator's dim light adds a grain of 5-11 before the phone's sharpening
# and JPEG (``PhotoStyle.noise``), its other lights 0.6-2.4. On 450 photos of 9684, 9687 and 9695
# the view's measure gave dim photos 5.0-15.3 (5th percentile 5.6), the others mostly under 5.6 but
# up to 30 on stone, patterned and printed tables, which the full-size decode's gives 0.2-4.1. Of the
# development photos the softening changed, most it helped had a full-size grain of 7 or more
# (9695-00022 and 00149: 13.8, 12.2; one left out, 9671-00089 at 4.7, three cards more softened),
# most it harmed under 3 (stone and patterned tables), and one just over 6 lost (9687-00111, 6.2:
# three cards fewer)
GRAIN_MIN = 6.0
_SECOND_DIFFERENCES = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
_BLOCK = 8  # px: the grain is measured on the flattest quarter of blocks this size
_WINDOW = 2048  # px: the full-size decode is measured on its middle, at most this large


def grain_of(image: np.ndarray) -> float:
    """The grain of ``image`` in its own px (grey levels): the standard deviation of white noise that
    would leave its second differences (Immerkaer's mask, which a smooth picture leaves near zero)
    as large as they are on the flattest quarter of its 8 px blocks (edges and textures set aside)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    second = np.abs(cv2.filter2D(grey, -1, _SECOND_DIFFERENCES))[1:-1, 1:-1]
    h, w = (n // _BLOCK * _BLOCK for n in second.shape)
    if h == 0 or w == 0:
        return 0.0
    blocks = second[:h, :w].reshape(h // _BLOCK, _BLOCK, w // _BLOCK, _BLOCK).mean(axis=(1, 3)).ravel()
    flattest = np.sort(blocks)[: max(1, len(blocks) // 4)]
    # E|N * x| = sqrt(2 / pi) * 6 * sigma for white noise x of standard deviation sigma (|N| = 6)
    return float(flattest.mean() * np.sqrt(np.pi / 2.0) / 6.0)


def grain(photo: Photo) -> float:
    """The photo's sensor grain, full-size grey levels: measured on the view (a reduced decode
    averages the grain of scale x scale px, so times the view's scale) and, where that reaches
    GRAIN_MIN, on the middle of the full-size decode, whose measure it then is."""
    seen = grain_of(photo.image) * photo.scale
    if seen < GRAIN_MIN:
        return seen
    full, scale = photo.at_scale(1.0)
    if full is photo.image:
        return seen
    h, w = full.shape[:2]
    y, x = max(0, (h - _WINDOW) // 2), max(0, (w - _WINDOW) // 2)
    return grain_of(full[y : y + _WINDOW, x : x + _WINDOW]) * scale


def softened(photo: Photo) -> Photo:
    """``photo`` with its finer views softened by SOFTEN_PX where it is grainy, else itself."""
    if photo.soften or grain(photo) < GRAIN_MIN:
        return photo
    return photo.with_soften(SOFTEN_PX)

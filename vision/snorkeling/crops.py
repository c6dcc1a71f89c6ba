"""Where the Snorkeling reader looks: a mat's (or a card's) centre, long side and axis (a
`vision.spots.Spot`), and the upright square crop around it that the card model reads.

The same functions cut the training crops (``vision.training.snorkeling_data``) and the reader's,
so the model sees at run time exactly what it learnt from.
"""

from __future__ import annotations

import numpy as np

from vision.onnx_model import OnnxModel
from vision.photo_io import Photo
from vision.spots import Spot, crop_square, half_turn_average, spot_crops, spot_of

__all__ = [
    "CARD_MM",
    "CARD_PER_MAT",
    "MAT_MM",
    "Spot",
    "crop_square",
    "half_turn_average",
    "spot_crops",
    "spot_of",
]

MAT_MM = (90.0, 125.0)  # the kit's diver mat and card (vision/catalogs/snorkeling.json)
CARD_MM = (59.0, 86.0)
CARD_PER_MAT = CARD_MM[1] / MAT_MM[1]  # a card's long side over a mat's


def card_crops(photo: Photo, spots: list[Spot], model: OnnxModel, mat_long: float) -> np.ndarray:
    """Each spot's crop, cut from a decode of the photo fine enough for the model (``crop_k``)."""
    size = model.input_size
    span = float(model.metadata["input"]["crop_span"])
    k_lo, k_hi = (float(v) for v in model.metadata["input"]["crop_k"])
    # full-size px per crop px at the mats' size; the coarsest decode (the fastest) whose px per crop
    # px stay within what the model learnt from: libjpeg's 1/1, 1/2, 1/4 give k in [k_hi / 2, k_hi)
    wanted = span * mat_long * photo.scale / size
    fine, fine_scale = photo.at_scale(max(1.0, wanted * k_hi))
    to_fine = photo.scale / fine_scale
    return spot_crops(fine, [spot.scaled(to_fine) for spot in spots], crop_square, size, span, (k_lo, k_hi))

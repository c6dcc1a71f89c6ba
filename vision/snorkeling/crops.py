"""Where the Snorkeling reader looks: a mat's (or a card's) centre, long side and axis (a
`vision.spots.Spot`), and the upright square crop around it that the card model reads.

The same functions cut the training crops (``vision.training.snorkeling_data``) and the reader's,
so the model sees at run time exactly what it learnt from.
"""

from __future__ import annotations

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

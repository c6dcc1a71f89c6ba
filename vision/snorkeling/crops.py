"""Where the Snorkeling reader looks: a mat's (or a card's) centre, long side and axis (a
`vision.spots.Spot`), and the upright square crop around it that the card model reads.

The same functions cut the training crops (``vision.training.snorkeling_data``) and the reader's,
so the model sees at run time exactly what it learnt from.
"""

from __future__ import annotations

import numpy as np

from vision.onnx_model import OnnxModel
from vision.photo_io import Photo
from vision.spots import Spot, crop_square, decoded_crops, half_turn_average, spot_crops, spot_of

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


# The mat's header (vision/synth/snorkeling_art.render_mat): its number in a disc in both top corners,
# drawn 12.5 mm tall. The card model sees a whole mat in its crop, the numerals ~7 px tall, and tells
# the look-alike colours (orange 1 / yellow 4, sky 2 / blue 5) apart by colour alone, which faded
# prints and coloured light shift; the header model reads the numeral's shape, ~20 px tall.
HEADER_DISC_MM = (14.0, 15.0)  # a disc's centre from the mat's top-left corner (the other mirrored)
HEADER_DISC_R_MM = 10.2
HEADER_ALONG = (MAT_MM[1] / 2 - HEADER_DISC_MM[1]) / MAT_MM[1]  # from the mat's centre, in mat lengths
HEADER_ACROSS = (MAT_MM[0] / 2 - HEADER_DISC_MM[0]) / MAT_MM[1]
# a disc's crop side, in mat lengths: twice the disc, as the mat's spot is rough (a region's
# rectangle, a mat seen at a slant)
HEADER_SPAN = 2.0 * 2 * HEADER_DISC_R_MM / MAT_MM[1]


def header_spots(mat: Spot) -> list[Spot]:
    """The four places a mat's header discs may lie, each as a spot whose crop (``span`` =
    HEADER_SPAN, its long side the mat's) shows the numeral upright: both ends of the mat (its
    axis has no way up: the end away from the header shows the pile and the mat's pattern), both
    corners of each. In the order: the end along the axis (left, right), then the other end."""
    a = np.radians(mat.angle)
    u = np.array([np.cos(a), np.sin(a)])
    v = np.array([-np.sin(a), np.cos(a)])
    out = []
    for end in (1.0, -1.0):
        centre = np.array([mat.x, mat.y]) + end * HEADER_ALONG * mat.long * u
        # the crop's down is its spot's axis: away from the header, towards the mat's centre
        angle = mat.angle + (180.0 if end > 0 else 0.0)
        for side in (-1.0, 1.0):
            x, y = centre + side * HEADER_ACROSS * mat.long * v
            out.append(Spot(float(x), float(y), mat.long, angle))
    return out


def header_crops(photo: Photo, mats: list[Spot], model: OnnxModel) -> np.ndarray:
    """The four header crops of each mat (``header_spots``, view px), 4 x len(mats) of them, cut
    from the coarsest decode with the model's ``crop_k[0]`` photo px per crop px or more (its
    metadata says how soft a crop it reads as well as a sharp one)."""
    span = float(model.metadata["input"]["crop_span"])
    k_range = tuple(float(v) for v in model.metadata["input"]["crop_k"])
    spots = [s for m in mats for s in header_spots(m)]
    return decoded_crops(photo, spots, crop_square, model.input_size, span, k_range)

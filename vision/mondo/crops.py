"""Where a reader cuts its crops of a Mondo island's cells: the reduced view of the photo, or a finer
decode of it where the cells are small there.

The photo is decoded at reduced size to be searched; a small island's cells span few pixels of that
view, so its crops come from the photo's own pixels at the resolution the crops need (libjpeg's
scaled decodes: `vision.photo_io.Photo.at_scale`), never from an enlarged reduced view.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.geometry import median

# Cut crops from a finer decode of the photo when a cell spans less than this share of its crop's
# size in the reduced view (the models learnt crops shrunk, hardly ever enlarged).
FINER_BELOW = 0.9
# share -> (the photo at about `share` times the px per cell, px of the reduced view per its px)
Finer = Callable[[float], tuple[np.ndarray, float]]


def crop_source(
    image: np.ndarray, cell_quads: np.ndarray, size: int, margin: float, finer: Finer | None
) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """The picture to cut crops of `size` px from, and how quads in px of `image` map into its px:
    the photo itself at the resolution the crops need where `finer` can give it, so a small island
    is read from the photo's own pixels, not from an enlarged reduced view."""
    side = float(median(np.hypot(*(cell_quads[:, 1] - cell_quads[:, 0]).T)))
    need = size / (1 + 2 * margin)  # px a cell spans in its crop
    if finer is None or side >= FINER_BELOW * need:
        return image, lambda quads: quads
    picture, k = finer(side / need)  # k: px of `image` per px of `picture`
    r = 1.0 / k
    return picture, lambda quads: ((quads + 0.5) * r - 0.5).astype(np.float32)

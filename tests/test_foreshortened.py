"""The reader's last look at a steep tilt (vision.mondo.foreshortened): the islands found in the photo
stretched along its height are placed back in the photo's own pixels. A photo squashed along its
height by the stretch (a steeper tilt's foreshortening) gives back, stretched, the grid the
unsquashed photo gave, squashed."""

import cv2
import numpy as np
import pytest

from vision.mondo.foreshortened import TALL, foreshortened_islands
from vision.mondo.locate import locate_islands


@pytest.mark.parametrize("index", [0, 3, 5])
def test_islands_found_stretched_are_placed_back_in_the_photo(root, index):
    photo = cv2.imread(str(sorted((root / "samples/mondo").glob("*.jpg"))[index]))
    k = 1000 / max(photo.shape[:2])
    photo = cv2.resize(photo, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    height = round(photo.shape[0] / TALL)
    squashed = cv2.resize(photo, (photo.shape[1], height), interpolation=cv2.INTER_AREA)
    (plain, *_) = locate_islands(photo).islands
    (found, *_) = foreshortened_islands(squashed)
    assert found.grid == plain.grid
    expected = np.array(plain.cell_quads, np.float64)
    expected[..., 1] = (expected[..., 1] + 0.5) * height / photo.shape[0] - 0.5
    cell = np.sqrt(abs(cv2.contourArea(plain.quad))) / plain.grid
    # the same cells, in the same reading order up to a turn of the grid
    g = plain.grid
    turns = [np.rot90(found.cell_quads.reshape(g, g, 4, 2), t).reshape(-1, 4, 2) for t in range(4)]
    error = min(np.abs(np.roll(q, s, axis=1) - expected).max() for q in turns for s in range(4))
    assert error < 0.05 * cell

"""A look at a photo in which the Mondo reader found no island (or several, or one it doubts): is
it a Mediterráneo sea instead? Then it is read as one (or the player is told so), not "no island".

Two looks. `sea_located`, the sea locator itself: a sea is a lattice of card cells, so it takes
one where the locator sees the centres of at least SEA_SEEN_CELLS cells sitting on their lattice
within SEA_LATTICE_DOUBT of a cell. On 100 everyday and 100 stress sea photos (seeds 9633, 9634)
it takes 99 and 96, and none of 200 Mondo photos (seeds 9010 and the stress 9507: the most seen
there, 9 centres on a tight lattice or 14 on a loose one). It is the look that keys on structure;
the cheap one below keys on colour, and misses seas under a colour cast or of faded cards.

A Mediterráneo sea card is sea blue with six cells on it, each a framed animal; in a mask of the
sea's blue the cells are holes: compact, of one size, several to a card, and the blue around them
is about as large as they are. Mondo's water is the same blue, but its holes are rare (an island's
land meets the table somewhere), and tiles on a blue table are holes in a blue far larger than
they are. Measured on simulated photos at 1000 px (seeds 7100-7400 and the samples): 39 of 40
everyday seas and 15 of 20 stress seas found, none of 78 Mondo photos taken for a sea.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 640  # px, long side: a cell is still 15 px or more
SEA_HUE_DEG = (188.0, 228.0)  # the cards' sea blue (#2f86c4 .. #1c5f99) under everyday light
MIN_SATURATION, MIN_VALUE = 110, 60  # of 255
MIN_HOLE_PX = 30
MIN_FILL, MAX_ASPECT = 0.55, 1.6  # a framed cell seen in perspective; not a wave line
MAX_BLUE_PER_HOLE = 40.0  # blue area per hole area: a card ~5-30, tiles on a blue table ~200+
MIN_CELLS = 5


def sea_cells(image: np.ndarray) -> int:
    """How many Mediterráneo-like cells the photo (BGR) shows."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV_FULL)
    hue = hsv[..., 0].astype(np.float32) * (360.0 / 256.0)
    blue = (
        (hue > SEA_HUE_DEG[0])
        & (hue < SEA_HUE_DEG[1])
        & (hsv[..., 1] > MIN_SATURATION)
        & (hsv[..., 2] > MIN_VALUE)
    ).astype(np.uint8)
    _, blue_labels, blue_stats, _ = cv2.connectedComponentsWithStats(blue, connectivity=8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - blue, connectivity=4)
    height, width = blue.shape
    holes: dict[int, list[int]] = {}  # blue component -> areas of the holes it encloses
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + bw >= width or y + bh >= height or area < MIN_HOLE_PX:
            continue  # touches the frame: table, not a hole
        if area / (bw * bh) < MIN_FILL or max(bw, bh) / min(bw, bh) > MAX_ASPECT:
            continue
        row = y + bh // 2
        left = int(np.argmax(labels[row] == i))
        owner = int(blue_labels[row, left - 1]) if left > 0 else 0
        if owner:
            holes.setdefault(owner, []).append(area)
    return sum(
        len(areas)
        for owner, areas in holes.items()
        if blue_stats[owner, cv2.CC_STAT_AREA] / sum(areas) < MAX_BLUE_PER_HOLE
    )


def looks_like_mediterraneo(image: np.ndarray) -> bool:
    return sea_cells(image) >= MIN_CELLS


SEA_SEEN_CELLS = 12
SEA_LATTICE_DOUBT = 0.1  # cells: the mean distance of the centres seen from their lattice points


def sea_located(photo) -> bool:
    """Whether the Mediterráneo sea locator finds a sea in `photo` (a vision.photo_io.Photo)."""
    from vision.errors import PhotoError
    from vision.mediterraneo.locate import locate_sea

    try:
        found, _ = locate_sea(photo)
    except PhotoError:
        return False
    return int(found.seen.sum()) >= SEA_SEEN_CELLS and found.lattice_doubt <= SEA_LATTICE_DOUBT

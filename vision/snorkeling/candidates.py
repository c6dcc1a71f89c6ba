"""Where on each region of the mats map the card model looks for a mat.

A region is a mat with its pile, but its outline can mislead: cards peeking out or a blob-shaped
region turn its long axis a quarter round, and a hand of cards or a second mat touching it moves
its centre off the mat. So each region is read at its centre along both axes, and a region longer
than a mat also at its two ends; the spots the card model reads most surely as mats are kept,
never two on one mat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.snorkeling.crops import Spot

TURNS = (0.0, 90.0)  # the region's own axis, and across it
LONG_REGION = 1.35  # mat lengths: a region this long may hold a mat at one end (a hand beside it, two mats)
FAR_APART = 4.0  # mat lengths: every diver's mat lies nearer than this to another (3.3 at most in 1,481)
MIN_APART = 0.6  # mat lengths: two mats' centres lie at least this far apart (a mat is 0.72 as wide as long)
NOT_A_MAT = 0.5  # a region the card model reads as "not a mat" with this probability is dropped
# a region from OWN_SIZE[0] to OWN_SIZE[1] of the mats' common length is read at its own size: a table
# seen at a slant shows near mats larger than far ones (down to half the size in one photo), and the
# card model learnt each mat at its own size; a shorter region (part of a mat) or a longer one (a mat
# and a hand) is read at the common size
OWN_SIZE = (0.6, 1.3)
REGION_OVER_MAT = 1.07  # a region's long side over its mat's (the pile's cards peek out)


@dataclass(frozen=True)
class Candidate:
    spot: Spot  # at its region's size (``OWN_SIZE``), else the mats' common size
    region: int  # which region of the map it comes from
    own: bool  # the region's own centre and axis
    weak: bool  # a region the net was unsure of
    own_size: bool = False  # read at its region's size (``OWN_SIZE``), not the mats' common one

    @property
    def plain(self) -> bool:
        """The spot of a region the net is sure of, where it lies: the likeliest place of a mat."""
        return self.own and not self.weak


def candidates(regions: Sequence[Spot], mat_long: float, weak: Sequence[bool] = ()) -> list[Candidate]:
    """The spots to read on each region (``regions``: each region's rectangle, view px; ``weak``:
    whether the net was unsure of it)."""
    out = []
    weak = list(weak) or [False] * len(regions)
    for i, s in enumerate(regions):
        centres = [(s.x, s.y)]
        own = OWN_SIZE[0] * mat_long <= s.long <= OWN_SIZE[1] * mat_long
        size = s.long / REGION_OVER_MAT if own else mat_long
        if s.long > LONG_REGION * mat_long:
            a, reach = math.radians(s.angle), (s.long - mat_long) / 2
            centres += [(s.x + k * reach * math.cos(a), s.y + k * reach * math.sin(a)) for k in (-1, 1)]
        for j, (x, y) in enumerate(centres):
            for turn in TURNS:
                out.append(Candidate(Spot(x, y, size, s.angle + turn), i, j == 0 and turn == 0, weak[i], own))
    return out


def choose(
    sure: np.ndarray,
    found: Sequence[Candidate],
    mat_long: float,
    least: float,
    least_other: float,
) -> list[int]:
    """Which candidates are mats: the surest first (``sure``: the card model's probability that each
    is a mat), each at least ``least`` sure (``least_other`` for a spot other than a sure region's
    own) and ``MIN_APART`` from those already kept."""
    kept: list[int] = []
    for k in np.argsort(-sure, kind="stable").tolist():
        s = found[k].spot
        if sure[k] < (least if found[k].plain else least_other):
            continue
        if all(
            math.hypot(s.x - found[j].spot.x, s.y - found[j].spot.y) >= MIN_APART * mat_long for j in kept
        ):
            kept.append(k)
    return kept


def near_the_others(kept: list[int], found: Sequence[Candidate], mat_long: float) -> list[int]:
    """``kept`` less the spots farther than ``FAR_APART`` from every other one (a card or a box at
    the photo's edge, far from the table), when at least two spots lie near one another."""
    far = []
    for k in kept:
        s = found[k].spot
        d = [math.hypot(s.x - found[j].spot.x, s.y - found[j].spot.y) for j in kept if j != k]
        far.append(min(d, default=math.inf) > FAR_APART * mat_long)
    if sum(not f for f in far) < 2:
        return kept
    return [k for k, f in zip(kept, far, strict=True) if not f]


def edge_axis(image: np.ndarray, x: float, y: float, radius: float) -> float:
    """The direction (degrees, 0-90: a rectangle's axis up to a quarter turn) of the straight edges
    round (``x``, ``y``) in ``image`` (BGR): each pixel's colour gradient, weighed by its strength
    and a Gaussian window of ``radius``, votes for its direction four times over (so that the sides
    of a rectangle and those across them agree). A mat, its pile's cards and its header are
    rectangles on one axis, so this finds the mat's axis where the locator's region outline does not
    (a hand of cards touching the mat turns the region's rectangle): on the dev photos within 6
    degrees of the truth's on each of the 10 mats whose regions read as none."""
    h, w = image.shape[:2]
    reach = int(radius * 2) + 2
    x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
    x1, y1 = min(w, int(x) + reach + 1), min(h, int(y) + reach + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    window = image[y0:y1, x0:x1].astype(np.float32)
    if window.ndim == 2:
        window = window[..., None]
    gx = np.stack([cv2.Sobel(window[..., c], cv2.CV_32F, 1, 0, ksize=3) for c in range(window.shape[2])])
    gy = np.stack([cv2.Sobel(window[..., c], cv2.CV_32F, 0, 1, ksize=3) for c in range(window.shape[2])])
    strongest = np.argmax(gx**2 + gy**2, axis=0)[None]  # each pixel's most changing channel
    gx, gy = np.take_along_axis(gx, strongest, 0)[0], np.take_along_axis(gy, strongest, 0)[0]
    yy, xx = np.mgrid[y0:y1, x0:x1]
    weight = np.hypot(gx, gy) * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * (radius / 1.5) ** 2))
    vote = np.sum(weight * np.exp(4j * np.arctan2(gy, gx)))
    return float(math.degrees(np.angle(vote)) / 4 % 90.0)

"""Where the divers' mats lie round the table: evidence in the photo itself of a mat not found.

The players sit round the table, each with their mat in front of them, so the mats lie round the
central pile about evenly spaced (the simulator seats them 360/n degrees apart, give or take 6). A
mat the reader did not find leaves a gap about twice the others between its neighbours: k mats read
of k + 1 leave a widest gap of 2k/(k + 1) even spacings (1.33 for 2, 1.5 for 3, 1.6 for 4, 1.67 for
5) where a round read whole has one near 1. Six mats read is the whole game: nothing is missing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.snorkeling.crops import Spot

MOST_MATS = 6  # the game's six diver mats
# how far from an even spacing (0) towards the gap of one mat missing (1) the widest gap may reach
# before the round is flagged. On the dev photos (seeds 9642-9645, 220) the rounds read right reached
# 0.67 at most (two mats, the central pile off the middle), the two that missed a mat with no other
# flag 1.43 and 3.07; a table seen at a slant shrinks some gaps: 5 of the 36 rounds that missed a mat
# stay under 0.75 (every one of them flagged for something else). Since the central pile's doubts
# are notes, not flags, the gap is the only flag of more rounds that missed a mat: one dev round
# (a Lanternfish pile read as no mat) reached 0.73 and was left with no flag at 0.75; the 107 right
# rounds of the current reader with 2-5 mats read reach 0.67 at most, so 0.7
GAP_SHARE = 0.7
ILL_POSED = 1e3  # the mats' axes meet nowhere sure (two mats in a line): no middle from them
# a spot this many times farther from the middle than the other mats (their median) lies off the
# ring of mats: a card or a box at the table's edge, a pencil, a hand. On the dev photos (seeds
# 9642-9645) no mat of a round of 3 or more lay that far; leaving such spots out took away 21 of the
# 84 extra piles read and no mat
OFF_RING = 2.0


def table_middle(mats: Sequence[Spot], centre: Spot | None) -> tuple[float, float] | None:
    """The middle of the table the mats lie round: the central pile where it was found, else the
    point nearest every mat's long axis (each mat's header faces the middle), else none."""
    if centre is not None:
        return centre.x, centre.y
    if len(mats) < 3:
        return None  # two mats' axes are one line: the middle could lie anywhere along it
    a = np.zeros((2, 2))
    b = np.zeros(2)
    for s in mats:
        t = math.radians(s.angle)
        u = np.array([math.cos(t), math.sin(t)])
        across = np.eye(2) - np.outer(u, u)  # distance to the axis line, squared, summed
        a += across
        b += across @ np.array([s.x, s.y])
    if np.linalg.cond(a) > ILL_POSED:
        return None
    x, y = np.linalg.solve(a, b)
    return float(x), float(y)


def widest_gap(mats: Sequence[Spot], middle: tuple[float, float]) -> tuple[float, int, int]:
    """The widest angle (degrees) between two mats next to each other round ``middle``, and the
    indices (into ``mats``) of the two mats on either side of it."""
    angles = [math.degrees(math.atan2(s.y - middle[1], s.x - middle[0])) % 360.0 for s in mats]
    order = sorted(range(len(mats)), key=lambda i: angles[i])
    best = (-1.0, order[0], order[0])
    for here, after in zip(order, order[1:] + order[:1], strict=True):
        gap = (angles[after] - angles[here]) % 360.0 or (360.0 if len(mats) == 1 else 0.0)
        best = max(best, (gap, here, after))
    return best


def gap_limit(count: int) -> float:
    """The widest gap (degrees) that ``count`` mats read round the table may leave unflagged."""
    even = 360.0 / count
    missing = 2.0 * count / (count + 1)  # the widest gap, in even spacings, when one mat is missing
    return even * (1.0 + GAP_SHARE * (missing - 1.0))


@dataclass(frozen=True)
class Gap:
    """A gap round the table where a mat is likely missing: the flag's words, and where the missing
    mat would lie (mid-gap, as far from the middle as its neighbours; view px)."""

    text: str
    where: tuple[float, float]


def layout_gap(mats: Sequence[tuple[int, Spot]], centre: Spot | None) -> Gap | None:
    """The gap the mats read (mat number, spot) leave round the table where a mat is likely missing;
    none when they lie evenly round it, or where nothing tells."""
    if not 2 <= len(mats) < MOST_MATS:
        return None
    spots = [s for _, s in mats]
    middle = table_middle(spots, centre)
    if middle is None:
        return None
    gap, before, after = widest_gap(spots, middle)
    if gap <= gap_limit(len(mats)):
        return None
    start = math.atan2(spots[before].y - middle[1], spots[before].x - middle[0])
    towards = start + math.radians(gap / 2)
    # as far from the middle as its two neighbours on average (a slanted table's ring is an ellipse)
    radius = sum(math.hypot(spots[k].x - middle[0], spots[k].y - middle[1]) for k in (before, after)) / 2
    text = (
        f"Mats {mats[before][0]} and {mats[after][0]} lie {gap:.0f}° apart round the table, "
        f"{360.0 / len(mats):.0f}° if evenly spaced: check for a mat between them not found"
    )
    return Gap(text, (middle[0] + radius * math.cos(towards), middle[1] + radius * math.sin(towards)))


def layout_flag(mats: Sequence[tuple[int, Spot]], centre: Spot | None) -> str | None:
    """The words of :func:`layout_gap`'s flag, if any."""
    gap = layout_gap(mats, centre)
    return gap.text if gap else None


def off_the_ring(mats: Sequence[Spot], middle: tuple[float, float] | None) -> list[int]:
    """The indices of the spots that lie far off the ring the others form round ``middle`` (none
    for fewer than three spots: two tell nothing of a ring)."""
    if middle is None or len(mats) < 3:
        return []
    radii = [math.hypot(s.x - middle[0], s.y - middle[1]) for s in mats]
    out = []
    for i, r in enumerate(radii):
        others = float(np.median([q for j, q in enumerate(radii) if j != i]))
        if r > OFF_RING * others:
            out.append(i)
    return out

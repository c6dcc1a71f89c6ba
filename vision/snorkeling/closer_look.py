"""A closer look at the regions the locator is sure are mats but that the card model reads as no
mat where they lie: a mat in a colour like the table's, or one whose region a hand of cards touching
it turned off its axis. The card model reads each such region again at spots moved along and across
it and turned, and on the axis of the straight edges round it (``candidates.edge_axis``); a region
that reads as a mat there surely, and at the spots round that one too, gets that spot as a candidate.
Also where the central pile lies among the mats (``in_the_middle``), which the closer look keeps
off.

And a closer look where a mat is likely missing (``look_where_missing``): where the gap the mats
read leave round the table says one is (``layout.layout_gap``), or round the regions near a lone
mat read (a round has two divers at least). A mat the locator drew in pieces or not at all (a
Lanternfish pile, a mat whose colour the light turns towards the table's) is found so.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.onnx_model import OnnxModel
from vision.photo_io import Photo
from vision.snorkeling.candidates import FAR_APART, MIN_APART, NOT_A_MAT, Candidate, edge_axis
from vision.snorkeling.crops import Spot, card_crops, half_turn_average
from vision.snorkeling.layout import layout_gap
from vision.snorkeling.locate import Found
from vision.snorkeling.sizes import MatSizes
from vision.spots import moved, quarter_turn_apart

# a closer look round the regions the locator is sure of but that read as no mat (``look_around``)
AROUND_SCORE = 0.9  # the region's highest probability on the locator's mats map
AROUND_SURE = 0.9  # the surest spot round it must read as a mat this surely
AROUND_AGREE = 0.5  # and this share of the spots turned as that one as a mat (moved, a mat reads as one)
AROUND_REGIONS = 3  # at most this many regions a photo (the largest first)
AROUND_SPOTS = tuple(  # (along, across: in the region's long sides; turn: degrees)
    (along, across, turn)
    for along, across in ((0.0, 0.0), (-1 / 6, 0.0), (1 / 6, 0.0), (0.0, -1 / 6), (0.0, 1 / 6))
    for turn in (-20.0, 0.0, 20.0)
)
# the closer look on the axis of the straight edges round a region (``candidates.edge_axis``)
AXIS_RADIUS = 0.4  # mat lengths: the window the edges are taken from
AXIS_OFF = 10.0  # degrees: looked along where the edges' axis lies this far off the outline's
AXIS_STEP = 0.15  # the grid's step, in the spot's long sides
AXIS_SPOTS = tuple(  # (along, across), in the spot's long sides
    (k * AXIS_STEP, j * AXIS_STEP) for k in (-2, -1, 0, 1, 2) for j in (-1, 0, 1)
)
AXIS_FIRST = tuple((k * AXIS_STEP, 0.0) for k in (-1, 0, 1))  # read first, on both axes
SIZE_OFF = 0.12  # a region whose spot's size lies this far off the mats' there (``sizes``) is read at both
AXIS_MORE = 0.2  # where one of those reads as a mat this surely, the rest of the grid on its axis
AXIS_NEIGHBOURS = 2  # grid neighbours of the surest spot that must read as a mat too
AXIS_NUMBER = 0.8  # and the surest spot's mat number, given a mat (junk reads as a mat of no number)
MIDDLE_SHARE = 0.5  # a region this near the middle of the ring of mats (of its radius) is the centre's


def cross_shifts(step: float) -> tuple[tuple[float, float], ...]:
    """(along, across) moves: none, then ``step`` either way along, then across."""
    return ((0.0, 0.0), (-step, 0.0), (step, 0.0), (0.0, -step), (0.0, step))


# where the mats read leave a gap round the table (``layout.layout_gap``), a closer look there
# (``look_where_missing``), and round a lone mat read: on dev stress seeds 9644 + 9645 (400 photos)
# rounds scored exactly 383 -> 386 by the gap, 387 with the lone mat's look too (a 2-player table
# read whole, no longer "no table"), on everyday 9643 146 -> 147 (of the 5 mats the gap's look found,
# 4 right; 1 where none was, flagged); at 95% and within 1 mat length, 384 and 147 by the gap
GAP_NEAR = 1.5  # mat lengths from where the gap says a mat is missing: the regions looked round
GAP_SIZES = (0.7, 0.85, 1.0)  # of the mats' size (a far mat comes out smaller)
GAP_SHIFTS = cross_shifts(0.2)  # (along, across), in mat lengths
GAP_SURE = 0.8  # the spot taken reads as a mat this surely

# where no spot of the closer look is taken, a finer look round the surest of them (``refine_round``)
REFINE_FROM = 0.5  # the surest spot reads as a mat this likely
REFINE_TURNS = (-10.0, 0.0, 10.0)  # degrees, off that spot's axis
REFINE_SIZES = (0.85, 1.0, 1.15)  # of its size
REFINE_SHIFTS = cross_shifts(0.12)  # (along, across), in its long sides
REFINE_AGREE = 0.5  # this share of the finer spots must read as a mat
# or, where its number reads under AXIS_NUMBER (faded or cast colours), this share at REFINE_NUMBER: on
# dev seeds 9675 and 9645 the mats so found read 0.67-0.77, a hand read as a mat 0.38
REFINE_MOST = 0.7
REFINE_NUMBER = 0.6


def look_around(
    model: OnnxModel,
    photo: Photo,
    found: Found,
    looks: list[Candidate],
    sure: np.ndarray,
    mat_long: float,
    sizes: MatSizes | None = None,
) -> tuple[list[Candidate], dict[str, np.ndarray]]:
    """A closer look at the regions the locator is sure of (``AROUND_SCORE``) that read as no mat at
    any of their spots (``sure``: each candidate's probability of a mat) and lie off every spot read
    as a mat: the card model reads each again at spots moved a sixth of a mat along and across its
    axis and turned 20 degrees either way (a region's outline moves its centre and turns its axis: a
    mat in a colour like the table's, a hand touching it), and a region where most of those spots
    read as a mat (``AROUND_AGREE``) and one surely (``AROUND_SURE``) gets that spot as a candidate.
    Where the straight edges round the region lie on another axis than its outline (``edge_axis``:
    a hand of cards or the central pile touching the mat turns the outline by up to 45 degrees, and
    the card model reads a mat turned 30 degrees off as none), it is read on that axis and across it
    too, at spots moved up to 0.3 of a mat along and 0.15 across (``AXIS_SPOTS``: first 3 along the
    middle of each, then the rest on the one where those read at all as a mat), and a spot that
    reads surely as a mat with ``AXIS_NEIGHBOURS`` of its neighbours on the grid reading as one is a
    candidate. At most ``AROUND_REGIONS`` regions, the largest first."""
    mats = [c.spot for c, p in zip(looks, sure, strict=True) if p >= 1.0 - NOT_A_MAT]
    todo = []
    for i, region in enumerate(found.mats):
        rows = [k for k, c in enumerate(looks) if c.region == i]
        s = region.spot
        if (region.weak and not region.joined) or region.score < AROUND_SCORE:
            continue
        if not rows or max(sure[rows]) >= 1.0 - NOT_A_MAT:
            continue
        if any(math.hypot(s.x - m.x, s.y - m.y) < MIN_APART * mat_long for m in mats):
            continue
        todo.append((region.area, i, looks[rows[0]].spot))
    todo = sorted(todo, key=lambda t: -t[0])[:AROUND_REGIONS]
    if not todo:
        return [], {}
    # each spot: its region, the spot, and how it was laid (outline or edges, turn, along, across)
    grid: list[tuple[int, Spot, tuple[str, float, float, float, float]]] = []
    for _, i, s in todo:
        for along, across, turn in AROUND_SPOTS:
            grid.append((i, moved(s, along, across, s.angle + turn), ("outline", turn, along, across, 1.0)))
        axis = edge_axis(photo.image, s.x, s.y, AXIS_RADIUS * mat_long)
        # not in the middle of the ring of mats read: the central pile's messy cards read as a mat on
        # the edges' axis (the locator's own central pile is no guide: it takes a dark mat for it)
        if not in_the_middle(s, mats) and quarter_turn_apart(axis, s.angle) > AXIS_OFF:
            local = s.long if sizes is None else sizes.at(s.x, s.y)
            scales = [1.0] + ([local / s.long] if abs(local / s.long - 1.0) > SIZE_OFF else [])
            for turn in (axis, axis + 90.0):
                for size in scales:
                    on_edges = replace(s, angle=turn, long=s.long * size)
                    for along, across in AXIS_FIRST:
                        grid.append(
                            (i, moved(on_edges, along, across, turn), ("edges", turn, along, across, size))
                        )
    got = half_turn_average(model.run, card_crops(photo, [g for _, g, _ in grid], model, mat_long))
    none = model.heads["mat"].index("none")
    # the rest of the edges' grid, on the axis (or across it) where a first spot reads at all as a
    # mat (``AXIS_MORE``): most regions are a hand or junk, read as none at once (a spot costs 2 ms)
    rest = []
    for _, i, s in todo:
        first = [k for k, (r, _, how) in enumerate(grid) if r == i and how[0] == "edges"]
        if not first:
            continue
        best = max(first, key=lambda k: 1.0 - got["mat"][k, none])
        if 1.0 - got["mat"][best, none] < AXIS_MORE:
            continue
        turn, size = grid[best][2][1], grid[best][2][4]
        on_edges = replace(s, angle=turn, long=s.long * size)
        for along, across in AXIS_SPOTS:
            if (along, across) not in AXIS_FIRST:
                rest.append((i, moved(on_edges, along, across, turn), ("edges", turn, along, across, size)))
    if rest:
        more = half_turn_average(model.run, card_crops(photo, [g for _, g, _ in rest], model, mat_long))
        got = {name: np.concatenate([p, more[name]]) for name, p in got.items()}
        grid += rest
    mat, number = mat_and_number(got["mat"], none)
    keep: list[int] = []
    unsure: list[tuple[int, Spot]] = []  # regions none of whose spots is taken: their surest spot
    for _, i, _ in todo:
        rows = [(k, how) for k, (r, _, how) in enumerate(grid) if r == i]
        best = around_best(mat, number, rows)
        if best is not None:
            keep.append(best)
            continue
        surest = max((k for k, _ in rows), key=lambda k: mat[k])
        if mat[surest] >= REFINE_FROM:
            unsure.append((i, grid[surest][1]))
    out = [Candidate(grid[k][1], grid[k][0], False, False) for k in keep]
    probs = {name: p[keep] for name, p in got.items()}
    for i, spot, row in refine_round(model, photo, unsure, mat_long):
        out.append(Candidate(spot, i, False, False))
        probs = {name: np.concatenate([p, row[name]]) for name, p in probs.items()}
    return out, probs


def refine_round(
    model: OnnxModel, photo: Photo, unsure: list[tuple[int, Spot]], mat_long: float
) -> list[tuple[int, Spot, dict[str, np.ndarray]]]:
    """A finer look round each region's surest closer-look spot where none was taken
    (``unsure``: region, spot): the card model reads a mat well only within about a fifth of a mat
    of its centre and 20 degrees of its axis, and a region's outline can lie farther off than the
    closer look's grid reaches (stress seed 9675: centres a quarter of a mat off, axes 50 degrees
    off, the mat 0.7 the region's size). The spots round it moved ``REFINE_SHIFTS``, turned
    ``REFINE_TURNS`` and sized ``REFINE_SIZES``; the surest is taken where it reads as a mat at
    ``AROUND_SURE``, its number at ``AXIS_NUMBER``, and ``REFINE_AGREE`` of the grid reads as a mat
    (a mat reads as one over most of such a grid, junk at a lucky spot or two), or ``REFINE_MOST``
    of the grid where its number reads less surely, at ``REFINE_NUMBER`` (the header model reads it
    again later). Each taken: its region, its spot and its row of the card model's probabilities."""
    if not unsure:
        return []
    grid = [
        (i, g)
        for i, s in unsure
        for g in spots_round(
            s.x, s.y, s.long, [s.angle + t for t in REFINE_TURNS], REFINE_SIZES, REFINE_SHIFTS
        )
    ]
    got = half_turn_average(model.run, card_crops(photo, [g for _, g in grid], model, mat_long))
    none = model.heads["mat"].index("none")
    mat, number = mat_and_number(got["mat"], none)
    out = []
    for i, _ in unsure:
        rows = [k for k, (r, _) in enumerate(grid) if r == i]
        best = max(rows, key=lambda k: mat[k])
        agree = float(np.mean(mat[rows] >= 1.0 - NOT_A_MAT))
        if (
            mat[best] >= AROUND_SURE
            and agree >= REFINE_AGREE
            and (number[best] >= AXIS_NUMBER or (agree >= REFINE_MOST and number[best] >= REFINE_NUMBER))
        ):
            out.append((i, grid[best][1], {name: p[[best]] for name, p in got.items()}))
    return out


def mat_and_number(p: np.ndarray, none: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's probability of a mat (``p``: the card model's mat head, ``none`` its "no mat"
    column) and of its likeliest number given a mat."""
    mat = 1.0 - p[:, none]
    numbers = p / np.maximum(mat, 1e-9)[:, None]
    numbers[:, none] = 0.0
    return mat, numbers.max(1)


def in_the_middle(s: Spot, mats: list[Spot]) -> bool:
    """Whether ``s`` lies nearer the middle of ``mats`` (two or more) than ``MIDDLE_SHARE`` of their
    median distance from it: where the central pile lies, not a mat."""
    if len(mats) < 2:
        return False
    mx, my = float(np.mean([m.x for m in mats])), float(np.mean([m.y for m in mats]))
    ring = float(np.median([math.hypot(m.x - mx, m.y - my) for m in mats]))
    return math.hypot(s.x - mx, s.y - my) < MIDDLE_SHARE * ring


def around_best(
    mat: np.ndarray, number: np.ndarray, rows: list[tuple[int, tuple[str, float, float, float, float]]]
) -> int | None:
    """Of one region's closer-look spots (``rows``: row of ``mat``, the probability of a mat, and how
    the spot was laid), the one taken as a mat, if any: on the outline's axis the surest spot, when
    it reads at ``AROUND_SURE`` and ``AROUND_AGREE`` of the spots turned as it at 0.5; on the edges'
    axis the surest spot at ``AROUND_SURE`` with ``AXIS_NEIGHBOURS`` of its neighbours on the grid
    (turned as it, a step along or across) at 0.5, and its mat number read at ``AXIS_NUMBER``
    (``number``: the surest number of each row, given a mat; junk at the table's edge can read as a
    mat of no number in particular). The surer of the two."""
    taken = []
    outline = [(k, how) for k, how in rows if how[0] == "outline"]
    if outline:
        best, how = max(outline, key=lambda r: mat[r[0]])
        alike = [k for k, h in outline if h[1] == how[1]]
        if mat[best] >= AROUND_SURE and np.sum(mat[alike] >= 1.0 - NOT_A_MAT) >= AROUND_AGREE * len(alike):
            taken.append(best)
    edges = [(k, how) for k, how in rows if how[0] == "edges"]
    if edges:
        best, how = max(edges, key=lambda r: mat[r[0]])
        step = AXIS_STEP + 1e-6
        near = [
            k
            for k, h in edges
            if k != best
            and h[1] == how[1]
            and h[4] == how[4]
            and abs(h[2] - how[2]) <= step
            and abs(h[3] - how[3]) <= step
        ]
        if (
            mat[best] >= AROUND_SURE
            and number[best] >= AXIS_NUMBER
            and np.sum(mat[near] >= 1.0 - NOT_A_MAT) >= AXIS_NEIGHBOURS
        ):
            taken.append(best)
    return max(taken, key=lambda k: mat[k], default=None)


def spots_round(
    x: float,
    y: float,
    long: float,
    axes: list[float],
    sizes: tuple[float, ...],
    shifts: tuple[tuple[float, float], ...],
) -> list[Spot]:
    """Spots round (``x``, ``y``): on each of ``axes`` (degrees), at each of ``sizes`` times ``long``,
    moved by each of ``shifts`` (along, across: in that spot's long sides)."""
    return [
        moved(Spot(x, y, size * long, a), along, across, a)
        for a in axes
        for size in sizes
        for along, across in shifts
    ]


def look_where_missing(
    model: OnnxModel,
    photo: Photo,
    found: Found,
    piles: list[tuple[int, Spot]],
    centre: Spot | None,
    mat_long: float,
) -> tuple[Spot, dict[str, np.ndarray], str] | None:
    """A mat looked for where one is likely missing (``piles``: the mats read, number and spot;
    ``centre``: the central pile's spot): where the gap round the table says so
    (``layout.layout_gap``), round the regions within ``GAP_NEAR`` of it and the place itself; with
    one mat read, round every region within ``FAR_APART`` of it. The surest spot that reads as a mat
    (``surest_mat``), with the card model's reading and where it was looked for (words); None if
    none reads as one."""
    taken = [s for _, s in piles] + ([centre] if centre is not None else [])
    if len(piles) == 1:
        s = piles[0][1]
        seeds = [
            (r.spot.x, r.spot.y, r.spot.angle)
            for r in found.mats
            if math.hypot(r.spot.x - s.x, r.spot.y - s.y) <= FAR_APART * mat_long
        ]
        why = "round the regions near the one other mat found"
    else:
        gap = layout_gap(piles, centre)
        if gap is None:
            return None
        gx, gy = gap.where
        seeds = [(gx, gy, None)] + [
            (r.spot.x, r.spot.y, r.spot.angle)
            for r in found.mats
            if math.hypot(r.spot.x - gx, r.spot.y - gy) <= GAP_NEAR * mat_long
        ]
        why = "where the gap round the table says a mat is missing"
    got = surest_mat(model, photo, seeds, taken, [s for _, s in piles], mat_long)
    return None if got is None else (*got, why)


def surest_mat(
    model: OnnxModel,
    photo: Photo,
    seeds: list[tuple[float, float, float | None]],
    taken: list[Spot],
    mats: list[Spot],
    mat_long: float,
) -> tuple[Spot, dict[str, np.ndarray]] | None:
    """Spots round each seed (x, y, a region's axis or None), ``GAP_SIZES`` x ``GAP_SHIFTS``, on the
    seed's axis and on the straight edges' there (``candidates.edge_axis``), each a mat apart from
    ``taken`` and off the middle of the ``mats`` (the central pile's place), read: the surest that
    reads as a mat (``GAP_SURE``), with its reading (each head's probabilities, one row)."""
    grid = []
    for x, y, angle in seeds:
        axis = edge_axis(photo.image, x, y, AXIS_RADIUS * mat_long)
        axes = {round(a % 180.0, 1) for a in (axis, axis + 90.0)}
        if angle is not None:
            axes |= {round(a % 180.0, 1) for a in (angle, angle + 90.0)}
        grid += spots_round(x, y, mat_long, sorted(axes), GAP_SIZES, GAP_SHIFTS)
    grid = [
        g
        for g in grid
        if all(math.hypot(g.x - t.x, g.y - t.y) >= MIN_APART * mat_long for t in taken)
        and not in_the_middle(g, mats)
    ]
    if not grid:
        return None
    got = half_turn_average(model.run, card_crops(photo, grid, model, mat_long))
    none = model.heads["mat"].index("none")
    mat = 1.0 - got["mat"][:, none]
    best = int(np.argmax(mat))
    if mat[best] < GAP_SURE:
        return None
    return grid[best], {k: p[best : best + 1] for k, p in got.items()}

"""Find every card corner whose index shows in a photo of won Mediatore cards.

The locator net (``models/mediatore-locator.onnx``) draws two maps of a picture: each corner box
whose rank index and suit symbol show, shrunk about its centre so that the boxes of a row of
overlapping cards stay apart, and a small disk at each box's centre. Each region of the corners map
is one corner (a region holding two centre disks is two corners run together, split between them);
its heat-weighted second moments, grown back by the shrink, give the box's centre, long side and
axis (``crops.Spot``), which is all the corner model's crop needs.

Read scale-free: the whole photo is searched at the net's input size (512 px long side); where the
corners come out under SMALL_BOX (most photos: cards far away, a loose heap in a corner of the
frame), the part of the photo that holds them, and every weaker trace of a corner (REGION_MIN), is
searched again, zoomed so that the boxes come out ~TARGET_BOX px long (from a finer decode of the
photo where the reduced view is not enough, in tiles where one picture would be too large:
``_allowed``), but the large regions' boxes (``_typical_long``) never past BOX_MAX; once more where
that look's boxes still came out small. Where the first look found no corner surely, or only a few
small ones (FEW_SURE), the whole photo is looked at twice as large before zooming. Boxes an earlier
look found that come out too large for a zoomed one are kept beside its corners (``_too_large``);
where no look found anything, the whole photo is searched once more at RESCUE_LONG px (cards far
away). The net learns at that scale (``vision.training.mediatore_data``: windows whose boxes are
28-100 px long). Larger boxes in the zoomed look are found more often and their regions have more
pixels (on the development photos, seed 9660: 30 px boxes 89.3% of the cards that show read, 56 px
96.4%, with the reader's refinements), at the cost of a larger picture for the net: most of the
reader's time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.locator_net import LocatorModel, load_locator_model, run_locator
from vision.mediatore.crops import CARD_MM, CORNER_MM, Spot
from vision.photo_io import Photo

MODEL_NAME = "mediatore-locator.onnx"
CORNER_MIN = 0.65  # a map pixel belongs to a corner's region from this probability
CENTRE_MIN = 0.5
# the zoomed look covers the corners found and, from this probability, the weaker ones: at the first
# look (boxes ~8 px of the net's input) a dim photo's corners often stay under CORNER_MIN, and cards
# left outside the zoomed look are never found (most of the cards no corner of which was found, on
# the development photos, seed 9660)
REGION_MIN = 0.3
ZOOM_LOOKS = 2  # zoomed looks at most: a second where the first one's boxes still came out small
# a zoomed look is kept unless it finds far fewer corners than the look before: it places them better
# (and finds fewer on pips and textures, so a look that finds a few fewer is no worse)
ZOOM_KEEP = 0.8
# ... but kept all the same where it finds more corners surely (CARRY_SCORE) than the look before: a
# look that sees a fan only faintly counts its faint regions as corners (9686-00039: the first look 18
# corners, none over 0.85; the zoomed look 14 at ~0.93, and only it found the 2 of denari)
KEEP_SURER = True
MIN_AREA = 2  # map px: a smaller region is noise
SMALL_BOX = 52.0  # input px: corner boxes whose long side is under this are searched again, zoomed
ZOOM_LONG_MAX = 1600  # the zoomed look's picture, long side at most (px): a larger look is cut in tiles
# a zoomed look that one picture of ZOOM_LONG_MAX would hold under this share of the factor it asks is
# taken in tiles: small cards spread over much of the frame came out ~30 px, where the net misses
# corners (on the stress development photos, seed 9671, 26 photos held under 0.7 of their factor had
# 48 of the 66 cards missed; 00147: a 1 of spade alone in a hand's shadow, found at ~60 px; on two
# fresh pairs, seeds 9684 / 9685 and 9686 / 9687, level with the single picture: as many sides right,
# 12 more cards read right, 3 more misread) ...
TILE_FROM = 0.75
ZOOM_AREA_MAX = 4.0e6  # ... as asked, but all its tiles at most this many px (the net's time grows with it)
TILE_OVERLAP = 160  # picture px: tiles overlap by this, so that a corner box (~TARGET_BOX) lies whole in one
# where no look found a corner, the whole photo is looked at once more this large (px, long side): cards
# far away (on the development photos, seed 9670, 00176: 40 cards filling 3% of the frame, boxes ~6 px
# at the first look and ~12 at the second, found at ~23) are found there, then zoomed in on
RESCUE_LONG = 2048
# a first look that finds fewer corners than this surely, their boxes small, is taken as one that
# found none: the whole photo looked at twice as large, with one zoomed look more (kept as any zoomed
# look is, ZOOM_KEEP or KEEP_SURER; else the zoomed looks go round the first look's corners as
# before). At the first look a small card's box is ~6 px: a few corners of one fan seen, the rest of
# the cards left no trace, and the zoomed looks never went there (on the spent fresh photos, seed
# 9688, 18 of 500 photos whose first look found under 6 held 31 of the 52 legible cards not read
# right: 00227, 00496 ...; measured once on fresh 9690 / 9691: 13 more stress cards read, no side's
# count changed)
FEW_SURE = 6
TARGET_BOX = 56.0  # input px: the zoomed look brings the corner boxes to about this long side
BOX_MAX = 100.0  # input px: ... and never the boxes of the large regions past this (``_typical_long``)
# a corner an earlier look found whose box comes out past this at a zoomed look (input px; the net
# learnt boxes of 28-100 px and misses many past ~65) is kept beside that look's corners where none
# of them covers it, if its region was this sure (mean probability; on the development photos, seed
# 9670, the large cards' corners 0.86-0.93, regions on other cards' faces and on the table ~0.7-0.8)
CARRY_BOX = 64.0
CARRY_SCORE = 0.85
CARD_MARGIN = CARD_MM[1] / CORNER_MM[1]  # the zoomed look reaches this many box long sides beyond the corners


@lru_cache(maxsize=2)
def load_locator(path: str | None = None) -> LocatorModel:
    return load_locator_model(path, MODEL_NAME, task="mediatore-locator")


@dataclass(frozen=True)
class Corner:
    """A corner box found, in the photo's reduced view: where it lies (its long side that of the whole
    box), how sure the map is, and its size in map pixels."""

    spot: Spot
    score: float
    area: int
    elongation: float  # long side over short side of the region: near 1, its axis is doubtful
    carried: bool = False  # found by an earlier look, too large for the zoomed one (``_too_large``)


@dataclass(frozen=True)
class Found:
    corners: tuple[Corner, ...]
    zoomed: bool  # whether the second, zoomed look was taken


def _split(
    labels: np.ndarray, i: int, box: tuple[int, int, int, int], centres: np.ndarray
) -> list[np.ndarray]:
    """The pixels (x, y) of region ``i``, one array per centre disk it holds (one when it holds <= 1)."""
    x, y, bw, bh = box
    ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == i)
    pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
    inside = [
        c for c in centres if x <= c[0] < x + bw and y <= c[1] < y + bh and labels[int(c[1]), int(c[0])] == i
    ]
    if len(inside) < 2:
        return [pts]
    seeds = np.array(inside, np.float32)
    nearest = np.argmin(((pts[:, None, :] - seeds[None]) ** 2).sum(-1), 1)
    return [pts[nearest == k] for k in range(len(seeds)) if (nearest == k).sum() >= MIN_AREA]


def _moments(pts: np.ndarray, heat: np.ndarray) -> tuple[Spot, float]:
    """A region's centre, long side and axis from its heat-weighted second moments (steadier than a
    rectangle around a few pixels): a filled L x W box has variances L^2 / 12 and W^2 / 12."""
    w = heat[pts[:, 1].astype(int), pts[:, 0].astype(int)].astype(np.float64)
    w = w / w.sum()
    c = (pts * w[:, None]).sum(0)
    d = pts - c
    cov = (d * w[:, None]).T @ d + np.eye(2) / 12.0  # each pixel is a unit square
    values, vectors = np.linalg.eigh(cov)
    long = float(np.sqrt(12.0 * values[1]))
    axis = vectors[:, 1]
    angle = float(np.degrees(np.arctan2(axis[1], axis[0])))
    return Spot(float(c[0]), float(c[1]), long, angle), float(np.sqrt(values[1] / max(values[0], 1e-9)))


def _corners(
    maps: np.ndarray,
    names: list[str],
    to_view: float,
    shift: float,
    origin: np.ndarray,
    shrink: float,
    threshold: float = CORNER_MIN,
) -> list[Corner]:
    heat = maps[names.index("corners")]
    centre_map = maps[names.index("centres")]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (heat > threshold).astype(np.uint8), connectivity=4
    )
    n_c, _, c_stats, c_xy = cv2.connectedComponentsWithStats(
        (centre_map > CENTRE_MIN).astype(np.uint8), connectivity=8
    )
    centres = c_xy[1:][c_stats[1:, cv2.CC_STAT_AREA] >= 1]
    out = []
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < MIN_AREA:
            continue
        for pts in _split(labels, i, (x, y, bw, bh), centres):
            s, elongation = _moments(pts, heat)
            score = float(heat[pts[:, 1].astype(int), pts[:, 0].astype(int)].mean())
            view = Spot(
                (s.x + shift) * to_view + origin[0],
                (s.y + shift) * to_view + origin[1],
                s.long * to_view / shrink,
                s.angle,
            )
            out.append(Corner(view, score, len(pts), elongation))
    return out


def _search(
    model: LocatorModel,
    image: np.ndarray,
    factor: float,
    origin: np.ndarray,
    unit: float = 1.0,
    weak: float | None = None,
) -> tuple[list[Corner], list[Corner]]:
    """The corners in ``image`` (a part of the view whose top-left is ``origin``; ``unit`` view px per
    image px) looked at ``factor`` picture px per image px; and, with ``weak``, the regions from that
    lower probability (else none)."""
    h, w = image.shape[:2]
    size = (max(16, round(w * factor)), max(16, round(h * factor)))
    picture = cv2.resize(image, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
    maps = run_locator(model, picture)
    out = model.meta["outputs"]["maps"]
    stride, offset = float(out["stride"]), float(out["offset"])
    # map px j lies at picture px j * stride + offset, view px (j * stride + offset) / factor
    to_view = stride / factor * unit
    place = (out["channels"], to_view, offset / stride, origin, float(out["box_shrink"]))
    corners = _corners(maps, *place)
    return corners, (_corners(maps, *place, threshold=weak) if weak is not None else [])


def _typical_long(found: list[Corner]) -> float:
    """The long side of the photo's corner boxes (view px): the median of the corners found, each
    weighed by its region's area times its score, so that the many small regions on suit pips and
    table textures do not make large boxes look small."""
    longs = np.array([c.spot.long for c in found])
    weights = np.array([c.area * c.score for c in found], np.float64)
    order = np.argsort(longs)
    cumulative = np.cumsum(weights[order])
    return float(longs[order][np.searchsorted(cumulative, cumulative[-1] / 2.0)])


def zoom_region(corners: list[Corner], box_view: float, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """The part of the view (x0, y0, x1, y1) the zoomed look searches: every corner given, and a
    card's length around (a card whose corners the first look did not see lies beside one it did)."""
    pts = np.array([[c.spot.x, c.spot.y] for c in corners])
    margin = CARD_MARGIN * box_view
    x0, y0 = np.maximum(0, pts.min(0) - margin).astype(int)
    x1, y1 = np.minimum([shape[1], shape[0]], pts.max(0) + margin).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _look(
    photo: Photo,
    model: LocatorModel,
    region: tuple[int, int, int, int],
    factor: float,
    weak: float | None = None,
) -> tuple[list[Corner], list[Corner]]:
    """The corners in ``region`` of the view looked at ``factor`` picture px per view px, from a finer
    decode where the look needs more than the view has (small cards in a 12 MP photo); and, with
    ``weak``, the weaker traces of corners from that probability (else none). A picture longer than
    ZOOM_LONG_MAX is looked at in tiles (``_tiles``), each corner kept from the tile answering for it."""
    fine, fine_scale = photo.at_scale(photo.scale / factor) if factor > 1 else (photo.image, photo.scale)
    g = photo.scale / fine_scale  # fine px per view px
    corners: list[Corner] = []
    weak_corners: list[Corner] = []
    for tile, core in _tiles(region, factor):
        x0, y0, x1, y1 = tile
        part = fine[int(y0 * g) : int(y1 * g), int(x0 * g) : int(x1 * g)]
        found, traces = _search(
            model, part, factor / g, np.array([x0, y0], np.float64), unit=1.0 / g, weak=weak
        )
        corners += [c for c in found if _inside(c.spot, core)]
        weak_corners += [c for c in traces if _inside(c.spot, core)]
    return corners, weak_corners


def _tiles(region: tuple[int, int, int, int], factor: float) -> list[tuple[tuple, tuple]]:
    """``region`` cut into tiles whose pictures at ``factor`` are at most ZOOM_LONG_MAX long, overlapping
    by TILE_OVERLAP picture px, each with the part it answers for (its core: the tiles' cores cover the
    region once, and a corner box lies whole in the tile whose core holds its centre)."""
    x0, y0, x1, y1 = region
    out = []
    xs, ys = _cuts(x0, x1, factor), _cuts(y0, y1, factor)
    for a0, a1, c0, c1 in ys:
        for b0, b1, d0, d1 in xs:
            out.append(((b0, a0, b1, a1), (d0, c0, d1, c1)))
    return out


def _cuts(lo: int, hi: int, factor: float) -> list[tuple[int, int, float, float]]:
    """One side of ``_tiles``: (start, end, core start, core end) in view px."""
    n = max(1, int(np.ceil(((hi - lo) * factor - TILE_OVERLAP) / (ZOOM_LONG_MAX - TILE_OVERLAP))))
    if n == 1:
        return [(lo, hi, float("-inf"), float("inf"))]
    step = (hi - lo) / n
    half = TILE_OVERLAP / 2 / factor
    out = []
    for k in range(n):
        a, b = lo + k * step, lo + (k + 1) * step
        out.append((max(lo, int(a - half)), min(hi, int(np.ceil(b + half))),
                    float("-inf") if k == 0 else a, float("inf") if k == n - 1 else b))  # fmt: skip
    return out


def _inside(s: Spot, core: tuple[float, float, float, float]) -> bool:
    return core[0] <= s.x < core[2] and core[1] <= s.y < core[3]


def _zoom(
    found: list[Corner],
    region_corners: list[Corner],
    shape: tuple[int, int],
    found_at: float,
    factor_min: float,
):
    """Where and how finely to look again at ``found`` (seen at ``found_at`` picture px per view px):
    the region (``zoom_region``) and the factor, at least ``factor_min``, that brings their boxes to
    TARGET_BOX, but never large boxes past BOX_MAX; None when they came out SMALL_BOX or more."""
    box_view = float(np.median([c.spot.long for c in found]))
    if box_view * found_at >= SMALL_BOX:
        return None
    region = zoom_region(found + region_corners, box_view, shape)
    factor = max(factor_min, TARGET_BOX / box_view)  # picture px per view px: boxes TARGET_BOX long
    return region, min(factor, BOX_MAX / _typical_long(found))  # ... but large boxes never past BOX_MAX


def _same_box(a: Spot, b: Spot) -> bool:
    """Whether two spots are one corner box seen twice: centres within half a box, sizes alike (a small
    region on a pip of a large card is not its corner)."""
    return bool(np.hypot(a.x - b.x, a.y - b.y) < a.long / 2 and 0.6 < b.long / a.long < 1.6)


def _too_large(before: list[Corner], now: list[Corner], factor: float) -> list[Corner]:
    """The corners of an earlier look whose boxes come out past CARRY_BOX at ``factor`` (too large for
    the net to see there), sure enough (CARRY_SCORE), that no corner of the look at ``factor`` covers:
    cards near the camera in a photo whose small regions (far cards, a printed table) made the look
    zoom in (9670-00338: four large cards on newspaper columns, refused before)."""
    out = []
    for c in before:
        if c.spot.long * factor <= CARRY_BOX or c.score < CARRY_SCORE:
            continue
        if not any(_same_box(c.spot, o.spot) for o in now):
            out.append(replace(c, carried=True))
    return out


def _allowed(region: tuple[int, int, int, int], factor: float, found: list[Corner]) -> float:
    """The factor a zoomed look of ``region`` takes when ``factor`` is asked: as asked where its picture
    is at most ZOOM_LONG_MAX long; held to that where this leaves at least TILE_FROM of the factor
    asked (boxes a little small, within what the net learnt) or where a box found surely (CARRY_SCORE)
    would come out past BOX_MAX (large cards near the camera); else looked at in tiles, as asked but
    for ZOOM_AREA_MAX px in all."""
    w, h = region[2] - region[0], region[3] - region[1]
    capped = min(factor, ZOOM_LONG_MAX / max(w, h, 1))
    if capped >= TILE_FROM * factor:
        return capped
    tiled = min(factor, float(np.sqrt(ZOOM_AREA_MAX / max(w * h, 1))))
    sure = [c.spot.long for c in found if c.score >= CARRY_SCORE]
    if sure and max(sure) * tiled > BOX_MAX:
        return capped
    return max(capped, tiled)


def _surer(now: list[Corner], before: list[Corner]) -> bool:
    """Whether a zoomed look found more corners surely (CARRY_SCORE) than the look before (KEEP_SURER)."""
    sure = [sum(c.score >= CARRY_SCORE for c in look) for look in (now, before)]
    return KEEP_SURER and sure[0] > sure[1]


def _zoom_in(
    photo: Photo,
    model: LocatorModel,
    plan: tuple[tuple[int, int, int, int], float] | None,
    best: list[Corner],
    at: float,
    follow_weak: bool = False,
    looks: int = ZOOM_LOOKS,
) -> tuple[list[Corner], bool, float]:
    """The zoomed looks (at most ``looks``) that ``plan`` starts, from corners ``best`` found at ``at``
    picture px per view px: the corners of the last look kept (with those of earlier looks too large
    for it, ``_too_large``), whether one was, and its factor."""
    shape = photo.image.shape[:2]
    zoomed, kept = False, []  # kept: corners of earlier looks too large for the later ones
    for _ in range(looks):
        if plan is None:
            break
        region, factor = plan
        factor = _allowed(region, factor, best)
        if factor <= at * 1.2:
            break
        corners, weak = _look(photo, model, region, factor, REGION_MIN if follow_weak else None)
        if not corners or (len(corners) < ZOOM_KEEP * len(best) and not _surer(corners, best)):
            break
        kept = _too_large(kept + best, corners, factor)
        best, zoomed, at = corners, True, factor
        # ``follow_weak``: the first look found no corner surely, so this one looked at the whole
        # photo, and its weak traces say where cards too far to find surely lie (9671-00039: of four
        # fans going away from the camera, the farther two only weakly). Other looks' weak traces are
        # not followed: on textured tables they widen the next look, and it loses detail (9677-00061)
        plan = _zoom(corners, weak, shape, factor, factor)
        follow_weak = False
    return best + kept, zoomed, at


def locate_corners(photo: Photo, model: LocatorModel | None = None, *, as_if_none: bool = False) -> Found:
    """The corners in ``photo`` whose index shows (view px of ``photo.image``): the whole photo looked
    at the net's size, then zoomed where it found corners (sure or weak) until their boxes come out
    about TARGET_BOX long; at most ZOOM_LOOKS zoomed looks (a second where the first one's boxes came
    out still small: the first look's sizes are rough, and where it found no corner surely, or fewer
    than FEW_SURE small ones, it looked at the whole photo at twice its scale, and then also where that
    look saw weak traces).
    ``as_if_none``: the first look's corners set aside, as though it had found none surely (what the
    reader asks when no corner found reads as a card: ``reader.read_cards``)."""
    model = model or load_locator()
    long_side = int(model.meta["input"]["long_side"])
    zoom = float(model.meta["input"].get("zoom", 2.0))
    view = photo.image
    shape = view.shape[:2]
    f = long_side / max(shape)
    # (``as_if_none``: the first look is not taken at all, its weak traces unused where it found none)
    found, weak = ([], []) if as_if_none else _search(model, view, f, np.zeros(2), weak=REGION_MIN)
    plan = _zoom(found, weak, shape, f, zoom * f) if found else None
    best, zoomed, at = found, False, f
    if not found or (plan is not None and len(found) < FEW_SURE):
        # nothing surely, or a few small corners: the whole photo at twice the scale (looking only round
        # the weak traces left the cards whose corners left none unsearched: 9671-00039, two fans of
        # four, nothing flagged), with a look more where it stands in for the first look's zoom
        whole = ((0, 0, shape[1], shape[0]), zoom * f)
        looks = ZOOM_LOOKS + (1 if found else 0)
        best, zoomed, at = _zoom_in(photo, model, whole, found, f, follow_weak=True, looks=looks)
    if found and not zoomed:
        # round the first look's corners (also where the whole photo's look found fewer: a textured
        # table, 9684-00299)
        best, zoomed, at = _zoom_in(photo, model, plan, found, f)
    if not best and RESCUE_LONG / max(shape) > at * 1.2:
        # nothing anywhere: the cards may lie far away, their boxes a few px at every look so far
        at = RESCUE_LONG / max(shape)
        best = _look(photo, model, (0, 0, shape[1], shape[0]), at)[0]
        if best:
            best = _zoom_in(photo, model, _zoom(best, [], shape, at, at), best, at)[0]
            zoomed = True
    return Found(tuple(best), zoomed)

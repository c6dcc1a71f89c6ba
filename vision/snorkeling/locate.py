"""Find the diver mats and the central pile in a photo.

The locator net (``models/snorkeling-locator.onnx``) draws two maps of the photo at its input size
(512 px long side): the diver mats' regions (a pile lies on its mat, so the region holds it) and the
central pile's top card. Each region of the mats map is one mat: its smallest rotated rectangle
gives the mat's centre, long side and axis (``crops.Spot``), which is all the card model's crop
needs. Where the mats come out small (a table far away), the photo is searched again at twice the
size, and then in a window round the mats found, brought to the size at which the net reads mats
best, so a table is found at any size in the frame (coarse to fine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.locator_net import LocatorModel, load_locator_model, run_locator
from vision.photo_io import Photo
from vision.snorkeling.crops import MAT_MM, Spot
from vision.spots import spot_and_short

MODEL_NAME = "snorkeling-locator.onnx"
WEAK_MIN = 0.4  # a region above this only is a mat only if the card model reads one there
REGION_MIN = 0.7  # a map pixel belongs to a mat's region from this probability (0.5 joins neighbours)
CENTRE_MIN = 0.5  # the same for the central pile's top card
MIN_AREA = 12  # map px: a smaller region is noise (a mat at the smallest size the simulator draws spans ~60)
SMALL_MAT = 26.0  # input px: mats whose long side is under this are searched again at twice the size
ZOOM_LONG_MAX = 1280  # the second search's picture, long side at most (px)
# a table whose mats come out under WINDOW_MAT input px at those searches is searched once more in a
# window round its mats (WINDOW_MARGIN mat lengths beyond them), brought to the size at which they
# come out WINDOW_MAT long (the window's long side at most ZOOM_LONG_MAX). The net learnt mats about
# 28-94 px long (whole photos and windows 1.5 times larger; dev seed 9643's mats are 28-63 px in the
# whole photo, 5th-95th percentiles); a stress photo's come out 23-56 (seed 9645), and the far tables'
# mats were the most missed. Dev stress seeds 9644 + 9645 (400 photos), rounds scored exactly: 374
# without the window, 383 at 42 px, 378 at 48, 374 at 54, 380 at 60; everyday seed 9643 (150): 147
# without, 146 at 42 (a look-alike mat number, flagged), 147 at 48 and 54
WINDOW_MAT = 42.0
WINDOW_MARGIN = 2.0
JOIN = 0.7  # of a mat's length: the gap closed between pieces of one mat's region (``_joined``)
JOIN_LONGEST = 1.6  # mats: a joined region longer than this is two mats or more, not one in pieces
MAT_ASPECT = MAT_MM[0] / MAT_MM[1]  # a diver mat's width over its length


def mat_length(region: Region) -> float:
    """The length of the mat ``region`` holds (view px): its long side, or its width over a mat's
    shape (``MAT_ASPECT``) where that is less. The central pile or a hand of cards lying along a
    mat's length joins its region and doubles its long side but not its width (dev seed 9644: two
    2-player tables read as none so, their mats' size taken as 2.4 and 1.7 times the truth)."""
    if region.short is None:
        return float(region.spot.long)
    return float(min(region.spot.long, region.short / MAT_ASPECT))


def mats_long(regions: Sequence[Region]) -> float:
    """The mats' common long side (view px): the median of the regions' mat lengths
    (``mat_length``), each region weighted by its area. The mats are the map's large regions; the
    small ones are mostly not mats (a card's corner, a pencil, the tiles of a table in a mat's
    colour): on a busy table they outnumber the mats, and a plain median took their size (on dev
    seed 9642 a quarter of the photos came out under 0.85 of the mats' size, down to 0.18). On dev
    seed 9644 (150 stress photos) this comes out at 1.04 of the truth mats' median length (5th-95th
    percentile 0.87-1.27; the long sides alone: 1.15, 1.03-1.37)."""
    if not regions:
        raise ValueError("the size of no mats")
    ordered = sorted(regions, key=mat_length)
    half = sum(r.area for r in ordered) / 2
    seen = 0.0
    for r in ordered:
        seen += r.area
        if seen >= half:
            return mat_length(r)
    return mat_length(ordered[-1])


@lru_cache(maxsize=2)
def load_locator(path: str | None = None) -> LocatorModel:
    return load_locator_model(path, MODEL_NAME, task="snorkeling-locator")


@dataclass(frozen=True)
class Region:
    """A region of one map, in the photo's reduced view: where it lies, how sure (its highest
    probability), whether it touches the photo's edge, and its size in map pixels."""

    spot: Spot
    score: float
    area: int
    at_edge: bool
    weak: bool = False  # only above WEAK_MIN: read by the card model, not counted in the mats' size
    joined: bool = False  # pieces of one region joined (``_joined``): weak too, but looked at closer
    short: float | None = None  # its rectangle's short side (view px; None: not measured)


@dataclass(frozen=True)
class Found:
    mats: tuple[Region, ...]
    centre: Region | None
    long_side: int  # the picture's long side the net saw

    @property
    def strong(self) -> tuple[Region, ...]:
        """The regions the net is sure are mats (some of the weak ones may be mats too)."""
        return tuple(m for m in self.mats if not m.weak)


def _regions(heat: np.ndarray, to_view: float, offset: float, threshold: float | None = None) -> list[Region]:
    """Each connected region of ``heat`` above ``threshold`` (``REGION_MIN``), as a Spot in view px."""
    mask = (heat > (REGION_MIN if threshold is None else threshold)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    h, w = heat.shape
    out = []
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < MIN_AREA:
            continue
        ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        # pixel centres: the region reaches half a pixel beyond them on every side
        corners = (pts[:, None, :] + np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])).reshape(
            -1, 2
        )
        spot, short = spot_and_short(corners)
        view = Spot((spot.x + offset) * to_view, (spot.y + offset) * to_view, spot.long * to_view, spot.angle)
        at_edge = x == 0 or y == 0 or x + bw == w or y + bh == h
        out.append(
            Region(
                view,
                float(heat[y : y + bh, x : x + bw][labels[y : y + bh, x : x + bw] == i].max()),
                area,
                at_edge,
                short=short * to_view,
            )
        )
    return out


def _joined(heat: np.ndarray, regions: list[Region], to_view: float, offset: float) -> list[Region]:
    """The regions a mat with a dark card on it leaves in pieces, joined: the net lights the mat
    round the Lanternfish but not the card itself, so the mat comes out as two strips or a ring on
    either side of it (seen on dev photos in hard shadow). The map's mats above ``REGION_MIN`` closed
    over ``JOIN`` of a mat's length (the large regions' size): each closed region that joins two
    regions or more, no longer than ``JOIN_LONGEST`` mats, is one more region, weak (the card model
    tells whether it is a mat)."""
    strong = [r for r in regions if not r.weak]
    if len(strong) < 2:
        return []
    mat = mats_long(strong) / to_view  # map px
    size = max(3, int(round(JOIN * mat)) | 1)
    mask = (heat > REGION_MIN).astype(np.uint8)
    closed = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    out = []
    for r in _regions(np.where(closed > 0, np.maximum(heat, REGION_MIN + 1e-3), 0.0), to_view, offset):
        if r.spot.long > JOIN_LONGEST * mat * to_view:
            continue
        # the pieces inside it: those whose centres it holds, of the regions found
        inside = [
            q
            for q in strong
            if abs(q.spot.x - r.spot.x) < r.spot.long / 2 and abs(q.spot.y - r.spot.y) < r.spot.long / 2
        ]
        if len(inside) >= 2:
            out.append(replace(r, weak=True, joined=True, score=max(q.score for q in inside)))
    return out


def _search(model: LocatorModel, image: np.ndarray, long_side: int) -> Found:
    h, w = image.shape[:2]
    f = long_side / max(h, w)
    size = (max(16, round(w * f)), max(16, round(h * f)))
    picture = cv2.resize(image, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    maps = run_locator(model, picture)
    out = model.meta["outputs"]["maps"]
    names = out["channels"]
    stride, offset = float(out["stride"]), float(out["offset"])
    # map px j lies at picture px j * stride + offset, view px (j * stride + offset) / f (to half a px)
    to_view = stride / f
    shift = offset / stride
    heat = maps[names.index("mats")]
    mats = _regions(heat, to_view, shift)
    # mats the net is unsure of (a dark Lanternfish pile in dim light): regions above WEAK_MIN that
    # hold no pixel above REGION_MIN; the card model tells whether they are mats
    weak = [r for r in _regions(heat, to_view, shift, WEAK_MIN) if r.score < REGION_MIN]
    mats += [replace(r, weak=True) for r in weak]
    mats += _joined(heat, mats, to_view, shift)
    centres = _regions(maps[names.index("centre")], to_view, shift, CENTRE_MIN)
    centre = max(centres, key=lambda r: r.score * r.area, default=None)
    return Found(tuple(mats), centre, max(size))


def locate_table(photo: Photo, model: LocatorModel | None = None) -> Found:
    """The mats and the central pile in ``photo`` (view px of ``photo.image``)."""
    model = model or load_locator()
    long_side = int(model.meta["input"]["long_side"])
    found = _search(model, photo.image, long_side)
    view_long = max(photo.image.shape[:2])
    if found.strong:
        mat_input = mats_long(found.strong) * long_side / view_long
        small = mat_input < SMALL_MAT
    else:
        small = True
    if small and view_long > long_side:
        zoomed = _search(model, photo.image, min(2 * long_side, ZOOM_LONG_MAX, view_long))
        if len(zoomed.strong) >= len(found.strong):
            found = zoomed
    if found.strong:
        window = _window_search(model, photo.image, found)
        if window is not None and len(window.strong) >= len(found.strong):
            found = window
    return found


def _window_search(model: LocatorModel, image: np.ndarray, found: Found) -> Found | None:
    """``image`` searched again in a window round the mats ``found`` (their strong regions), brought
    to the size where the mats come out ``WINDOW_MAT`` input px long; None where they do already."""
    mat = mats_long(found.strong)
    view_long = max(image.shape[:2])
    if mat * found.long_side / view_long >= WINDOW_MAT:
        return None
    h, w = image.shape[:2]
    margin = WINDOW_MARGIN * mat
    xs = [r.spot.x for r in found.strong]
    ys = [r.spot.y for r in found.strong]
    x0, x1 = max(0, int(min(xs) - margin)), min(w, int(max(xs) + margin) + 1)
    y0, y1 = max(0, int(min(ys) - margin)), min(h, int(max(ys) + margin) + 1)
    window_long = max(x1 - x0, y1 - y0)
    size = int(min(ZOOM_LONG_MAX, window_long * WINDOW_MAT / mat))
    if size <= found.long_side * window_long / view_long * 1.1:
        return None  # no finer than the searches already made
    inner = _search(model, image[y0:y1, x0:x1], size)

    def placed(r: Region) -> Region:
        s = replace(r.spot, x=r.spot.x + x0, y=r.spot.y + y0)
        # the window's border is the photo's only where it is one
        edge = r.at_edge and (s.x - s.long < 0 or s.y - s.long < 0 or s.x + s.long > w or s.y + s.long > h)
        return replace(r, spot=s, at_edge=edge)

    return Found(
        tuple(placed(r) for r in inner.mats),
        None if inner.centre is None else placed(inner.centre),
        found.long_side,
    )

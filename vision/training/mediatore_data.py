"""Training data for the Mediatore reader, cut from simulated photos of won cards with their truth.

One simulated photo (seed 1, below the held-out seeds; every fourth from the stress world) gives:

- two locator samples (picture, corners map, centres map), 384 x 512 (portrait photos stored
  transposed): the whole photo at the locator's size, and a window of the photo at the scale of the
  reader's second, zoomed look, where the corner boxes come out ``window_box`` px long (version 2:
  version 1 took a window of the photo at twice the locator's size, where the boxes were a median
  24 px long, while the reader's zoomed look brings them to ~56 px: the net was asked to find boxes
  twice the size of nearly all it had learnt). ``corners``: every corner box whose index shows (the
  truth's ``uncovered`` at least ``SHOWN``), shrunk about its centre; ``centres``: a small disk at each;
- corner crops, cut as the reader cuts them (``vision.mediatore.crops``, jittered, either way up,
  from the photo brought to about the crop's scale): each corner that shows (rank, suit), and
  "none" crops: corners that cards above hide, card bodies and the table.

A second set (``FINE``: seed 2, photos rendered at 3200 px, crops only) gives the corner model the
sharper corners of a 12 MP photo, which the 2000 px renders (small cards: a corner box ~30 px long)
cannot show.

Cached under ``build/mediatore-data/`` keyed by every parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.mediatore.crops import BOX_SHRINK, CORNER_SPAN, Spot, box_spot, crop_corner
from vision.mediatore.heads import RANK_LABELS, SUIT_LABELS
from vision.synth.dataset import make_scene
from vision.synth.mediatore_scene import SHOWN
from vision.synth.world import TABLE_FAMILIES, World
from vision.training.common import build_maps_and_crops, cache_path
from vision.training.locator_data import fill_polygons

HIDDEN = 0.5  # a corner box at most this much uncovered is a "none" crop (between: left out) ...
# ... but one between whose rank index is at most this much uncovered is a "none" crop too (version 3
# of the located sets): its suit symbol shows and its rank does not, and a model that never saw one
# guesses the rank (on fresh photos 9679-00199: a 2 of bastoni whose "2" a card covers, read as the
# ace at 91%)
INDEX_HIDDEN = 0.5
CENTRE_RADIUS = 0.3  # the centres map's disk, in box widths
FULL_LONG_SIDE = 4000  # a 12 MP photo's long side, as `scorecam synth` writes by default


@dataclass(frozen=True)
class DataSpec:
    seed: int = 1
    n: int = 480
    render_long_side: int = 2000
    input_long: int = 512
    input_short: int = 384
    window_zoom: float = 2.0  # the reader's zoomed look: at least this many times the first look's scale
    window_box: tuple[float, float] = (28.0, 100.0)  # the window's box long side (px), log-uniform
    crop_size: int = 48
    crop_span: float = CORNER_SPAN
    crop_k: tuple[float, float] = (0.7, 1.6)  # photo px per crop px in the picture crops are cut from
    box_shrink: float = BOX_SHRINK
    second_crop: float = 0.4  # chance of a second, differently jittered crop of a corner that shows
    hidden_crops: int = 6
    body_crops: int = 3
    table_crops: int = 3
    stress_every: int = 4
    crops_only: bool = False  # a set for the corner model alone (no locator samples)
    full_every: int = 2  # every this many-th photo rendered at FULL_LONG_SIDE, as a 12 MP photo (0: none)
    version: int = 2

    def cache_path(self) -> Path:
        return cache_path(self, "mediatore-data", "mediatore")


FINE = DataSpec(seed=2, n=300, render_long_side=3200, crops_only=True, full_every=0)


def card_label(card_id: str) -> tuple[int, int]:
    rank, _, suit = card_id.partition("-")
    return RANK_LABELS.index(rank), SUIT_LABELS.index(suit)


def shown_boxes(truth: dict) -> list[tuple[str, np.ndarray]]:
    """(card, corner box quad) of every corner whose index shows."""
    return [
        (c["card"], np.array(c["corner_boxes"][w], np.float64))
        for c in truth["cards"]
        for w, share in c["uncovered"].items()
        if share >= SHOWN
    ]


def _shrunk(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(0)
    return centre + (quad - centre) * factor


def _disk(shape: tuple[int, int], quads: list[np.ndarray]) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    for q in quads:
        spot = box_spot(q)
        r = max(1.0, CENTRE_RADIUS * spot.long * 13.0 / 27.0)
        c = np.round(np.array([spot.x, spot.y]) * 16).astype(np.int32)
        cv2.circle(m, (int(c[0]), int(c[1])), int(round(r * 16)), 255, -1, cv2.LINE_AA, 4)
    return m


def _landscape(photo: np.ndarray, boxes: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """A portrait photo and its boxes transposed (the samples are stored landscape)."""
    if photo.shape[0] <= photo.shape[1]:
        return photo, boxes
    return np.ascontiguousarray(photo.transpose(1, 0, 2)), [q[:, ::-1] for q in boxes]


def _layers(shape: tuple[int, int], boxes: list[np.ndarray], shrink: float) -> list[np.ndarray]:
    return [fill_polygons(shape, [_shrunk(q, shrink) for q in boxes]), _disk(shape, boxes)]


def _pad(
    spec: DataSpec, picture: np.ndarray, layers: list[np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Padded to at least the stored size (a photo wider or taller than 4:3, a window past its edge)."""
    ph, pw = picture.shape[:2]
    pad_y, pad_x = max(0, spec.input_short - ph), max(0, spec.input_long - pw)
    if pad_y or pad_x:
        picture = cv2.copyMakeBorder(picture, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
        layers = [np.pad(m, ((0, pad_y), (0, pad_x))) for m in layers]
    return picture, layers


def _whole(spec: DataSpec, photo: np.ndarray, boxes: list[np.ndarray], rng: np.random.Generator):
    """The whole photo at the locator's size (the reader's first look), a stored-size window of it."""
    h, w = photo.shape[:2]
    f = spec.input_long / max(h, w)
    picture = cv2.resize(photo, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    # px centres: a point x of the photo lies at (x + 0.5) * f - 0.5 in the picture
    picture, layers = _pad(spec, picture, _layers(picture.shape[:2], [(q + 0.5) * f - 0.5 for q in boxes],
                                                  spec.box_shrink))  # fmt: skip
    ph, pw = picture.shape[:2]
    y0, x0 = int(rng.integers(ph - spec.input_short + 1)), int(rng.integers(pw - spec.input_long + 1))
    window = (slice(y0, y0 + spec.input_short), slice(x0, x0 + spec.input_long))
    return np.ascontiguousarray(picture[window]), np.stack([m[window] for m in layers], -1)


def _zoomed(spec: DataSpec, photo: np.ndarray, boxes: list[np.ndarray], rng: np.random.Generator):
    """A stored-size window of the photo at the zoomed look's scale: its boxes ``window_box`` long,
    about a corner that shows (the look is taken where the first one found corners)."""
    h, w = photo.shape[:2]
    longs = [box_spot(q).long for q in boxes]
    lo, hi = np.log(spec.window_box)
    f = float(np.exp(rng.uniform(lo, hi))) / float(np.median(longs)) if boxes else 1.0
    f = max(f, spec.window_zoom * spec.input_long / max(h, w))  # never coarser than the reader looks
    win_w, win_h = spec.input_long / f, spec.input_short / f  # the window in photo px
    if boxes:
        centre = box_spot(boxes[int(rng.integers(len(boxes)))])
        cx = centre.x - rng.uniform(-0.3, 0.3) * win_w
        cy = centre.y - rng.uniform(-0.3, 0.3) * win_h
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    x0 = int(np.clip(cx - win_w / 2, 0, max(0.0, w - win_w)))
    y0 = int(np.clip(cy - win_h / 2, 0, max(0.0, h - win_h)))
    x1, y1 = min(w, int(np.ceil(x0 + win_w)) + 1), min(h, int(np.ceil(y0 + win_h)) + 1)
    part = photo[y0:y1, x0:x1]
    size = (max(1, round((x1 - x0) * f)), max(1, round((y1 - y0) * f)))
    picture = cv2.resize(part, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    fx, fy = size[0] / (x1 - x0), size[1] / (y1 - y0)
    scaled = [(q - [x0, y0] + 0.5) * [fx, fy] - 0.5 for q in boxes]
    picture, layers = _pad(spec, picture, _layers(picture.shape[:2], scaled, spec.box_shrink))
    window = (slice(0, spec.input_short), slice(0, spec.input_long))
    return np.ascontiguousarray(picture[window]), np.stack([m[window] for m in layers], -1)


def _maps(spec: DataSpec, photo: np.ndarray, truth: dict, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    photo, boxes = _landscape(photo, [q for _, q in shown_boxes(truth)])
    return (*_whole(spec, photo, boxes, rng), *_zoomed(spec, photo, boxes, rng))


def _jitter(spot: Spot, rng: np.random.Generator, shift: float = 0.07, turn: float = 8.0) -> Spot:
    dx, dy = rng.normal(0, shift * spot.long, 2)
    angle = spot.angle + float(rng.normal(0, turn)) + 180.0 * int(rng.random() < 0.5)
    return Spot(spot.x + dx, spot.y + dy, spot.long * float(np.exp(rng.normal(0, 0.08))), angle)


def _crops(
    spec: DataSpec, photo: np.ndarray, truth: dict, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    shown = [(c, box_spot(q)) for c, q in shown_boxes(truth)]
    all_boxes = [box_spot(np.array(q)) for c in truth["cards"] for q in c["corner_boxes"].values()]
    box_long = float(np.median([s.long for s in all_boxes]))
    k = float(rng.uniform(*spec.crop_k))
    f = min(1.0, spec.crop_size * k / (spec.crop_span * box_long))
    picture = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else photo
    spots: list[tuple[Spot, tuple[int, int]]] = []
    for card_id, spot in shown:
        label = card_label(card_id)
        spots.append((_jitter(spot, rng), label))
        if rng.random() < spec.second_crop:
            spots.append((_jitter(spot, rng, 0.1, 12.0), label))
    hidden = [
        box_spot(np.array(c["corner_boxes"][w]))
        for c in truth["cards"]
        for w, share in c["uncovered"].items()
        if share <= HIDDEN
    ]
    for i in rng.permutation(len(hidden))[: spec.hidden_crops]:
        spots.append((_jitter(hidden[int(i)], rng), (0, -1)))
    bodies = [np.array(c["corners"], np.float64).mean(0) for c in truth["cards"]]
    h, w = photo.shape[:2]
    centres = [bodies[int(i)] for i in rng.permutation(len(bodies))[: spec.body_crops]]
    centres += [rng.uniform(0, 1, 2) * [w, h] for _ in range(spec.table_crops)]
    for c in centres:
        spot = Spot(
            float(c[0]), float(c[1]), box_long * float(np.exp(rng.normal(0, 0.1))), float(rng.uniform(0, 360))
        )
        near = min((np.hypot(spot.x - s.x, spot.y - s.y) for _, s in shown), default=np.inf)
        if near > 0.6 * box_long:
            spots.append((spot, (0, -1)))
    crops = np.stack([crop_corner(picture, s.scaled(f), spec.crop_size, spec.crop_span) for s, _ in spots])
    return crops, np.array([lab for _, lab in spots], np.int8)


def make_sample(spec: DataSpec, index: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    world = photo_world(index, spec.stress_every)
    full = spec.full_every and index % spec.full_every == 0
    scene = make_scene(
        "mediatore", spec.seed, index, FULL_LONG_SIDE if full else spec.render_long_side, world=world
    )
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    rng = np.random.default_rng([spec.seed, index, 7])
    crops, labels = _crops(spec, photo, scene.truth, rng)
    if spec.crops_only:
        return (np.zeros((1, 1), np.uint8),) * 4, crops, labels
    return _maps(spec, photo, scene.truth, rng), crops, labels


def build_dataset(spec: DataSpec, log=print) -> dict[str, np.ndarray]:
    """Every sample of ``spec`` (one process), cached on disk."""
    names = ("images", "maps", "win_images", "win_maps")
    return build_maps_and_crops(spec, make_sample, names, log_every=40, log=log)


# ------------------------------------------------------------------------------------------ located crops


@dataclass(frozen=True)
class LocatedSpec:
    """Crops cut where the trained locator finds corners, as the reader cuts them (its decode, its
    spot with the axis turned onto the edges round it, along that axis and across it, and again at
    the size the reader's second read takes): the corner model learns the locator's errors of place,
    size and axis, and what it finds that is no corner. Keyed by the locator file's hash too.

    Version 2 (issue 12): the spots are refined as the reader refines them (``refine_axes``), each is
    also cut at its true box's size (the reader's second read, at the surely read neighbours' size),
    and every ``full_every``-th photo is rendered at 12 MP, as the photos the reader is measured on
    (a 2000 px render shows a small card's corner box only ~30 px long: softer than a phone's).
    Version 3 (the shipped model's since 2026-12-06): a partly covered corner whose rank index is hidden
    (INDEX_HIDDEN) is a "none" crop."""

    seed: int = 3
    n: int = 300
    render_long_side: int = 2000
    locator_sha: str = ""
    match: float = 0.35  # a found corner within this many box long sides of a corner that shows is it
    stress_every: int = 4
    full_every: int = 2  # every this many-th photo rendered at FULL_LONG_SIDE (0: none)
    resize_sd: float = 0.05  # the second read's size: the true box's long side, times exp(N(0, sd))
    version: int = 3  # 3 (the shipped model's): a partly covered corner whose rank is hidden a "none" crop
    tables: tuple[str, ...] = ()  # only these table families (vision.synth.world; empty: every one)
    lights: tuple[str, ...] = ()  # only these lights (empty: the world's own mix)

    def cache_path(self) -> Path:
        # (tables and lights came later: the sets cut before keep their keys)
        return cache_path(self, "mediatore-data", "mediatore-located", unset=("tables", "lights"))

    def world(self, index: int) -> World | None:
        """The world photo ``index`` is drawn from (``photo_world``)."""
        return photo_world(index, self.stress_every, self.tables, self.lights)


def photo_world(
    index: int, stress_every: int, tables: tuple[str, ...] = (), lights: tuple[str, ...] = ()
) -> World | None:
    """The world a set's photo ``index`` is drawn from: every ``stress_every``-th from the stress world,
    on ``tables`` only and under ``lights`` only where given (None: the everyday world as the scene
    draws it)."""
    stress = index % stress_every == stress_every - 1
    if not (stress or tables or lights):
        return None
    return World(stress=stress, tables=tables or TABLE_FAMILIES, lights=lights or None)


def left_out(box_share: float, index_share: float, version: int) -> bool:
    """Whether the crops leave out a corner found on a box this much uncovered: a partly covered one,
    its rank perhaps legible, perhaps not (as the main set does); from version 3 one whose rank index is
    hidden (INDEX_HIDDEN) is kept, a "none" crop (a corner is a card only from SHOWN)."""
    return HIDDEN < box_share < SHOWN and not (version >= 3 and index_share <= INDEX_HIDDEN)


def index_share(card_truth: dict, which: str) -> float:
    """How much of a corner's rank index no card covers (truths made before the field: the box's share,
    the index taken as covered as much as its box)."""
    return float((card_truth.get("index_uncovered") or card_truth["uncovered"])[which])


def located_sample(spec: LocatedSpec, index: int, locator, corners) -> tuple[np.ndarray, np.ndarray]:
    """Photo ``index``'s crops at the locator's corners and their labels (rank, suit; none: 0, -1)."""
    from dataclasses import replace as _replace

    from vision.mediatore.locate import locate_corners
    from vision.mediatore.reader import LOOKS, _crops
    from vision.mediatore.refine import refine_axes
    from vision.photo_io import decode_photo

    world = spec.world(index)
    full = spec.full_every and index % spec.full_every == 0
    scene = make_scene(
        "mediatore", spec.seed, index, FULL_LONG_SIDE if full else spec.render_long_side, world=world
    )
    photo = decode_photo(scene.jpeg)
    found = locate_corners(photo, locator)
    if not found.corners:
        return np.zeros((0, corners.input_size, corners.input_size, 3), np.uint8), np.zeros((0, 2), np.int8)
    rng = np.random.default_rng([spec.seed, index, 11])
    truth = scene.truth
    boxes = [
        (c["card"], share, box_spot(np.array(c["corner_boxes"][w]) / photo.scale), index_share(c, w))
        for c in truth["cards"]
        for w, share in c["uncovered"].items()
    ]
    spots, labels = [], []
    for s in refine_axes(photo, [c.spot for c in found.corners]):
        near = min(boxes, key=lambda b: np.hypot(b[2].x - s.x, b[2].y - s.y))
        close = np.hypot(near[2].x - s.x, near[2].y - s.y) < spec.match * near[2].long
        if close and left_out(near[1], near[3], spec.version):
            continue
        # the reader's first read at the locator's size, its second at the surely read neighbours'
        # (about the true box's size where there is one, else the region's own, a little off)
        second = near[2].long if close else s.long
        for long in (s.long, second * float(np.exp(rng.normal(0.0, spec.resize_sd)))):
            for size, turn in LOOKS:
                look = _replace(s, long=long * size, angle=s.angle + turn)
                off_axis = abs((look.angle - near[2].angle + 90.0) % 180.0 - 90.0)
                shows = close and near[1] >= SHOWN and off_axis < 45.0
                spots.append(look)
                labels.append(card_label(near[0]) if shows else (0, -1))
    return _crops(photo, spots, corners), np.array(labels, np.int8)


def build_located(spec: LocatedSpec, locator, corners, log=print) -> dict[str, np.ndarray]:
    """Every photo's located crops (one process), cached on disk."""
    import time

    from vision.training.common import read_cache, write_cache

    data = read_cache(spec)
    if data is not None:
        return data
    cv2.setNumThreads(1)
    crops, labels, photo_of = [], [], []
    t0 = time.perf_counter()
    for i in range(spec.n):
        c, lab = located_sample(spec, i, locator, corners)
        crops.append(c)
        labels.append(lab)
        photo_of.append(np.full(len(c), i, np.int32))
        if log and (i + 1) % 40 == 0:
            log(f"  located {i + 1}/{spec.n} ({time.perf_counter() - t0:.0f} s)")
    data = {
        "crops": np.concatenate(crops),
        "labels": np.concatenate(labels),
        "photo": np.concatenate(photo_of),
    }
    return write_cache(spec, data)

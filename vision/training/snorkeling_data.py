"""Training data for the Snorkeling reader, cut from simulated photos with their truth.

One simulated photo (seed 1, below the held-out seeds; every fourth from the stress world) gives:

- two locator samples (picture, mats map, centre map), 384 x 512 (portrait photos stored
  transposed): the whole photo at the locator's size, and a window of the photo 1.5 times larger
  (mats bigger in the frame). ``mats``: every diver mat's quad filled; ``centre``: the central
  pile's top card;
- card crops, cut as the reader cuts them (``vision.snorkeling.crops``, jittered, from the photo
  brought to about the crop's scale): each mat with its pile (mat number, top card), the central
  pile's top card at the same scale (mat "none"), and a few spots that are neither (a hand, the
  deck, the table: mat "none", no card).

A second set (``HeaderSpec``, crops only) gives the header model its crops: the four places a mat's
header discs may lie (``crops.header_spots``, both ends of a jittered mat spot, and of each spot
where the reader read a pile on that mat: its errors of place, size and axis), labelled with the
mat's number at the header's end and "none" at the other, and the same four round a hand or the
deck ("none"); some crops with their colour channels shuffled, so that the numeral's shape, not the
mat's colour, is what it learns.

Cached under ``build/snorkeling-data/`` keyed by every parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.snorkeling.crops import CARD_PER_MAT, HEADER_SPAN, Spot, crop_square, header_spots, spot_of
from vision.snorkeling.heads import COLOR_LABELS, MAT_LABELS, VALUE_LABELS
from vision.synth.dataset import make_scene
from vision.synth.world import World
from vision.training.common import build_maps_and_crops, cache_path
from vision.training.locator_data import fill_polygons


@dataclass(frozen=True)
class DataSpec:
    seed: int = 1
    n: int = 600
    render_long_side: int = 2000
    input_long: int = 512
    input_short: int = 384
    window_zoom: float = 1.5
    crop_size: int = 96
    crop_span: float = 1.3  # crop side over the mat's long side
    crop_k: tuple[float, float] = (0.6, 1.6)  # photo px per crop px in the picture crops are cut from
    mat_crops: int = 2
    centre_crops: int = 3
    other_crops: int = 2
    stress_every: int = 4
    # the second of each mat's crops is cut turned anywhere within this many degrees of the mat's axis,
    # scaled and shifted more (``_wide_jitter``): the reader's spot comes from a region's outline, which
    # a hand of cards, the central pile or a slanted view turns by 15-35 degrees, and a model trained on
    # 4 degrees read a mat turned 20 degrees off as one 85% of the time, 30 degrees 7% (dev seed 9644)
    wide_turn: float = 0.0  # 45 tried (2026-12-03), not shipped: issue 11's note of that day
    version: int = 1

    def cache_path(self) -> Path:
        return cache_path(self, "snorkeling-data", "snorkeling")


def card_label(card: str) -> tuple[int, int]:
    """A card's text as (value, colour) label indices: 3-red -> (3, red); 5 (the Lanternfish) -> (5, none)."""
    value, _, color = card.partition("-")
    return VALUE_LABELS.index(value), COLOR_LABELS.index(color or "none")


def _maps(spec: DataSpec, photo: np.ndarray, truth: dict, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    h, w = photo.shape[:2]
    mats = [np.array(m["corners"], np.float32) for m in truth["mats"]]
    top = [np.array(truth["centre"][-1]["corners"], np.float32)] if truth["centre"] else []
    out = []
    for zoom in (1.0, spec.window_zoom):
        f = zoom * spec.input_long / max(h, w)
        picture = cv2.resize(photo, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        shape = picture.shape[:2]
        layers = [fill_polygons(shape, [q * f for q in quads]) for quads in (mats, top)]
        if shape[0] > shape[1]:  # portrait: stored as landscape
            picture, layers = picture.transpose(1, 0, 2), [m.T for m in layers]
        ph, pw = picture.shape[:2]
        pad_y, pad_x = max(0, spec.input_short - ph), max(0, spec.input_long - pw)
        if pad_y or pad_x:  # a photo wider or taller than 4:3
            picture = cv2.copyMakeBorder(picture, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
            layers = [np.pad(m, ((0, pad_y), (0, pad_x))) for m in layers]
            ph, pw = picture.shape[:2]
        # the window holds a random mat's centre (the whole photo: the window is all of it)
        ys, xs = (
            np.nonzero(layers[0] > 127) if layers[0].any() else (np.array([ph // 2]), np.array([pw // 2]))
        )
        pick = int(rng.integers(len(xs)))
        y0 = int(np.clip(ys[pick] - rng.uniform(0.2, 0.8) * spec.input_short, 0, ph - spec.input_short))
        x0 = int(np.clip(xs[pick] - rng.uniform(0.2, 0.8) * spec.input_long, 0, pw - spec.input_long))
        window = (slice(y0, y0 + spec.input_short), slice(x0, x0 + spec.input_long))
        out.append(np.ascontiguousarray(picture[window]))
        out.append(np.stack([m[window] for m in layers], -1))
    return tuple(out)


def _jitter(spot: Spot, rng: np.random.Generator, shift: float, turn: float) -> Spot:
    dx, dy = rng.normal(0, shift * spot.long, 2)
    angle = spot.angle + float(rng.normal(0, turn)) + 180.0 * int(rng.random() < 0.5)
    return Spot(spot.x + dx, spot.y + dy, spot.long * float(np.exp(rng.normal(0, 0.06))), angle)


def _wide_jitter(spot: Spot, rng: np.random.Generator, turn: float) -> Spot:
    """``spot`` as a region's rough outline may give it: turned uniformly within ``turn`` degrees
    (either way up), 0.1 of its length off-centre and 12% off in size (standard deviations)."""
    dx, dy = rng.normal(0, 0.1 * spot.long, 2)
    angle = spot.angle + float(rng.uniform(-turn, turn)) + 180.0 * int(rng.random() < 0.5)
    return Spot(spot.x + dx, spot.y + dy, spot.long * float(np.exp(rng.normal(0, 0.12))), angle)


def _crops(
    spec: DataSpec, photo: np.ndarray, truth: dict, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    mats = [(m, spot_of(np.array(m["corners"]))) for m in truth["mats"]]
    long_mat = float(np.median([s.long for _, s in mats]))
    k = float(rng.uniform(*spec.crop_k))
    f = min(1.0, spec.crop_size * k / (spec.crop_span * long_mat))
    picture = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else photo
    spots: list[tuple[Spot, tuple[int, int, int]]] = []
    for mat, spot in mats:
        value, color = card_label(mat["pile"][-1]["card"])
        label = (MAT_LABELS.index(str(mat["mat"])), value, color)
        for k in range(spec.mat_crops):  # with ``wide_turn``, the last as a rough outline may give it
            wide = spec.wide_turn and k == spec.mat_crops - 1
            spots.append(
                (_wide_jitter(spot, rng, spec.wide_turn) if wide else _jitter(spot, rng, 0.04, 4.0), label)
            )
    if truth["centre"]:
        top = truth["centre"][-1]
        card = spot_of(np.array(top["corners"]))
        card = Spot(card.x, card.y, card.long / CARD_PER_MAT, card.angle)  # at the mats' scale
        label = (0, *card_label(top["card"]))
        for _ in range(spec.centre_crops):
            spot = _jitter(card, rng, 0.03, 10.0)
            if rng.random() < 0.2:
                spot = Spot(spot.x, spot.y, spot.long, float(rng.uniform(0, 360)))
            spots.append((spot, label))
    others = [np.array(h["cards"][0]) for h in truth["hands"]]
    if truth["deck"]:
        others.append(np.array(truth["deck"]["corners"]))
    for _ in range(spec.other_crops):
        if others and rng.random() < 0.6:
            c = others[int(rng.integers(len(others)))].mean(0)
        else:
            c = rng.uniform(0, 1, 2) * [photo.shape[1], photo.shape[0]]
        spot = Spot(
            float(c[0]), float(c[1]), long_mat * float(np.exp(rng.normal(0, 0.1))), float(rng.uniform(0, 360))
        )
        near = min(np.hypot(spot.x - s.x, spot.y - s.y) for _, s in mats)
        if near > 0.5 * long_mat:
            spots.append((spot, (0, -1, -1)))
    crops = np.stack([crop_square(picture, s.scaled(f), spec.crop_size, spec.crop_span) for s, _ in spots])
    return crops, np.array([lab for _, lab in spots], np.int8)


def make_sample(spec: DataSpec, index: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    world = World(stress=True) if index % spec.stress_every == spec.stress_every - 1 else None
    scene = make_scene("snorkeling", spec.seed, index, spec.render_long_side, world=world)
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    rng = np.random.default_rng([spec.seed, index, 7])
    crops, labels = _crops(spec, photo, scene.truth, rng)
    return _maps(spec, photo, scene.truth, rng), crops, labels


def build_dataset(spec: DataSpec, log=print) -> dict[str, np.ndarray]:
    """Every sample of ``spec`` (one process), cached on disk."""
    names = ("images", "maps", "win_images", "win_maps")
    return build_maps_and_crops(spec, make_sample, names, log_every=50, log=log)


# ------------------------------------------------------------------------------------------ header crops


@dataclass(frozen=True)
class HeaderSpec:
    seed: int = 1  # the card model's training scenes (any seed below the held-out ones)
    n: int = 600
    render_long_side: int = 2000
    crop_size: int = 48
    crop_span: float = HEADER_SPAN  # a disc's crop side over the mat's long side
    crop_k: tuple[float, float] = (0.8, 1.6)  # photo px per crop px (the render's own where it has fewer)
    mat_crops: int = 1  # jittered spots per mat, four crops each
    reader_spots: bool = True  # also each pile's spot as ``read_round`` finds it (the shipped models)
    reader_models: str = ""  # the hashes of the models those spots came from (part of the cache's key)
    other_crops: int = 1  # spots round a hand or the deck, four crops each
    shuffled: float = 0.3  # share of crops with their colour channels shuffled
    stress_every: int = 4
    crops_only: bool = True
    version: int = 1

    def cache_path(self) -> Path:
        return cache_path(self, "snorkeling-data", "snorkeling-headers")


def _header_end(spot: Spot, corners: np.ndarray) -> int:
    """Which end of ``spot`` (0: along its axis, 1: the other; ``header_spots``' order) holds the
    header: the mat's top edge is the truth quad's first side."""
    top = (corners[0] + corners[1]) / 2 - np.array([spot.x, spot.y])
    a = np.radians(spot.angle)
    return 0 if top @ np.array([np.cos(a), np.sin(a)]) > 0 else 1


def _read_spots(jpeg: bytes, mats: list[tuple[dict, Spot]]) -> list[tuple[dict, Spot]]:
    """(truth mat, spot) for each pile the reader reads within a third of a mat of a truth mat's
    centre (photo px of the render)."""
    from vision.errors import PhotoError
    from vision.photo_io import decode_photo
    from vision.snorkeling.reader import read_round

    photo = decode_photo(jpeg)
    try:
        _, reading = read_round(photo)
    except PhotoError:
        return []
    out = []
    for pile in reading.piles:
        spot = pile.spot.scaled(photo.scale)
        mat, near = min(mats, key=lambda m: np.hypot(m[1].x - spot.x, m[1].y - spot.y))
        if np.hypot(near.x - spot.x, near.y - spot.y) < near.long / 3:
            out.append((mat, spot))
    return out


def make_header_sample(spec: HeaderSpec, index: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    world = World(stress=True) if index % spec.stress_every == spec.stress_every - 1 else None
    scene = make_scene("snorkeling", spec.seed, index, spec.render_long_side, world=world)
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    truth = scene.truth
    rng = np.random.default_rng([spec.seed, index, 13])
    mats = [(m, spot_of(np.array(m["corners"]))) for m in truth["mats"]]
    long_mat = float(np.median([s.long for _, s in mats]))
    k = float(rng.uniform(*spec.crop_k))
    f = min(1.0, spec.crop_size * k / (spec.crop_span * long_mat))
    picture = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else photo
    spots: list[tuple[Spot, int]] = []
    looks = [(m, _jitter(s, rng, 0.05, 6.0)) for m, s in mats for _ in range(spec.mat_crops)]
    if spec.reader_spots:
        looks += _read_spots(scene.jpeg, mats)
    for mat, look in looks:
        number = MAT_LABELS.index(str(mat["mat"]))
        end = _header_end(look, np.array(mat["corners"], np.float64))
        spots += [(d, number if j // 2 == end else 0) for j, d in enumerate(header_spots(look))]
    others = [np.array(h["cards"][0]) for h in truth["hands"]]
    if truth["deck"]:
        others.append(np.array(truth["deck"]["corners"]))
    for i in rng.permutation(len(others))[: spec.other_crops]:
        c = others[int(i)].mean(0)
        look = Spot(
            float(c[0]), float(c[1]), long_mat * float(np.exp(rng.normal(0, 0.1))), float(rng.uniform(0, 360))
        )
        if min(np.hypot(look.x - s.x, look.y - s.y) for _, s in mats) > 0.7 * long_mat:
            spots += [(d, 0) for d in header_spots(look)]
    crops = np.stack([crop_square(picture, s.scaled(f), spec.crop_size, spec.crop_span) for s, _ in spots])
    for j in np.nonzero(rng.random(len(crops)) < spec.shuffled)[0]:
        crops[j] = crops[j][..., rng.permutation(3)]
    labels = np.array([[lab] for _, lab in spots], np.int8)
    return (np.zeros((1, 1), np.uint8),) * 4, crops, labels


def build_headers(spec: HeaderSpec, log=print) -> dict[str, np.ndarray]:
    """Every header sample of ``spec`` (one process), cached on disk."""
    names = ("images", "maps", "win_images", "win_maps")
    return build_maps_and_crops(spec, make_header_sample, names, log_every=50, log=log)

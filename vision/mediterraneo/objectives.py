"""Read the two objective cards lying beside a Mediterráneo sea: each one's +2 and -1 species, and
whose it is by its frame shape (circle or square).

The sea's lattice (``FoundSea.g``, photo px -> cells) is also the table plane: the objective cards lie
on it, card-sized (2 x 3 cells). So the reader looks at the table as the lattice sees it, not at the
photo, and keys on the objective side's printed layout, not on any colour:

1. **find**: the plane around the sea at ``FIND_PX`` px a cell, matched (normalised correlation, the
   table's brightness and hue cancel out) against the mean of the 16 objective faces in its four
   quarter turns; the best separate peaks are the candidate cards;
2. **read**: each candidate cut upright in its own frame at the faces' resolution, at a few small
   turns (cards lie by hand), aligned on the mean face (then fitted to it closely by a homography,
   ECC, kept where a face fits better: far from the sea the lattice's perspective is extrapolated),
   and compared with every face where faces differ: the +2 badge, the -1 badge and the set's
   emblem. The best face names the card;
3. the best card of each frame is that player's objective, with a confidence from how far its face
   stands above the runner-up (the same card of the other set included) and how well the layout fits;
4. where a player's card is still not read surely, steps 1-2 once more in a shade-free look (the log
   image less its blur, faces likewise: ``_shade_free``): a hard shadow's edge across a card outweighs
   its print in the plain image.

The reference faces (``models/mediterraneo-objectives.npz``) are drawn by the kit's own art,
``python -m vision.training.mediterraneo_objective_faces``; the reader never imports the simulator.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scoring.mediterraneo import Objective
from vision.lattice import apply_h
from vision.onnx_model import models_dir
from vision.photo_io import Photo

FACES_FILE = "mediterraneo-objectives.npz"
PLAYERS = ("circle", "square")  # a card's frame shape is whose it is
FIND_PX = 10  # px a cell of the plane the cards are looked for in
DETAIL_CELLS = 0.5  # the blur taken off the plane before looking for cards (sigma, cells)
MARGIN_CELLS = 5.0  # how far from the sea's cells the plane reaches (the cards lie beside it)
MAX_PLANE_PX = 400  # the plane's long side at most (a far-off lattice would make it huge)
CANDIDATES = 5  # separate layout peaks read closely
FIND_MIN = 0.2  # a layout peak weaker than this is no card
VALID_MIN = 0.5  # share of a candidate's window that must lie inside the photo
ANGLES = (-6.0, -3.0, 3.0, 6.0)  # small turns tried (degrees): cards lie by hand
SCALES = (0.93, 1.07)  # widths, then heights, tried beside the candidate's (relative)
OTHER_SIZES = (0.75, 1.3)  # sizes looked for where the lattice's own size finds no sure card
SEARCH_MARGIN = 0.35  # cells around a candidate card cut for finding its turn and middle
WINDOW_MARGIN = 0.35  # cells around it cut for aligning it closely
# (x0, y0, x1, y1) in cells of the upright face: where faces differ
REGIONS = {
    "plus": (0.0, 0.0, 1.0, 1.0),
    "minus": (0.0, 1.0, 1.0, 2.0),
    "emblem": (0.55, 2.05, 1.45, 2.95),
    "plus animal": (0.2, 0.2, 0.8, 0.8),
    "minus animal": (0.2, 1.2, 0.8, 1.8),
}
SHIFT_PX = 2  # each region is compared within this many px of where the layout put it
CARD_MIN = 3.0  # of len(REGIONS): a weaker best face is no objective card
MATCH_SURE = 3.5  # the face fit a confident card needs
TEMPERATURE = 0.1  # of the softmax over face scores (sum of three region correlations)
SURE = 0.9  # a card read with less probability than this is flagged
ALIGN_MOVE = 0.25  # of a card's width: the most a corner may move when the face is fitted closely
SHADE_CELLS = 0.25  # the shade-free look: the log image less its blur at this sigma (cells)


@dataclass(frozen=True, eq=False)
class Faces:
    faces: np.ndarray  # (16, 3 * px, 2 * px, 3) float32, upright
    cards: tuple[dict, ...]  # id, frame, plus, minus
    px: int  # px a cell
    shade_free: bool = False  # the faces, and the photo they are matched in, as ``_shade_free`` makes them

    def mean_face(self, px: int) -> np.ndarray:
        mean = self.faces.mean(0)
        if px == self.px:
            return mean
        return cv2.resize(mean, (2 * px, 3 * px), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=2)
def load_faces(path: str | None = None) -> Faces:
    file = Path(path) if path else models_dir() / FACES_FILE
    with np.load(file) as data:
        meta = json.loads(bytes(data["meta"]).decode())
        faces = data["faces"].astype(np.float32)
    return Faces(faces, tuple(meta["cards"]), int(meta["px_per_cell"]))


def _shade_free(image: np.ndarray, sigma: float) -> np.ndarray:
    """The log image less its blur: light is a factor on what a card reflects, so a shadow's edge
    across a card becomes a step that the blur takes off a few px from it, and the card's print is left
    (in the plain image a shadow's step across a card outweighs the badges' print, and the card is
    not found: most of the stress seas lost to the objective cards; but this look loses the faint
    print of dim and overexposed photos, so it is the last look, not the first)."""
    log = np.log(np.asarray(image, np.float32) + 8.0) * 64.0  # (the scale of px values: same fills)
    return log - cv2.GaussianBlur(log, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)


@lru_cache(maxsize=2)
def shade_free_faces(faces: Faces) -> Faces:
    faces_sf = np.stack([_shade_free(face, SHADE_CELLS * faces.px) for face in faces.faces])
    return Faces(faces_sf, faces.cards, faces.px, shade_free=True)


@dataclass(frozen=True)
class ObjectiveCard:
    player: str  # the frame's shape: "circle" or "square"
    objective: Objective
    card: str  # the kit's card id (C1 ... S8)
    confidence: float  # probability of this face among the 16
    match: float  # how well the face fits where faces differ (sum of the regions' correlations)
    layout: float  # how well the objective side's layout fits (normalised correlation)
    second: str  # the runner-up face, in words
    quad: np.ndarray  # 4x2 corners in view px: top-left, top-right, bottom-right, bottom-left of the face
    cut_off: bool  # part of the card lies outside the photo

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE and self.match >= MATCH_SURE and not self.cut_off

    def words(self) -> str:
        return f"{self.player} {self.objective.plus}/{self.objective.minus}"


@dataclass(frozen=True)
class ObjectivesReading:
    cards: tuple[ObjectiveCard, ...]  # at most one a player, in PLAYERS order
    flags: tuple[str, ...]
    ms: float

    @property
    def objectives(self) -> dict[str, Objective] | None:
        """Both players' objectives as read (doubtful ones too: their flags say so); None unless both."""
        if len(self.cards) != len(PLAYERS):
            return None
        return {c.player: c.objective for c in self.cards}

    def missing(self) -> tuple[str, ...]:
        read = {c.player for c in self.cards}
        return tuple(p for p in PLAYERS if p not in read)


def _source(
    photo: Photo, cell_px: float, px: float, box: np.ndarray, shade_free: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The part of the photo inside `box` (view px: x0, y0, x1, y1) where a cell spans 1.25-2.5 x `px`
    (sampled down from there with little aliasing), from a finer decode where the view is too coarse:
    (image, view px -> image px); ``shade_free``: that image as ``_shade_free`` makes it."""
    want = 1.25 * px / max(cell_px, 1e-6)  # image px per view px
    picture, k = photo.image, 1.0
    if want > 1.0:
        picture, scale = photo.at_scale(photo.scale / want)
        k = photo.scale / scale
    h, w = picture.shape[:2]
    x0, y0 = np.clip(np.floor(box[:2] * k) - 2, 0, [w, h]).astype(int)
    x1, y1 = np.clip(np.ceil(box[2:] * k) + 3, 0, [w, h]).astype(int)
    crop = picture[y0:y1, x0:x1]
    # pixel centres: image px = (view px + 0.5) * k - 0.5
    m = np.array([[k, 0, 0.5 * k - 0.5 - x0], [0, k, 0.5 * k - 0.5 - y0], [0, 0, 1]], np.float64)
    # halved (a Gaussian pyramid: fast, and no aliasing) while a cell keeps at least 1.25 x px
    while cell_px * k >= 2.5 * px and min(crop.shape[:2]) >= 8:
        h0, w0 = crop.shape[:2]
        crop = cv2.pyrDown(crop)
        sx, sy = crop.shape[1] / w0, crop.shape[0] / h0
        m = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1]]) @ m
        k *= sx
    if shade_free:
        return _shade_free(crop, SHADE_CELLS * cell_px * k), m
    return crop, m


def _warp(image: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The image resampled where `m` (output px -> image px) says; black outside it."""
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return cv2.warpPerspective(image, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT)


def _inside(m: np.ndarray, size: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    """Which output px of `_warp` with `m` come from inside the image (bool, height x width)."""
    full = np.full(shape[:2], 255, np.uint8)
    return _warp(full, m, size) > 127


def _all_inside(m: np.ndarray, size: tuple[int, int], shape: tuple[int, ...]) -> bool:
    """Whether the whole output of `_warp` with `m` comes from inside the image (its corners do)."""
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], np.float64) @ m.T
    if (corners[:, 2] <= 0).any():
        return False
    xy = corners[:, :2] / corners[:, 2:]
    return bool((xy >= 0).all() and (xy[:, 0] <= shape[1] - 1).all() and (xy[:, 1] <= shape[0] - 1).all())


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _view_box(g: np.ndarray, corners: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The view px box (x0, y0, x1, y1) around lattice `corners`, within the photo."""
    pts = apply_h(np.linalg.inv(g), corners)
    h, w = shape[:2]
    return np.array([*np.clip(pts.min(0), 0, [w, h]), *np.clip(pts.max(0), 0, [w, h])])


def _region(photo: Photo, g: np.ndarray, sea_nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lattice box the cards are looked for in: around the sea, within what the photo shows."""
    lo = sea_nodes.min(0) - 0.5 - MARGIN_CELLS
    hi = sea_nodes.max(0) + 0.5 + MARGIN_CELLS
    h, w = photo.image.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    homogeneous = np.column_stack([corners, np.ones(4)]) @ g.T
    middle = np.append(np.linalg.inv(g) @ np.append(sea_nodes.mean(0), 1.0), 0)[:3]
    if np.all(np.sign(homogeneous[:, 2]) == np.sign(middle[2] or 1.0)):  # the photo shows no horizon
        seen = apply_h(g, corners)
        lo, hi = np.maximum(lo, seen.min(0)), np.minimum(hi, seen.max(0))
    return lo, hi


@dataclass(frozen=True)
class _Candidate:
    centre: np.ndarray  # lattice cells
    turns: int  # quarter turns (np.rot90) of the upright face as the plane shows it
    layout: float
    size: float = 1.0  # cells a face cell spans (the lattice's extrapolation can be off)


def _fill_outside(image: np.ndarray, inside: np.ndarray, sigma: float) -> np.ndarray:
    """`image` with the px outside the photo filled by the blur of those inside near them: no edge
    where the photo ends for a card's outline to be matched against."""
    if inside.all():
        return image
    weight = inside.astype(np.float32)
    blur = cv2.GaussianBlur(image * (weight[..., None] if image.ndim == 3 else weight), (0, 0), sigma)
    norm = cv2.GaussianBlur(weight, (0, 0), sigma)
    filled = blur / np.maximum(norm, 1e-3)[..., None] if image.ndim == 3 else blur / np.maximum(norm, 1e-3)
    mask = inside[..., None] if image.ndim == 3 else inside
    return np.where(mask, image, filled).astype(np.float32)


def _detail(image: np.ndarray, sigma: float) -> np.ndarray:
    """The image less its blur: light falling off across a card (sheen, shade) cancels out."""
    return image - cv2.GaussianBlur(image, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)


def _find(
    plane: np.ndarray,
    inside: np.ndarray,
    mean: np.ndarray,
    lo: np.ndarray,
    px: float,
    sizes: tuple[float, ...] = (1.0,),
    away: tuple[np.ndarray, ...] = (),
) -> list[_Candidate]:
    """Separate peaks of the layout's correlation with the plane (the mean face at each of `sizes`,
    in cells a face cell spans), best first; none near the lattice points `away` (cards read)."""
    plane = _fill_outside(plane, inside, 2 * px)
    plane, mean = _detail(plane, DETAIL_CELLS * px), _detail(mean, DETAIL_CELLS * px)
    peaks = []
    for size in sizes:
        sized = (
            mean if size == 1.0 else cv2.resize(mean, None, fx=size, fy=size, interpolation=cv2.INTER_AREA)
        )
        for turns in range(4):
            template = np.ascontiguousarray(np.rot90(sized, turns))
            th, tw = template.shape[:2]
            if plane.shape[0] < th or plane.shape[1] < tw:
                continue
            ncc = cv2.matchTemplate(plane, template, cv2.TM_CCOEFF_NORMED)
            share = cv2.boxFilter(inside.astype(np.float32), -1, (tw, th), normalize=True)
            share = share[th // 2 : th // 2 + ncc.shape[0], tw // 2 : tw // 2 + ncc.shape[1]]
            ncc[share < VALID_MIN] = -1
            ncc = np.nan_to_num(ncc, nan=-1.0)
            dilated = cv2.dilate(ncc, np.ones((5, 5), np.uint8))
            ys, xs = np.nonzero((ncc >= dilated) & (ncc > FIND_MIN))
            for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
                centre = lo + (np.array([x + tw / 2, y + th / 2])) / px
                peaks.append((float(ncc[y, x]), turns, size, centre))
    found: list[_Candidate] = []
    taken: list[np.ndarray] = list(away)
    for score, turns, size, centre in sorted(peaks, key=lambda p: -p[0]):
        if any(np.hypot(*(centre - c)) < 1.5 for c in taken):
            continue
        taken.append(centre)
        found.append(_Candidate(centre, turns, score, size))
        if len(found) == CANDIDATES:
            break
    return found


def _card_frame(turns: int, degrees: float, wide: float, tall: float) -> tuple[np.ndarray, np.ndarray]:
    """The card's right and down directions in lattice cells (a face cell spans `wide` x `tall`)."""
    up = [(0.0, -1.0), (-1.0, 0.0), (0.0, 1.0), (1.0, 0.0)][turns % 4]  # np.rot90 turns counterclockwise
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    up = np.array([c * up[0] - s * up[1], s * up[0] + c * up[1]])
    right = np.array([-up[1], up[0]])
    return wide * right, -tall * up


def _card_to_lattice(centre: np.ndarray, right: np.ndarray, down: np.ndarray, px: int, margin: float):
    """Window px (upright card frame, `px` a cell, `margin` cells around the card) -> lattice cells."""
    ox = -(1.0 + margin)
    oy = -(1.5 + margin)
    a = np.eye(3)
    a[:2, 0] = right / px
    a[:2, 1] = down / px
    a[:2, 2] = centre + right * (ox + 0.5 / px) + down * (oy + 0.5 / px)
    return a


def _unit(x: np.ndarray) -> np.ndarray:
    """Rows made zero-mean per colour channel and unit-length: a dot product is then their NCC."""
    x = x - x.mean(axis=-2, keepdims=True)  # (..., pixels, channels)
    x = x.reshape(*x.shape[:-2], -1)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6)


@lru_cache(maxsize=4)
def _region_refs(faces: Faces) -> dict[str, np.ndarray]:
    """Each region of each face, as unit rows (16, pixels * 3)."""
    px = faces.px
    out = {}
    for name, (x0, y0, x1, y1) in REGIONS.items():
        c0, r0, c1, r1 = (round(v * px) for v in (x0, y0, x1, y1))
        part = faces.faces[:, r0:r1, c0:c1]
        out[name] = _unit(part.reshape(len(part), -1, 3))
    return out


def _face_scores(window: np.ndarray, x: int, y: int, faces: Faces) -> np.ndarray:
    """Sum over the regions of each face's best correlation within SHIFT_PX of the layout's place."""
    px = faces.px
    refs = _region_refs(faces)
    scores = np.zeros(len(faces.cards))
    h, w = window.shape[:2]
    for name, (x0, y0, x1, y1) in REGIONS.items():
        c0, r0, c1, r1 = (round(v * px) for v in (x0, y0, x1, y1))
        shifted = []
        for dy in range(-SHIFT_PX, SHIFT_PX + 1):
            for dx in range(-SHIFT_PX, SHIFT_PX + 1):
                ya, xa = y + r0 + dy, x + c0 + dx
                if ya >= 0 and xa >= 0 and ya + r1 - r0 <= h and xa + c1 - c0 <= w:
                    shifted.append(window[ya : ya + r1 - r0, xa : xa + c1 - c0].reshape(-1, 3))
        if shifted:
            scores += (_unit(np.stack(shifted)) @ refs[name].T).max(0)
    return scores


def _read(
    photo: Photo, g: np.ndarray, cell_px: float, cand: _Candidate, faces: Faces, mean: np.ndarray
) -> tuple[np.ndarray, float, np.ndarray, float]:
    """(scores of the 16 faces, layout fit, lattice corners of the card, share inside the photo)."""
    px = faces.px
    reach = 1.5 + SEARCH_MARGIN + 0.3
    around = cand.centre + np.array([[-reach, -reach], [reach, -reach], [reach, reach], [-reach, reach]])
    image, view_to_image = _source(
        photo, cell_px, px, _view_box(g, around, photo.image.shape), faces.shade_free
    )
    to_image = view_to_image @ np.linalg.inv(g)
    template = _gray(mean)

    def fit(
        centre: np.ndarray,
        turns: int,
        degrees: float,
        scale: tuple[float, float],
        margin: float = WINDOW_MARGIN,
    ):
        right, down = _card_frame(turns, degrees, *scale)
        size = (round((2 + 2 * margin) * px), round((3 + 2 * margin) * px))
        to_lattice = _card_to_lattice(centre, right, down, px, margin)
        m = to_image @ to_lattice
        window = _warp(image, m, size).astype(np.float32)
        if not _all_inside(m, size, image.shape):
            window = _fill_outside(window, _inside(m, size, image.shape), px)
        ncc = cv2.matchTemplate(_gray(window), template, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(ncc)
        # where the mean face sat in the window: the card's middle
        offset = np.array([(x + px) / px - (1 + margin), (y + 1.5 * px) / px - (1.5 + margin)])
        middle = centre + right * offset[0] + down * offset[1]
        return score, (turns, degrees, scale), middle, window, x, y, m, right, down, size, to_lattice

    # the find's quarter turn and middle are guesses at a few px a cell: all four turns are tried in a
    # wide window, then (from the card's middle found) small turns, then sizes (the lattice is
    # extrapolated beyond the sea)
    size = (cand.size, cand.size)
    best = max((fit(cand.centre, turns, 0.0, size, SEARCH_MARGIN) for turns in range(4)), key=lambda t: t[0])
    for stage in ("angle", "wide", "tall"):
        turns, degrees, (wide, tall) = best[1]
        if stage == "angle":
            options = [(d, (wide, tall)) for d in ANGLES]
        elif stage == "wide":
            options = [(degrees, (wide * k, tall)) for k in SCALES]
        else:
            options = [(degrees, (wide, tall * k)) for k in SCALES]
        tried = [fit(best[2], turns, d, k) for d, k in options]
        best = max([best, *tried], key=lambda t: t[0])
    score, _, middle, window, x, y, m, right, down, size, to_lattice = best
    corners = np.array(
        [middle + sx * right + sy * down for sx, sy in ((-1, -1.5), (1, -1.5), (1, 1.5), (-1, 1.5))]
    )
    scores = _face_scores(window, x, y, faces)
    aligned = _align(window, template, x, y)
    if aligned is not None:
        # the card as it lies (the lattice's perspective is extrapolated beyond the sea): the window
        # resampled so that the mean face fits it px for px, kept where a face then fits it better
        m2 = m @ aligned @ np.array([[1, 0, -x], [0, 1, -y], [0, 0, 1]], np.float64)
        window2 = _warp(image, m2, size).astype(np.float32)
        if not _all_inside(m2, size, image.shape):
            window2 = _fill_outside(window2, _inside(m2, size, image.shape), px)
        scores2 = _face_scores(window2, x, y, faces)
        if scores2.max() > scores.max():
            card = _gray(window2)[y : y + 3 * px, x : x + 2 * px]
            score = float(cv2.matchTemplate(card, template, cv2.TM_CCOEFF_NORMED)[0, 0])
            edges = np.array([[0, 0], [2 * px, 0], [2 * px, 3 * px], [0, 3 * px]], np.float64) - 0.5
            corners = apply_h(to_lattice @ aligned, edges)
            scores, m = scores2, m2
    inside = _inside(m, size, image.shape)
    # the share of the card itself (not the window's margin) that lies inside the photo
    card_inside = float(inside[y : y + 3 * px, x : x + 2 * px].mean()) if inside.size else 0.0
    return scores, float(score), corners, card_inside


def _align(window: np.ndarray, template: np.ndarray, x: int, y: int) -> np.ndarray | None:
    """The homography (mean face px -> window px) that fits the mean face onto the card in `window`
    closest (ECC), from the card where the layout's correlation put it (`x`, `y`: its top-left);
    None where it does not converge or moves the card far (a card lies near where it was found)."""
    start = np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float32)  # ECC writes into the one it is given
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4)
    try:
        _, warp = cv2.findTransformECC(
            template.astype(np.float32), _gray(window).astype(np.float32), start.copy(), cv2.MOTION_HOMOGRAPHY,
            criteria, None, 3,
        )  # fmt: skip
    except cv2.error:
        return None
    th, tw = template.shape[:2]
    box = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
    moved = apply_h(warp.astype(np.float64), box) - apply_h(start.astype(np.float64), box)
    if not np.isfinite(moved).all() or np.abs(moved).max() > ALIGN_MOVE * tw:
        return None
    return warp.astype(np.float64)


def _words(card: dict) -> str:
    return f"{card['frame']} {card['plus']}/{card['minus']}"


def read_objectives(
    photo: Photo, g: np.ndarray, cell_px: float, sea_nodes: np.ndarray, faces: Faces | None = None
) -> ObjectivesReading:
    """The objective cards beside the sea whose lattice is `g` (photo's reduced view px -> cells;
    `cell_px`: a cell's side in view px; `sea_nodes`: the sea's visible cells), one a player."""
    t0 = time.perf_counter()
    faces = faces or load_faces()
    nodes = np.asarray(sea_nodes, np.float64).reshape(-1, 2)
    read = _search(photo, g, cell_px, nodes, faces, [])
    if not _both_sure(read) and len(nodes):
        # a lattice fitted to a small sea of hand-placed cards can be steeply wrong in perspective a
        # few cells away, where the cards lie: the plane again as the lattice's affine part at the sea
        flat = _affine_at(g, nodes.mean(0))
        if flat is not None:
            read = _search(photo, flat, cell_px, nodes, faces, read)
    if not _both_sure(read):
        # a hard shadow's edge across a card: its face looked for again where light cancels out
        read = _search(photo, g, cell_px, nodes, shade_free_faces(faces), read)
    cards = _best(read)
    flags = _flags(cards)
    return ObjectivesReading(tuple(cards), flags, (time.perf_counter() - t0) * 1000)


def _affine_at(g: np.ndarray, node: np.ndarray) -> np.ndarray | None:
    """The affine map (view px -> lattice) that agrees with `g` to first order at lattice point
    `node`; None where `g` is degenerate there."""
    try:
        middle = apply_h(np.linalg.inv(g), np.asarray(node, np.float64)[None])[0]
    except np.linalg.LinAlgError:
        return None
    eps = 0.5
    at = apply_h(g, np.array([middle, middle + (eps, 0.0), middle + (0.0, eps)]))
    jac = np.column_stack([(at[1] - at[0]) / eps, (at[2] - at[0]) / eps])
    if not np.isfinite(jac).all() or abs(np.linalg.det(jac)) < 1e-12:
        return None
    flat = np.eye(3)
    flat[:2, :2] = jac
    flat[:2, 2] = at[0] - jac @ middle
    return flat


def _search(
    photo: Photo, g: np.ndarray, cell_px: float, nodes: np.ndarray, faces: Faces, read: list[ObjectiveCard]
) -> list[ObjectiveCard]:
    """The cards `read` so far and those found on the plane around the sea as lattice `g` sees it."""
    lo, hi = _region(photo, g, nodes)
    if not np.all(hi - lo >= 2.0):
        return read
    # the plane at FIND_PX a cell (fewer where a far-reaching lattice would make it huge)
    find_px = min(FIND_PX, int(MAX_PLANE_PX / float(max(hi - lo))))
    if find_px < 5:
        return read
    box = _view_box(g, np.array([lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]]), photo.image.shape)
    image, view_to_image = _source(photo, cell_px, find_px, box, faces.shade_free)
    size = (int(math.ceil((hi - lo)[0] * find_px)), int(math.ceil((hi - lo)[1] * find_px)))
    to_lattice = np.array([[1 / find_px, 0, lo[0]], [0, 1 / find_px, lo[1]], [0, 0, 1]])
    m = view_to_image @ np.linalg.inv(g) @ to_lattice
    plane, inside = _warp(image, m, size), _inside(m, size, image.shape)
    plane, mean_small = plane.astype(np.float32), faces.mean_face(find_px)

    def away() -> tuple[np.ndarray, ...]:  # the cards read surely already, not looked for again
        return tuple(apply_h(g, c.quad).mean(0) for c in read if c.sure)

    found = _find(plane, inside, mean_small, lo, find_px, away=away())
    read = _read_cards(photo, g, cell_px, found, faces, read)
    if not _both_sure(read):
        # far from the sea the lattice's perspective can be off by a quarter: other sizes
        more = _find(plane, inside, mean_small, lo, find_px, OTHER_SIZES, away())
        read = _read_cards(photo, g, cell_px, more, faces, read)
    return read


def _both_sure(read: list[ObjectiveCard]) -> bool:
    return {c.player for c in read if c.sure} == set(PLAYERS)


def _read_cards(
    photo: Photo,
    g: np.ndarray,
    cell_px: float,
    candidates: list[_Candidate],
    faces: Faces,
    read: list[ObjectiveCard],
) -> list[ObjectiveCard]:
    """The cards `read` so far and each candidate read, until both players' cards are sure."""
    ginv = np.linalg.inv(g)
    h, w = photo.image.shape[:2]
    mean = faces.mean_face(faces.px)
    read = list(read)
    for cand in candidates:
        if _both_sure(read):
            break  # both cards read surely: a weaker layout peak cannot be a better card
        scores, layout, corners, inside = _read(photo, g, cell_px, cand, faces, mean)
        p = np.exp((scores - scores.max()) / TEMPERATURE)
        p /= p.sum()
        order = np.argsort(p)[::-1]
        card = faces.cards[int(order[0])]
        quad = apply_h(ginv, corners)
        cut_off = inside < 0.98 or bool((quad < 0).any() or (quad[:, 0] > w).any() or (quad[:, 1] > h).any())
        read.append(
            ObjectiveCard(
                player=card["frame"],
                objective=Objective(card["plus"], card["minus"]),
                card=card["id"],
                confidence=float(p[order[0]]),
                match=float(scores[order[0]]),
                layout=layout,
                second=f"{_words(faces.cards[int(order[1])])} {p[order[1]]:.2f}",
                quad=quad,
                cut_off=cut_off,
            )
        )
    return read


def _best(read: list[ObjectiveCard]) -> list[ObjectiveCard]:
    """The card read that shows its face best, of each frame (a weak match is no objective card)."""
    best: dict[str, ObjectiveCard] = {}
    for c in read:
        if c.match >= CARD_MIN and (c.player not in best or c.match > best[c.player].match):
            best[c.player] = c
    return [best[p] for p in PLAYERS if p in best]


def _flags(cards: list[ObjectiveCard]) -> tuple[str, ...]:
    flags = []
    read = {c.player: c for c in cards}
    for player in PLAYERS:
        c = read.get(player)
        if c is None:
            flags.append(f"The {player} objective card was not found beside the sea: give --objectives")
        elif c.cut_off:
            flags.append(
                f"The {player} objective card ({c.words()}) is cut off by the photo's edge: check it"
            )
        elif not c.sure:
            flags.append(
                f"The {player} objective card read as {c.objective.plus}/{c.objective.minus} "
                f"({c.confidence:.2f}, layout {c.layout:.2f}), perhaps {c.second}: check it"
            )
    return tuple(flags)

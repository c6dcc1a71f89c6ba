"""Training data for the Mediterráneo sea reader, cut from simulated photos with their truth.

One simulated photo gives:

- two locator samples (picture, sea map, centre map): the whole photo at the first pass's size
  (landscape; portrait photos stored transposed) and a window of the photo scaled so that a cell
  spans a random size (what the second pass sees of the sea, and a small sea in a large photo).
  ``sea``: the union of the *visible* sea cells (each cell's quad taken from the card that shows it,
  so hand-placed jitter is in the label); objective cards and loose cards are not sea.
  ``centres``: a Gaussian blob at the centre of every visible sea cell;
- cell crops for the cell model, cut as the reader cuts them (``vision.geometry.crop_quads`` of the
  cell quad, jittered, from the photo brought to about the crop's scale): every visible sea cell,
  labelled content / octopus direction (in the crop's frame) / frame, and a few empty lattice cells
  around the sea (table, objective and loose cards: "none").

Photos come from ``vision.synth.dataset.make_scene`` with seeds below 9000 only; even photos from
the wider world (``vision.synth.world.World()``), odd ones from the everyday mix, or, with
``stress_every`` k, every k-th one from the stress world (``World(stress=True)``). Cached under
``build/mediterraneo-data/`` keyed by every parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import crop_quads
from vision.mediterraneo.cells import CONTENT_LABELS, FRAME_LABELS, POINT_LABELS
from vision.synth.dataset import make_scene
from vision.synth.world import World
from vision.training.common import build_maps_and_crops, cache_path
from vision.training.locator_data import fill_polygons, heat_map, scale_points

CARD_COLS, CARD_ROWS = 2, 3
# a side seen in a picture turned a quarter counterclockwise
TURN_LEFT = {"N": "W", "E": "N", "S": "E", "W": "S"}


@dataclass(frozen=True)
class DataSpec:
    seed: int = 1
    n: int = 900
    render_long_side: int = 1280
    input_long: int = 384  # first pass: whole photo
    input_short: int = 288
    window_long: int = 320  # windows: the second pass and small seas
    window_short: int = 240
    window_cell_px: tuple[float, float] = (12.0, 44.0)
    crop_size: int = 40
    crop_margin: float = 0.12
    crop_cell_px: tuple[float, float] = (26.0, 60.0)  # cell px in the picture crops are cut from
    corner_jitter: float = 0.04
    shift_jitter: float = 0.07
    empty_per_photo: int = 6
    stress_every: int = 0  # every this-many-th photo from the stress world (0: none)
    version: int = 1

    def cache_path(self) -> Path:
        return cache_path(self, "mediterraneo-data", "mediterraneo")


# ------------------------------------------------------------------------------------------ truth


def lattice_corners(x: int, y: int, rotation: int) -> np.ndarray:
    """The lattice coordinates of a card's face corners (top-left, top-right, bottom-right,
    bottom-left of the upright face), the card lying at (x, y) turned `rotation` clockwise."""
    out = []
    for u, v in ((0, 0), (CARD_COLS, 0), (CARD_COLS, CARD_ROWS), (0, CARD_ROWS)):
        if rotation == 0:
            d = (u, v)
        elif rotation == 90:
            d = (CARD_ROWS - v, u)
        elif rotation == 180:
            d = (CARD_COLS - u, CARD_ROWS - v)
        else:
            d = (v, CARD_COLS - u)
        out.append((x + d[0], y + d[1]))
    return np.array(out, np.float64)


def visible_cells(truth: dict) -> list[tuple[dict, np.ndarray]]:
    """(board cell, quad in photo px in lattice order NW NE SE SW) of every visible sea cell: the quad
    is the cell as the card on top shows it."""
    sea_cards = [c for c in truth["cards"] if c["role"] == "sea"]
    homographies = []
    top: dict[tuple[int, int], int] = {}
    for k, card in enumerate(sea_cards):
        corners = lattice_corners(card["x"], card["y"], card["rotation"])
        h = cv2.getPerspectiveTransform(corners.astype(np.float32), np.float32(card["corners"]))
        homographies.append(h)
        w, hh = (2, 3) if card["rotation"] in (0, 180) else (3, 2)
        for dx in range(w):
            for dy in range(hh):
                top[(card["x"] + dx, card["y"] + dy)] = k
    out = []
    for cell in truth["board"]["cells"]:
        x, y = cell["x"], cell["y"]
        square = np.float32([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]])
        quad = cv2.perspectiveTransform(square[None], homographies[top[(x, y)]])[0]
        out.append((cell, quad.astype(np.float64)))
    return out


def empty_cells(truth: dict, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Quads of up to `n` lattice cells next to the sea that no sea card covers (table, objective or
    loose cards), on the table-plane lattice of the camera."""
    taken = {(c["x"], c["y"]) for c in truth["board"]["cells"]}
    ring = sorted(
        {(x + dx, y + dy) for x, y in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - taken
    )  # covered cells are never empty: every covered cell shows some card
    h = np.array(truth["camera"]["homography"], np.float64) @ np.diag([30.0, 30.0, 1.0])
    out = []
    for i in rng.permutation(len(ring))[:n]:
        x, y = ring[int(i)]
        square = np.float32([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]])
        out.append(cv2.perspectiveTransform(square[None], h)[0].astype(np.float64))
    return out


def cell_label(cell: dict, turns: int) -> tuple[int, int, int]:
    """(content, points, frame) class indices; points -1 unless an octopus. `turns`: the crop's
    corners are the board quad's rolled by `turns` (its NW corner is the board's corner `turns`), so
    the crop shows the board turned `turns` quarter turns counterclockwise."""
    content = CONTENT_LABELS.index(cell["content"])
    points = -1
    if cell["content"] == "octopus":
        side = cell["points"]
        for _ in range(turns % 4):
            side = TURN_LEFT[side]
        points = POINT_LABELS.index(side)
    frame = FRAME_LABELS.index(cell.get("frame") or "none")
    return content, points, frame


# ------------------------------------------------------------------------------------------ samples


def _labels(shape: tuple[int, int], quads: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    from vision.geometry import quad_middle

    centres = np.array([quad_middle(q) for q in quads]).reshape(-1, 2)
    sides = np.array([np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) for q in quads])
    return fill_polygons(shape, quads), heat_map(shape, centres, sides)


def _whole(spec: DataSpec, photo: np.ndarray, quads: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    h0, w0 = photo.shape[:2]
    portrait = h0 > w0
    size = (spec.input_short, spec.input_long) if portrait else (spec.input_long, spec.input_short)
    image = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
    sea, heat = _labels((size[1], size[0]), [scale_points(q, (w0, h0), size) for q in quads])
    if portrait:
        image, sea, heat = image.transpose(1, 0, 2), sea.T, heat.T
    return tuple(np.ascontiguousarray(a) for a in (image, sea, heat))


def _window(
    spec: DataSpec, photo: np.ndarray, quads: list[np.ndarray], rng: np.random.Generator
) -> tuple[np.ndarray, ...]:
    h0, w0 = photo.shape[:2]
    cell = float(np.median([np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) for q in quads]))
    ww, wh = spec.window_long, spec.window_short
    s = max(float(rng.uniform(*spec.window_cell_px)) / cell, ww / w0, wh / h0)
    size = (max(ww, round(w0 * s)), max(wh, round(h0 * s)))
    big = cv2.resize(photo, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    middle = scale_points(np.mean([q.mean(0) for q in quads], 0), (w0, h0), size)
    cx = middle[0] + rng.uniform(-0.5, 0.5) * ww
    cy = middle[1] + rng.uniform(-0.5, 0.5) * wh
    x0 = int(np.clip(cx - ww / 2, 0, big.shape[1] - ww))
    y0 = int(np.clip(cy - wh / 2, 0, big.shape[0] - wh))
    window = np.ascontiguousarray(big[y0 : y0 + wh, x0 : x0 + ww])
    moved = [scale_points(q, (w0, h0), size) - [x0, y0] for q in quads]
    sea, heat = _labels((wh, ww), moved)
    return window, sea, heat


def _jittered(quad: np.ndarray, spec: DataSpec, rng: np.random.Generator) -> np.ndarray:
    side = np.sqrt(abs(cv2.contourArea(quad.astype(np.float32))))
    shift = rng.uniform(-spec.shift_jitter, spec.shift_jitter, 2) * side
    corners = rng.uniform(-spec.corner_jitter, spec.corner_jitter, (4, 2)) * side
    return quad + shift + corners


def _crops(
    spec: DataSpec, photo: np.ndarray, truth: dict, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    cells = visible_cells(truth)
    empties = empty_cells(truth, rng, spec.empty_per_photo)
    cell = float(np.median([np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) for _, q in cells]))
    s = min(1.0, float(rng.uniform(*spec.crop_cell_px)) / cell)
    h0, w0 = photo.shape[:2]
    size = (max(1, round(w0 * s)), max(1, round(h0 * s)))
    picture = cv2.resize(photo, size, interpolation=cv2.INTER_AREA) if s < 1 else photo
    quads, labels = [], []
    for board_cell, quad in cells:
        turns = int(rng.integers(4))  # the reader's lattice may be turned any way on the sea
        q = np.roll(_jittered(quad, spec, rng), -turns, 0)
        quads.append(scale_points(q, (w0, h0), size))
        labels.append(cell_label(board_cell, turns))
    for quad in empties:
        quads.append(
            scale_points(np.roll(_jittered(quad, spec, rng), -int(rng.integers(4)), 0), (w0, h0), size)
        )
        labels.append((CONTENT_LABELS.index("none"), -1, FRAME_LABELS.index("none")))
    crops = crop_quads(picture, np.array(quads, np.float32), spec.crop_size, spec.crop_margin)
    return crops, np.array(labels, np.int8)


def photo_world(spec: DataSpec, index: int) -> World | None:
    """The world photo `index` of `spec` is drawn from (None: the everyday mix)."""
    if spec.stress_every and index % spec.stress_every == spec.stress_every - 1:
        return World(stress=True)
    return World() if index % 2 == 0 else None


def make_sample(spec: DataSpec, index: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    world = photo_world(spec, index)
    scene = make_scene("mediterraneo", spec.seed, index, spec.render_long_side, world=world)
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    truth = scene.truth
    rng = np.random.default_rng([spec.seed, index, 7])
    quads = [q for _, q in visible_cells(truth)]
    maps = _whole(spec, photo, quads) + _window(spec, photo, quads, rng)
    crops, labels = _crops(spec, photo, truth, rng)
    return maps, crops, labels


def build_dataset(spec: DataSpec, log=print) -> dict[str, np.ndarray]:
    """Every sample of `spec` (one process), cached on disk."""
    names = ("images", "sea", "centres", "win_images", "win_sea", "win_centres")
    return build_maps_and_crops(spec, make_sample, names, log_every=100, log=log)

"""Simulated photos of one side's won Mediatore cards spread on a table, with exact truth.

People lay won cards out to count them in a few ways, and each is a layout here:

- ``rows``: overlapping rows, each card shifted right over the one before and each row lying over
  the row above, so that only every card's top-left corner shows;
- ``fan``: fans of cards turned about a common point near their foot, corners showing at the left;
- ``heap``: a loose heap, cards at any angle, most corners showing;
- ``grid``: a neat grid, every card whole.

The truth says, for every card, where it lies in the photo, where its two corner boxes (rank index
and suit symbol; the bottom-right one turned) lie, and how much of each is uncovered: a reader must
read a card whose corner shows and report the others as not seen. The table, framing and light come
from the same world as the other games' photos (vision.synth.world).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from scoring.mediatore import DECK, card, thirds_of, thirds_text
from vision.synth.mediatore_art import CARD_MM, CORNER_MM, INDEX_AT, INDEX_MM, render_back, render_card
from vision.synth.photo import PhotoStyle, Piece, _base_heights, draw_style, encode_jpeg, photograph
from vision.synth.scenes import Scene, _art_scale, _boxes, _quad_list, camera_from_dict, piece_box, project_mm
from vision.synth.world import World, draw_conditions

LAYOUTS: tuple[str, ...] = ("rows", "fan", "heap", "grid")
LAYOUT_WEIGHTS: tuple[float, ...] = (0.35, 0.2, 0.3, 0.15)
CARD_THICKNESS_MM = 0.3
CORNER_RADIUS_MM = 3.0
SHOWN = 0.95  # a corner box this much uncovered shows its index and symbol whole
CORNERS: tuple[str, ...] = ("top_left", "bottom_right")
# A corner shows, but the camera's shake smeared its rank index past reading, where the motion blur is
# this share of the index's height or longer: the strokes of a digit lie about a third of its height
# apart, and a blur that long runs them together (chosen from the kit's glyphs, before any reading was
# measured by it; the evaluation reports the cards whose corner shows both with and without these)
SMEARED = 1.0 / 3.0


@dataclass(frozen=True)
class Laid:
    """A card on the table: its id, centre (mm), clockwise turn and drawing layer (higher on top)."""

    card: str
    center_mm: tuple[float, float]
    angle_deg: float
    layer: int


def random_pile(rng: np.random.Generator, n_cards: int | None = None) -> tuple[str, ...]:
    """The won cards of one side, as many as tricks can make: 4 a trick, the monte's 4 with the last."""
    if n_cards is None:
        n_cards = 4 * int(rng.integers(1, 11))  # 1..9 tricks, with or without the monte: 4..40
    if n_cards % 4 or not 4 <= n_cards <= 40:
        raise ValueError(f"a side wins 4 to 40 cards, 4 a trick, not {n_cards}")
    order = rng.permutation(len(DECK))[:n_cards]
    return tuple(DECK[int(i)].id for i in order)


# ---------------------------------------------------------------------------------------- layouts


def lay_rows(cards: tuple[str, ...], rng: np.random.Generator) -> list[Laid]:
    """Rows of overlapping cards: each shifted right over the last, each row over the one above."""
    per_row = int(rng.integers(6, 13))
    step_x = float(rng.uniform(CORNER_MM[0] + 3.0, CORNER_MM[0] + 9.0))
    step_y = float(rng.uniform(CORNER_MM[1] + 4.0, CORNER_MM[1] + 14.0))
    slant = float(rng.normal(0, 2.0))
    out = []
    for i, cid in enumerate(cards):
        row, col = divmod(i, per_row)
        x = col * step_x + rng.normal(0, 0.6) + row * float(rng.normal(0, 1.0))
        y = row * step_y + col * math.tan(math.radians(slant)) * step_x + rng.normal(0, 0.6)
        out.append(Laid(cid, (x, y), slant + float(rng.normal(0, 1.2)), i))
    return out


def lay_fans(cards: tuple[str, ...], rng: np.random.Generator) -> list[Laid]:
    """Fans of cards turned about a point a little below their foot, each fan beside the last; each
    card lies over the one before it, which shows its top-left corner."""
    step = float(rng.uniform(13.0, 17.0))  # degrees between neighbours: the corner box clears
    per_fan = min(int(rng.integers(7, 13)), int(170 / step) + 1)
    reach = 55.0  # pivot to card centre, along the card's axis (the foot lies 45 mm from the centre)
    out = []
    for i, cid in enumerate(cards):
        fan, k = divmod(i, per_fan)
        n = min(per_fan, len(cards) - fan * per_fan)
        angle = (k - (n - 1) / 2) * step + float(rng.normal(0, 0.5))
        half = math.radians((per_fan - 1) / 2 * step)  # the widest card's turn: fans never touch
        extent = (reach + CARD_MM[1] / 2) * math.sin(half) + CARD_MM[0] / 2 * math.cos(half)
        pivot = np.array([fan * (2 * extent + 15.0), 0.0])
        a = math.radians(angle)
        centre = pivot + reach * np.array([math.sin(a), -math.cos(a)])
        out.append(Laid(cid, (float(centre[0]), float(centre[1])), angle, i))
    return out


def lay_heap(cards: tuple[str, ...], rng: np.random.Generator) -> list[Laid]:
    """A loose heap: cards at any angle, spread over about one and a half times their own area."""
    area = len(cards) * CARD_MM[0] * CARD_MM[1] * float(rng.uniform(1.2, 2.2))
    side = math.sqrt(area)
    aspect = float(rng.uniform(0.7, 1.4))
    w, h = side * aspect, side / aspect
    return [
        Laid(cid, (float(rng.uniform(0, w)), float(rng.uniform(0, h))), float(rng.uniform(0, 360)), i)
        for i, cid in enumerate(cards)
    ]


def lay_grid(cards: tuple[str, ...], rng: np.random.Generator) -> list[Laid]:
    """A neat grid of whole cards, a few millimetres apart."""
    cols = int(rng.integers(5, 9))
    gap = float(rng.uniform(2.0, 8.0))
    return [
        Laid(
            cid,
            (
                (i % cols) * (CARD_MM[0] + gap) + rng.normal(0, 0.8),
                (i // cols) * (CARD_MM[1] + gap) + rng.normal(0, 0.8),
            ),
            float(rng.normal(0, 1.5)),
            0,
        )
        for i, cid in enumerate(cards)
    ]


LAY = {"rows": lay_rows, "fan": lay_fans, "heap": lay_heap, "grid": lay_grid}


# ------------------------------------------------------------------------------------- visibility


def _to_table(laid: Laid, local: np.ndarray) -> np.ndarray:
    """Card-local mm (origin at the card's top-left, x right, y down, upright) -> table mm."""
    a = math.radians(laid.angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    centred = np.asarray(local, np.float64) - np.array(CARD_MM) / 2
    return centred @ rot.T + np.array(laid.center_mm)


def corner_box_local(which: str) -> np.ndarray:
    """The corner box of a card in card-local mm: TL, TR, BR, BL as the turned corner reads them."""
    w, h = CORNER_MM
    box = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    if which == "top_left":
        return box
    return np.array(CARD_MM, np.float64) - box  # the same box turned half round, at the bottom right


def _outline(laid: Laid) -> np.ndarray:
    w, h = CARD_MM
    return _to_table(laid, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))


def _inside(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which points lie inside a convex quad (either orientation), edges included."""
    edges = np.roll(quad, -1, axis=0) - quad
    rel = points[:, None, :] - quad[None, :, :]
    cross = edges[None, :, 0] * rel[:, :, 1] - edges[None, :, 1] * rel[:, :, 0]
    return np.all(cross >= -1e-9, axis=1) | np.all(cross <= 1e-9, axis=1)


# The rank index's own box in card-local mm (x0, y0, x1, y1): INDEX_MM tall round INDEX_AT, as wide as
# the widest index glyph (about three quarters of its height)
INDEX_BOX_MM = (
    INDEX_AT[0] - 0.375 * INDEX_MM,
    INDEX_AT[1] - 0.5 * INDEX_MM,
    INDEX_AT[0] + 0.375 * INDEX_MM,
    INDEX_AT[1] + 0.5 * INDEX_MM,
)


def corner_uncovered(
    layout: list[Laid], samples: int = 12, box: tuple[float, float, float, float] | None = None
) -> list[dict[str, float]]:
    """For each card, the share of each corner box that no card above it covers (sampled on a grid;
    the cards' rounded corners are ignored: they cover a little less than this says); with ``box``
    (card-local mm of the top-left corner, e.g. INDEX_BOX_MM), the share of that part of it."""
    x0, y0, x1, y1 = box or (0.0, 0.0, *CORNER_MM)
    u = (np.arange(samples) + 0.5) / samples
    grid = np.stack(np.meshgrid(x0 + u * (x1 - x0), y0 + u * (y1 - y0)), -1).reshape(-1, 2)
    outlines = [_outline(laid) for laid in layout]
    shares = []
    for laid in layout:
        above = [outlines[j] for j, other in enumerate(layout) if other.layer > laid.layer]
        entry = {}
        for which in CORNERS:
            points = _to_table(laid, grid if which == "top_left" else np.array(CARD_MM) - grid)
            covered = np.zeros(len(points), bool)
            for outline in above:
                covered |= _inside(outline, points)
            entry[which] = round(1.0 - float(covered.mean()), 4)
        shares.append(entry)
    return shares


def motion_blur_px(truth: dict) -> float:
    """The photo's motion blur length in its own pixels (the style gives it for a 4000 px photo)."""
    camera = truth.get("camera") or {}
    blur = float((camera.get("style") or {}).get("motion_px", 0.0))
    size = camera.get("image_size") or [4000, 3000]
    return blur * max(size) / 4000.0


def index_height_px(box: list[list[float]]) -> float:
    """The rank index's height in the photo (px) of a corner box given as its four corners."""
    q = np.asarray(box, np.float64)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float(max(sides) * INDEX_MM / CORNER_MM[1])


def shown_legibly(truth: dict) -> list[str]:
    """The cards of ``truth`` with a corner that shows (``SHOWN``) and that the camera's shake did not
    smear past reading (``SMEARED``): a reader can be asked to read these."""
    blur = motion_blur_px(truth)
    return [
        c["card"]
        for c in truth["cards"]
        if any(
            c["uncovered"][w] >= SHOWN and blur < SMEARED * index_height_px(c["corner_boxes"][w])
            for w in CORNERS
        )
    ]


# ------------------------------------------------------------------------------------------ scene


def mediatore_scene(
    rng: np.random.Generator,
    *,
    long_side_px: int = 4000,
    style: PhotoStyle | None = None,
    layout: str | None = None,
    n_cards: int | None = None,
    world: World | None = None,
) -> Scene:
    """One side's won cards laid out on a table and photographed, with the truth of every card."""
    layout = layout or str(rng.choice(LAYOUTS, p=LAYOUT_WEIGHTS))
    if layout not in LAY:
        raise ValueError(f"unknown layout {layout!r} (expected {', '.join(LAYOUTS)})")
    cards = random_pile(rng, n_cards)
    laid = LAY[layout](cards, rng)
    conditions = draw_conditions(rng, world)
    if style is None:
        # the world's tables, light and print; a spread of cards fills a good part of the frame
        style = draw_style(rng, replace(conditions, span=max(0.5, conditions.span)))
    pieces = [
        Piece(
            np.empty((0, 0, 3), np.uint8),
            (float(CARD_MM[0]), float(CARD_MM[1])),
            one.center_mm,
            one.angle_deg,
            CARD_THICKNESS_MM,
            corner_radius_mm=CORNER_RADIUS_MM,
            layer=one.layer,
        )
        for one in laid
    ]
    box = _boxes([piece_box(p) for p in pieces])
    px_per_mm = _art_scale(long_side_px, max(box[2] - box[0], box[3] - box[1]) + 60)
    pieces = [
        replace(p, image=render_card(card(one.card).rank, card(one.card).suit, px_per_mm))
        for p, one in zip(pieces, laid, strict=True)
    ]
    loose = [
        Piece(
            render_back(px_per_mm),
            (float(CARD_MM[0]), float(CARD_MM[1])),
            (0.0, 0.0),
            0.0,
            CARD_THICKNESS_MM,
            CORNER_RADIUS_MM,
        )
        for _ in range(int(rng.integers(0, 3)))
    ]  # the other side's pile, face down, near the frame's edge
    shot = photograph(pieces, rng, subject_mm=box, clutter=loose, long_side_px=long_side_px, style=style)
    jpeg = encode_jpeg(shot.image, rng)

    camera = camera_from_dict(shot.camera)
    order = sorted(range(len(pieces)), key=lambda i: pieces[i].layer)
    base = _base_heights(pieces, order)
    uncovered = corner_uncovered(laid)
    index_uncovered = corner_uncovered(laid, box=INDEX_BOX_MM)
    truth_cards = []
    for i, (one, corners, shares, index_shares) in enumerate(
        zip(laid, shot.corners, uncovered, index_uncovered, strict=True)
    ):
        height = base[i] + CARD_THICKNESS_MM
        boxes = {
            w: _quad_list(project_mm(camera, _to_table(one, corner_box_local(w)), height)) for w in CORNERS
        }
        truth_cards.append(
            {
                "card": one.card,
                "corners": _quad_list(corners),
                "corner_boxes": boxes,
                "uncovered": shares,
                "index_uncovered": index_shares,  # the rank index's own share (INDEX_BOX_MM)
                "seen": any(v >= SHOWN for v in shares.values()),
            }
        )
    seen = [c["card"] for c in truth_cards if c["seen"]]
    thirds = thirds_of(card(c) for c in cards)
    truth = {
        "format": 1,
        "game": "mediatore",
        "board": {"cards": list(cards), "seen": seen},
        "report": {"cards": len(cards), "card_thirds": thirds, "exact": thirds_text(thirds)},
        "scene": {
            "layout": layout,
            "cards": len(cards),
            "seen": len(seen),
            "loose_cards": len(shot.clutter_corners),
        },
        "conditions": conditions.to_dict(),
        "cards": truth_cards,
        "loose_cards": [_quad_list(c) for c in shot.clutter_corners],
        "camera": shot.camera,
    }
    return Scene(jpeg, truth, shot)

"""Whole simulated photos with exact truth: a Mondo island or a Mediterráneo sea on a table.

Each scene function takes a numpy Generator and returns the JPEG bytes and the truth dict that
``scorecam synth`` writes beside it: the board in DESIGN.md's format, the engine's score report of
that board, and where every tile or card corner (and every grid cell) lies in the photo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scoring.mediterraneo import score_sea, sea_report_to_json, sea_to_json
from scoring.mediterraneo.placement import plays_to_json
from scoring.mondo import island_to_json, score_turn, single_island_turn, turn_score_to_json
from vision.geometry import quad_span
from vision.spots import quarter_turn_apart
from vision.synth.camera import Camera
from vision.synth.mediterraneo_art import render_card_face
from vision.synth.mediterraneo_sea import random_sea
from vision.synth.mondo_art import render_mondo_face
from vision.synth.mondo_island import ISLAND_KINDS, PlacedTile, component_by_id, island_of, random_layout
from vision.synth.photo import (
    PhotoStyle,
    Piece,
    Shot,
    draw_style,
    encode_jpeg,
    photograph,
)
from vision.synth.piece_drawing import piece_footprint
from vision.synth.world import Conditions, World, draw_conditions

TILE_MM = 50.0
TILE_THICKNESS_MM = 1.8
CARD_MM = (60.0, 90.0)
CELL_MM = 30.0
CARD_THICKNESS_MM = 0.4
ART_PX_PER_MM = 300 / 25.4  # the kit's print resolution: no photo shows more detail than the print
# A loose tile lying in one of the island's empty spaces nearly square to the grid (within this
# many degrees: hand-laid tiles lie within 10) is a tile of the island to anyone who looks, whatever
# the truth says: such a place is drawn again (the truth could not be known from the photo).
LAID_LOOKING_TURN = 12.0


@dataclass(frozen=True)
class Scene:
    jpeg: bytes
    truth: dict
    shot: Shot


def camera_from_dict(camera: dict) -> Camera:
    w, h = camera["image_size"]
    k1, k2 = camera["dist"]
    return Camera((w, h), np.array(camera["K"]), np.array(camera["R"]), np.array(camera["t"]), k1, k2)


def project_mm(camera: Camera, xy_mm: np.ndarray, height_mm: float) -> np.ndarray:
    """Table points (N, 2) at ``height_mm`` above the table -> photo px (N, 2), lens included."""
    pts = np.column_stack([xy_mm, np.full(len(xy_mm), -height_mm)])
    return camera.project(pts)


def _art_scale(long_side_px: int, span_mm: float) -> float:
    """Render the art at about the photo's own scale: detail beyond it is lost anyway."""
    return float(min(ART_PX_PER_MM, max(3.0, 1.3 * long_side_px / span_mm)))


def _turned(image: np.ndarray, rotation: int) -> np.ndarray:
    return np.ascontiguousarray(np.rot90(image, k=-(rotation // 90)))


def _quad_list(quad: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in quad]


# --- Mondo ---------------------------------------------------------------------------------------


def mondo_scene(
    rng: np.random.Generator,
    catalog: dict,
    *,
    long_side_px: int = 4000,
    style: PhotoStyle | None = None,
    grid: int | None = None,
    kind: str | None = None,
    name: str = "island",
    world: World | None = None,
    backs: int | None = None,
) -> Scene:
    """A hand-built island photographed on a table, under conditions drawn from `world` (see
    vision.synth.world): loose tiles near, touching or far from it, tiles turned, gapped, pushed out
    of line, curled or back side up, another island at the frame edge, a hand, any table and light.
    `backs` (training data for the back reader): that many tiles back side up, on any cells, rather
    than the conditions' few."""
    conditions = draw_conditions(rng, world)
    grid = grid or (3 if rng.random() < 0.7 else 4)
    kinds = list(ISLAND_KINDS)
    kind = kind or kinds[int(rng.choice(len(kinds), p=list(ISLAND_KINDS.values())))]
    layout = random_layout(catalog, rng, grid, kind)
    if backs is None:
        layout = with_backs(layout, conditions.backs, grid, rng)
    else:
        layout = with_backs(layout, backs, grid, rng, anywhere=True)
    island = island_of(layout, catalog, grid)
    style = style or draw_style(rng, conditions)
    px_per_mm = _art_scale(long_side_px, grid * TILE_MM / max(0.3, conditions.span))

    # Hand placement: gaps, small shifts and turns (mostly much less than the most), a few tiles
    # pushed out of line, cardboard curl.
    most = conditions.angle_deg
    angles = rng.normal(0, most / 2.5, (grid, grid)).clip(-most, most)
    gaps = rng.uniform(0, conditions.gap_mm, (2, grid + 1))
    # room for the turned tiles so that neighbours never overlap
    reach = TILE_MM / 2 * (np.abs(np.cos(np.radians(angles))) + np.abs(np.sin(np.radians(angles))))
    pitch = 2 * float(reach.max()) + gaps.mean()
    centres = {}
    for row in range(grid):
        for col in range(grid):
            shift = rng.uniform(-0.6, 0.6, 2) * max(0.0, pitch - 2 * reach[row, col])
            centres[(row, col)] = ((col + 0.5) * pitch + shift[0], (row + 0.5) * pitch + shift[1])
    pushed = push_outer_tiles(centres, layout, grid, pitch, conditions.pushes, rng)
    pieces = []
    for placed in layout:
        face = component_by_id(catalog, placed.component)["faces"][placed.face]
        image = _turned(render_mondo_face(face, px_per_mm), placed.rotation)
        pieces.append(
            Piece(
                image,
                (TILE_MM, TILE_MM),
                centres[(placed.row, placed.col)],
                float(angles[placed.row, placed.col]),
                TILE_THICKNESS_MM,
                corner_radius_mm=float(rng.uniform(0.8, 2.5)),
                curl_mm=float(rng.uniform(0, conditions.curl_mm)),
                curl_axis=int(rng.integers(2)),
            )
        )
    used = {p.component for p in layout}
    spare = [catalog["components"][int(i)] for i in rng.permutation(len(catalog["components"]))]
    spare = [c for c in spare if c["id"] not in used]

    def loose_piece(component: dict) -> Piece:
        face = component["faces"]["front" if rng.random() < 0.6 else "back"]
        image = _turned(render_mondo_face(face, px_per_mm), int(rng.integers(4)) * 90)
        return Piece(image, (TILE_MM, TILE_MM), (0.0, 0.0), float(rng.uniform(0, 360)), TILE_THICKNESS_MM)

    near, touching = [], 0
    empty_spaces = {(r, c) for r in range(grid) for c in range(grid)} - {(p.row, p.col) for p in layout}
    for k in range(conditions.loose_near):
        touch = k < conditions.loose_touching
        gap = float(rng.uniform(0.0, 1.0)) if touch else float(rng.uniform(3.0, 40.0))
        piece = loose_piece(spare.pop())
        for _ in range(4):
            placed_piece = place_beside(piece, pieces + near, gap, rng)
            if placed_piece is None or not looks_laid(placed_piece, empty_spaces, pitch):
                break
            piece = replace(piece, angle_deg=float(rng.uniform(0, 360)))
        else:
            placed_piece = None
        if placed_piece is not None:
            near.append(placed_piece)
            touching += int(touch)
    far = [loose_piece(spare.pop()) for _ in range(conditions.loose_far)]
    edge_groups = []
    if conditions.neighbours:
        rows, cols = ((2, 3), (3, 3), (3, 2), (2, 2))[int(rng.integers(4))]
        group = []
        for r in range(rows):
            for c in range(cols):
                p = loose_piece(spare.pop())
                offset = ((c - (cols - 1) / 2) * 52.0, (r - (rows - 1) / 2) * 52.0)
                group.append(replace(p, center_mm=offset, angle_deg=float(rng.normal(0, 1.5))))
        edge_groups.append(group)

    span = grid * pitch
    shot = photograph(
        pieces + near,
        rng,
        subject_mm=(0.0, 0.0, span, span),
        clutter=far,
        edge_groups=edge_groups,
        long_side_px=long_side_px,
        style=style,
    )
    jpeg = encode_jpeg(shot.image, rng)

    camera = camera_from_dict(shot.camera)
    cells = []
    for row in range(grid):
        for col in range(grid):
            x0, y0 = col * pitch, row * pitch
            square = np.array([[x0, y0], [x0 + pitch, y0], [x0 + pitch, y0 + pitch], [x0, y0 + pitch]])
            cells.append(
                {"row": row, "col": col, "quad": _quad_list(project_mm(camera, square, TILE_THICKNESS_MM))}
            )
    outline = np.array([[0, 0], [span, 0], [span, span], [0, span]], float)
    island_quad = project_mm(camera, outline, TILE_THICKNESS_MM)
    report = turn_score_to_json(score_turn(single_island_turn(name, island)))
    n = len(layout)
    messy = bool(gaps.max() > 3.0 or np.abs(angles).max() > 5.0 or pushed)
    truth = {
        "format": 1,
        "game": "mondo",
        "board": island_to_json(island),
        "report": report,
        "scene": {"kind": kind, "grid": grid, "pitch_mm": round(pitch, 3),
                  "loose_tiles": len(near) + len(shot.clutter_corners), "loose_near": len(near),
                  "loose_touching": touching, "span": round(quad_span(island_quad, camera.size), 4),
                  "messy": messy, "pushed": pushed, "most_gap_mm": round(float(gaps.max()), 2),
                  "most_angle_deg": round(float(np.abs(angles).max()), 2),
                  "backs": sum(p.face == "back" for p in layout), "edge_tiles": len(shot.edge_corners),
                  "hand": bool(shot.camera.get("hand"))},
        "conditions": conditions.to_dict(),
        "island_quad": _quad_list(island_quad),
        "tiles": [
            {"row": p.row, "col": p.col, "component": p.component, "face": p.face, "rotation": p.rotation,
             "corners": _quad_list(corners)}
            for p, corners in zip(layout, shot.corners[:n], strict=True)
        ],
        "loose_tiles": [_quad_list(c) for c in list(shot.corners[n:]) + list(shot.clutter_corners)],
        "edge_tiles": [_quad_list(c) for c in shot.edge_corners],
        "cells": cells,
        "camera": shot.camera,
    }  # fmt: skip
    return Scene(jpeg, truth, shot)


def with_backs(
    layout: list[PlacedTile], n: int, grid: int, rng: np.random.Generator, anywhere: bool = False
) -> list[PlacedTile]:
    """`n` tiles of the layout turned to their cloud side, inner cells first (a back shows one land
    terrain all round, so on an outer cell it breaks the water rule: at most one goes there), or
    with `anywhere` on any cells."""
    if n <= 0:
        return layout
    if anywhere:
        fronts = [i for i, p in enumerate(layout) if p.face == "front"]
        out = list(layout)
        for i in rng.permutation(fronts)[:n]:
            out[int(i)] = replace(out[int(i)], face="back", rotation=int(rng.integers(4)) * 90)
        return out
    inner = [
        i for i, p in enumerate(layout) if 0 < p.row < grid - 1 and 0 < p.col < grid - 1 and p.face == "front"
    ]
    outer = [i for i, p in enumerate(layout) if i not in inner and p.face == "front"]
    pick = [inner[int(i)] for i in rng.permutation(len(inner))[:n]]
    if len(pick) < n and outer and rng.random() < 0.3:
        pick.append(outer[int(rng.integers(len(outer)))])
    out = list(layout)
    for i in pick:
        out[i] = replace(out[i], face="back", rotation=int(rng.integers(4)) * 90)
    return out


def push_outer_tiles(
    centres: dict[tuple[int, int], tuple[float, float]],
    layout: list[PlacedTile],
    grid: int,
    pitch: float,
    n: int,
    rng: np.random.Generator,
) -> int:
    """Push up to `n` tiles of the outer ring outwards, off the lattice, by 15-33% of a cell (a
    player's sleeve nudged it); returns how many were pushed. Updates `centres` in place."""
    placed = {(p.row, p.col) for p in layout}
    ring = [c for c in sorted(placed) if c[0] in (0, grid - 1) or c[1] in (0, grid - 1)]
    pushed = 0
    for k in rng.permutation(len(ring))[:n]:
        row, col = ring[int(k)]
        ways = (
            [(0, -1)] * (row == 0)
            + [(0, 1)] * (row == grid - 1)
            + [(-1, 0)] * (col == 0)
            + [(1, 0)] * (col == grid - 1)
        )
        dx, dy = ways[int(rng.integers(len(ways)))]
        amount = float(rng.uniform(0.15, 0.33)) * pitch
        x, y = centres[(row, col)]
        centres[(row, col)] = (x + dx * amount, y + dy * amount)
        pushed += 1
    return pushed


def _footprint_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Least distance (mm) between two (convex) outlines, negative when they overlap. Vertex-based
    (the rounded rectangles' points), so two squares lying nearly on one another, turned apart, have
    no vertex inside the other: their overlap is measured as well (stress seed 9518 drew loose tiles
    over 82-87% of a laid tile in 3 of 500 photos, the tile beneath hidden and the truth holding it)."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    da = min(-cv2.pointPolygonTest(b32, (float(x), float(y)), True) for x, y in a)
    db = min(-cv2.pointPolygonTest(a32, (float(x), float(y)), True) for x, y in b)
    gap = float(min(da, db))
    if gap > 0:
        overlap, _ = cv2.intersectConvexConvex(a32, b32)
        if overlap > 0:
            return -math.sqrt(overlap)
    return gap


def looks_laid(piece: Piece, empty_spaces: set[tuple[int, int]], pitch: float) -> bool:
    """Whether a loose tile lies in one of the island's empty spaces (its middle inside the space)
    nearly square to the grid (`LAID_LOOKING_TURN`): then it looks laid, not loose."""
    x, y = piece.center_mm
    space = (int(math.floor(y / pitch)), int(math.floor(x / pitch)))
    return space in empty_spaces and quarter_turn_apart(piece.angle_deg, 0.0) < LAID_LOOKING_TURN


def place_beside(
    piece: Piece, others: list[Piece], gap_mm: float, rng: np.random.Generator, tries: int = 12
) -> Piece | None:
    """`piece` moved to lie `gap_mm` (0: touching) from the nearest of `others`, in a random
    direction from their middle, clear of all of them; None when no direction works."""
    prints = [piece_footprint(p) for p in others]
    middle = np.mean([p.center_mm for p in others], axis=0)
    for _ in range(tries):
        a = rng.uniform(0, 2 * np.pi)
        d = np.array([np.cos(a), np.sin(a)])

        def gap_at(r: float, d: np.ndarray = d) -> float:
            fp = piece_footprint(replace(piece, center_mm=tuple(middle + r * d)))
            return min(_footprint_gap(fp, other) for other in prints)

        lo, hi = 0.0, 400.0
        if gap_at(hi) < gap_mm:
            continue
        for _ in range(18):  # the gap grows as the piece moves out along the ray
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if gap_at(mid) < gap_mm else (lo, mid)
        moved = replace(piece, center_mm=tuple(float(v) for v in middle + hi * d))
        fp = piece_footprint(moved)
        if min(_footprint_gap(fp, other) for other in prints) >= gap_mm - 0.05:
            return moved
    return None


# --- Mediterráneo --------------------------------------------------------------------------------


def _card_center(x: int, y: int, rotation: int) -> tuple[float, float]:
    w, h = (2, 3) if rotation in (0, 180) else (3, 2)
    return ((x + w / 2) * CELL_MM, (y + h / 2) * CELL_MM)


def mediterraneo_scene(
    rng: np.random.Generator,
    catalog: dict,
    *,
    long_side_px: int = 4000,
    style: PhotoStyle | None = None,
    n_cards: int | None = None,
    world: World | None = None,
) -> Scene:
    """A sea from a legal play sequence, the two objective cards beside it, loose cards about."""
    scene = random_sea(catalog, rng, n_cards)
    conditions = None
    if style is None and world is not None:
        # the world's tables, light and print; a sea of cards is photographed whole and large
        conditions = draw_conditions(rng, world)
        conditions = replace(conditions, span=max(0.55, conditions.span))
        style = draw_style(rng, conditions)
    style = style or draw_style(rng)
    by_id = {c["id"]: c for c in catalog["components"]}
    xs = [p.x for p in scene.plays] + [p.x + (2 if p.rotation in (0, 180) else 3) for p in scene.plays]
    ys = [p.y for p in scene.plays] + [p.y + (3 if p.rotation in (0, 180) else 2) for p in scene.plays]
    x0, x1, y0, y1 = min(xs) * CELL_MM, max(xs) * CELL_MM, min(ys) * CELL_MM, max(ys) * CELL_MM
    px_per_mm = _art_scale(long_side_px, max(x1 - x0, y1 - y0) + 100)

    pieces, kinds = [], []
    jitter = 0.1 * CELL_MM  # hand placement: up to 10% of a cell
    for layer, play in enumerate(scene.plays):
        face = "front" if play.card.kind == "sea" else "back"
        cx, cy = _card_center(play.x, play.y, play.rotation)
        pieces.append(
            Piece(
                render_card_face(by_id[play.card.id], face, px_per_mm),
                CARD_MM,
                (cx + rng.uniform(-jitter, jitter), cy + rng.uniform(-jitter, jitter)),
                play.rotation + float(rng.normal(0, 1.5)),
                CARD_THICKNESS_MM,
                corner_radius_mm=3.0,
                layer=layer,
            )
        )
        kinds.append(("sea", play.card.id, face, play.x, play.y, play.rotation))
    # The objective cards lie upright below (or beside) the sea, one per player, apart.
    below = rng.random() < 0.6
    for i, (player, card_id) in enumerate(scene.objective_cards):
        if below:
            centre = (x0 + 35 + i * 75 + rng.uniform(0, 10), y1 + 60 + rng.uniform(0, 10))
        else:
            centre = (x1 + 45 + rng.uniform(0, 8), y0 + 50 + i * 100 + rng.uniform(0, 10))
        pieces.append(
            Piece(
                render_card_face(by_id[card_id], "back", px_per_mm),
                CARD_MM,
                centre,
                float(rng.normal(0, 3)),
                CARD_THICKNESS_MM,
                corner_radius_mm=3.0,
                layer=0,
            )
        )
        kinds.append(("objective", card_id, "back", player))
    played = {p.card.id for p in scene.plays} | {c for _, c in scene.objective_cards}
    spare = [c for c in catalog["components"] if c["id"] not in played]
    loose = [
        Piece(
            render_card_face(spare[int(i)], "front", px_per_mm),
            CARD_MM,
            (0.0, 0.0),
            0.0,
            CARD_THICKNESS_MM,
            3.0,
        )
        for i in rng.permutation(len(spare))[: int(rng.integers(0, 3))]
    ]
    box = _boxes([piece_box(p) for p in pieces])
    shot = photograph(pieces, rng, subject_mm=box, clutter=loose, long_side_px=long_side_px, style=style)
    jpeg = encode_jpeg(shot.image, rng)

    sea = scene.sea
    report = sea_report_to_json(score_sea(sea))
    camera = camera_from_dict(shot.camera)
    outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
    sea_quad = project_mm(camera, outline, CARD_THICKNESS_MM)  # the sea's lattice box as photographed
    cards = []
    for info, corners in zip(kinds, shot.corners, strict=True):
        if info[0] == "sea":
            _, card_id, face, x, y, rotation = info
            cards.append({"role": "sea", "id": card_id, "face": face, "x": x, "y": y, "rotation": rotation,
                          "corners": _quad_list(corners)})  # fmt: skip
        else:
            _, card_id, face, player = info
            cards.append(
                {
                    "role": "objective",
                    "id": card_id,
                    "face": face,
                    "player": player,
                    "corners": _quad_list(corners),
                }
            )
    truth = {
        "format": 1,
        "game": "mediterraneo",
        "board": sea_to_json(sea),
        "report": report,
        "plays": plays_to_json(scene.plays)["plays"],
        "scene": {
            "cards": len(scene.plays),
            "loose_cards": len(shot.clutter_corners),
            "span": round(quad_span(sea_quad, camera.size), 4),
            "objective_cards": "below" if below else "beside",
        },
        "conditions": sea_conditions(style, conditions),
        "cards": cards,
        "camera": shot.camera,
    }
    return Scene(jpeg, truth, shot)


# The families of the world's conditions a sea photo shows (the rest place tiles: Mondo's alone).
SEA_CONDITIONS = ("span", "tilt_deg", "table", "terrain_hue", "light", "print", "hand", "stress")


def sea_conditions(style: PhotoStyle, conditions: Conditions | None) -> dict:
    """The conditions a sea was photographed under, with the keys and meanings of a Mondo truth's
    (`vision.synth.world.Conditions`) that apply to a sea. A sea drawn from a world keeps that draw
    (its span as applied: a sea is photographed large). The everyday sea (no world) draws its look
    without named conditions; they are read off the style it drew, nothing drawn again: the table
    and its hue, the tilt and the hand as drawn, light "glare" where the style has a glare blob and
    "normal" otherwise, print "normal" (its print run is never faded, over-inked or glossy)."""
    if conditions is not None:
        return {k: v for k, v in conditions.to_dict().items() if k in SEA_CONDITIONS}
    return {
        "tilt_deg": round(style.tilt_deg, 4),
        "table": style.table,
        "terrain_hue": style.table_terrain_hue,
        "light": "glare" if style.glare > 0 else "normal",
        "print": "normal",
        "hand": style.hand,
        "stress": False,
    }


def piece_box(piece: Piece) -> tuple[float, float, float, float]:
    w, h = piece.size_mm
    a = math.radians(piece.angle_deg)
    ex = (abs(w * math.cos(a)) + abs(h * math.sin(a))) / 2
    ey = (abs(w * math.sin(a)) + abs(h * math.cos(a))) / 2
    return (
        piece.center_mm[0] - ex,
        piece.center_mm[1] - ey,
        piece.center_mm[0] + ex,
        piece.center_mm[1] + ey,
    )


def _boxes(boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )

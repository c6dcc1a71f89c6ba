"""Whole simulated photos with exact truth: a Mondo island or a Mediterráneo sea on a table.

Each scene function takes a numpy Generator and returns the JPEG bytes and the truth dict that
``scorecam synth`` writes beside it: the board in DESIGN.md's format, the engine's score report of
that board, and where every tile or card corner (and every grid cell) lies in the photo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from scoring.mediterraneo import score_sea, sea_report_to_json, sea_to_json
from scoring.mediterraneo.placement import plays_to_json
from scoring.mondo import island_to_json, score_turn, single_island_turn, turn_score_to_json
from vision.synth.mediterraneo_art import render_card_face
from vision.synth.mediterraneo_sea import random_sea
from vision.synth.mondo_art import render_mondo_face
from vision.synth.mondo_island import ISLAND_KINDS, component_by_id, island_of, random_layout
from vision.synth.photo import Camera, PhotoStyle, Piece, Shot, draw_style, encode_jpeg, photograph

TILE_MM = 50.0
TILE_THICKNESS_MM = 1.8
CARD_MM = (60.0, 90.0)
CELL_MM = 30.0
CARD_THICKNESS_MM = 0.4
ART_PX_PER_MM = 300 / 25.4  # the kit's print resolution: no photo shows more detail than the print


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
) -> Scene:
    """A hand-built island photographed on a table, with 0-3 loose tiles lying about."""
    grid = grid or (3 if rng.random() < 0.7 else 4)
    kinds = list(ISLAND_KINDS)
    kind = kind or kinds[int(rng.choice(len(kinds), p=list(ISLAND_KINDS.values())))]
    layout = random_layout(catalog, rng, grid, kind)
    island = island_of(layout, catalog, grid)
    style = style or draw_style(rng)
    px_per_mm = _art_scale(long_side_px, grid * TILE_MM)

    # Hand placement: 0-3 mm gaps, small shifts, up to 5 degrees of turn (mostly much less).
    angles = rng.normal(0, 1.6, (grid, grid)).clip(-5, 5)
    gaps = rng.uniform(0, 3, (2, grid + 1))
    # room for the turned tiles so that neighbours never overlap
    reach = TILE_MM / 2 * (np.abs(np.cos(np.radians(angles))) + np.abs(np.sin(np.radians(angles))))
    pitch = 2 * float(reach.max()) + gaps.mean()
    centres = {}
    for row in range(grid):
        for col in range(grid):
            shift = rng.uniform(-0.6, 0.6, 2) * max(0.0, pitch - 2 * reach[row, col])
            centres[(row, col)] = ((col + 0.5) * pitch + shift[0], (row + 0.5) * pitch + shift[1])
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
            )
        )
    used = {p.component for p in layout}
    spare = [c for c in catalog["components"] if c["id"] not in used]
    loose = []
    for index in rng.permutation(len(spare))[: int(rng.integers(0, 4))]:
        component = spare[int(index)]
        face = component["faces"]["front" if rng.random() < 0.6 else "back"]
        loose.append(
            Piece(render_mondo_face(face, px_per_mm), (TILE_MM, TILE_MM), (0.0, 0.0), 0.0, TILE_THICKNESS_MM)
        )

    span = grid * pitch
    shot = photograph(
        pieces, rng, subject_mm=(0.0, 0.0, span, span), clutter=loose, long_side_px=long_side_px, style=style
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
    report = turn_score_to_json(score_turn(single_island_turn(name, island)))
    truth = {
        "format": 1,
        "game": "mondo",
        "board": island_to_json(island),
        "report": report,
        "scene": {"kind": kind, "grid": grid, "pitch_mm": round(pitch, 3), "loose_tiles": len(shot.clutter_corners)},
        "island_quad": _quad_list(project_mm(camera, outline, TILE_THICKNESS_MM)),
        "tiles": [
            {"row": p.row, "col": p.col, "component": p.component, "face": p.face, "rotation": p.rotation,
             "corners": _quad_list(corners)}
            for p, corners in zip(layout, shot.corners, strict=True)
        ],
        "cells": cells,
        "camera": shot.camera,
    }  # fmt: skip
    return Scene(jpeg, truth, shot)


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
) -> Scene:
    """A sea from a legal play sequence, the two objective cards beside it, loose cards about."""
    scene = random_sea(catalog, rng, n_cards)
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
        "scene": {"cards": len(scene.plays), "loose_cards": len(shot.clutter_corners)},
        "cards": cards,
        "camera": shot.camera,
    }
    return Scene(jpeg, truth, shot)


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

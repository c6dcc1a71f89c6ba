"""The simulated world: conditions drawn per family, the stress end, family switches, and scenes
that show what the conditions ask for (span in the frame, touching loose tiles, pushed tiles, backs)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.geometry import quad_span
from vision.synth.catalog import load_catalog
from vision.synth.dataset import make_scene
from vision.synth.mondo_island import PlacedTile
from vision.synth.photo import PhotoStyle, Piece, photograph
from vision.synth.piece_drawing import piece_footprint
from vision.synth.scenes import (
    _footprint_gap,
    looks_laid,
    mondo_scene,
    place_beside,
    push_outer_tiles,
    with_backs,
)
from vision.synth.world import (
    SPAN_RANGE,
    STRESS_SPAN,
    TABLE_FAMILIES,
    World,
    condition_buckets,
    draw_conditions,
)


def test_normal_world_covers_every_family_and_the_whole_span_range():
    drawn = [draw_conditions(np.random.default_rng(s)) for s in range(600)]
    assert {c.table for c in drawn} == set(TABLE_FAMILIES)
    spans = np.array([c.span for c in drawn])
    assert SPAN_RANGE[0] <= spans.min() < 0.17 and 0.8 < spans.max() <= SPAN_RANGE[1]
    assert 0.4 < np.mean(spans < 0.4) < 0.7  # an island under 40% of the frame is the ordinary photo
    assert np.mean([c.light == "normal" for c in drawn]) > 0.6
    assert any(c.terrain_hue for c in drawn) and not all(c.terrain_hue for c in drawn)


def test_stress_draws_every_family_from_its_hard_end():
    for s in range(200):
        c = draw_conditions(np.random.default_rng(s), World(stress=True))
        assert STRESS_SPAN[0] <= c.span <= STRESS_SPAN[1]
        assert c.tilt_deg >= 25 and c.light != "normal" and c.print != "normal"
        assert c.loose_touching >= 1 and c.loose_near >= c.loose_touching
        assert c.gap_mm >= 3 and c.angle_deg >= 6 and c.pushes >= 1 and c.backs >= 1


def test_table_families_can_be_held_out_or_pinned():
    held = World(exclude_tables=("tablecloth", "felt"))
    assert all(
        draw_conditions(np.random.default_rng(s), held).table not in ("tablecloth", "felt")
        for s in range(200)
    )
    only = World(tables=("tablecloth",))
    assert {draw_conditions(np.random.default_rng(s), only).table for s in range(50)} == {"tablecloth"}
    hued = World(terrain_hues=True)
    assert all(draw_conditions(np.random.default_rng(s), hued).terrain_hue for s in range(50))
    with pytest.raises(ValueError, match="unknown table families"):
        World(tables=("velvet",))
    with pytest.raises(ValueError, match="no table family"):
        World(tables=("wood",), exclude_tables=("wood",))


def test_the_lights_can_be_pinned_and_weighed():
    for stress in (False, True):
        pinned = World(stress=stress, lights=("overexposed", "overexposed", "glare"))
        drawn = [draw_conditions(np.random.default_rng(s), pinned) for s in range(300)]
        assert {c.light for c in drawn} == {"overexposed", "glare"}
        assert 0.55 < np.mean([c.light == "overexposed" for c in drawn]) < 0.8  # named twice: 2/3
        if stress:  # the rest still from the hard end
            assert all(c.tilt_deg >= 25 and STRESS_SPAN[0] <= c.span <= STRESS_SPAN[1] for c in drawn)
    with pytest.raises(ValueError, match="lights must be"):
        World(lights=("candlelight",))
    with pytest.raises(ValueError, match="lights must be"):
        World(lights=())


def test_condition_buckets_come_from_the_measured_truth():
    truth = {
        "conditions": {"table": "felt", "terrain_hue": True, "light": "dim", "print": "faded", "hand": True,
                       "neighbours": False},
        "scene": {"span": 0.22, "loose_touching": 2, "messy": True, "backs": 0},
        "camera": {"tilt_deg": 31.0},
    }  # fmt: skip
    assert condition_buckets(truth) == {
        "island size in frame": "under 25%",
        "tilt": "30° or more",
        "table family": "felt",
        "table hue": "terrain hues",
        "light": "dim",
        "print": "faded",
        "hand in frame": "yes",
        "other island at the edge": "no",
        "loose tiles touching": "2 or more",
        "placement": "messy",
        "back-side tiles": "none",
    }
    assert condition_buckets({}) == {}
    # a Mondo island's empty spaces, counted from its board
    for tiles, bucket in ((9, "none"), (8, "1"), (7, "2"), (6, "3 or more"), (5, "3 or more")):
        board = {"grid": 3, "tiles": [{"row": i // 3, "col": i % 3} for i in range(tiles)]}
        assert condition_buckets({"game": "mondo", "board": board}) == {"empty spaces": bucket}
    assert condition_buckets({"game": "mediterraneo", "board": {"grid": 3, "tiles": []}}) == {}


def tile(x: float, y: float, angle: float = 0.0) -> Piece:
    return Piece(np.zeros((4, 4, 3), np.uint8), (50.0, 50.0), (x, y), angle, 1.8)


def test_a_loose_tile_placed_beside_the_island_lies_at_the_gap_asked_for():
    island = [tile(25 + 52 * c, 25 + 52 * r, float(np.random.default_rng(r * 3 + c).normal(0, 3))) for r in range(3) for c in range(3)]  # fmt: skip
    for seed, gap in ((1, 0.0), (2, 0.5), (3, 12.0), (4, 30.0)):
        rng = np.random.default_rng(seed)
        placed = place_beside(tile(0, 0, 37.0), island, gap, rng)
        assert placed is not None
        got = min(_footprint_gap(piece_footprint(placed), piece_footprint(p)) for p in island)
        assert gap - 0.05 <= got <= gap + 0.6, (gap, got)


def test_a_tile_lying_over_another_turned_apart_overlaps_it():
    # no corner of either lies inside the other: the vertex test alone called the gap positive
    a, b = piece_footprint(tile(100, 100, -2.1)), piece_footprint(tile(101, 101, 18.5))
    assert _footprint_gap(a, b) < -30
    assert _footprint_gap(piece_footprint(tile(0, 0)), piece_footprint(tile(60, 0))) == pytest.approx(
        10, abs=0.5
    )


def test_no_loose_tile_lies_over_a_laid_one():
    # stress 9518-00424: a touching loose back was drawn over 87% of the island's corner tile
    scene = make_scene("mondo", 9518, 424, 1000, world=World(stress=True))
    laid = [np.float32(t["corners"]) for t in scene.truth["tiles"]]
    for loose in scene.truth["loose_tiles"]:
        for quad in laid:
            assert cv2.intersectConvexConvex(np.float32(loose), quad)[0] < 0.02 * cv2.contourArea(quad)


def test_a_loose_tile_lying_square_in_an_empty_space_looks_laid():
    # the truth could not be known from the photo: the simulator draws such a place again
    pitch, empty = 52.0, {(2, 2)}
    assert looks_laid(tile(2.5 * pitch + 8, 2.5 * pitch - 5, 97.0), empty, pitch)  # 7 degrees off
    assert not looks_laid(tile(2.5 * pitch, 2.5 * pitch, 20.0), empty, pitch)  # turned: loose
    assert not looks_laid(tile(2.5 * pitch, 3.2 * pitch, 3.0), empty, pitch)  # outside the space
    assert not looks_laid(tile(1.5 * pitch, 2.5 * pitch, 3.0), empty, pitch)  # over a laid tile's space


def test_pushed_tiles_move_outwards_off_the_lattice():
    grid, pitch = 3, 52.0
    layout = [PlacedTile("T01", "front", 0, r, c) for r in range(grid) for c in range(grid)]
    centres = {(r, c): ((c + 0.5) * pitch, (r + 0.5) * pitch) for r in range(grid) for c in range(grid)}
    before = dict(centres)
    assert push_outer_tiles(centres, layout, grid, pitch, 2, np.random.default_rng(5)) == 2
    moved = [k for k in centres if centres[k] != before[k]]
    assert len(moved) == 2 and (1, 1) not in moved
    middle = np.array([1.5 * pitch, 1.5 * pitch])
    for k in moved:
        d = np.subtract(centres[k], before[k])
        assert 0.15 * pitch - 1e-9 <= np.hypot(*d) <= 0.33 * pitch + 1e-9
        assert d @ (np.array(before[k]) - middle) > 0  # away from the island's middle


def test_backs_go_to_inner_cells_first():
    layout = [PlacedTile(f"T{r}{c}", "front", 0, r, c) for r in range(4) for c in range(4)]
    out = with_backs(layout, 3, 4, np.random.default_rng(0))
    backs = [(p.row, p.col) for p in out if p.face == "back"]
    assert len(backs) >= 3 and sum(0 < r < 3 and 0 < c < 3 for r, c in backs) == 3


@pytest.mark.parametrize("span", [0.15, 0.3, 0.8])
def test_framing_by_span(span):
    pieces = [tile(25 + 52 * c, 25 + 52 * r) for r in range(3) for c in range(3)]
    box = (0.0, 0.0, 156.0, 156.0)
    style = replace(PhotoStyle(), span=span, tilt_deg=25.0, roll_deg=20.0)
    shot = photograph(pieces, np.random.default_rng(3), subject_mm=box, long_side_px=640, style=style)
    assert abs(shot.camera["subject_span"] - span) < 0.01
    corners = np.array([[0, 0], [156, 0], [156, 156], [0, 156]], np.float64)
    quad = cv2.perspectiveTransform(corners[None], shot.homography)[0]
    assert abs(quad_span(quad, (640, 480)) - span) < 0.01


def test_a_stress_scene_records_what_it_shows():
    scene = mondo_scene(
        np.random.default_rng([4, 2]), load_catalog("mondo"), long_side_px=800, world=World(stress=True)
    )
    truth = scene.truth
    c = truth["conditions"]
    assert c["stress"] and c["light"] != "normal"
    s = truth["scene"]
    assert STRESS_SPAN[0] - 0.03 <= s["span"] <= STRESS_SPAN[1] + 0.03
    assert s["messy"] and s["backs"] >= 1
    assert len(truth["loose_tiles"]) >= s["loose_touching"] >= 1
    assert set(condition_buckets(truth)) >= {"island size in frame", "tilt", "table family", "light"}

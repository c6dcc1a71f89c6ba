"""Spaces read as empty, looked at once more (vision/mondo/empty_spaces.py): an empty space must look
like the table round the island, and a tile that breaks the water rule beside an empty space may be
a loose tile lying in it. Hand-drawn pictures and hand-built islands of known score, then two
stress photos whose wrong score carried no flag before (seed 9613, a development seed)."""

from __future__ import annotations

from dataclasses import replace
from unittest import mock

import cv2
import numpy as np
import pytest
from mondo_builders import F, W, full_forest_island, tile

from scoring.mondo import Island
from scoring.mondo.island import Component
from vision.mondo.checks import LOOSE_TILE, NOT_TABLE, SLANTED_TILE, Check, island_score, settle
from vision.mondo.empty_spaces import loose_tile_cells, unlike_table_spaces

CELL = 40  # px a cell in the drawn pictures
TABLE = (60, 110, 70)  # BGR: a green felt
TILE = (40, 170, 215)  # ... and a desert-coloured tile on it


def _picture(
    grid: int, tiles: set[tuple[int, int]], *, gradient: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """A table with a grid's tiles drawn on it (one cell of table all round), and the grid's quad."""
    size = (grid + 4) * CELL
    image = np.zeros((size, size, 3), np.uint8)
    image[:] = TABLE
    if gradient:  # the table darker to the right: shading across the island
        image = (image * np.linspace(1.0, 0.6, size)[None, :, None]).astype(np.uint8)
    origin = 2 * CELL
    for r, c in tiles:
        x, y = origin + c * CELL, origin + r * CELL
        cv2.rectangle(image, (x + 2, y + 2), (x + CELL - 3, y + CELL - 3), TILE, -1)
    quad = np.float32(
        [
            [origin, origin],
            [origin + grid * CELL, origin],
            [origin + grid * CELL] * 2,
            [origin, origin + grid * CELL],
        ]
    )
    return image, quad


def _all_but(grid: int, *empty: tuple[int, int]) -> set[tuple[int, int]]:
    return {(r, c) for r in range(grid) for c in range(grid)} - set(empty)


@pytest.mark.parametrize("gradient", [False, True])
def test_an_empty_space_showing_the_table_is_not_asked_about(gradient):
    image, quad = _picture(3, _all_but(3, (1, 1), (2, 0)), gradient=gradient)
    assert unlike_table_spaces(image, quad, 3, [(1, 1), (2, 0)]) == []


def test_a_space_read_as_empty_that_shows_a_tile_is_asked_about():
    image, quad = _picture(3, _all_but(3, (2, 0)))  # (1, 1) holds a tile the model called empty
    assert unlike_table_spaces(image, quad, 3, [(1, 1), (2, 0)]) == [(1, 1)]
    assert unlike_table_spaces(image, quad, 3, []) == []


def test_a_space_is_compared_with_the_table_beside_the_island_not_the_island():
    # a 4x4 island whose every cell but one holds a tile: the empty one is like the ring, not the tiles
    image, quad = _picture(4, _all_but(4, (0, 3)))
    assert unlike_table_spaces(image, quad, 4, [(0, 3)]) == []
    image[:] = TILE  # a table of the tiles' own colour: an empty space looks like it too
    assert unlike_table_spaces(image, quad, 4, [(0, 3)]) == []


def _island_with_a_space() -> Island:
    """The full forest island without its middle-right tile: valid, one space empty."""
    tiles = [t for t in full_forest_island(3).tiles if t.cell != (1, 2)]
    return Island(3, tuple(tiles))


def test_a_tile_breaking_the_water_rule_beside_an_empty_space_may_be_a_loose_one():
    forest = full_forest_island(3)
    lying = Island(
        3, tuple(t if t.cell != (0, 2) else tile(0, 2, W, F, F, F) for t in forest.tiles if t.cell != (1, 2))
    )
    # (0, 2)'s right edge is forest on the coast, and (1, 2) below it is empty
    assert loose_tile_cells(lying, [(1, 2)]) == [(0, 2)]
    assert loose_tile_cells(lying, []) == []  # no empty space: the island breaks the rule, nothing to ask
    # a tile breaking the rule away from every empty space is the island's own
    far = Island(
        3, tuple(t if t.cell != (2, 0) else tile(2, 0, F, F, W, F) for t in forest.tiles if t.cell != (0, 2))
    )
    assert loose_tile_cells(far, [(0, 2)]) == []
    # an island that breaks the rule elsewhere too scores nothing either way: nothing to ask
    both = Island(3, tuple(t if t.cell != (2, 0) else tile(2, 0, F, F, W, F) for t in lying.tiles))
    assert loose_tile_cells(both, [(1, 2)]) == []
    # a valid island asks nothing
    assert loose_tile_cells(_island_with_a_space(), [(1, 2)]) == []


def test_a_tile_read_back_side_up_breaking_the_water_rule_may_be_a_loose_one_anywhere():
    # 9513-00491: a loose tile face down lay in a corner space of its own, away from the island's
    # other empty space; read back side up (land all round), it broke the water rule: 0 points, and
    # nothing to check. A tile read face up there is the island's own, as before.
    forest = full_forest_island(3)
    corner = tile(2, 2, F, F, F, F)  # land all round, on the coast's corner
    face_down = replace(corner, component=Component("back", "back"))
    for t, asked in ((face_down, [(2, 2)]), (corner, [])):
        island = Island(3, tuple(x if x.cell != (2, 2) else t for x in forest.tiles if x.cell != (0, 2)))
        assert loose_tile_cells(island, [(0, 2)]) == asked


def test_the_loose_tile_check_gives_the_score_without_that_tile():
    forest = full_forest_island(3)
    lying = Island(
        3, tuple(t if t.cell != (0, 2) else tile(0, 2, W, F, F, F) for t in forest.tiles if t.cell != (1, 2))
    )
    total, valid = island_score(lying)
    assert (total, valid) == (0, False)  # an invalid island scores nothing
    (doubt,) = settle(lying, [Check(0, 2, LOOSE_TILE, ())])
    without = Island(3, tuple(t for t in lying.tiles if t.cell != (0, 2)))
    assert doubt.total == 0 and doubt.total_if_second == island_score(without)[0]
    # 7 tiles of the forest island: 8 facing forest pairs left, two empty spaces
    assert island_score(without) == (8 * 2 - 2, True)
    assert doubt.text == (
        "Row 1, tile 3: this tile breaks the water rule, and without it the island keeps the rule: is it "
        "part of the island, or a loose tile lying in a space the island leaves empty? please look — if loose: +14 points"
    )
    assert doubt.to_json()["change"] == 14


def test_a_space_unlike_the_table_asks_to_look_and_keeps_the_total():
    island = _island_with_a_space()
    (doubt,) = settle(island, [Check(1, 2, NOT_TABLE, ())])
    assert doubt.text == (
        "Row 2, tile 3: read as empty, but this space does not look like the table round the island: "
        "is a tile here (back side up, or pushed out of line)? please look"
    )
    assert doubt.total == island_score(island)[0] and doubt.change is None


# ---------------------------------------------------------------- stress photos (seed 9613, development)


def _read_stress_photo(index: int, seed: int = 9613, first_net_only: bool = False):
    import vision.synth.scenes as scenes
    from vision.mondo.reader import read_photo_island, read_with_locator
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    # drawn as the simulator drew them when these tests were written: 9613-00195's loose tile lies in
    # an empty space nearly square to the grid, a place the simulator now draws again
    # (scenes.LAID_LOOKING_TURN); the reader must still ask about such a tile
    with mock.patch.object(scenes, "LAID_LOOKING_TURN", 0.0):
        scene = make_scene("mondo", seed, index, 4000, world=World(stress=True))
    truth = scene.truth["report"]["players"][0]["total"]
    read = read_with_locator if first_net_only else read_photo_island
    result = read(decode_photo(scene.jpeg), grid=scene.truth["scene"]["grid"])
    assert result.refusal is None
    return result.reading, truth


def test_a_back_side_tile_read_as_empty_on_a_stress_photo_is_asked_about():
    # 9613-00144: a complete island on a turquoise paper in a colour cast; the tile model reads the tile
    # at row 1, tile 2 on the edge of empty: when developed, an empty space with full confidence (the
    # score one point short); on 2026-12-03's machine a tile, 64% sure (the same with onnxruntime 1.30
    # or 1.32, numpy 2.3 or 2.4, pillow 12 or 13, opencv 4.14 or 5.0: the cause not found). Either way
    # the space is asked about, never passed over in silence
    reading, truth = _read_stress_photo(144)
    if reading.island.tile_at(0, 1) is None:
        (doubt,) = [c for c in reading.checks if c.head == NOT_TABLE]
        assert (doubt.row, doubt.col) == (0, 1)
        assert island_score(reading.island)[0] != truth and doubt.text in reading.flags
    else:
        assert island_score(reading.island)[0] == truth
        assert any(
            f.startswith("Row 1, tile 2: is there a tile here, or is the space empty?") for f in reading.flags
        )


def test_a_loose_tile_lying_in_an_empty_space_on_a_stress_photo_is_asked_about_with_the_true_score():
    # 9613-00195: a loose tile lies in one of the island's two empty spaces; read as the island's, it
    # breaks the water rule and the island scores 0, nothing flagged before. Asked about, the score
    # without it is the truth. (The first locator net's reading.)
    reading, truth = _read_stress_photo(195, first_net_only=True)
    (doubt,) = [c for c in reading.checks if c.head == LOOSE_TILE]
    assert island_score(reading.island) == (0, False)
    assert doubt.total_if_second == truth and doubt.text in reading.flags
    # Every look asks about that tile. Nine read it as the island's, with this question; the second
    # net's reads its space as empty, the truth's total, and asks whether the tile lying just past
    # the space is the island's, pushed out of line (vision.mondo.pushed: since 2026-12-06 its crops
    # also move along the side; before, that look asked nothing and was kept, with the looks' own
    # flag). As many doubts: the first look's reading is kept, the truth its score if loose.
    both, _ = _read_stress_photo(195)
    (doubt,) = [c for c in both.checks if c.head == LOOSE_TILE]
    assert (doubt.row, doubt.col) == (1, 0) and doubt.total_if_second == truth and both.flags == (doubt.text,)


def test_a_loose_tile_face_down_in_a_space_of_its_own_on_a_stress_photo_is_asked_about(monkeypatch):
    # 9513-00491 (a measured seed, looked at after): a loose tile face down lies in the island's corner
    # space, away from its other empty space; read back side up, it breaks the water rule, 0 points
    # and nothing flagged before. Asked about, the score without it is the truth.
    import vision.mondo.slanted as slanted

    # it lies turned past any hand-laid tile: since 2026-12-06 the slant test takes it out, and asks
    reading, truth = _read_stress_photo(491, seed=9513)
    assert island_score(reading.island) == (truth, True) and truth == 5
    assert [c.head for c in reading.checks] == [SLANTED_TILE]
    # where the slant test does not see it so, the water rule asks
    monkeypatch.setattr(slanted, "LOOSE", slanted.SLANTED)
    reading, truth = _read_stress_photo(491, seed=9513)
    (doubt,) = [c for c in reading.checks if c.head == LOOSE_TILE]
    assert island_score(reading.island) == (0, False)
    assert doubt.total_if_second == truth == 5 and doubt.text in reading.flags


def test_a_tile_asked_about_as_lying_off_the_grid_is_not_asked_again_by_the_water_rule(monkeypatch):
    # A tile at the island's edge kept though its outline lies turned off the grid (OFF_GRID_TILE:
    # "is it part of the island, or a loose tile?") that also breaks the water rule beside an empty
    # space: the water rule's question (LOOSE_TILE) is the same one with the same score if loose, so
    # the player reads it once. Before, two lines for one doubt, and a look asking it counted two.
    import vision.mondo.space_checks as space_checks
    from vision.mondo.checks import OFF_GRID_TILE, with_checks
    from vision.mondo.decode import CellReading
    from vision.mondo.reader import IslandReading

    forest = full_forest_island(3)
    lying = Island(
        3, tuple(t if t.cell != (0, 2) else tile(0, 2, W, F, F, F) for t in forest.tiles if t.cell != (1, 2))
    )
    image, quad = _picture(3, _all_but(3, (1, 2)))  # the space shows the table: nothing else to ask
    cells = tuple(
        CellReading(r, c, "empty" if (r, c) == (1, 2) else "catalog", 0.0, ())
        for r in range(3)
        for c in range(3)
    )
    bare = IslandReading(lying, (), cells, 3, quad, np.zeros((9, 4, 2), np.float32), {})
    asked = with_checks(bare, settle(lying, [Check(0, 2, OFF_GRID_TILE, ())]))
    # the crops' own questions (a tile turned across the space, one pushed past it) ask nothing here
    monkeypatch.setattr(space_checks, "turned_tile_checks", lambda *a: ())
    monkeypatch.setattr(space_checks, "pushed_tile_checks", lambda *a: ())

    once = space_checks.with_empty_space_checks(image, asked, None, None, None)
    assert [(c.row, c.col, c.head) for c in once.checks] == [(0, 2, OFF_GRID_TILE)]
    assert once.flags == (asked.checks[0].text,) and once.checks[0].total_if_second == 14
    # a tile with no off-grid question is asked about by the water rule, as ever
    plain = space_checks.with_empty_space_checks(image, bare, None, None, None)
    assert [(c.row, c.col, c.head) for c in plain.checks] == [(0, 2, LOOSE_TILE)]
    monkeypatch.setattr(space_checks, "ASK_ONCE", False)  # before: both
    twice = space_checks.with_empty_space_checks(image, asked, None, None, None)
    assert [c.head for c in twice.checks] == [OFF_GRID_TILE, LOOSE_TILE] and len(twice.flags) == 2

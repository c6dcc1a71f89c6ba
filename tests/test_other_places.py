"""The grid's other places from the tiles read (vision.mondo.grid_places.other_places): where the tiles
of a reading leave whole outer rows or columns empty, the same tiles fit the grid moved towards
them, and the photo alone does not say which place is the island's (the coast tells, in
``read_best_place``). Geometry on a hand-made grid and hand-made islands."""

from __future__ import annotations

import numpy as np
from mondo_builders import F, tile
from mondo_scenes import read_scene

from scoring.mondo import Island
from vision.geometry import grid_cell_quads
from vision.mondo.grid_places import other_places
from vision.mondo.locate import FoundIsland

SQUARE = np.float32([[300, 300], [420, 300], [420, 420], [300, 420]])  # a 3x3 grid, 40 px a cell


def _found(quad=SQUARE) -> FoundIsland:
    return FoundIsland(quad, 3, grid_cell_quads(quad, 3), 6, 0.9)


def _island(cells) -> Island:
    return Island(3, tuple(tile(r, c, F, F, F, F) for r, c in sorted(cells)))


def _corners(places) -> list[tuple[int, int]]:
    return sorted(tuple(p.quad[0].round().astype(int)) for p in places)


def test_an_empty_right_column_gives_the_grid_a_column_to_the_left():
    two_columns = [(r, c) for r in range(3) for c in range(2)]
    places = other_places(_island(two_columns), _found(), (1000, 1000, 3))
    assert _corners(places) == [(260, 300)]
    assert places[0].grid == 3 and places[0].alternatives == ()
    np.testing.assert_allclose(places[0].cell_quads, grid_cell_quads(places[0].quad, 3), atol=1e-3)


def test_an_empty_top_row_and_left_column_give_three_other_places():
    corner_block = [(r, c) for r in (1, 2) for c in (1, 2)]
    places = other_places(_island(corner_block), _found(), (1000, 1000, 3))
    assert _corners(places) == [(300, 340), (340, 300), (340, 340)]


def test_an_island_spanning_its_grid_has_no_other_place():
    full = [(r, c) for r in range(3) for c in range(3)]
    assert other_places(_island(full), _found(), (1000, 1000, 3)) == []


def test_a_place_off_the_photo_is_not_given():
    at_left = SQUARE - np.float32([280, 0])  # 20 px from the photo's left edge
    two_columns = [(r, c) for r in range(3) for c in range(2)]
    assert other_places(_island(two_columns), _found(at_left), (1000, 1000, 3)) == []


def test_an_empty_column_the_locator_did_not_see_is_put_on_the_coasts_side():
    # 9016-00306: a 3x3 island of six tiles (its first column empty) on printed paper; a table
    # pattern on the empty column's lattice point counted as a tile, so the locator gave no other
    # place, and the grid held the empty column on the wrong side: invalid, 0 points, and nothing
    # to check. The same tiles on the grid a column over keep the water rule: 8 points.
    result, player, truth = read_scene(9016, 306)
    assert result.refusal is None
    assert (player.total, player.valid) == (truth["total"], truth["valid"]) == (8, True)
    assert len(result.reading.island.tiles) == 6

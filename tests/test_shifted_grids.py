"""A grid a cell off the island (vision.mondo.grid_places.shifted_grids): where the best grid holds more
empty spaces than players leave, the grid moved a cell each way is read, and a move that holds the
island is taken. The geometry on a hand-made grid; then a development photo (seed 9613) whose
lattice settled a column off a small island with three empty spaces."""

from __future__ import annotations

import numpy as np
from mondo_scenes import read_scene

from vision.geometry import grid_cell_quads
from vision.mondo.grid_places import shifted_grids
from vision.mondo.locate import FoundIsland

SQUARE = np.float32([[300, 300], [420, 300], [420, 420], [300, 420]])  # a 3x3 grid, 40 px a cell


def _found(quad=SQUARE) -> FoundIsland:
    return FoundIsland(quad, 3, grid_cell_quads(quad, 3), 9, 0.9)


def test_the_grid_moves_a_cell_each_way():
    moved = shifted_grids(_found(), (1000, 1000, 3))
    corners = sorted(tuple(m.quad[0].round().astype(int)) for m in moved)
    assert corners == sorted(
        (300 + 40 * dc, 300 + 40 * dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
    )
    for m in moved:  # the same size of grid, its cells moved with it, and no other places
        assert m.grid == 3 and m.alternatives == ()
        np.testing.assert_allclose(m.cell_quads, grid_cell_quads(m.quad, 3), atol=1e-3)


def test_a_move_that_leaves_the_photo_is_not_tried():
    at_left = SQUARE - np.float32([280, 0])  # 20 px from the photo's left edge
    moved = shifted_grids(_found(at_left), (1000, 1000, 3))
    assert len(moved) == 5 and all(m.quad[:, 0].min() >= 0 for m in moved)


def test_a_grid_a_column_off_a_small_island_is_moved_onto_it():
    # 9613-00264: a 3x3 island spanning 17% of the frame on a mottled green table, three spaces
    # empty; the locator's lattice settled a column off it (four spaces empty, the island's last
    # column outside, read as invalid: 0 points, flagged). Moved a column over, the grid holds it.
    result, player, truth = read_scene(9613, 264)
    assert result.refusal is None
    assert (player.total, player.valid) == (truth["total"], truth["valid"]) == (8, True)
    assert len(result.reading.island.tiles) == 6

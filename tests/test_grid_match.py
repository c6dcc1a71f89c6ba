"""The "islands found" test of the benchmarks and `scorecam eval`, on hand-built truths."""

import numpy as np
import pytest

from vision.geometry import CROP_MARGIN
from vision.mondo.grid_match import corner_errors, match_grid, outer_tile_insets

CELL = 100.0  # px
TILE = 90.0  # px: a tile is a little smaller than its cell, as on the table


def _square(x0: float, y0: float, side: float) -> list[list[float]]:
    return [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]]


def _truth(grid: int = 3, empty: tuple[tuple[int, int], ...] = ()) -> dict:
    inset = (CELL - TILE) / 2
    tiles = [
        {"row": r, "col": c, "corners": _square(c * CELL + inset, r * CELL + inset, TILE)}
        for r in range(grid)
        for c in range(grid)
        if (r, c) not in empty
    ]
    return {"scene": {"grid": grid}, "island_quad": _square(0, 0, grid * CELL), "tiles": tiles}


def test_the_truth_grid_itself_is_found_with_the_tiles_clearance():
    truth = _truth()
    match = match_grid(np.array(truth["island_quad"]), 3, truth)
    assert match.found and match.grid_right
    assert match.turns == 0
    assert match.corner_error == pytest.approx(0.0)
    # a tile's corner lies half a tile from its centre; the crop reaches half a cell plus the margin
    assert match.tile_clearance == pytest.approx(0.5 + CROP_MARGIN - TILE / CELL / 2)


def test_a_grid_named_from_another_corner_is_turned_back():
    truth = _truth()
    read = np.roll(np.array(truth["island_quad"]), -1, axis=0)  # the reader's (0, 0) is the truth's top right
    match = match_grid(read, 3, truth)
    assert match.found
    assert match.turns == 1  # one clockwise quarter turn brings the truth's top left to the reader's (0, 0)


def test_a_grid_a_fifth_of_a_cell_off_leaves_a_tile_outside_its_crop():
    truth = _truth()
    read = np.array(truth["island_quad"]) + [0.2 * CELL, 0.0]
    match = match_grid(read, 3, truth)
    assert match.grid_right and not match.found
    assert match.tile_clearance == pytest.approx(0.5 + CROP_MARGIN - TILE / CELL / 2 - 0.2)
    assert match.corner_error == pytest.approx(0.2)
    assert "sticks out of its crop" in match.why_not(3, 3)


def test_outline_corners_can_be_off_while_every_tile_is_in_its_crop():
    # an empty corner cell: the reader extrapolates that corner, 0.15 cell out; the tiles still sit well
    truth = _truth(empty=((0, 2),))
    read = np.array(truth["island_quad"])
    read[1] += [0.15 * CELL, -0.15 * CELL]
    match = match_grid(read, 3, truth)
    assert match.found
    assert match.corner_error == pytest.approx(0.15 * np.sqrt(2))
    assert 0 < match.tile_clearance < 0.5 + CROP_MARGIN - TILE / CELL / 2


def test_the_wrong_grid_size_is_not_found():
    truth = _truth()
    match = match_grid(np.array(truth["island_quad"]), 4, truth)
    assert not match.found and not match.grid_right
    assert "4x4" in match.why_not(4, 3)


def test_corner_errors_are_in_cells_at_each_corner():
    truth = np.array(_square(0, 0, 300))
    k, errors = corner_errors(np.roll(truth, 2, axis=0) + [3.0, 0.0], truth, 3)
    assert k == 2
    np.testing.assert_allclose(errors, [0.03] * 4)


def test_outer_tiles_lie_their_share_of_the_slack_inside_the_outline():
    insets = outer_tile_insets(_truth(empty=((1, 1),)))  # the centre tile has no outer side
    assert len(insets) == 12  # 4 sides of 3 tiles each
    np.testing.assert_allclose(insets, (CELL - TILE) / 2 / CELL, atol=1e-5)

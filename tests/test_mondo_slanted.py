"""A tile lying turned far off the grid in a space is a loose tile (vision.mondo.slanted, and the
reader's use of it: vision.mondo.space_checks)."""

import cv2
import numpy as np
import pytest

import vision.mondo.reader as reader
import vision.mondo.slanted as slanted
import vision.mondo.space_checks as space_checks
from scoring.mondo import score_turn, single_island_turn
from vision.mondo.checks import SLANTED_TILE
from vision.mondo.space_checks import edge_tiles
from vision.photo_io import decode_photo
from vision.synth.dataset import make_scene
from vision.synth.world import World

PX = 100  # px per cell of the drawn pictures


def _table(rng: np.random.Generator, cells: int = 3) -> np.ndarray:
    """A picture `cells` cells wide and high of a mottled table (soft blobs, no straight lines)."""
    noise = rng.normal(0, 1, (cells * PX, cells * PX, 3)).astype(np.float32)
    table = cv2.GaussianBlur(noise, (0, 0), 6) * 60 + np.float32([70, 90, 110])
    return np.clip(table, 0, 255).astype(np.uint8)


def _draw_tile(picture: np.ndarray, middle: tuple[float, float], turn: float, colour, rng) -> None:
    """A tile (0.93 cell, speckled print) lying at `middle` (cells) turned `turn` degrees."""
    t = np.radians(turn)
    rotation = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    corners = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * 0.465) @ rotation.T + middle
    mask = np.zeros(picture.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.int32(np.round(corners * PX))], 255)
    print_ = np.float32(colour) + rng.normal(0, 25, picture.shape).astype(np.float32)
    picture[mask > 0] = np.clip(print_, 0, 255).astype(np.uint8)[mask > 0]


GRID_TO_PICTURE = np.diag([float(PX), float(PX), 1.0])


@pytest.mark.parametrize("turn", [-32.0, 20.0, 41.0])
def test_a_tile_lying_turned_in_a_space_is_found_turned(turn):
    rng = np.random.default_rng(1)
    picture = _table(rng)
    _draw_tile(picture, (1.6, 1.45), turn, (60, 170, 200), rng)  # a tile pushed a little, turned
    found, ratio, second = slanted.tile_turn(slanted.rectified_space(picture, GRID_TO_PICTURE, 1, 1))
    assert abs(found - turn) <= 5.0
    assert ratio >= slanted.SLANT_RATIO and second >= slanted.FOUR_SIDES
    assert set(
        slanted.slanted_tiles(picture, np.float32([[0, 0], [3, 0], [3, 3], [0, 3]]) * PX, 3, [(1, 1)])
    ) == {(1, 1)}


@pytest.mark.parametrize("turn", [-13.0, 14.0, 17.0])
def test_a_tile_lying_a_little_past_a_hand_laid_one_is_measured_finely_and_slanted(turn):
    # a tile 12-20 degrees off: squares near the grid's turn fit it nearly as well (no ratio to go
    # by), but the turns round the best are tried a degree apart, and no hand-laid tile lies so
    rng = np.random.default_rng(4)
    picture = _table(rng)
    _draw_tile(picture, (1.55, 1.5), turn, (60, 170, 200), rng)
    found, ratio, second = slanted.tile_turn(slanted.rectified_space(picture, GRID_TO_PICTURE, 1, 1))
    assert abs(found - turn) <= 1.5
    assert slanted.is_slanted(found, ratio, second)
    quad = np.float32([[0, 0], [3, 0], [3, 3], [0, 3]]) * PX
    assert set(slanted.slanted_tiles(picture, quad, 3, [(1, 1)])) == {(1, 1)}


@pytest.mark.parametrize("turn", [-8.0, 0.0, 6.0, 9.5])
def test_a_hand_laid_tile_is_not_slanted(turn):
    rng = np.random.default_rng(2)
    picture = _table(rng)
    for row in range(3):
        for col in range(3):
            _draw_tile(
                picture, (col + 0.5, row + 0.5), turn if (row, col) == (1, 1) else 2.0, (60, 170, 200), rng
            )
    found, ratio, _ = slanted.tile_turn(slanted.rectified_space(picture, GRID_TO_PICTURE, 1, 1))
    assert abs(found) <= slanted.LAID and ratio == 1.0
    quad = np.float32([[0, 0], [3, 0], [3, 3], [0, 3]]) * PX
    assert slanted.slanted_tiles(picture, quad, 3, [(r, c) for r in range(3) for c in range(3)]) == {}


def test_two_straight_lines_of_a_table_crossing_are_not_a_tile():
    # a tiled floor's grout: two lines crossing at 30 degrees off the grid make two sides of a
    # slanted square, never four
    rng = np.random.default_rng(3)
    picture = _table(rng)
    centre = np.array([1.5, 1.5]) * PX
    for angle in (30.0, 120.0):
        d = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        a, b = (
            centre - 0.47 * PX * d[::-1] * [1, -1] - 2 * PX * d,
            centre - 0.47 * PX * d[::-1] * [1, -1] + 2 * PX * d,
        )
        cv2.line(picture, tuple(int(v) for v in a), tuple(int(v) for v in b), (235, 235, 235), 4)
    _, _, second = slanted.tile_turn(slanted.rectified_space(picture, GRID_TO_PICTURE, 1, 1))
    quad = np.float32([[0, 0], [3, 0], [3, 3], [0, 3]]) * PX
    assert slanted.slanted_tiles(picture, quad, 3, [(1, 1)]) == {}
    assert second < slanted.FOUR_SIDES


def test_edge_tiles_are_those_a_loose_tile_could_be_taken_for():
    from scoring.mondo import island_from_json

    tiles = [
        {
            "row": r,
            "col": c,
            "edges": {"N": "water", "E": "water", "S": "water", "W": "water"},
            "areas": [{"terrain": "water", "sides": ["N", "E", "S", "W"]}],
            "animals": 0,
            "volcanoes": 0,
        }
        for r in range(4)
        for c in range(4)
        if (r, c) != (1, 2)
    ]
    island = island_from_json({"format": 1, "game": "mondo", "grid": 4, "tiles": tiles})
    # the ring, and (1, 1) / (2, 2) beside the empty space; never (2, 1), closed in on every side
    assert (2, 1) not in edge_tiles(island)
    assert {(1, 1), (2, 2), (0, 0), (3, 3), (0, 2)} <= set(edge_tiles(island))
    assert len(edge_tiles(island)) == 14  # the 12 of the ring and those two


def _stress_photo(index: int, seed: int = 9514):
    """A stress photo of `seed` (9514: a development set), drawn again by the simulator, with its
    truth's total."""
    scene = make_scene("mondo", seed, index, 4000, world=World(stress=True))
    return decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]


def _read(photo, grid: int = 3):
    result = reader.read_photo_island(photo, grid=grid)
    assert result.reading is not None and result.refusal is None
    reading = result.reading
    return score_turn(single_island_turn("island", reading.island)).players[0].total, reading


def test_a_loose_back_lying_turned_in_an_empty_space_is_left_out(monkeypatch):
    # 9514-00419: a desert back lies about 19 degrees off the grid in the island's empty corner; the
    # tile model reads it as the island's tile, and the score was wrong with nothing flagged
    photo, truth = _stress_photo(419)
    total, reading = _read(photo)
    assert total == truth
    assert [c.head for c in reading.checks].count(SLANTED_TILE) == 1
    monkeypatch.setattr(slanted, "SLANT_RATIO", float("inf"))
    assert _read(photo)[0] != truth


def test_a_loose_tile_lying_a_little_past_a_hand_laid_one_in_an_empty_space_is_left_out(monkeypatch):
    # 9521-00190 (a stress photo, read once as a fresh set): a loose tile lies 13.5 degrees off the
    # grid in the island's empty corner; too near the grid's turn for squares near it to score much
    # worse (SLANT_RATIO), it was read as the island's, the score wrong with nothing flagged
    photo, truth = _stress_photo(190, seed=9521)
    total, reading = _read(photo)
    assert total == truth
    assert [c.head for c in reading.checks].count(SLANTED_TILE) == 1
    monkeypatch.setattr(slanted, "LOOSE", slanted.SLANTED)  # only tiles far off, and only by the ratio
    total, reading = _read(photo)
    # kept as the island's, breaking the water rule alone: asked about (`space_checks.ASK_TURN`) ...
    assert total != truth and [(c.head, c.total_if_second) for c in reading.checks] == [("loose_tile", truth)]
    monkeypatch.setattr(space_checks, "ASK_TURN", None)  # ... and not before
    total, reading = _read(photo)
    assert total != truth and not reading.flags


def test_a_table_of_squares_at_a_slant_does_not_take_a_front_out(monkeypatch):
    # 9019-00196 (everyday development photo): a floor of squares about the tiles' size lies 40-45
    # degrees off the island's grid; at the island's corner the outline alone calls its tile slanted,
    # and the tile model, reading the space's own crop better than a turned one, keeps it; the
    # turned crop, 40 degrees off the tile, fits the kit badly, so nothing is asked of it either
    scene = make_scene("mondo", 9019, 196, 4000, world=World())
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]
    total, reading = _read(photo, grid=4)
    assert total == truth and reading.flags == ()
    monkeypatch.setattr(space_checks, "SLANT_NATS", float("-inf"))
    _, reading = _read(photo, grid=4)
    assert [c.head for c in reading.checks].count(SLANTED_TILE) == 1


def test_a_loose_tile_the_tile_model_reads_either_way_is_asked_about(monkeypatch):
    # 9528-00296 (a fresh stress seed, looked at after it was measured): a loose tile lies 16 degrees
    # off the grid in the island's one empty space. The outline calls it slanted (12 degrees on the
    # grid as read), but a crop turned as it lies fits the kit no better than the space's own (both a
    # whole kit tile), so the tile model's veto kept it as the island's: 9 tiles, the water rule
    # broken, 0 points, nothing asked. Three looks now ask; the fourth, on a grid a little otherwise,
    # does not see the slant, and the looks' doubt stays with it (`looks.CARRIED_HEADS`). It measures
    # the tile 10 degrees or more off, and as the tile breaks the water rule alone, now asks the water
    # rule's question of it (`space_checks.ASK_TURN`): it no longer asks less than the first look.
    from vision.mondo import looks
    from vision.mondo.checks import OFF_GRID_TILE

    photo, truth = _stress_photo(296, seed=9528)
    total, reading = _read(photo)
    assert len(reading.island.tiles) == 9 and total != truth
    (doubt,) = reading.checks
    assert (doubt.head, doubt.row, doubt.col) == (OFF_GRID_TILE, 2, 0) and reading.flags == (doubt.text,)
    assert doubt.total_if_second == truth  # the island without it: the truth's total
    # so without the carry the first look is kept, asking as it does (with ASK_TURN) ...
    monkeypatch.setattr(looks, "CARRIED_HEADS", frozenset())
    assert _read(photo)[1].flags == (doubt.text,)
    monkeypatch.setattr(space_checks, "ASK_TURN", None)  # ... and without either, the fourth: nothing asked
    assert _read(photo)[1].flags == ()
    monkeypatch.undo()
    monkeypatch.setattr(space_checks, "ASK_TURNED_FIT", None)  # the reader before: kept silently
    monkeypatch.setattr(space_checks, "ASK_TURN", None)
    total, reading = _read(photo)
    assert total != truth and reading.flags == ()


def test_a_slanted_tile_taken_out_leaves_the_other_checks_their_what_ifs(monkeypatch):
    from mondo_builders import full_forest_island

    from scoring.mondo import Island
    from vision.geometry import grid_cell_quads
    from vision.mondo.checks import Check, island_score, settle
    from vision.mondo.decode import CellReading
    from vision.mondo.slanted import Slant

    whole = full_forest_island(3)
    island = Island(3, tuple(t for t in whole.tiles if t.cell != (2, 2)))
    # the decoder's doubt about the empty space (2, 2), settled with the tile it would hold
    (doubt,) = settle(
        island, [Check(2, 2, "present", (("empty", 0.6), ("tile", 0.4)))], {(2, 2): whole.tile_at(2, 2)}
    )
    assert doubt.total_if_second is not None
    quad = np.float32([[0, 0], [3 * PX, 0], [3 * PX, 3 * PX], [0, 3 * PX]])
    cells = tuple(
        CellReading(r, c, "empty" if (r, c) == (2, 2) else "catalog", 0.0, ())
        for r in range(3)
        for c in range(3)
    )
    reading = reader.IslandReading(
        island, (doubt.text,), cells, 3, quad, grid_cell_quads(quad, 3), {}, (doubt,)
    )
    monkeypatch.setattr(
        space_checks, "slanted_tiles", lambda *args, **kwargs: {(0, 0): Slant(30.0, (0.0, 0.0))}
    )
    monkeypatch.setattr(space_checks, "back_side_up", lambda tile: True)  # a back: no tile model to ask
    image = np.zeros((3 * PX, 3 * PX, 3), np.uint8)
    out = space_checks.without_slanted_tiles(image, reading, crop=None, table=None, look=None)
    assert out.island.tile_at(0, 0) is None and len(out.island.tiles) == 7
    slant, kept = out.checks
    assert slant.head == SLANTED_TILE and slant.total_if_second == island_score(island)[0]
    assert slant.total == island_score(out.island)[0]
    assert kept.head == "present" and kept.total_if_second == doubt.total_if_second and not kept.not_possible
    assert out.flags == (slant.text, kept.text)
    assert [c.source for c in out.cells if (c.row, c.col) == (0, 0)] == ["empty"]


def _reading_on_picture(island, turn_of_corner: float):
    """A 3x3 island's reading, and a picture of it (the grid a cell in from each side of a 5x5-cell
    table): every tile lying square to the grid but (0, 0), turned `turn_of_corner` degrees."""
    from vision.geometry import grid_cell_quads
    from vision.mondo.decode import CellReading

    rng = np.random.default_rng(7)
    picture = _table(rng, cells=5)
    for r in range(3):
        for c in range(3):
            turn = turn_of_corner if (r, c) == (0, 0) else 0.0
            _draw_tile(picture, (c + 1.5, r + 1.5), turn, (40 + 60 * c, 90 + 40 * r, 150), rng)
    quad = np.float32([[1, 1], [4, 1], [4, 4], [1, 4]]) * PX
    cells = tuple(CellReading(r, c, "catalog", 0.0, ()) for r in range(3) for c in range(3))
    reading = reader.IslandReading(island, (), cells, 3, quad, grid_cell_quads(quad, 3), {}, ())
    return picture, reading


def _breaking_at_the_corner():
    """A forest island whose corner tile (0, 0) shows forest to the north, off the island: it alone
    breaks the water rule."""
    from mondo_builders import F, W, full_forest_island, tile

    from scoring.mondo import Island

    whole = full_forest_island(3)
    return Island(3, (tile(0, 0, F, F, F, W), *(t for t in whole.tiles if t.cell != (0, 0))))


@pytest.mark.parametrize("turn", [-12.0, 12.0])  # measured 10 and 11: short of LOOSE
def test_a_tile_breaking_the_water_rule_alone_lying_as_far_off_as_a_hand_laid_one_is_asked_about(turn):
    # 9537-00151 (fresh stress, grid detected): a loose tile lying in the island's empty corner space,
    # measured 10 degrees off the reader's grid (short of the slant test), read as the island's and
    # breaking the water rule alone: the island invalid, 0 points, nothing asked
    from vision.mondo.checks import LOOSE_TILE, island_score

    island = _breaking_at_the_corner()
    picture, reading = _reading_on_picture(island, turn)
    (measured, _, second), *_ = slanted.tile_turns(picture, reading.quad, 3, [(0, 0), (1, 1)]).values()
    assert space_checks.ASK_TURN <= abs(measured) < slanted.LOOSE and second >= space_checks.ASK_SIDES
    out = space_checks.without_slanted_tiles(picture, reading, crop=None, table=None, look=None)
    assert out.island == island  # kept as read: a hand-laid tile may lie so
    (check,) = out.checks
    assert (check.head, check.row, check.col) == (LOOSE_TILE, 0, 0) and out.flags == (check.text,)
    without = type(island)(3, tuple(t for t in island.tiles if t.cell != (0, 0)))
    assert check.total == 0 and check.total_if_second == island_score(without)[0] > 0


@pytest.mark.parametrize(
    "turn, ratio, second, asked",
    [
        (-10.0, 1.0, 0.47, True),  # 9537-00151: a hand-laid tile's turn, three sides and a weak fourth
        (15.0, 1.0, 0.9, True),  # short of a slanted tile: no ratio asked for
        (9.0, 1.0, 0.9, False),  # within a hand-laid tile's turn
        (27.0, 1.11, 0.06, False),  # 9537-00009: a back on a table's lines, two sides
        (-35.0, 1.002, 0.74, False),  # 9538-00089: far off, but no better than square to the grid
        (-35.0, 1.3, 0.74, True),  # far off and clearly better, as the slant test takes it
    ],
)
def test_a_tile_breaking_the_water_rule_alone_is_asked_about_as_the_slant_test_would_with_a_lower_bar(
    turn, ratio, second, asked
):
    assert space_checks._askew(turn, ratio, second) is asked


def test_a_tile_breaking_the_water_rule_square_to_the_grid_is_not_asked_about():
    island = _breaking_at_the_corner()
    picture, reading = _reading_on_picture(island, 4.0)
    out = space_checks.without_slanted_tiles(picture, reading, crop=None, table=None, look=None)
    assert out.checks == () and out.flags == ()


def test_a_tile_lying_a_little_off_the_grid_is_not_asked_about_where_the_score_does_not_hang_on_it(
    monkeypatch,
):
    from mondo_builders import full_forest_island

    island = full_forest_island(3)  # keeps the water rule
    picture, reading = _reading_on_picture(island, 12.0)
    assert space_checks.without_slanted_tiles(picture, reading, crop=None, table=None, look=None).checks == ()
    # and the tile that breaks the rule, with the question off: the reader before
    monkeypatch.setattr(space_checks, "ASK_TURN", None)
    picture, reading = _reading_on_picture(_breaking_at_the_corner(), 12.0)
    assert space_checks.without_slanted_tiles(picture, reading, crop=None, table=None, look=None).checks == ()


@pytest.mark.slow  # a stress photo drawn again and read: about 10 s
def test_a_loose_tile_in_the_empty_corner_breaking_the_water_rule_is_asked_about(monkeypatch):
    # 9537-00151 (fresh stress, grid detected, read once as a fresh set): a loose tile lies 14 degrees
    # off in the truth's empty corner space (0, 0); the second net's grid, a quarter of a cell too
    # wide there, measures it 10 degrees off and reads it as the island's, its water edge facing in
    from vision.mondo import looks
    from vision.mondo.checks import LOOSE_TILE

    photo, truth = _stress_photo(151, seed=9537)

    def second_look():
        return reader.read_with_locator(photo, locator=looks.second_locator()).reading

    reading = second_look()
    assert score_turn(single_island_turn("island", reading.island)).players[0].total != truth
    (loose,) = [c for c in reading.checks if c.head == LOOSE_TILE]
    assert (loose.row, loose.col, loose.total_if_second) == (0, 0, truth)
    monkeypatch.setattr(space_checks, "ASK_TURN", None)  # the reader before: nothing asked of it
    assert not [c for c in second_look().checks if c.head == LOOSE_TILE]
    monkeypatch.undo()
    # the photo as a player reads it: scored right, or flagged
    result = reader.read_photo_island(photo)
    total = score_turn(single_island_turn("island", result.reading.island)).players[0].total
    assert total == truth or result.reading.flags

"""A tile pushed out of its space and read as empty is asked about (vision.mondo.pushed): the island
would lose a tile with nothing said. A space that is really empty asks nothing."""

from test_mondo_reader import _island_pieces
from test_turned_tile import _read

from vision.mondo import pushed
from vision.mondo.checks import PUSHED_TILE
from vision.mondo.pushed import open_sides


def test_a_pushed_tile_lies_only_towards_a_side_with_no_tile_of_the_island():
    assert open_sides((1, 2), {(1, 2)}, 3) == [(0, 1)]  # only past the grid's right edge
    assert open_sides((1, 1), {(1, 1)}, 3) == []  # a space the island surrounds
    assert open_sides((0, 0), {(0, 0), (0, 1)}, 3) == [(-1, 0), (0, -1), (0, 1)]  # up, left, the empty space
    assert open_sides((3, 3), {(3, 3)}, 4) == [(1, 0), (0, 1)]


def test_a_tile_pushed_out_of_line_and_read_as_empty_is_asked_about(monkeypatch):
    # 9527-00045 (a fresh stress seed, looked at after it was measured): the middle tile of a 3x3
    # island's bottom row pushed a third of a cell down, on a table of white-edged bricks in a hard
    # shadow; the space's crop was read as empty and the island scored with 8 tiles, nothing asked.
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9527, 45, 4000, world=World(stress=True))
    assert len(scene.truth["board"]["tiles"]) == 9
    photo = decode_photo(scene.jpeg)
    first = reader.read_with_locator(photo, grid=3).reading  # the first net's look, as shot
    assert first.island.tile_at(2, 1) is None and len(first.island.tiles) == 8
    (check,) = [c for c in first.checks if c.head == PUSHED_TILE]
    assert (check.row, check.col) == (2, 1) and check.text in first.flags
    assert check.text.startswith("Row 3, tile 2: read as empty, but a tile lies just past this space")
    monkeypatch.setattr(pushed, "SURE_TILE", 1.01)  # the reader before: the same reading, nothing asked
    before = reader.read_with_locator(photo, grid=3).reading
    assert len(before.island.tiles) == 8 and before.flags == ()


def test_a_tile_pushed_out_of_line_on_a_grid_laid_a_little_off_is_asked_about(monkeypatch):
    # 9032-00486 (an everyday fresh seed, looked at after it was measured): the right tile of a 3x3
    # island's middle row pushed out of line, the grid laid a tenth of a cell high; the crop shifted
    # straight out of the space holds half the tile (p(tile) 0.001), one moved a tenth of a cell
    # down along the side all of it (1.00). The island was scored with 8 tiles, nothing asked.
    from vision.mondo import reader
    from vision.mondo.checks import island_score
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene

    scene = make_scene("mondo", 9032, 486, 4000)
    truth = scene.truth["report"]["players"][0]["total"]
    photo = decode_photo(scene.jpeg)
    first = reader.read_with_locator(photo, grid=3).reading  # the first net's look
    assert first.island.tile_at(1, 2) is None and island_score(first.island)[0] != truth
    (check,) = first.checks
    assert (check.head, check.row, check.col) == (PUSHED_TILE, 1, 2) and first.flags == (check.text,)
    # asked, the next look reads the tile (the truth) and is kept, saying the looks differ
    kept = reader.read_photo_island(photo, grid=3).reading
    assert island_score(kept.island)[0] == truth and len(kept.flags) == 1
    assert kept.flags[0].startswith("Looked at again, the photo read differently")
    monkeypatch.setattr(pushed, "ALONG", None)  # the crops straight out only: nothing asked, 8 tiles
    before = reader.read_photo_island(photo, grid=3).reading
    assert island_score(before.island)[0] != truth and before.flags == ()


def test_a_space_left_empty_asks_nothing_of_a_pushed_tile():
    island = _island_pieces(4, 0)
    island.pop(5)  # the middle of the east column: a space open to the table on one side
    empty = _read(island)
    assert empty.refusal is None and len(empty.reading.island.tiles) == 8
    assert not [c for c in empty.reading.checks if c.head == PUSHED_TILE] and empty.reading.flags == ()

"""A 4x4 grid laid over a 3x3 island and a row and a column of table: the reader tries the 3x3 window
that holds the island (vision.mondo.reader.smaller_window)."""

import json

import numpy as np

from scoring.mondo import Island
from vision.geometry import grid_cell_quads
from vision.mondo.decode import CellReading
from vision.mondo.grid_places import joined_tiles
from vision.mondo.locate import FoundIsland
from vision.mondo.reader import IslandReading, smaller_window

SQUARE = np.array([[0, 0], [400, 0], [400, 400], [0, 400]], np.float32)  # a 4x4 grid of 100 px cells


def _reading(tiles: set[tuple[int, int]]) -> tuple[IslandReading, FoundIsland]:
    cells = tuple(
        CellReading(r, c, "catalog" if (r, c) in tiles else "empty", 0.0, ())
        for r in range(4)
        for c in range(4)
    )
    quads = grid_cell_quads(SQUARE, 4)
    reading = IslandReading(Island(4, ()), (), cells, 4, SQUARE, quads, {})
    return reading, FoundIsland(SQUARE, 4, quads, len(tiles), 0.5)


def test_joined_tiles_is_the_largest_group_joined_side_to_side():
    assert sorted(joined_tiles({(0, 0), (0, 1), (1, 1), (3, 3), (2, 2)})) == [(0, 0), (0, 1), (1, 1)]
    assert joined_tiles(set()) == []


def test_the_3x3_corner_holding_the_island_becomes_a_grid_of_its_own():
    island = {(r, c) for r in range(1, 4) for c in range(1, 4)} - {(1, 1), (3, 3)}  # 7 tiles, rows/cols 1-3
    window = smaller_window(*_reading(island | {(0, 0)}))  # a loose tile at the far corner, touching none
    assert window is not None and window.grid == 3
    assert np.allclose(window.quad, [[100, 100], [400, 100], [400, 400], [100, 400]])
    assert np.allclose(window.cell_quads, grid_cell_quads(window.quad, 3))


def test_a_loose_tile_lying_side_to_side_against_a_3x3_island_stays_outside_its_window():
    """A 3x3 island in rows 1-3 and columns 0-2 of a 4x4 reading, with a loose tile read in cell (3, 3)
    against it (the locator's lattice took it in): the window is the island's, the loose tile left out."""
    island = {(r, c) for r in range(1, 4) for c in range(3)} - {(1, 1), (1, 2)}  # 7 tiles
    window = smaller_window(*_reading(island | {(3, 3)}))
    assert window is not None and window.grid == 3
    assert np.allclose(window.quad, [[0, 100], [300, 100], [300, 400], [0, 400]])
    # two tiles beyond any 3x3 window: the island may go on past it, no window
    assert smaller_window(*_reading(island | {(3, 3), (0, 3)} - {(3, 0)})) is None


def test_no_window_when_the_island_needs_the_whole_grid_or_few_cells_are_empty():
    assert smaller_window(*_reading({(0, 0), (0, 1), (1, 1), (2, 1), (3, 1), (3, 2)})) is None  # spans 4 rows
    full = {(r, c) for r in range(4) for c in range(4)} - {(0, 0), (3, 3)}  # 2 empty: a 4x4 island
    assert smaller_window(*_reading(full)) is None


def test_one_island_seen_twice_by_the_locator_is_not_two_islands(root, monkeypatch):
    """Two passes of the locator can report the same island twice (grids a few px apart): that is one
    island to read, not a photo of two islands to refuse."""
    from dataclasses import replace

    import vision.mondo.reader as reader
    from scoring.mondo import island_from_json, score_turn, single_island_turn
    from vision.mondo.locate import LocateResult
    from vision.photo_io import read_photo

    photo = read_photo(root / "samples/mondo/mondo-s9900-00000.jpg")
    truth = json.loads((root / "samples/mondo/mondo-s9900-00000.json").read_text())
    locate = reader.locate_islands

    def seen_twice(image, grid=None, **kwargs):
        located = locate(image, grid=grid, **kwargs)
        first = located.islands[0]
        again = replace(
            first, quad=first.quad + 3.0, cell_quads=first.cell_quads + 3.0, score=first.score * 0.9
        )
        return LocateResult((first, again, *located.islands[1:]), located.timing_ms)

    monkeypatch.setattr(reader, "locate_islands", seen_twice)
    result = reader.read_photo_island(photo)
    assert result.refusal is None

    def total(island):
        return score_turn(single_island_turn("island", island)).players[0].total

    assert total(result.reading.island) == total(island_from_json(truth["board"]))
    assert len(result.reading.island.tiles) == len(truth["board"]["tiles"])


def test_the_ring_round_a_grid_shows_whether_the_island_goes_on_past_it(root):
    """A 3x3 grid over the whole of a 3x3 island: no whole tile in the ring round it; a 3x3 grid over
    a corner of a full 4x4 island: the island's other row and column fill the ring."""
    from dataclasses import replace

    import vision.mondo.reader as reader
    from vision.photo_io import read_photo

    model = reader.tile_model()
    small = read_photo(root / "samples/mondo/mondo-s9900-00000.jpg")  # 3x3, nothing touching it
    found = reader.locate_islands(small.image, grid=3, finer=reader.finer_view(small)).islands[0]
    assert reader.ring_tiles(small.image, found, model, reader.finer_view(small)) <= reader.MOST_RING_TILES

    large = read_photo(root / "samples/mondo/mondo-s9900-00006.jpg")  # 4x4, every cell a tile
    whole = reader.locate_islands(large.image, grid=4, finer=reader.finer_view(large)).islands[0]
    cells = np.asarray(whole.cell_quads)
    corner = [0, 2, 10, 8]  # cells (0, 0), (0, 2), (2, 2), (2, 0) of the 4x4 reading order
    quad = np.array([cells[corner[k]][k] for k in range(4)], np.float32)
    inside = [r * 4 + c for r in range(3) for c in range(3)]
    window = replace(whole, grid=3, quad=quad, cell_quads=cells[inside], alternatives=())
    assert reader.ring_tiles(large.image, window, model, reader.finer_view(large)) >= 4

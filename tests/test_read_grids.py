"""A grid read once per photo (vision.mondo.read_grids): a grid lying within a thousandth of a cell of
one read already gets that reading back, without reading its cells again; a grid elsewhere, or of
another size, is read, but for the cells it shares with grids read. Hand-made grids with stand-ins
for `read_cells` that count their calls, and grids on a simulated stress photo."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scoring.mondo import Island
from vision.geometry import grid_cell_quads
from vision.mondo.locate import FoundIsland
from vision.mondo.read_grids import SAME_GRID, CellReadings, GridReadings
from vision.mondo.reader import IslandReading

SQUARE = np.float32([[300, 300], [420, 300], [420, 420], [300, 420]])  # a 3x3 grid, 40 px a cell


def _found(quad=SQUARE, grid: int = 3) -> FoundIsland:
    quad = np.float32(quad)
    return FoundIsland(quad, grid, grid_cell_quads(quad, grid), 6, 0.9)


class _Cells:
    """Stands in for `read_cells`: a reading of each grid it is given, numbered by its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, found: FoundIsland):
        self.calls += 1
        reading = IslandReading(
            Island(found.grid, ()), (f"read {self.calls}",), (), found.grid, found.quad, found.cell_quads,
            {"crop": 5.0, "model": 20.0, "catalog": 1.0},
        )  # fmt: skip
        return reading, {"present": np.full((found.grid**2, 2), self.calls, np.float32)}


def test_a_grid_read_again_in_the_same_place_is_not_read_again():
    grids, cells = GridReadings(), _Cells()
    first, first_probs = grids.read(_found(), cells)
    again, again_probs = grids.read(_found(SQUARE + 0.03), cells)  # 0.03 px of a 40 px cell: under 0.001
    assert cells.calls == 1 and grids.hits == 1
    assert again.flags == first.flags == ("read 1",)
    np.testing.assert_array_equal(again.cell_quads, first.cell_quads)
    assert again_probs is first_probs
    # the cells were not read this time: no time spent on them is reported twice
    assert first.timing_ms == {"crop": 5.0, "model": 20.0, "catalog": 1.0}
    assert again.timing_ms == {"crop": 0.0, "model": 0.0, "catalog": 0.0}


def test_a_grid_moved_more_than_a_thousandth_of_a_cell_is_read():
    grids, cells = GridReadings(), _Cells()
    grids.read(_found(), cells)
    moved = 40 * SAME_GRID * 1.5  # px: one and a half times SAME_GRID of a 40 px cell
    reading, _ = grids.read(_found(SQUARE + [moved, 0]), cells)
    assert cells.calls == 2 and grids.hits == 0 and reading.flags == ("read 2",)
    # one corner alone moved is enough: the grid is another
    skewed = SQUARE.copy()
    skewed[2] += moved
    grids.read(_found(skewed), cells)
    assert cells.calls == 3


def test_a_grid_of_another_size_over_the_same_place_is_read():
    grids, cells = GridReadings(), _Cells()
    grids.read(_found(grid=3), cells)
    reading, probs = grids.read(_found(grid=4), cells)
    assert cells.calls == 2 and reading.grid == 4 and probs["present"].shape == (16, 2)


def test_the_share_of_a_cell_scales_with_the_grid():
    # 0.03 px is under a thousandth of a 40 px cell (above) but not of a 20 px one
    grids, cells = GridReadings(), _Cells()
    small = SQUARE / 2  # 20 px a cell
    grids.read(_found(small), cells)
    grids.read(_found(small + 0.03), cells)
    assert cells.calls == 2
    grids.read(_found(small + 0.01), cells)
    assert cells.calls == 2 and grids.hits == 1


def test_a_photo_read_with_its_grids_read_once_reads_as_with_every_grid_read(monkeypatch):
    # stress 9517-00018 (a development seed), its grid size not given: the reader lays five grids
    # on it, two of them where one lay already (the locator's grid found again by the search at its
    # size); they are read once, and the photo reads as it does with every grid read
    from dataclasses import asdict

    from scoring.mondo import score_turn, single_island_turn
    from vision.mondo import read_grids, reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9517, 18, 4000, world=World(stress=True))
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]
    read_cells = reader.read_cells
    calls = []
    monkeypatch.setattr(reader, "read_cells", lambda *a, **k: calls.append(1) or read_cells(*a, **k))

    def read() -> tuple[int, tuple[str, ...], dict]:
        calls.clear()
        result = reader.read_photo_island(photo)
        player = score_turn(single_island_turn("island", result.reading.island)).players[0]
        return len(calls), result.reading.flags, player.points

    once, flags, points = read()
    monkeypatch.setattr(read_grids, "SAME_GRID", -1.0)  # no grid is one read already
    every, flags_every, points_every = read()
    assert (once, every) == (3, 5)
    assert flags == flags_every == () and points == points_every
    assert asdict(points) == truth["points"]


def test_a_grid_moved_a_whole_cell_reads_only_its_new_cells():
    cells, calls = CellReadings(), []

    def read(rows):
        calls.append(list(rows))
        return [f"cell {len(calls)}.{i}" for i in rows]

    first = cells.read("picture", grid_cell_quads(SQUARE, 3), read)
    moved = cells.read("picture", grid_cell_quads(SQUARE + [40, 0], 3), read)  # a column to the right
    assert calls == [list(range(9)), [2, 5, 8]]  # the new column alone
    assert moved == [
        first[1],
        first[2],
        "cell 2.2",
        first[4],
        first[5],
        "cell 2.5",
        first[7],
        first[8],
        "cell 2.8",
    ]
    assert cells.hits == 6
    # cut from another picture, or resting on something else, every cell is read again
    cells.read(("another picture",), grid_cell_quads(SQUARE, 3), read)
    assert calls[-1] == list(range(9))


def _corners(first_col: int) -> np.ndarray:
    return np.float32([(first_col + c, r) for r in range(3) for c in range(3)])


def test_a_real_grid_moved_a_cell_reads_as_when_read_afresh(monkeypatch):
    # stress 9517-00018 (a development seed): its grid and the grid a column to the left, read
    # sharing their cells: the tile model reads only the new column's crops (four turns each, and
    # the crops moved round those of them that show no whole tile), and the moved grid reads as it
    # reads alone
    from vision.mondo import reader
    from vision.mondo.grid_places import cells_in_image
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    photo = decode_photo(make_scene("mondo", 9517, 18, 4000, world=World(stress=True)).jpeg)
    finer = reader.finer_view(photo)
    found = reader.locate_islands(photo.image, grid=3, finer=finer).islands[0]
    # the lattice's own cells, and those of the grid a column to the left on the same lattice
    found = replace(found, cell_quads=cells_in_image(found.quad, 3, _corners(0)))
    left_cells = cells_in_image(found.quad, 3, _corners(-1))
    left = replace(
        found,
        quad=np.stack([left_cells[0][0], left_cells[2][1], left_cells[8][2], left_cells[6][3]]),
        cell_quads=left_cells,
    )
    run = reader.tile_model().run
    crops = []
    monkeypatch.setattr(reader.tile_model(), "run", lambda c: crops.append(len(c)) or run(c))

    alone, alone_probs = reader.read_cells(photo.image, left, finer=finer)
    read_alone = sum(crops)
    shared = CellReadings()
    reader.read_cells(photo.image, found, finer=finer, cells_read=shared)
    crops.clear()
    again, again_probs = reader.read_cells(photo.image, left, finer=finer, cells_read=shared)
    assert shared.hits == 2 * 6  # six cells, looked at once and moved round or not once
    assert crops[0] == 4 * 3 and sum(crops) < read_alone  # the new column's four turns first
    assert again.island == alone.island and again.flags == alone.flags
    np.testing.assert_allclose(again.cell_quads, alone.cell_quads)
    for head, p in alone_probs.items():
        np.testing.assert_allclose(again_probs[head], p, atol=1e-6)

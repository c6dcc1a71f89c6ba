"""Island locator on simulated photos (held-out seeds): grid size, tiles inside their crops, outer corners,
no island, two islands."""

import cv2
import numpy as np
import pytest

from vision.mondo.grid_match import match_grid
from vision.mondo.lattice import other_extents
from vision.mondo.lattice_search import tile_points
from vision.mondo.locate import CellsMap, locate_islands, outline_islands
from vision.mondo.outline import sane_quad
from vision.synth.catalog import load_catalog
from vision.synth.clutter import note_image
from vision.synth.mondo_art import render_mondo_face
from vision.synth.mondo_island import component_by_id, random_layout
from vision.synth.photo import Piece, draw_style, photograph
from vision.synth.scenes import TILE_MM, TILE_THICKNESS_MM, camera_from_dict, mondo_scene, project_mm

LONG_SIDE = 1200
TOL = 0.1  # cells: outline corners of these islands (no more than a corner cell empty)
PITCH_MM = 52.0


@pytest.fixture(scope="module")
def catalog():
    return load_catalog("mondo")


def _photo(scene):
    return cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)


def _scene(catalog, seed, grid, kind):
    return mondo_scene(np.random.default_rng([seed]), catalog, long_side_px=LONG_SIDE, grid=grid, kind=kind)


def _assert_found(result, truth, grid):
    assert result.islands, "no island found"
    island = result.islands[0]
    assert island.grid == grid
    match = match_grid(island.quad, island.grid, truth, island.cell_quads)
    assert match.found, match.why_not(island.grid, grid)
    assert match.corner_error <= TOL or truth["scene"]["messy"]
    assert island.cell_quads.shape == (grid * grid, 4, 2)
    assert 0.0 <= island.score <= 1.0


@pytest.mark.parametrize(("seed", "grid"), [(9501, 3), (9502, 4)])
def test_complete_island_with_loose_tiles_about(catalog, seed, grid):
    scene = _scene(catalog, seed, grid, "complete")
    assert scene.truth["scene"]["loose_tiles"] >= 1  # the seed is chosen to have some
    result = locate_islands(_photo(scene))
    _assert_found(result, scene.truth, grid)
    assert len(result.islands) == 1
    assert result.islands[0].tiles_seen >= grid * grid - 2


def _read(image):
    from vision.mondo.reader import read_photo_island

    return read_photo_island(image)


def _total(island):
    from scoring.mondo import score_turn, single_island_turn

    return score_turn(single_island_turn("island", island)).players[0].total


def test_island_with_an_empty_corner_cell(catalog):
    scene = _scene(catalog, 9533, 3, "empty")
    occupied = {(t["row"], t["col"]) for t in scene.truth["tiles"]}
    assert {(0, 0), (0, 2), (2, 0), (2, 2)} - occupied  # the seed is chosen to leave a corner empty
    # the locator alone may take it for a 4x4 grid; the tile model then finds whole tiles only in
    # the 3x3 one (the reader reads a doubtful grid in both sizes)
    result = _read(_photo(scene))
    assert result.refusal is None and result.reading.grid == 3
    assert _total(result.reading.island) == scene.truth["report"]["players"][0]["total"]


def test_grids_laid_on_the_outline_of_the_occupied_cells(catalog):
    """Where the tile centres settle on a wrong lattice, the reader also tries grids laid on the outline
    of the cells the island covers, each size refined on its own; the right size's is the island's
    grid, every tile inside its crop."""
    scene = _scene(catalog, 9501, 3, "complete")
    image = _photo(scene)
    located = locate_islands(image).islands[0]
    # a rough guess around the island (a lattice at a wrong pitch): the outline does not depend on it
    rough = located.quad.mean(0) + 0.8 * (located.quad - located.quad.mean(0))
    grids = {g.grid: g for g in outline_islands(image, rough)}
    assert 3 in grids  # a 4x4 grid on a 3x3 outline is dropped where it is no square on the table
    match = match_grid(grids[3].quad, 3, scene.truth, grids[3].cell_quads)
    assert match.found, match.why_not(3, 3)
    assert 4 not in grids or not match_grid(grids[4].quad, 4, scene.truth, grids[4].cell_quads).grid_right
    # told the game's grid size, only that size is laid; an island running off the photo stays so
    told = outline_islands(image, rough, sizes=(3,), cut=True)
    assert [g.grid for g in told] == [3] and told[0].cut and not grids[3].cut


def test_forced_grid_is_kept(catalog):
    scene = _scene(catalog, 9502, 4, "complete")
    result = locate_islands(_photo(scene), grid=4)
    _assert_found(result, scene.truth, 4)
    with pytest.raises(ValueError):
        locate_islands(_photo(scene), grid=5)


def test_empty_table_with_a_loose_tile_has_no_island(catalog):
    rng = np.random.default_rng([9510])
    note = Piece(note_image(rng, (100.0, 148.0), 4.0), (100.0, 148.0), (0.0, 0.0), 12.0, 0.1, 0.5)
    face = catalog["components"][5]["faces"]["front"]
    tile = Piece(render_mondo_face(face, 4.0), (TILE_MM, TILE_MM), (0.0, 0.0), 0.0, TILE_THICKNESS_MM)
    shot = photograph([note], rng, subject_mm=(-150, -150, 150, 150), clutter=[tile], long_side_px=LONG_SIDE)
    refusal = _read(shot.image).refusal  # the locator may see a lattice; no grid of it holds tiles
    assert refusal is not None and refusal.kind == "no_board"


def _island_pieces(catalog, rng, grid, origin, px_per_mm):
    """Pieces of a hand-built island whose grid's top-left corner lies at `origin` (mm); its outline."""
    layout = random_layout(catalog, rng, grid, "complete")
    pieces = []
    for placed in layout:
        face = component_by_id(catalog, placed.component)["faces"][placed.face]
        image = np.ascontiguousarray(np.rot90(render_mondo_face(face, px_per_mm), k=-(placed.rotation // 90)))
        centre = (origin[0] + (placed.col + 0.5) * PITCH_MM, origin[1] + (placed.row + 0.5) * PITCH_MM)
        pieces.append(Piece(image, (TILE_MM, TILE_MM), centre, float(rng.normal(0, 1)), TILE_THICKNESS_MM))
    x0, y0, span = origin[0], origin[1], grid * PITCH_MM
    return pieces, np.array([[x0, y0], [x0 + span, y0], [x0 + span, y0 + span], [x0, y0 + span]], float)


def test_two_islands_are_both_reported(catalog):
    rng = np.random.default_rng([9520])
    first, outline1 = _island_pieces(catalog, rng, 3, (0.0, 0.0), 3.0)
    second, outline2 = _island_pieces(catalog, rng, 3, (3 * PITCH_MM + 70.0, 10.0), 3.0)
    style = draw_style(rng)
    shot = photograph(first + second, rng, long_side_px=LONG_SIDE, style=style)
    camera = camera_from_dict(shot.camera)
    truths = [project_mm(camera, o, TILE_THICKNESS_MM) for o in (outline1, outline2)]
    result = _read(shot.image)
    assert result.refusal is not None and result.refusal.kind == "several_boards"
    assert result.refusal.reason.startswith("2 islands in one photo")
    centres = [t.mean(0) for t in truths]  # each island found where it lies
    found = [i.quad.mean(0) for i in result.islands]
    for c in centres:
        assert min(np.hypot(*(f - c)) for f in found) < 0.5 * PITCH_MM * camera.K[0, 0] / camera.t[2]


def _lattice_picture(occupied):
    """A cells map with 20 px cells, lattice point (i, j) at px (40 + 20 i, 40 + 20 j), occupied where
    asked; the picture -> lattice map; the centre of every lattice point."""
    values = np.zeros((200, 240), np.float32)
    for i, j in occupied:
        values[30 + 20 * j : 50 + 20 * j, 30 + 20 * i : 50 + 20 * i] = 1.0
    g = np.array([[1 / 20, 0, -2.0], [0, 1 / 20, -2.0], [0, 0, 1]])
    return CellsMap(values, (1.0, 1.0, 0.0, 0.0)), g


def _at(points):
    return np.array([[40 + 20 * i, 40 + 20 * j] for i, j in points], float)


def test_a_centre_on_an_empty_cell_is_not_a_tile():
    island = [(i, j) for i in range(3) for j in range(3)]
    cells, g = _lattice_picture(island)
    # a tile-like stripe on the table beside the island: a peak on the lattice, but no occupied cell
    idx, ok, _ = tile_points(g, _at([*island, (3, 1)]), None, cells)
    assert ok.sum() == 9 and not ok[-1]


def test_two_peaks_on_one_tile_count_once():
    cells, g = _lattice_picture([(0, 0), (1, 0), (2, 0)])
    pts = np.vstack([_at([(0, 0), (1, 0), (2, 0)]), [[42.0, 41.0]]])
    idx, ok, _ = tile_points(g, pts, None, cells)
    assert ok.tolist() == [True, True, True, False]


def test_centres_beyond_a_grid_are_cut_to_the_window_that_holds_most():
    island = [(i, j) for i in range(3) for j in range(3)]
    stray = [(6, 0), (6, 1)]  # a printed card's pattern, far off but on the lattice and "occupied"
    cells, g = _lattice_picture(island + stray)
    idx, ok, _ = tile_points(g, _at(island + stray), None, cells)
    assert ok.tolist() == [True] * 9 + [False] * 2


def test_a_grid_with_a_whole_empty_row_has_its_other_place():
    three_by_two = np.array([[i, j] for i in range(3) for j in range(2)], float)
    assert other_extents(three_by_two, (0, 0, 3)) == [(0, -1, 3)]
    assert other_extents(three_by_two, (0, -1, 3)) == [(0, 0, 3)]
    full = np.array([[i, j] for i in range(3) for j in range(3)], float)
    assert other_extents(full, (0, 0, 3)) == []
    # a 4x4 grid around a 2x3 block: 3 places across, 2 down, less the one taken
    assert len(other_extents(np.array([[i, j] for i in range(2) for j in range(3)], float), (0, 0, 4))) == 5


def test_a_grid_outline_thrown_off_by_its_fit_is_not_an_island():
    """A homography fitted to a few tile centres can fold the grid or throw a corner far away
    (seen on a stress photo: a corner at (40875, -24233) in a 1000 px photo); such an outline is
    dropped, never read."""
    shape = (750, 1000, 3)
    square = np.array([[400.0, 300], [500, 300], [500, 400], [400, 400]])
    assert sane_quad(square, shape)
    assert sane_quad(square + [-350, -250], shape)  # partly off the photo: still a quad
    assert not sane_quad(np.array([[362.0, 215], [40875, -24233], [534, 324], [335, 326]]), shape)
    assert not sane_quad(square[[0, 2, 1, 3]], shape)  # folded (a bow tie)
    assert not sane_quad(np.array([[400.0, 300], [500, 300], [500, 300], [400, 300]]), shape)  # flat
    assert not sane_quad(np.where(square == 500, np.nan, square), shape)


def test_fullest_window_is_the_first_window_holding_most_points():
    from vision.mondo.lattice_search import _fullest_window

    rng = np.random.default_rng(3)
    for _ in range(300):
        size = int(rng.choice([3, 4]))
        points = rng.integers(-5, 9, size=(int(rng.integers(2, 20)), 2))
        lo, hi = points.min(0), points.max(0)
        starts = [
            (x, y)
            for x in range(lo[0], max(lo[0], hi[0] - size + 1) + 1)
            for y in range(lo[1], max(lo[1], hi[1] - size + 1) + 1)
        ]
        held = [int(np.all((points >= s) & (points < np.add(s, size)), axis=1).sum()) for s in starts]
        assert _fullest_window(points, size) == starts[int(np.argmax(held))]


def test_fullest_window_of_points_thousands_of_cells_apart_holds_most_without_a_huge_table():
    """A degenerate lattice guess put one centre 44,000 cells from the rest (a development photo of
    seed 9612): the window is counted point by point, not read off a table of the whole span."""
    from vision.mondo.lattice_search import _fullest_window

    rng = np.random.default_rng(4)
    for _ in range(200):
        size = int(rng.choice([3, 4]))
        points = rng.integers(-5, 9, size=(int(rng.integers(2, 20)), 2))
        far = np.vstack([points, rng.integers(-50_000, 50_000, size=(int(rng.integers(1, 4)), 2))])
        x0, y0 = _fullest_window(far, size)
        most = max(_held(far, x, y, size) for x in range(-5 - size, 10) for y in range(-5 - size, 10))
        assert _held(far, x0, y0, size) >= most


def _held(points: np.ndarray, x0: int, y0: int, size: int) -> int:
    return int(np.all((points >= [x0, y0]) & (points < [x0 + size, y0 + size]), axis=1).sum())

"""Photo in, Mondo island out: locate the island, crop every cell, run the tile model once over all
cells in their four quarter turns, decode against the kit's catalog.

    reading = read_island(photo)         # photo from vision.photo_io.read_photo
    reading.island                       # a scoring.mondo.Island, the same as one typed in JSON
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from scoring.mondo import Island
from vision.catalogs import load_catalog
from vision.errors import PhotoError
from vision.geometry import crop_quads, grid_cell_quads
from vision.mondo.backs import back_cells, back_evidence, back_model, read_backs, with_back_terrain_checks
from vision.mondo.checks import Check, island_score, settle
from vision.mondo.crops import Finer, crop_source
from vision.mondo.decode import CandidateTable, CellReading, candidate_table, decode_island
from vision.mondo.empty_spaces import back_side_up
from vision.mondo.foreshortened import foreshortened_islands
from vision.mondo.grid_places import (
    EDGE_SLACK,
    cells_in_image,
    inside_photo,
    joined_tiles,
    other_places,
    overlapping,
    same_place,
    shifted_grids,
)
from vision.mondo.heads import turn_crops, turned_head
from vision.mondo.lattice import GRIDS
from vision.mondo.locate import FoundIsland, locate_islands, outline_islands
from vision.mondo.locator_maps import LocatorModel, load_locator
from vision.mondo.looks import MIN_TILES, kept_reading, other_looks
from vision.mondo.read_grids import CellReadings, GridReadings
from vision.mondo.recentre import kit_fit, outer_ring, recentre_cells
from vision.mondo.rule_doubts import backs_of, doubts_grid, place_rank
from vision.mondo.space_checks import with_empty_space_checks, without_slanted_tiles
from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo

TILE_MODEL = "mondo-tiles.onnx"
# A cell whose first crop gave a tile less than this, read as a tile once its crop moved, is asked
# about: a loose tile lying against the island looks like a tile pushed out of line.
MOVED_TILE_SURE = 0.9
# A cell read as a kit face with at least this log-likelihood (all heads together) holds a whole tile.
GOOD_TILE_LL = -0.5
# Another grid found in the photo is a second island when it holds this many whole tiles.
SECOND_ISLAND_TILES = 4
# ... or when the locator sees this many tile centres on its lattice (its grid may be misplaced) and
# the tile model finds fronts of kit tiles on it: a floor of squares about a tile's size shows the
# locator a lattice, and a plain square of it, pale in overexposed light, reads as a tile's back
SECOND_ISLAND_SEEN = 7
SECOND_ISLAND_FRONTS = 2
# The locator's confidence in a grid (tiles seen on it, how well they sit on it) below which the
# reading says so.
ISLAND_DOUBT = 0.5
# Players leave a few cells empty when the timer runs out; a grid with more is likely misplaced.
MOST_EMPTY = 3
# A 3x3 grid (a window of a 4x4 reading, or the locator's other size) is taken over a 4x4 one only if
# the ring around it shows at most this many whole tiles (loose tiles lying against it); more, and the
# island goes on past it.
MOST_RING_TILES = 1
# A reading with nothing to check is checked once more for whole tiles lying in line with its grid
# just outside it: more than this many, and the island may go on past the grid, or the grid lie a
# row off it (RING_FLAG).
RING_CHECK_TILES = MOST_RING_TILES
# ... counting there also the ring cells the tile model takes for a tile at least this surely, however
# they fit the kit: the ring's crops are cut on the grid extended, not recentred on their tiles as the
# grid's own are, so a whole tile of a larger island lying off-centre in its crop fits the kit badly
# (stress 9526-00034, a 4x4 island read as a 3x3 window of it: ring cells in line with the island
# read p(tile) 0.96 / 0.90 but fit the kit at -1.17 / -0.24).
RING_SURE_TILE = 0.7
# Flags about the whole island (no cell of their own), in a player's words.
GRID_FLAG = "The grid is uncertain: check that every row and every tile of the island was found"
RING_FLAG = (
    "Tiles lie in line with the island just outside the grid read: check that the grid holds every "
    "tile of the island (is the island larger, or a row off?)"
)
# More tiles read back side up than front side up: the rules allow backs, but they "will rarely be
# useful", and a lattice laid on one tile's desert or forest reads as an island of backs of that
# terrain (9023-00116: nine desert backs inside one desert tile of a large island, nothing flagged).
BACKS_FLAG = (
    "Most tiles were read back side up (clouds): check that this is the island and that every tile was found"
)
# A 3x3 island whose grid size was not given, filling so much of the photo that the cells round it
# run off its edge: a 4x4 island may go on past the edge there (everyday development seed 9031, grid
# not given: 4 of 600 photos, 3x3 islands spanning 67-86% of the frame, had been refused as cut).
SIZE_FLAG = (
    "The photo's edge cuts the table round this 3x3 island: if your game is 4x4, check that no row or "
    "column of the island lies outside the photo (or give the grid size)"
)
EMPTY_ROW_FLAG = (
    "A whole row or column at the island's edge is empty, and the photo does not show on which side: "
    "check where the empty spaces are"
)


@dataclass(frozen=True)
class IslandReading:
    island: Island
    flags: tuple[str, ...]  # in words: the island's own (GRID_FLAG, ...), then each check's text
    cells: tuple[CellReading, ...]
    grid: int
    quad: np.ndarray  # the island's outline, 4x2 px of the image that was read
    cell_quads: np.ndarray  # (grid*grid, 4, 2) px, reading order
    timing_ms: dict[str, float]
    checks: tuple[Check, ...] = ()  # the doubtful readings of cells, numbered 1.. in this order


def tile_model() -> OnnxModel:
    return load_model(models_dir() / TILE_MODEL)


@functools.lru_cache(maxsize=4)
def _table(catalog_name: str, heads: tuple[tuple[str, tuple[str, ...]], ...]) -> CandidateTable:
    return candidate_table(load_catalog(catalog_name), dict(heads))


def catalog_table(model: OnnxModel, catalog: dict | str = "mondo") -> CandidateTable:
    """The decoder's table for a catalog (a kit name, cached, or a catalog dict of another edition)."""
    heads = tuple((name, tuple(labels)) for name, labels in model.heads.items())
    if isinstance(catalog, str):
        return _table(catalog, heads)
    return candidate_table(catalog, dict(heads))


def describe_position(quad: np.ndarray, shape: tuple[int, ...]) -> str:
    """Where a quad lies in the image, in words a person can find it by."""
    cx, cy = np.asarray(quad).mean(axis=0)
    h, w = shape[:2]
    across = "left" if cx < w / 3 else "right" if cx > 2 * w / 3 else "middle"
    down = "top" if cy < h / 3 else "bottom" if cy > 2 * h / 3 else "middle"
    return "centre" if across == down == "middle" else f"{down} {across}".replace("middle ", "")


def read_turns(model: OnnxModel, crops: np.ndarray) -> dict[str, np.ndarray]:
    """The model's probabilities for the crops, averaged over their four quarter turns (one batch).

    The model learnt every turn of a tile (training turns crops and labels together), so each turn
    is as good a look as the others, and a turn that glare or a shadow fools is outvoted. A turned
    crop's head is credited to the head of the cell it reads (`turned_head`)."""
    n = len(crops)
    out = model.run(np.concatenate([turn_crops(crops, k) for k in range(4)]))
    probs = {head: np.zeros_like(p[:n]) for head, p in out.items()}
    for k in range(4):
        for head, p in out.items():
            probs[turned_head(head, k)] += p[k * n : (k + 1) * n] / 4
    return probs


def cell_cropper(
    image: np.ndarray, quads: np.ndarray, model: OnnxModel, finer: Finer | None
) -> Callable[[np.ndarray], np.ndarray]:
    """Crops for the tile model of quads (px of `image`) about the size of `quads`', cut from the
    picture `crop_source` picks for them."""
    return _cropper(image, quads, model, finer)[0]


def _cropper(
    image: np.ndarray, quads: np.ndarray, model: OnnxModel, finer: Finer | None
) -> tuple[Callable[[np.ndarray], np.ndarray], tuple[int, ...]]:
    """`cell_cropper`, and the shape of the picture it cuts its crops from."""
    margin = float(model.metadata["input"]["crop_margin"])
    source, to_source = crop_source(image, quads, model.input_size, margin, finer)
    return lambda q: crop_quads(source, to_source(q), model.input_size, margin), source.shape


def read_cells(
    image: np.ndarray,
    found: FoundIsland,
    *,
    model: OnnxModel | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
    finer: Finer | None = None,
    cells_read: CellReadings | None = None,
) -> tuple[IslandReading, dict[str, np.ndarray]]:
    """Read the cells of a located island; also returns the model's probabilities (for eval). A
    cell in `cells_read` (the photo's cells read so far, by other grids) is not read again."""
    model = model or tile_model()
    cells_read = cells_read if cells_read is not None else CellReadings()
    quads = np.asarray(found.cell_quads, np.float32)
    start = time.perf_counter()
    crop, source = _cropper(image, quads, model, finer)
    crop_ms = (time.perf_counter() - start) * 1000  # the picture; its crops are cut as they are read
    # the crops of the cells not read before, read in four turns, then each cell that shows no whole
    # tile looked at round its crop (`recentre_cells`): the grid's own whole tiles say how far
    start = time.perf_counter()

    def first_look(rows: np.ndarray) -> list[dict[str, np.ndarray]]:
        return _by_cell(read_turns(model, crop(quads[rows])))

    probs = _stacked(cells_read.read(("four turns", source), quads, first_look))
    table = catalog_table(model, catalog)
    first_probs, moved = probs, ()
    if use_catalog:
        outer = outer_ring(probs, table)

        def moved_crops(rows: np.ndarray) -> list[tuple[dict[str, np.ndarray], np.ndarray, bool]]:
            some = {head: p[rows] for head, p in first_probs.items()}
            now, now_quads, moved_rows = recentre_cells(
                some, quads[rows], table, crop, model.run, lambda c: read_turns(model, c), outer
            )
            return [(cell, now_quads[j], j in moved_rows) for j, cell in enumerate(_by_cell(now))]

        recentred = cells_read.read(("recentred", source, outer), quads, moved_crops)
        probs = _stacked([cell for cell, _, _ in recentred])
        found = replace(found, cell_quads=np.stack([quad for _, quad, _ in recentred]))
        moved = tuple(i for i, (_, _, was_moved) in enumerate(recentred) if was_moved)
    evidence = (
        back_terrain_evidence(image, found.cell_quads, probs, model, table, finer) if use_catalog else None
    )
    model_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    cells = [(r, c) for r in range(found.grid) for c in range(found.grid)]
    decoded = decode_island(
        probs, model.heads, cells, found.grid, table, use_catalog=use_catalog, evidence=evidence
    )
    checks = decoded.checks + moved_tile_checks(
        decoded.island, moved, first_probs, probs, table, found.grid, asked=decoded.checks
    )
    decode_ms = (time.perf_counter() - start) * 1000
    reading = IslandReading(
        decoded.island,
        decoded.flags + tuple(check.text for check in checks[len(decoded.checks) :]),
        decoded.cells,
        found.grid,
        np.asarray(found.quad, np.float32),
        np.asarray(found.cell_quads, np.float32),
        {"crop": crop_ms, "model": model_ms, "catalog": decode_ms},
        checks,
    )
    return reading, probs


def _by_cell(probs: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """Per head (n, classes) -> per cell, head -> (classes,)."""
    n = len(next(iter(probs.values())))
    return [{head: p[i] for head, p in probs.items()} for i in range(n)]


def _stacked(cells: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """`_by_cell` undone."""
    return {head: np.stack([cell[head] for cell in cells]) for head in cells[0]}


def back_terrain_evidence(
    image: np.ndarray,
    cell_quads: np.ndarray,
    probs: dict[str, np.ndarray],
    model: OnnxModel,
    table: CandidateTable,
    finer: Finer | None,
) -> np.ndarray | None:
    """What the back model (`vision.mondo.backs`) says of the cells that may lie back side up, as
    evidence for the decoder; None without the model or such cells."""
    backs = back_model()
    rows = back_cells(probs, model.heads) if backs else ()
    if not len(rows):
        return None
    terrains = read_backs(backs, image, np.asarray(cell_quads)[rows], finer)
    return back_evidence(terrains, rows, len(cell_quads), table)


def moved_tile_checks(
    island: Island,
    moved: tuple[int, ...],
    first: dict[str, np.ndarray],
    now: dict[str, np.ndarray],
    table: CandidateTable,
    grid: int,
    asked: Sequence[Check] = (),
) -> tuple[Check, ...]:
    """A check for each cell whose first crop was not sure to hold a tile (p(tile) below
    MOVED_TILE_SURE) and that holds one once its crop moved: a tile pushed out of line, or a loose
    tile lying against the island (the photo alone does not say which), so the player is asked,
    with what the score would be without it. A cell the decoder asks the same question of already
    (`asked`: its checks, from the moved crop's odds) is not asked twice."""
    tile = table.labels["present"].index("tile")
    present_asked = {(c.row, c.col) for c in asked if c.head == "present"}
    out = []
    for i in moved:
        row, col = divmod(int(i), grid)
        p_empty_first = 1.0 - float(first["present"][i, tile])
        if p_empty_first <= 1.0 - MOVED_TILE_SURE or island.tile_at(row, col) is None:
            continue
        if (row, col) in present_asked:
            continue
        readings = (("tile", float(now["present"][i, tile])), ("empty", p_empty_first))
        out.append(Check(row, col, "present", readings))
    return settle(island, out)


def read_best_place(
    image: np.ndarray,
    found: FoundIsland,
    *,
    model: OnnxModel | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
    finer: Finer | None = None,
    grids_read: GridReadings | None = None,
) -> tuple[IslandReading, dict[str, np.ndarray]]:
    """`read_cells` where the locator put the grid and, where a whole outer row or column is empty,
    in the grid's other places too (the locator's, or where it gave none, those the tiles read leave:
    `other_places`); the reading the rules like best wins (the locator's on a tie). The coast tells
    the sides apart: an island's outer edges show water, its inner ones land. A grid in `grids_read`
    (the photo's grids read so far) is not read again."""
    model = model or tile_model()

    def read_anew(place: FoundIsland) -> tuple[IslandReading, dict[str, np.ndarray]]:
        return read_cells(
            image,
            place,
            model=model,
            catalog=catalog,
            use_catalog=use_catalog,
            finer=finer,
            cells_read=grids_read.cells if grids_read is not None else None,
        )

    def read_place(place: FoundIsland) -> tuple[IslandReading, dict[str, np.ndarray]]:
        return read_anew(place) if grids_read is None else grids_read.read(place, read_anew)

    places = [found] + [
        replace(found, quad=quad, cell_quads=grid_cell_quads(quad, found.grid), alternatives=())
        for quad in found.alternatives
    ]
    readings = [read_place(p) for p in places]
    if not found.alternatives:
        # the locator saw no other place (a table pattern on the empty row's lattice point counted
        # as a tile), but the tiles read may leave an outer row or column empty all the same: the
        # grid's other places that hold the same tiles are read too, and one wins only with the same
        # number of tiles (more, and it took in a loose tile beside the island)
        tiles = len(readings[0][0].island.tiles)
        for place in other_places(readings[0][0].island, found, image.shape):
            read_there = read_place(place)
            if len(read_there[0].island.tiles) == tiles:
                places.append(place)
                readings.append(read_there)
    best = max(range(len(readings)), key=lambda i: (place_rank(readings[i][0].island), -i))
    reading, probs = readings[best]
    timing = {k: sum(r.timing_ms[k] for r, _ in readings) for k in reading.timing_ms}
    flags = reading.flags
    rank, total = place_rank(reading.island), island_score(reading.island)[0]
    if any(place_rank(r.island) == rank and island_score(r.island)[0] != total for r, _ in readings):
        flags = (EMPTY_ROW_FLAG, *flags)
    return replace(reading, timing_ms=timing, flags=flags), probs


def finer_view(photo: Photo) -> Finer:
    """`Finer` of a decoded photo: its view at a finer scale, in px of `photo.image` per px."""

    def finer(share: float) -> tuple[np.ndarray, float]:
        picture, scale = photo.at_scale(photo.scale * share)
        return picture, scale / photo.scale

    return finer


@dataclass(frozen=True)
class PhotoReading:
    """What the reader made of a photo: the reading of its island, or why it refuses to score it."""

    reading: IslandReading | None
    probs: dict[str, np.ndarray] | None  # the tile model's, of the reading (for eval)
    refusal: PhotoError | None  # none, or why `scorecam score` gives no score for the photo
    islands: tuple[FoundIsland, ...]  # what the locator found


def good_tiles(reading: IslandReading, fronts_only: bool = False) -> int:
    """Cells read as a kit tile with near certainty: what a right grid shows many of. A grid a row off,
    or of the wrong size, cuts tiles in its crops, and they fit no face well. `fronts_only`: only
    tiles read front side up (a plain square of a table can pass for a back, one terrain all over)."""
    island = reading.island
    return sum(
        c.source == "catalog"
        and c.log_likelihood > GOOD_TILE_LL
        and not (fronts_only and back_side_up(island.tile_at(c.row, c.col)))
        for c in reading.cells
    )


def grid_rank(reading: IslandReading) -> tuple[bool, int, int]:
    """How much a reading looks like the island: a grid with more empty spaces than players leave
    (a 3x3 island and the loose tile beside it, read as 4x4) loses to one without, then whole tiles."""
    empty = sum(c.source == "empty" for c in reading.cells)
    return empty <= MOST_EMPTY, good_tiles(reading), -len(reading.flags)


def read_photo_island(
    source: np.ndarray | Photo,
    *,
    grid: int | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
    model: OnnxModel | None = None,
) -> PhotoReading:
    """Locate and read the island of a BGR image or a decoded `Photo` (then a small island is read
    from a finer decode of the file). The tile model checks what the locator found: another
    "island" whose cells hold no kit tiles is a pattern, not an island; a doubtful grid is read in
    the other size too, and the size whose crops hold whole tiles wins. A reading that asks for a
    check, or finds no island, is made again by the locator's other looks (`vision.mondo.looks`:
    the second net, then both looking at the photo darkened, brightened and colour-balanced), and
    the one with fewer doubts kept; a grid one look read is not read again by the next
    (`vision.mondo.read_grids`)."""
    read = functools.partial(
        read_with_locator,
        source,
        grid=grid,
        catalog=catalog,
        use_catalog=use_catalog,
        model=model,
        grids_read=GridReadings(),
    )
    return kept_reading(read, other_looks(source))


def read_with_locator(
    source: np.ndarray | Photo,
    *,
    grid: int | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
    model: OnnxModel | None = None,
    locator: LocatorModel | None = None,
    grids_read: GridReadings | None = None,
) -> PhotoReading:
    """`read_photo_island` with one locator net (default: the shipped first one); the grids in
    `grids_read` (read by other looks at the same photo) are not read again."""
    image, finer = (source.image, finer_view(source)) if isinstance(source, Photo) else (source, None)
    model = model or tile_model()
    locator = locator or load_locator()
    start = time.perf_counter()
    located = locate_islands(image, grid=grid, finer=finer, model=locator)
    locate_ms = (time.perf_counter() - start) * 1000
    # the photo stretched along its height (a steep tilt's last look) is located at most once
    stretched = (
        None if located.islands else foreshortened_islands(image, grid=grid, finer=finer, model=locator)
    )
    islands = list(located.islands or stretched)
    if not islands:
        return PhotoReading(None, None, PhotoError("no island found in the photo", kind="no_board"), ())

    def read(found: FoundIsland) -> tuple[IslandReading, dict[str, np.ndarray]]:
        return read_best_place(
            image,
            found,
            model=model,
            catalog=catalog,
            use_catalog=use_catalog,
            finer=finer,
            grids_read=grids_read,
        )

    readings = [read(f) for f in islands[:3]]
    read_already = {id(f): r for f, r in zip(islands[:3], readings, strict=True)}
    # the island is the one with most whole tiles; others count only if they hold tiles too
    order = sorted(range(len(readings)), key=lambda i: -good_tiles(readings[i][0]))
    islands = [islands[i] for i in order]
    readings = [readings[i] for i in order]
    # ... and only apart from it: two grids over the same place (two passes of the locator) are one
    # island seen twice, not two islands
    kept = [0] + [
        i
        for i in range(1, len(readings))
        if (
            good_tiles(readings[i][0]) >= SECOND_ISLAND_TILES
            or (
                islands[i].tiles_seen >= SECOND_ISLAND_SEEN
                and good_tiles(readings[i][0], fronts_only=True) >= SECOND_ISLAND_FRONTS
            )
        )
        and not overlapping(islands[i], islands[0])
    ]
    found, (reading, probs) = islands[0], readings[0]
    if _doubtful(reading, found):
        alternatives: list[FoundIsland | None] = []
        if grid is None:
            # the other size, then the same size again: a lattice search told the size fits only
            # grids of it, and finds a small island's lattice where the open search settled on
            # another pitch
            alternatives += [
                same_place(locate_islands(image, grid=size, finer=finer, model=locator).islands, found)
                for size in (7 - found.grid, found.grid)
            ]
        # and grids laid on the outline of the cells the island covers, where its tile centres may
        # have settled on a wrong pitch (a small island on a busy table)
        alternatives += outline_islands(
            image, found.quad, sizes=(grid,) if grid else GRIDS, cut=found.cut, finer=finer, model=locator
        )
        for alt in alternatives:
            if alt is None:
                continue
            alt_reading, alt_probs = read(alt)
            # a smaller grid wins only where the island does not go on past it
            smaller_ok = alt.grid >= found.grid or ring_tiles(image, alt, model, finer) <= MOST_RING_TILES
            if grid_rank(alt_reading) > grid_rank(reading) and smaller_ok:
                found, reading, probs = alt, alt_reading, alt_probs
        # then, where the best grid still holds more empty spaces than players leave, that grid
        # moved a cell each way: its lattice may have settled a cell off the island. A move is taken
        # only where it leaves no more empty spaces than players leave (on a grid the tile model
        # finds few whole tiles in, any move gains one or two by chance)
        if not grid_rank(reading)[0]:
            for alt in shifted_grids(found, image.shape):
                alt_reading, alt_probs = read(alt)
                if grid_rank(alt_reading)[0] and grid_rank(alt_reading) > grid_rank(reading):
                    found, reading, probs = alt, alt_reading, alt_probs
    if grid is None:
        window = smaller_window(reading, found)
        if window is not None and ring_tiles(image, window, model, finer) <= MOST_RING_TILES:
            small_reading, small_probs = read(window)
            if grid_rank(small_reading) > grid_rank(reading):
                found, reading, probs = window, small_reading, small_probs
    if len(reading.island.tiles) < MIN_TILES:
        # no island where the locator put its grid: at a steep tilt, it may fit one in the photo
        # stretched along its height
        if stretched is None:
            stretched = foreshortened_islands(image, grid=grid, finer=finer, model=locator)
        for alt in stretched[:3]:
            alt_reading, alt_probs = read_already.get(id(alt)) or read(alt)
            if grid_rank(alt_reading) > grid_rank(reading):
                found, reading, probs = alt, alt_reading, alt_probs
    refusal = None
    edge = whole_in_photo(image, found, reading, grid, model, finer) if found.cut else WHOLE
    if edge == CUT:
        refusal = PhotoError(
            "the island runs off the edge of the photo; please take it again with the whole island in it",
            kind="no_board",
        )
    elif len(kept) > 1:
        where = " and ".join(
            f"one at the {describe_position(islands[i].quad, image.shape)} ({islands[i].grid}x{islands[i].grid})"
            for i in kept
        )
        refusal = PhotoError(
            f"{len(kept)} islands in one photo ({where}); please take one photo per island",
            kind="several_boards",
        )
    elif len(reading.island.tiles) < MIN_TILES:
        refusal = PhotoError(
            f"no island found in the photo (a grid shape holds only {len(reading.island.tiles)} tile(s))",
            kind="no_board",
        )
    if refusal is None:
        crop = cell_cropper(image, reading.cell_quads, model, finer)
        table = catalog_table(model, catalog)
        reading = without_slanted_tiles(image, reading, crop, table, model.run, finer)
        reading = with_empty_space_checks(image, reading, crop, table, model.run)
        reading = with_back_terrain_checks(image, reading, probs, model.heads, finer)
    flags = reading.flags
    # more empty cells than players leave, or the locator's doubt where the tile model does not
    # vouch for every tile it read
    empty = sum(c.source == "empty" for c in reading.cells)
    if (
        empty > MOST_EMPTY
        or (found.score < ISLAND_DOUBT and good_tiles(reading) < len(reading.island.tiles))
        or (refusal is None and doubts_grid(reading.island))
    ):
        flags = (GRID_FLAG, *flags)
    if refusal is None and edge == SIZE_UNSEEN:
        flags = (SIZE_FLAG, *flags)
    if refusal is None and 2 * backs_of(reading.island) > len(reading.island.tiles):
        flags = (BACKS_FLAG, *flags)
    if (
        refusal is None
        and not flags
        and ring_tiles(image, found, model, finer, RING_SURE_TILE) > RING_CHECK_TILES
    ):
        flags = (RING_FLAG,)
    timing = {"locate": locate_ms, **reading.timing_ms}
    reading = replace(reading, flags=flags, timing_ms=timing)
    return PhotoReading(reading, probs, refusal, tuple(islands))


def smaller_window(reading: IslandReading, found: FoundIsland) -> FoundIsland | None:
    """A 4x4 reading with more empty spaces than players leave whose island lies in one 3x3 corner of
    it: that 3x3 window, as a grid of its own (the island is likely a 3x3 one whose lattice took in a
    row and a column of table). The island is its tiles joined side to side (a tile touching them
    only at a corner is a loose one); where a loose tile lies side to side against it, the window
    that holds all tiles but MOST_RING_TILES of them. None otherwise."""
    g = reading.grid
    empty = sum(c.source == "empty" for c in reading.cells)
    if g != 4 or empty <= MOST_EMPTY:
        return None
    tiles = {(c.row, c.col) for c in reading.cells if c.source != "empty"}
    held = joined_tiles(tiles)
    if not held:
        return None
    rows, cols = [r for r, _ in held], [c for _, c in held]
    if max(rows) - min(rows) <= g - 2 and max(cols) - min(cols) <= g - 2:
        r0, c0 = min(min(rows), 1), min(min(cols), 1)
    else:

        def inside(r0: int, c0: int) -> int:
            return sum(r0 <= r < r0 + g - 1 and c0 <= c < c0 + g - 1 for r, c in tiles)

        r0, c0 = max(((r, c) for r in (0, 1) for c in (0, 1)), key=lambda w: inside(*w))
        if len(tiles) - inside(r0, c0) > MOST_RING_TILES:
            return None
    cells = np.asarray(reading.cell_quads, np.float32)  # reading order, as reading.cells
    kept = [(r0 + i) * g + (c0 + j) for i in range(g - 1) for j in range(g - 1)]
    corner = cells[[r0 * g + c0, r0 * g + c0 + g - 2, (r0 + g - 2) * g + c0 + g - 2, (r0 + g - 2) * g + c0]]
    quad = np.array([corner[0][0], corner[1][1], corner[2][2], corner[3][3]], np.float32)
    return replace(found, grid=g - 1, quad=quad, cell_quads=cells[kept], alternatives=())


# what `whole_in_photo` says of an island whose occupied region reaches the photo's edge
WHOLE, CUT, SIZE_UNSEEN = "whole", "cut", "size unseen"


def whole_in_photo(
    image: np.ndarray,
    found: FoundIsland,
    reading: IslandReading,
    grid: int | None,
    model: OnnxModel,
    finer: Finer | None,
) -> str:
    """Whether an island whose occupied region reaches the photo's edge (a loose tile or the table's
    pattern joined to it may be what reaches it) is whole in the photo all the same (WHOLE): its
    tiles span every row and column of its grid, a grid of the largest size the island can have, and
    that grid lies inside the photo (but for EDGE_SLACK of a cell: a grid fitted round a large island
    may stick out a little where its tiles do not). An island is no larger than its grid, so no tile
    of it can lie beyond. Else CUT (the photo is refused), but for a 3x3 reading whose size was not
    given: a 4x4 island may go on past it, so it is CUT where the ring of cells round it shows more
    tiles than loose ones lying against it, WHOLE where that ring lies inside the photo, and
    SIZE_UNSEEN where the ring runs off the photo (read, with SIZE_FLAG)."""
    g = reading.grid
    rows = {t.cell[0] for t in reading.island.tiles}
    cols = {t.cell[1] for t in reading.island.tiles}
    if (
        rows != set(range(g))
        or cols != set(range(g))
        or not inside_photo(found.quad, image.shape, -EDGE_SLACK, g)
    ):
        return CUT
    if g == (grid or max(GRIDS)):
        return WHOLE
    if ring_tiles(image, found, model, finer) > MOST_RING_TILES:
        return CUT
    return WHOLE if inside_photo(found.quad, image.shape, 1.0, g) else SIZE_UNSEEN


def ring_tiles(
    image: np.ndarray,
    found: FoundIsland,
    model: OnnxModel,
    finer: Finer | None,
    sure_tile: float | None = None,
) -> int:
    """How many cells of the ring just outside a grid show a whole kit tile (or, given `sure_tile`,
    a tile at least that surely, however it fits the kit): an island that goes on past the grid (the
    grid a row and a column off inside a larger island) shows a row of them, a loose tile lying
    against the island one."""
    g = found.grid
    ring = [(c, r) for r in range(-1, g + 1) for c in range(-1, g + 1) if not (0 <= r < g and 0 <= c < g)]
    quads = cells_in_image(found.quad, g, np.float32(ring))
    probs = read_turns(model, cell_cropper(image, quads, model, finer)(quads))
    whole = kit_fit(probs, catalog_table(model)) > GOOD_TILE_LL
    if sure_tile is not None:
        p_tile = probs["present"][:, list(model.heads["present"]).index("tile")]
        whole |= p_tile >= sure_tile
    return int(whole.sum())


def _doubtful(reading: IslandReading, found: FoundIsland) -> bool:
    """Whether a grid is worth reading again in other places (the other size, the same size searched
    again, grids laid on the island's outline): the locator was unsure, some reading is doubtful, or
    more cells are empty than players leave."""
    empty = sum(c.source == "empty" for c in reading.cells)
    unsure = found.score < ISLAND_DOUBT and good_tiles(reading) < len(reading.island.tiles)
    return bool(reading.flags) or unsure or empty > 2


def read_island(
    source: np.ndarray | Photo,
    *,
    grid: int | None = None,
    catalog: dict | str = "mondo",
    use_catalog: bool = True,
) -> IslandReading:
    """The one island in a BGR image or a decoded `Photo`; PhotoError when there is none or more
    than one. Quads are in px of the image (`photo.image`)."""
    result = read_photo_island(source, grid=grid, catalog=catalog, use_catalog=use_catalog)
    if result.refusal is not None:
        raise result.refusal
    return result.reading

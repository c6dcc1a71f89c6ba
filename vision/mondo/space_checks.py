"""The island as read, looked at once more, space by space: tiles that are not the island's, spaces
read as empty that may hold a tile. Ask, do not guess: each doubt becomes a check with the score
either way.

- A tile at the island's edge whose outline lies far off the grid (`vision.mondo.slanted`) is a loose
  tile lying in an empty space: taken out, with a check; or, where the tile model reads it as a
  whole kit tile both on the grid and turned as it lies, kept, with a check. One that breaks the
  water rule alone (the island keeps it without) is asked the water rule's loose-tile question
  already where it lies as far off the grid as a hand-laid tile can.
- A space read as empty that shows a tile lying turned across it (`vision.mondo.turned`), or that
  looks like no part of the table round the island, or beside which a tile lies pushed out of line
  (`vision.mondo.pushed`), and a tile breaking the water rule beside such a
  space (`vision.mondo.empty_spaces`), are asked about.

`crop` cuts the tile model's crops of quads in px of the image, `look` reads them once
(`vision.mondo.reader.cell_cropper`, the model's `run`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scoring.mondo import Island
from vision.mondo.checks import LOOSE_TILE, NOT_TABLE, OFF_GRID_TILE, SLANTED_TILE, Check, settle, with_checks
from vision.mondo.crops import Finer
from vision.mondo.decode import CandidateTable
from vision.mondo.empty_spaces import back_side_up, loose_tile_cells, rule_breakers, unlike_table_spaces
from vision.mondo.pushed import pushed_tile_checks
from vision.mondo.recentre import SLANT_NATS, Cropper, Reader, kit_fit
from vision.mondo.slanted import LAID, SLANT_RATIO, SLANTED, slanted_tiles, tile_turns
from vision.mondo.turned import turned_tile_checks

if TYPE_CHECKING:
    from vision.mondo.reader import IslandReading


# A front the slant test calls turned off the grid, that the tile model keeps (a crop turned as it lies
# fits the kit no better than its space's own, SLANT_NATS), is still asked about where the turned crop
# shows a whole kit tile too (kit fit above this, nats; GOOD_TILE_LL of the reader): a tile a little
# past a hand-laid one's turn fills both crops, so the model's veto says nothing there (stress
# 9528-00296: a loose tile 16 degrees off, measured 12; turned -0.00, its space's own -0.02). The
# veto's own case, a table's squares making a slanted square's sides, turns the crop well off a
# tile on the grid, which then fits badly (everyday 9019-00196: a floor 40 degrees off; turned -3.49,
# own -0.00). None: such a tile is kept silently, as before.
ASK_TURNED_FIT: float | None = -0.5
# A tile asked about as lying off the grid (OFF_GRID_TILE) is not asked about again by the water
# rule's loose-tile question (LOOSE_TILE): one doubt, one line, and a look is not counted as
# doubting twice when looks are compared. On the development sets stress 9517 / 9528 / 9529 (grid
# given) 7 looks asked both of one tile, none of them a kept look: no record changed. False: both.
ASK_ONCE = True
# A tile at the island's edge that breaks the water rule, and without which the island keeps it, is
# asked the water rule's loose-tile question (LOOSE_TILE) where its outline lies turned off the grid
# as the slant test measures it (`slanted.tile_turns`, `_askew`), with the bar lowered to a hand-laid
# tile's turn (LAID) and its second weakest side to ASK_SIDES of the mean: short of a loose tile's
# turn, but the island's whole score hangs on it (0 for an island that breaks the rule). Fresh
# stress 9537-00151 (grid detected): a loose tile lying 14 degrees off in the empty corner space
# (0, 0) of the truth's grid, measured 10 on the reader's grid (a quarter of a cell too wide there;
# second side 0.47), read as the island's with its water edge facing in: the island invalid, 0 for
# 2, nothing asked. On the final readings of stress 9517, 9528, 9537 (grid detected) and everyday
# 9041 (given), 650 photos, 38 of the 5,758 laid tiles at the island's edge measure 10 degrees or more
# off, one of them breaking the rule alone (a back measured 27, its second side 0.06: a table's
# lines); so do two of the three loose tiles read as the island's (9537-00151, and 9517-00065: 11,
# 0.95, flagged already). Asked first as a tile lying off the grid (OFF_GRID_TILE) at any turn past
# LAID, on fresh stress 9538 (grid detected) it caught nothing and cost three right readings: two
# backs the rule makes 0-point islands asked about (00089 measured 35 degrees off, no better than
# square to the grid; 00344 asked by the looks' carry of that doubt, `looks.CARRIED_HEADS`) and one
# lost (00475: looks that doubt a tile so no longer vote to keep it, `looks.carried_slants`, and the
# looks that took it out as slanted won). Hence the water rule's own question, which the looks
# neither carry nor count against a tile, and far turns only as the slant test takes them. None: not
# asked.
ASK_TURN: float | None = LAID
ASK_SIDES = 0.3


def edge_tiles(island: Island) -> list[tuple[int, int]]:
    """The cells of the island's tiles a loose tile could be taken for: on the grid's outer ring, or
    beside a space read as empty (a loose tile lies against the island, never under it)."""
    g = island.grid
    held = {t.cell for t in island.tiles}

    def open_beside(r: int, c: int) -> bool:
        near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return any(not (0 <= a < g and 0 <= b < g) or (a, b) not in held for a, b in near)

    return [cell for cell in sorted(held) if open_beside(*cell)]


def without_slanted_tiles(
    image: np.ndarray,
    reading: IslandReading,
    crop: Cropper,
    table: CandidateTable,
    look: Reader,
    finer: Finer | None = None,
) -> IslandReading:
    """The reading with each tile that lies turned far off the grid (`vision.mondo.slanted`: a loose
    tile lying in a space the island leaves empty) taken out, its space read as empty, and a check
    that asks whether it is the island's after all, with the score if it is. The checks on the tiles
    taken out go with them. A front is taken out only where the tile model agrees: a crop turned as
    the tile lies shows a whole kit tile better (SLANT_NATS) than the space's own crop (a table's
    pattern of squares can make a slanted square's sides); a back, one terrain all over, fits any
    turn, and its outline is all there is to go by. A front the model keeps, though a turned crop
    shows a whole kit tile as well (ASK_TURNED_FIT), stays with a check that asks whether it is
    loose, with the score if it is. A tile the score hangs on, breaking the water rule alone, that lies
    as far off the grid as a hand-laid tile can (`_askew_rule_breakers`), is asked the water rule's
    loose-tile question."""
    island = reading.island
    slants = slanted_tiles(image, reading.quad, reading.grid, edge_tiles(island), finer)
    fronts = [cell for cell in slants if not back_side_up(island.tile_at(*cell))]
    doubted: list[tuple[int, int]] = []  # fronts kept, that a turned crop shows as well
    if fronts:
        g = reading.grid
        to_image = cv2.getPerspectiveTransform(
            np.float32([[0, 0], [g, 0], [g, g], [0, g]]), np.asarray(reading.quad, np.float32)
        )
        # the space's own crop (where its tile was read) against a crop turned as the tile lies
        quads = np.concatenate(
            [
                np.stack([reading.cell_quads[r * g + c], slants[(r, c)].quads(r, c, to_image)[1]])
                for r, c in fronts
            ]
        )
        fit = kit_fit(look(crop(quads)), table).reshape(-1, 2)
        for cell, (straight, turned) in zip(fronts, fit, strict=True):
            if turned - straight < SLANT_NATS:
                del slants[cell]
                if ASK_TURNED_FIT is not None and turned > ASK_TURNED_FIT:
                    doubted.append(cell)
    if slants:
        reading = taken_out_as_slanted(reading, set(slants))
    reading = _asking(reading, doubted, OFF_GRID_TILE)
    return _asking(reading, _askew_rule_breakers(image, reading, doubted, finer), LOOSE_TILE)


def _askew_rule_breakers(
    image: np.ndarray, reading: IslandReading, asked: list[tuple[int, int]], finer: Finer | None
) -> list[tuple[int, int]]:
    """The tiles of the island's edge (`edge_tiles`) that break the water rule, without which the
    island keeps it (`rule_breakers`), and whose outline lies turned off the grid past a hand-laid
    tile's turn (`_askew`): each may be a loose tile, and the score hangs on it. Those of `asked`
    are asked about already."""
    if ASK_TURN is None:
        return []
    edge = set(edge_tiles(reading.island))
    cells = [cell for cell in rule_breakers(reading.island) if cell in edge and cell not in asked]
    return [
        cell
        for cell, measured in tile_turns(image, reading.quad, reading.grid, cells, finer).items()
        if _askew(*measured)
    ]


def _askew(turn: float, ratio: float, second: float) -> bool:
    """`slanted.is_slanted` with its bar lowered to ASK_TURN degrees and ASK_SIDES: past it and
    short of SLANTED, or further off and SLANT_RATIO times as good as square to the grid."""
    if ASK_TURN is None or second < ASK_SIDES or abs(turn) < ASK_TURN:
        return False
    return abs(turn) < SLANTED or ratio >= SLANT_RATIO


def taken_out_as_slanted(reading: IslandReading, slanted: set[tuple[int, int]]) -> IslandReading:
    """The reading with the tiles of `slanted` taken out as loose tiles lying slanted across their
    spaces: each space read as empty, with a check (`checks.SLANTED_TILE`) that asks whether its tile
    is the island's after all, with the score if it is. The checks on those tiles go with them; the
    others are settled again on the island without them."""
    island = reading.island
    kept = tuple(t for t in island.tiles if t.cell not in slanted)
    left = Island(island.grid, kept)
    cells = tuple(replace(c, source="empty") if (c.row, c.col) in slanted else c for c in reading.cells)
    new = settle(
        left,
        [Check(r, c, SLANTED_TILE, ()) for r, c in sorted(slanted)],
        {cell: island.tile_at(*cell) for cell in slanted},
    )
    # the other checks, settled again on the island without those tiles, but for those that need the
    # decoder's tile for a space read as empty, which the reading does not keep: they stay as they were
    others = []
    for check in reading.checks:
        if (check.row, check.col) not in slanted:
            (again,) = settle(left, [check])
            others.append(check if again.not_possible and not check.not_possible else again)
    checks = tuple(sorted((*others, *new), key=lambda c: (c.row, c.col)))
    asked = {c.text for c in reading.checks}
    own = tuple(f for f in reading.flags if f not in asked)  # the island's own flags stay first
    flags = own + tuple(c.text for c in checks)
    return replace(reading, island=left, cells=cells, checks=checks, flags=flags)


def _asking(reading: IslandReading, cells: list[tuple[int, int]], head: str) -> IslandReading:
    """The reading with a check of `head` on each of `cells`, a tile kept as the island's that may
    be loose (OFF_GRID_TILE, LOOSE_TILE), with the score if it is."""
    if not cells:
        return reading
    return with_checks(reading, settle(reading.island, [Check(r, c, head, ()) for r, c in sorted(cells)]))


def with_empty_space_checks(
    image: np.ndarray, reading: IslandReading, crop: Cropper, table: CandidateTable, look: Reader
) -> IslandReading:
    """The reading with a check on each space read as empty that shows a tile lying turned across
    it (`vision.mondo.turned`: a loose tile on the island may hide a tile of it), or that looks like
    no part of the table round the island, or beside which a tile lies pushed out of line
    (`vision.mondo.pushed`), and on each tile that breaks the water rule beside such a
    space (`vision.mondo.empty_spaces`: a tile back side up or pushed read as empty, a loose tile
    lying in an empty space read as the island's)."""
    asked_already = {(c.row, c.col) for c in reading.checks if c.head == SLANTED_TILE}
    # a tile already asked about as lying off the grid is asked once: the water rule's question of
    # it (LOOSE_TILE) is the same one, with the same score if it is loose
    loose_asked = {(c.row, c.col) for c in reading.checks if c.head == OFF_GRID_TILE} if ASK_ONCE else set()
    # ... and one asked the water rule's question already (it lies askew: `_askew_rule_breakers`)
    loose_asked |= {(c.row, c.col) for c in reading.checks if c.head == LOOSE_TILE}
    empty = [
        (c.row, c.col) for c in reading.cells if c.source == "empty" and (c.row, c.col) not in asked_already
    ]
    if not empty:
        return reading
    turned = turned_tile_checks(empty, reading.cell_quads, reading.grid, table, crop, look)
    asked = {(c.row, c.col) for c in turned}
    unlike = [
        space for space in unlike_table_spaces(image, reading.quad, reading.grid, empty) if space not in asked
    ]
    asked.update(unlike)
    pushed = pushed_tile_checks(
        [space for space in empty if space not in asked], reading.quad, reading.grid, table, crop, look
    )
    checks = (
        *turned,
        *(Check(r, c, NOT_TABLE, ()) for r, c in unlike),
        *pushed,
        *(
            Check(r, c, LOOSE_TILE, ())
            for r, c in loose_tile_cells(reading.island, empty)
            if (r, c) not in loose_asked
        ),
    )
    if not checks:
        return reading
    return with_checks(reading, settle(reading.island, checks))

"""The locator's looks at a photo, and which reading of them to keep.

A reading that asks for a check, or finds no island, is made again with the second locator net
(`second_locator`), and the one with fewer doubts is kept (`doubt`: each cell asked about once, by
its closest question's odds): the two nets miss different islands. One
that still asks is made again by each net looking at the photo darkened (`DARKER_GAMMA`), the same
way, and then brightened and with its colours balanced (`FURTHER_LOOKS`), unless the photo shows a
Mediterráneo sea's colours (or, before the further looks, the sea locator finds a sea). A reading
kept from a later look with nothing to ask says so (`LOOKS_FLAG`, `PARTS_FLAG`) where other looks at
the same grid read another score as often (another total, or the same made up otherwise: `BY_PARTS`),
and keeps the doubts of a tile lying off the grid that they asked as often as not (`CARRIED_HEADS`).
A tile that the looks at the kept grid took out as a loose tile lying slanted more often than they
read it without doubt is taken out of the kept reading too (`CARRY_SLANTS`).
`vision.mondo.reader.read_photo_island` reads a photo this way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import astuple, replace
from typing import TYPE_CHECKING

import numpy as np

from scoring.mondo import score_island
from vision.mondo.checks import OFF_GRID_TILE, PUSHED_TILE, SLANTED_TILE, Check, settle, with_checks
from vision.mondo.decode import PRESENT
from vision.mondo.locator_maps import LocatorModel, darker, load_locator, rebalanced
from vision.mondo.space_checks import taken_out_as_slanted
from vision.onnx_model import models_dir
from vision.photo_io import Photo, as_photo
from vision.sea_hint import looks_like_mediterraneo, sea_located

if TYPE_CHECKING:  # the reader imports this module
    from vision.mondo.reader import IslandReading, PhotoReading

# A second locator net (the first trained on further on other photos), asked only where the first's
# reading asks for a check: each net finds islands the other misses, and where both find one the
# reading with fewer doubts wins.
SECOND_LOCATOR = "mondo-locator-second.onnx"
# Where both nets' readings still ask for a check, each looks again at the photo with its tones raised
# to this power: an island washed out (overexposed, glare, a colour cast towards the table's hue)
# stands out from the table again. Development seeds, grid given / not: everyday 9031 (600) 99.2 ->
# 99.7% / 98.7 -> 98.8% exact; stress 9517 (500) 96.8 -> 97.0% / 96.8 -> 96.8%, right but flagged
# 19.4 -> 15.8% / 19.0 -> 15.4%, wrong and unflagged 0.0 -> 0.2% given (00222: the total right, 0, its
# parts not) / 0.0 -> 0.0%.
DARKER_GAMMA = 2.0
# Where a reading still asks after those four looks, each net looks at the photo three ways more, in
# turn: brightened (its tones raised to BRIGHTER_GAMMA: a dim or shadowed island), and with its
# colours balanced (`locator_maps.BALANCES`: grey world, each channel stretched), where a light or a
# table of one hue hid the island's tiles from both nets. Of the 86 photos of five spent stress sets
# that the four looks read wrong, each way alone read 10-12 right (a contrast-limited equalisation of
# the lightness 10, the photo in grey 1: not taken), the three 19; but a later look also replaces a
# right reading with a wrong one that asks less, so whole sets gain less: stress 9517 / 9523 exact
# 97.0 -> 97.2% / 97.4 -> 97.2%, five sets +6 photos of 2,500; right but flagged 16.2 -> 13.0% /
# 15.6 -> 12.2%; everyday 9031 no score changed. Fresh, once: everyday 9028 99.2 -> 99.8% exact,
# stress 9525 97.2 -> 96.8% (2 lost, flagged), right but flagged 15.8 -> 12.0%. (Other rules to choose
# among ten looks, a vote on the total among them, changed 1-3 photos either way: not taken.)
BRIGHTER_GAMMA = 0.5
FURTHER_LOOKS = ((BRIGHTER_GAMMA, ""), (1.0, "grey world"), (1.0, "channels stretched"))  # (gamma, balance)
# A grid in which the tile model sees fewer tiles than this is something else that looks like a
# lattice (a sea of cards, a tiled floor): players leave at most a few spaces empty.
MIN_TILES = 3
# A reading kept from a later look (it asks nothing) whose total other looks read otherwise at
# least as often, their grids in the same place (every corner within SAME_PLACE cells): the look
# with fewer doubts is not always the right one (stress 9521-00106: the first three looks read a
# tile pushed out of line and asked about it, total 17; the fourth read its space as empty and asked
# nothing, 14). A look whose grid lay elsewhere (off the island: 9613-00188, 0.76 cells) read other
# cells, not these otherwise; one look of three that read otherwise is outvoted (everyday 9031-00506:
# 14, 9, 14, the kept 14 right). Formatted with the totals.
SAME_PLACE = 0.5
LOOKS_FLAG = (
    "Looked at again, the photo read differently (a total of {other} against {kept}): check that every "
    "tile of the island was read"
)
# The looks' readings compared by the whole score (each part: animals, landscapes, volcanoes, empty
# spaces, misconnections), not the total alone: a tile read in one look and not in another can leave
# the total as it was and change its parts (stress 9530-00153 with a closer crop search tried on
# 2026-12-07 and reverted: nine looks read a tile a tenth of a cell off its space and asked about
# it, the tenth read the space as empty and asked nothing; each totals 0, the truth's, and the kept
# reading's parts were wrong). On the development sets (grid given) everyday 9031 (600), stress
# 9517, 9528, 9529 no record changed; fresh 9035 / 9531 (given) one right reading flagged more
# (9531-00147), none caught. False: totals alone.
BY_PARTS = True
PARTS_FLAG = (
    "Looked at again, the photo read differently (the same total, {kept}, made up otherwise): check that "
    "every tile of the island was read"
)


# The doubts of a whole tile that come from the outlines round the grid (a tile lying turned off it,
# `checks.OFF_GRID_TILE`; a tile pushed out of line, `checks.PUSHED_TILE`), measured on each look's
# own grid: a later look whose grid lies a little otherwise can fall just short of one (stress
# 9528-00296: a loose tile 12 degrees off, asked about by three looks, kept as the island's with
# nothing asked by the fourth). Where the looks at the kept grid that read the cell as the kept one
# does asked it at least as often as not, it stays asked. Not carried: the loose-tile check of the
# water rule, which rests on the look's own reading of the tile's edges (9528-00339: carried, it asked
# of a tile that breaks no rule as kept), and the questions of a tile lying across an empty space or
# of a space unlike the table, which on the development sets 9517 / 9528 (grid given) flagged three
# right readings and caught no wrong one (9517-00111, 00358; 9528-00349).
CARRIED_HEADS = frozenset({OFF_GRID_TILE, PUSHED_TILE})
# A loose tile lying slanted in a space the island leaves empty is taken out by the looks whose grid
# shows its outline far enough off (`space_checks.without_slanted_tiles`); a look that falls short of
# the slant keeps it as the island's, and can be kept for asking less (stress 9517-00070: three looks
# took a loose tile 20 degrees off out, three kept it and asked whether a tile is there at all, one of
# those asked least and was kept). Where the looks at the kept grid took a tile of it out more often
# than they read it there without doubting it (`TILE_DOUBTS`: is a tile there, does it lie off the
# grid as a loose one does), it is taken out of the kept reading too, asked about as they asked.
# Looks that doubt a tile do not vote for it; a look that read it with nothing asked of it, or asked
# only its animals, or only the water rule's question (a tile breaking the rule beside an empty space:
# the rule's doubt, not the photo's), does (9530-00028: one look took a tile of the island out, the
# next read it asking nothing; 9528-00308: three took it out, five read it asking its animals;
# 9530-00127 with the grid detected: one took it out, five asked the water rule's question).
# Development sets, the looks' choice replayed: grid given, everyday 9031 (600) no record changed;
# stress 9517, 9528, 9530 one gained each (00070, 00147, 00293, flagged either way), 9529 none; grid
# detected, 250 photos each of 9528 and 9530: no record changed. Fresh 9037 / 9533, grid given:
# everyday no record changed; stress 97.0 -> 97.2% exact (00067), none lost. False: the kept look's
# own reading.
CARRY_SLANTS = True
TILE_DOUBTS = frozenset({PRESENT, OFF_GRID_TILE})


# How much doubt a look's reading carries where looks are compared (`fewer_doubts`, `doubt`): each
# cell asked about counts once, as much as its closest question's runner-up weighs (one of
# WHOLE_DOUBT or more: a whole doubt; one of 0.1: a fifth), a question of a whole tile (no odds, or of
# WHOLE_DOUBT_HEADS: a tile there or not, the score either way) one, and each flag that asks of no
# cell (the grid uncertain) one. Counted flag by flag, a back whose terrain was asked edge by edge
# weighed four doubts against one (stress 9528-00042: the looks that read it right asked its four
# edges and a space's tile, 6 flags; one that read another terrain asked it once, 3 flags, and was
# kept; now 3 against 3, and the first look stands), and so did two questions of one tile (everyday
# 9031-00506 without the darker looks, tests/test_other_looks.py). Development sets, grid given
# (every look of every photo kept and the choice replayed, build/scratch, not committed; that replay
# gives each set's records as `scorecam eval` does): exact everyday 9031 (600) 99.5 -> 99.5%; stress
# 9517 97.2 -> 97.6%, 9528 98.2 -> 98.0%, 9529 97.4 -> 97.6%, 9530 96.6 -> 96.8% (7 gained, 4 lost
# of 2,000); wrong and unflagged as before on each (0.0%, 9530 0.2%); right but flagged 1.7% as
# before, 13.2 -> 13.6%, 9.6 -> 9.4%, 15.2 -> 15.4%, 13.6 -> 13.8%. A presence question weighed by
# its odds too: 99.3% everyday (9031-00571: a look asking one at 78 / 22 that left a tile out was
# kept), stress 7 gained, 2 lost. Fresh 9036 / 9532, grid given: no score moved on 9036; on 9532
# two islands found that were not, two readings asked about either way lost (96.6% exact either
# way). False: the flags counted.
WEIGHED_DOUBTS = True
WHOLE_DOUBT = 0.5
WHOLE_DOUBT_HEADS: frozenset[str] = frozenset({PRESENT})


def second_locator() -> LocatorModel | None:
    """The second locator net (`SECOND_LOCATOR`), or None where the models folder has none."""
    path = models_dir() / SECOND_LOCATOR
    return load_locator(str(path)) if path.exists() else None


def other_looks(source: np.ndarray | Photo) -> Iterator[LocatorModel]:
    """The looks asked in turn where a reading of `source` (a BGR image or a decoded `Photo`) asks
    for a check: the second net, then the first and the second looking at the photo darkened, then
    at each of the `FURTHER_LOOKS` (a models folder without the second net has half as many after
    the first). Asked lazily: the photo's colours are looked at only where the darker looks are
    wanted, the sea locator only where the further looks are."""
    first, second = load_locator(), second_locator()
    nets = [first, second] if second else [first]
    yield from nets[1:]
    image = source.image if isinstance(source, Photo) else source
    if looks_like_mediterraneo(image):
        # no toned looks on a photo in a Mediterráneo sea's colours: there they read the sea's
        # cards as tiles, at seconds a look, before the photo is found to be a sea
        return
    yield from (darker(net, DARKER_GAMMA) for net in nets)
    if FURTHER_LOOKS and sea_located(as_photo(source)):
        # a sea whose colours the quick look above missed (faded cards, a colour cast): every look
        # reads its cards as tiles and asks; the sea locator, one look, says so before six more
        return
    for gamma, balance in FURTHER_LOOKS:
        for net in nets:
            look = rebalanced(net, balance) if balance else net
            yield darker(look, gamma) if gamma != 1.0 else look


def kept_reading(read: Callable[..., PhotoReading], looks: Iterator[LocatorModel]) -> PhotoReading:
    """The reading kept of `read()` (the first net's look) and `read(locator=look)` for each of
    `looks`, drawn only while the kept reading asks for one. Where it comes from a later look with
    nothing to ask: with LOOKS_FLAG where other looks at the same grid read another total as often
    (PARTS_FLAG: the same total, other parts), and with the doubts of a tile lying off the grid that
    they asked as often as not (`carried_doubts`). Whichever look it comes from, without the tiles
    that the looks at its grid took out as slanted more often than they held them undoubted
    (`carried_slants`)."""
    kept = read()
    seen = [kept]
    while asks_to_look(kept) and (locator := next(looks, None)) is not None:
        other = read(locator=locator)
        seen.append(other)
        kept = with_time_of(other, kept) if fewer_doubts(other, kept) else with_time_of(kept, other)
    if CARRY_SLANTS and kept.reading is not None and kept.refusal is None:
        slanted = carried_slants(kept.reading, [look.reading for look in seen if look.refusal is None])
        if slanted:
            kept = replace(kept, reading=taken_out_as_slanted(kept.reading, slanted))
    own = _scored(kept)
    if own is None or kept.reading is None or kept.reading.flags:
        return kept
    # the scores the looks whose grid lies where the kept one does read (the kept look among them)
    votes = Counter(
        score
        for look in seen
        if (score := _scored(look)) is not None and _same_place(look.reading, kept.reading)
    )
    others = sorted(score for score, n in votes.items() if score != own and n >= votes[own])
    reading = kept.reading
    carried = carried_doubts(reading, [look.reading for look in seen if look.refusal is None])
    if carried:
        reading = with_checks(reading, settle(reading.island, carried))
    if others:
        totals = sorted({total for total, _ in others if total != own[0]})
        if totals:
            flag = LOOKS_FLAG.format(other=" or ".join(map(str, totals)), kept=own[0])
        else:
            flag = PARTS_FLAG.format(kept=own[0])
        reading = replace(reading, flags=(flag, *reading.flags))
    return replace(kept, reading=reading)


def carried_doubts(kept: IslandReading, readings: list[IslandReading | None]) -> list[Check]:
    """The checks of `CARRIED_HEADS` that the readings at the kept one's grid (itself among them) that
    read the cell as it does (a tile or an empty space) asked at least as often as not, as bare
    checks (unsettled)."""
    alike = [r for r in readings if r is not None and _same_place(r, kept)]
    asked: Counter[tuple[int, int, str]] = Counter()
    for r in alike:  # each reading counts once a doubt (cell, head) it asked of a cell read as kept
        asked.update(
            {
                (c.row, c.col, c.head)
                for c in r.checks
                if c.head in CARRIED_HEADS and _held(r, c.row, c.col) == _held(kept, c.row, c.col)
            }
        )
    carried = []
    for (row, col, head), n in sorted(asked.items()):
        read_so = sum(_held(r, row, col) == _held(kept, row, col) for r in alike)
        if n >= read_so - n:
            carried.append(Check(row, col, head, ()))
    return carried


def carried_slants(kept: IslandReading, readings: list[IslandReading | None]) -> set[tuple[int, int]]:
    """The cells of the kept reading's tiles that the readings at its grid (itself among them) took
    out as loose tiles lying slanted (`checks.SLANTED_TILE`) more often than they read a tile there
    without asking whether it is the island's (`TILE_DOUBTS`)."""
    alike = [r for r in readings if r is not None and _same_place(r, kept)]
    slanted = set()
    for tile in kept.island.tiles:
        out = sum(_asks(r, tile.cell, {SLANTED_TILE}) for r in alike)
        sure = sum(_held(r, *tile.cell) and not _asks(r, tile.cell, TILE_DOUBTS) for r in alike)
        if out > sure:
            slanted.add(tile.cell)
    return slanted


def _asks(reading: IslandReading, cell: tuple[int, int], heads: Collection[str]) -> bool:
    """Whether the reading has a check of one of `heads` on `cell`."""
    return any(c.head in heads and (c.row, c.col) == cell for c in reading.checks)


def _held(reading: IslandReading, row: int, col: int) -> bool:
    return reading.island.tile_at(row, col) is not None


def with_time_of(result: PhotoReading, other: PhotoReading) -> PhotoReading:
    """`result` with the time `other`'s reading took added to its own, part by part: the report's
    timing is what reading the photo cost, both looks."""
    if result.reading is None or other.reading is None:
        return result
    spent = other.reading.timing_ms
    timing = {part: ms + spent.get(part, 0.0) for part, ms in result.reading.timing_ms.items()}
    return replace(result, reading=replace(result.reading, timing_ms=timing))


def asks_to_look(result: PhotoReading) -> bool:
    """Whether a reading asks for another look: no island, a refusal, or a flag."""
    return result.reading is None or result.refusal is not None or bool(result.reading.flags)


def fewer_doubts(second: PhotoReading, first: PhotoReading) -> bool:
    """Whether another look's reading (`second`) is the better: a scored island where the first
    found none, or less doubt (`doubt`). The first's other refusals stand (two islands in the
    photo, one cut by the edge: a net that sees one island there is not the wiser)."""
    if second.reading is None or second.refusal is not None:
        return False
    if first.reading is None or first.refusal is not None:
        return _no_island(first)
    return doubt(second.reading) < doubt(first.reading)


def doubt(reading: IslandReading) -> float:
    """How doubtful a reading is, to choose between looks (WEIGHED_DOUBTS; else its flags counted):
    each cell asked about once, as much as its closest question's runner-up weighs (WHOLE_DOUBT or
    more: one doubt; a question of a whole tile, with no odds or of WHOLE_DOUBT_HEADS: one), and one
    for each flag that asks of no cell (the grid uncertain)."""
    if not WEIGHED_DOUBTS:
        return float(len(reading.flags))
    asked = {check.text for check in reading.checks}
    by_cell: dict[tuple[int, int], float] = {}
    for check in reading.checks:
        odds = len(check.readings) > 1 and check.head not in WHOLE_DOUBT_HEADS
        weight = min(1.0, check.readings[1][1] / WHOLE_DOUBT) if odds else 1.0
        by_cell[(check.row, check.col)] = max(by_cell.get((check.row, check.col), 0.0), weight)
    return sum(flag not in asked for flag in reading.flags) + sum(by_cell.values())


def _no_island(result: PhotoReading) -> bool:
    return result.reading is None or len(result.reading.island.tiles) < MIN_TILES


def _scored(result: PhotoReading) -> tuple[int, tuple[int, ...]] | None:
    """The island's total as a look read it, with its parts (BY_PARTS; else none); None where it
    read no island, or refused the photo."""
    if _no_island(result) or result.refusal is not None:
        return None
    player = score_island(result.reading.island)
    return player.total, astuple(player.points) if BY_PARTS else ()


def _same_place(a: IslandReading, b: IslandReading) -> bool:
    """Whether two readings' grids are one: the same size, every corner within SAME_PLACE cells."""
    if a.grid != b.grid:
        return False
    cell = float(np.linalg.norm(b.quad[1] - b.quad[0])) / b.grid
    return float(np.linalg.norm(np.asarray(a.quad) - np.asarray(b.quad), axis=1).max()) <= SAME_PLACE * cell

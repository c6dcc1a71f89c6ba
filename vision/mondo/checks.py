"""Doubtful readings of a Mondo island, in a player's words, with what the score would be otherwise.

A :class:`Check` is one head of one cell the model was unsure of: the reading used and the
runner-up, with their probabilities. Its words count rows and tiles from 1 and name sides as a
player sees them::

    Row 1, tile 2: is the right edge forest or plains? (61% / 37%) — if plains: +2 points

The what-if swaps only that head's value in the board as read and scores the island again (alone,
as `scorecam score` does); where the swap makes no possible tile, the check says why instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from scoring.errors import BoardFormatError
from scoring.mondo import Area, Island, Tile, score_turn, single_island_turn
from scoring.sides import SIDE_WORDS, SIDES
from vision.mondo.heads import tile_from_labels, tile_labels

if TYPE_CHECKING:  # the reader imports this module
    from vision.mondo.reader import IslandReading

# The head of a check that is about the whole tile: it fits no face of the kit.
NO_KIT_TILE = "no_kit_tile"
# ... or a space read as empty shows a tile lying turned across it (a loose tile on the island?)
TURNED_TILE = "turned_tile"
# ... or a space read as empty looks like no part of the table round the island (a tile back side up, or
# pushed out of its space?)
NOT_TABLE = "not_table"
# ... or a crop shifted off a space read as empty shows a tile (one of the island pushed out of line?)
PUSHED_TILE = "pushed_tile"
# ... or a tile that breaks the water rule lies beside a space read as empty, or back side up (a loose tile?)
LOOSE_TILE = "loose_tile"
# ... or a tile lying turned far off the grid in a space, read as a loose tile and left out (is it the island's?)
SLANTED_TILE = "slanted_tile"
# ... or a tile lying turned off the grid as a loose one does, kept because the tile model reads it as
# a whole kit tile either way (is it a loose tile?)
OFF_GRID_TILE = "off_grid_tile"
# A check about a tile read back side up: which terrain its back shows (all four edges at once; the
# tile model and the back model do not agree)
BACK_TERRAIN = "back_terrain"
# What those checks ask (they have no readings to weigh)
WHOLE_TILE_QUESTIONS = {
    NO_KIT_TILE: "this tile matches no tile of the kit (read part by part): please look at it",
    TURNED_TILE: (
        "read as empty, but a tile lies turned across this space: is a tile of the island under it, "
        "or is it a loose tile? please look"
    ),
    NOT_TABLE: (
        "read as empty, but this space does not look like the table round the island: is a tile here "
        "(back side up, or pushed out of line)? please look"
    ),
    PUSHED_TILE: (
        "read as empty, but a tile lies just past this space, out of line with the grid: is it the "
        "island's tile pushed out of its space? please look"
    ),
    LOOSE_TILE: (
        "this tile breaks the water rule, and without it the island keeps the rule: is it part of the "
        "island, or a loose tile lying in a space the island leaves empty? please look"
    ),
    SLANTED_TILE: (
        "read as empty: the tile lying here is turned well off the island's grid, so it was taken for a "
        "loose tile; is it part of the island? please look"
    ),
    OFF_GRID_TILE: (
        "this tile lies turned further off the island's grid than a hand-laid tile does: is it part of "
        "the island, or a loose tile lying in a space the island leaves empty? please look"
    ),
}

Reading = tuple[str, float]  # (label, the model's probability of it)


@dataclass(frozen=True)
class Check:
    """One doubtful reading: ``readings`` are the label used, then the runner-up (none for
    the whole-tile questions). ``row`` and ``col`` count from 0, as the board does; the words count from 1."""

    row: int
    col: int
    head: str
    readings: tuple[Reading, ...]
    total: int | None = None  # the island's total as read
    total_if_second: int | None = None  # ... with the runner-up reading instead
    valid_if_second: bool | None = None  # whether the island keeps the water rule then
    not_possible: str = ""  # why the runner-up makes no possible board (then no total_if_second)

    @property
    def change(self) -> int | None:
        if self.total is None or self.total_if_second is None:
            return None
        return self.total_if_second - self.total

    @property
    def place(self) -> str:
        return f"Row {self.row + 1}, tile {self.col + 1}"

    @property
    def question(self) -> str:
        if self.head in WHOLE_TILE_QUESTIONS:
            return WHOLE_TILE_QUESTIONS[self.head]
        (first, _), (second, _) = self.readings[:2]
        return question(self.head, first, second)

    @property
    def outcome(self) -> str:
        """What the runner-up reading would do to the score, or why it cannot be."""
        if self.head in (LOOSE_TILE, OFF_GRID_TILE):
            second = "loose"
        elif self.head == SLANTED_TILE:
            second = "part of the island"
        elif self.head in WHOLE_TILE_QUESTIONS:
            return ""
        else:
            second = reading_words(self.head, self.readings[1][0])
        if self.not_possible:
            return f"if {second}: not possible ({self.not_possible})"
        change = self.change
        if change is None:
            return ""
        invalid = self.valid_if_second is False
        if change == 0:
            why = " (the island still breaks the water rule)" if invalid else ""
            return f"if {second}: no change to the score{why}"
        why = " (the island would break the water rule)" if invalid else ""
        return f"if {second}: {change:+d} point{'' if abs(change) == 1 else 's'}{why}"

    @property
    def text(self) -> str:
        """The whole check as one line (the report's ``flags`` and the CLI print this)."""
        odds = " / ".join(f"{p:.0%}" for _, p in self.readings)
        line = f"{self.place}: {self.question}" + (f" ({odds})" if odds else "")
        return line + (f" — {self.outcome}" if self.outcome else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row + 1,
            "tile": self.col + 1,
            "head": self.head,
            "question": self.question,
            "readings": [{"reading": label, "p": round(p, 2)} for label, p in self.readings],
            "total_if_second": self.total_if_second,
            "change": self.change,
            "valid_if_second": self.valid_if_second,
            "not_possible": self.not_possible or None,
            "text": self.text,
        }


# --- words --------------------------------------------------------------------------------------


def _count(label: str, one: str, many: str, none: str) -> str:
    return none if label == "0" else f"{label} {one if label == '1' else many}"


def reading_words(head: str, label: str) -> str:
    """A label as a player says it: "plains", "joined", "no animals", "a tile"."""
    if head == "present":
        return "a tile" if label == "tile" else "empty"
    if head == "face":
        return f"{label} side up"
    if head == "animals":
        return _count(label, "animal", "animals", "no animals")
    if head == "volcanoes":
        return _count(label, "volcano", "volcanoes", "no volcanoes")
    if head.startswith("join_"):
        return "joined" if label == "yes" else "separate"
    if head.startswith("patch_"):
        return _count(label, "patch", "patches", "none")
    return label  # an edge: its terrain


def question(head: str, first: str, second: str) -> str:
    """The question a check asks, the reading used first: "is the right edge forest or plains?"."""
    if head == "present":
        if first == "empty":
            return "is this space empty, or is there a tile?"
        return "is there a tile here, or is the space empty?"
    if head == "face":
        return f"is the tile {first} or {second} side up?"
    if head == BACK_TERRAIN:
        return f"is this tile's back (one terrain all over) {first} or {second}?"
    if head.startswith("edge_"):
        return f"is the {SIDE_WORDS[head[5:]]} edge {first} or {second}?"
    if head in ("animals", "volcanoes"):
        return f"does the tile show {reading_words(head, first)} or {reading_words(head, second)}?"
    if head.startswith("join_"):
        a, b = SIDE_WORDS[head[5]], SIDE_WORDS[head[6]]
        if first == "yes":
            return f"are the {a} and {b} edges one connected area, or separate?"
        return f"are the {a} and {b} edges separate, or one connected area?"
    if head.startswith("patch_"):
        words = {"0": "none"}
        return (
            f"how many {head[6:]} patches touch no edge: "
            f"{words.get(first, first)} or {words.get(second, second)}?"
        )
    return f"is the {head} {first} or {second}?"


# --- what if ------------------------------------------------------------------------------------


class NotPossible(Exception):
    """The runner-up reading of a head makes no possible tile; the message says why."""


def island_score(island: Island) -> tuple[int, bool]:
    """The island's total scored alone (as `scorecam score` scores one island), and its validity."""
    player = score_turn(single_island_turn("island", island)).players[0]
    return player.total, player.valid


def _partition(tile: Tile) -> set[frozenset[str]]:
    return {frozenset(area.sides) for area in tile.areas if area.sides}


def tile_with(tile: Tile, head: str, label: str) -> Tile:
    """``tile`` with one head read as ``label``, everything else as it was read.

    The sides' areas are rebuilt from the labels (the six joins say exactly which sides share an
    area); interior patches and counts are kept but for the head that changes.
    """
    if head == "face":
        component = tile.component and replace(tile.component, face=label)
        return replace(tile, component=component)
    if head in ("animals", "volcanoes"):
        return replace(tile, **{head: int(label)}, component=None)
    if head == BACK_TERRAIN:  # a back shows one terrain on every edge, all of them one area
        labels = {**tile_labels(tile), **{f"edge_{side}": label for side in SIDES}}
        return replace(tile_from_labels(tile.row, tile.col, labels), component=None)
    labels = {**tile_labels(tile), head: label}
    rebuilt = tile_from_labels(tile.row, tile.col, labels)
    if head.startswith("join_"):
        if label == "yes" and tile.edge(head[5]) != tile.edge(head[6]):
            raise NotPossible("they show different terrains")
        if _partition(rebuilt) == _partition(tile):
            raise NotPossible("they join through another edge of the tile")
    interior = tuple(area for area in tile.areas if not area.sides)
    if head.startswith("patch_"):
        terrain = head[6:]
        interior = tuple(a for a in interior if a.terrain != terrain) + (Area(terrain, ()),) * int(label)
    areas = tuple(area for area in rebuilt.areas if area.sides) + interior
    return replace(tile, edges=rebuilt.edges, areas=areas, component=None)


def island_if_second(island: Island, check: Check, new_tile: Tile | None = None) -> Island:
    """The island with the check's runner-up reading (NotPossible when there is none).

    ``new_tile``: what a cell read as empty would hold if it held a tile (the decoder's likeliest).
    """
    second = check.readings[1][0]
    others = tuple(t for t in island.tiles if t.cell != (check.row, check.col))
    tile = island.tile_at(check.row, check.col)
    if check.head == "present":
        if second == "empty":
            return Island(island.grid, others)
        if new_tile is None:
            raise NotPossible("no tile reading for this space")
        changed = replace(new_tile, row=check.row, col=check.col)
    elif tile is None:
        raise NotPossible("the space is read as empty")
    else:
        changed = tile_with(tile, check.head, second)
    try:
        return Island(island.grid, tuple(sorted((*others, changed), key=lambda t: t.cell)))
    except BoardFormatError as error:
        raise NotPossible(str(error)) from None


def settle(
    island: Island, checks: Sequence[Check], new_tiles: Mapping[tuple[int, int], Tile] | None = None
) -> tuple[Check, ...]:
    """The checks with the island's total as read and with each runner-up reading."""
    if not checks:
        return ()
    total, _ = island_score(island)
    settled = []
    for check in checks:
        if check.head in (LOOSE_TILE, OFF_GRID_TILE):  # the island without that tile
            alone = Island(island.grid, tuple(t for t in island.tiles if t.cell != (check.row, check.col)))
            total_if_loose, valid = island_score(alone)
            settled.append(replace(check, total=total, total_if_second=total_if_loose, valid_if_second=valid))
            continue
        if check.head == SLANTED_TILE and (check.row, check.col) in (new_tiles or {}):  # with that tile
            tile = (new_tiles or {})[(check.row, check.col)]
            others = tuple(t for t in island.tiles if t.cell != tile.cell)
            total_if_kept, valid = island_score(
                Island(island.grid, tuple(sorted((*others, tile), key=lambda t: t.cell)))
            )
            settled.append(replace(check, total=total, total_if_second=total_if_kept, valid_if_second=valid))
            continue
        if check.head in WHOLE_TILE_QUESTIONS or len(check.readings) < 2:
            settled.append(replace(check, total=total))
            continue
        try:
            other = island_if_second(island, check, (new_tiles or {}).get((check.row, check.col)))
        except NotPossible as why:
            settled.append(replace(check, total=total, not_possible=str(why)))
            continue
        total_if_second, valid = island_score(other)
        settled.append(replace(check, total=total, total_if_second=total_if_second, valid_if_second=valid))
    return tuple(settled)


def with_checks(reading: IslandReading, checks: Sequence[Check]) -> IslandReading:
    """`reading` with `checks` (settled) after its own, and their words after its flags."""
    return replace(
        reading, checks=reading.checks + tuple(checks), flags=reading.flags + tuple(c.text for c in checks)
    )

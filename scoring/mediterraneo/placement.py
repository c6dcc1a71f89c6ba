"""Cards on the table: faces, plays on the cell lattice, the placement rule, and what stays visible.

A card face is 3 rows x 2 columns in card coordinates (portrait, upright). A play turns it by a
multiple of 90 degrees clockwise and puts the top-left cell of the turned card at lattice (x, y):
0/180 lie vertically (2 wide, 3 tall), 90/270 horizontally (3 wide, 2 tall).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.mediterraneo.sea import (
    FORMAT,
    FRAMES,
    GAME,
    SPECIES,
    Cell,
    Objective,
    Sea,
    check_header,
    freeze_pairs,
    is_int,
    position,
)
from scoring.sides import SIDES, turned_clockwise

KINDS: tuple[str, ...] = ("sea", "seagull")
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
ROWS, COLUMNS = 3, 2
MAX_PER_CARD = 2
MAX_IN_ALL = 5
# The box holds 18 sea cards; checking a sequence costs the square of its length, so a file of
# thousands of plays is refused before it is replayed.
MAX_PLAYS = 100


def _offset(row: int, col: int, rotation: int) -> tuple[int, int]:
    """Where card cell (row, col) lands, relative to the turned card's top-left cell."""
    if rotation == 0:
        return col, row
    if rotation == 90:  # the top row becomes the right column
        return ROWS - 1 - row, col
    if rotation == 180:
        return COLUMNS - 1 - col, ROWS - 1 - row
    return row, COLUMNS - 1 - col  # 270: the top row becomes the left column


# Constant tables, computed once, so play_problem (called many times by the simulator) only adds.
_OFFSETS: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    rotation: tuple((row, col, *_offset(row, col, rotation)) for row in range(ROWS) for col in range(COLUMNS))
    for rotation in ROTATIONS
}


def _parse_face_cell(text: object, kind: str) -> tuple[str, str | None]:
    """Parse one printed cell: "fish" -> ("fish", None), "octopus:E" -> ("octopus", "E"); raise otherwise."""
    if not isinstance(text, str):
        raise BoardFormatError(f"a card cell is a string like 'fish' or 'octopus:E', got {shown(text)}")
    if kind == "seagull" and text != "seagull":
        raise BoardFormatError(f"{shown(text)} on a seagull face; a seagull face is all seagull cells")
    content, _, points = text.partition(":")
    if content == "octopus":
        if points not in SIDES:
            raise BoardFormatError(
                f"{shown(text)}: an octopus is written octopus:N, octopus:E, octopus:S or octopus:W"
            )
        return content, points
    if points or text.endswith(":"):
        raise BoardFormatError(f"{shown(text)}: only an octopus has a direction")
    if kind == "sea" and content not in SPECIES and content != "octopus":
        detail = "seagulls lie on seagull faces" if content == "seagull" else "unknown content"
        raise BoardFormatError(
            f"{shown(text)} on a sea face: {detail} (expected a species or octopus:N/E/S/W)"
        )
    return content, None


@dataclass(frozen=True)
class CardFace:
    """The face a card is played with: its id, its set (the frame of its animals), kind and 3 x 2 cells."""

    id: str
    set: str
    kind: str
    cells: tuple[tuple[str, ...], ...]
    parsed: tuple[tuple[tuple[str, str | None], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise BoardFormatError(f"a card id is a non-empty string, got {shown(self.id)}")
        if self.set not in FRAMES:
            raise BoardFormatError(
                f"card {self.id}: unknown set {shown(self.set)} (expected circle or square)"
            )
        if self.kind not in KINDS:
            raise BoardFormatError(
                f"card {self.id}: unknown kind {shown(self.kind)} (expected sea or seagull)"
            )
        rows = self.cells
        if (
            isinstance(rows, str | bytes)
            or not isinstance(rows, Sequence)
            or len(rows) != ROWS
            or any(
                isinstance(r, str | bytes) or not isinstance(r, Sequence) or len(r) != COLUMNS for r in rows
            )
        ):
            raise BoardFormatError(
                f"card {self.id}: cells must be {ROWS} rows of {COLUMNS}, got {shown(rows)}"
            )
        object.__setattr__(self, "cells", tuple(tuple(row) for row in rows))
        parsed = []
        for r, row in enumerate(self.cells):
            try:
                parsed.append(tuple(_parse_face_cell(text, self.kind) for text in row))
            except BoardFormatError as error:
                raise BoardFormatError(f"card {self.id} row {r}: {error}") from None
        object.__setattr__(self, "parsed", tuple(parsed))


def card_face_from_rows(card_id: str, card_set: str, kind: str, rows: Iterable[Iterable[str]]) -> CardFace:
    """A face from rows as printed, e.g. [["fish", "octopus:E"], ["ray", "turtle"], ["crab", "ray"]]."""
    return CardFace(card_id, card_set, kind, tuple(tuple(row) for row in rows))


@dataclass(frozen=True)
class Play:
    """One card put on the table: face, top-left lattice cell of the turned card, clockwise degrees."""

    card: CardFace
    x: int
    y: int
    rotation: int = 0

    def __post_init__(self) -> None:
        if not is_int(self.x) or not is_int(self.y):
            raise BoardFormatError(
                f"a play's x and y must be integers, got x={shown(self.x)}, y={shown(self.y)}"
            )
        if self.rotation not in ROTATIONS or not is_int(self.rotation):
            raise BoardFormatError(f"rotation must be 0, 90, 180 or 270 degrees, got {shown(self.rotation)}")

    def describe(self) -> str:
        return f"{self.card.id} at {position(self.x, self.y)} turned {self.rotation}"


def _footprint(play: Play) -> tuple[tuple[int, int], ...]:
    x, y = play.x, play.y
    return tuple((x + dx, y + dy) for _, _, dx, dy in _OFFSETS[play.rotation])


def play_cells(play: Play) -> tuple[Cell, ...]:
    """The lattice cells the play lays down, sorted by (y, x); octopus directions turn with the card."""
    card = play.card
    quarter_turns = play.rotation // 90
    frame = card.set if card.kind == "sea" else None
    cells = []
    for row, col, dx, dy in _OFFSETS[play.rotation]:
        content, points = card.parsed[row][col]
        turned = None if points is None else turned_clockwise(points, quarter_turns)
        cells.append(Cell(play.x + dx, play.y + dy, content, turned, frame))
    return tuple(sorted(cells, key=lambda c: (c.y, c.x)))


def _stack(plays: tuple[Play, ...]) -> dict[tuple[int, int], tuple[Cell, int]]:
    visible: dict[tuple[int, int], tuple[Cell, int]] = {}
    for index, play in enumerate(plays):
        for cell in play_cells(play):
            visible[(cell.x, cell.y)] = (cell, index)
    return visible


@dataclass(frozen=True)
class Table:
    """The plays so far, oldest first (newest on top), and per lattice cell the visible cell and its play.

    Building a Table does not check the placement rule; `place` and `check_plays` do.
    """

    plays: tuple[Play, ...] = ()
    visible: Mapping[tuple[int, int], tuple[Cell, int]] = field(init=False, repr=False, compare=False)
    card_ids: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plays", tuple(self.plays))
        object.__setattr__(self, "visible", MappingProxyType(_stack(self.plays)))
        object.__setattr__(self, "card_ids", frozenset(p.card.id for p in self.plays))


def play_problem(table: Table, play: Play) -> str:
    """Why `play` breaks the placement rule on `table` ("" when legal); the rule's name comes first.

    The first sea card is free. A later sea card overlaps a card on the table, covers at least one
    visible animal (species or octopus), at most 2 of each card and at most 5 in all. A seagull
    face only needs to cover at least one animal.
    """
    if play.card.id in table.card_ids:
        return f"card {play.card.id} is already on the table"
    if not table.plays and play.card.kind == "sea":
        return ""
    visible = table.visible
    overlaps = False
    covered: dict[int, int] = {}
    for pos in _footprint(play):
        hit = visible.get(pos)
        if hit is None:
            continue
        overlaps = True
        if hit[0].content != "seagull":
            covered[hit[1]] = covered.get(hit[1], 0) + 1
    total = sum(covered.values())
    if play.card.kind == "seagull":
        return "" if total else "covers no animal: a seagull side must cover at least 1 visible animal"
    if not overlaps:
        return "overlaps nothing: a sea card after the first must lie over at least one card on the table"
    if not total:
        return "covers no animal: a sea card after the first must cover at least 1 visible animal"
    too_many = [table.plays[i].card.id for i in sorted(covered) if covered[i] > MAX_PER_CARD]
    if too_many:
        counts = ", ".join(f"{covered[i]} of {table.plays[i].card.id}" for i in sorted(covered))
        return (
            f"covers three of one card ({', '.join(too_many)}): it covers {counts}; "
            f"at most {MAX_PER_CARD} animals of each card"
        )
    if total > MAX_IN_ALL:
        return f"covers six in all: {total} visible animals; at most {MAX_IN_ALL}"
    return ""


def place(table: Table, play: Play) -> Table:
    """The table with `play` on top; raise BoardFormatError when it breaks the placement rule."""
    problem = play_problem(table, play)
    if problem:
        raise BoardFormatError(problem)
    return Table((*table.plays, play))


def check_plays(plays: Iterable[Play]) -> Table:
    """Replay a sequence of plays; raise naming the first illegal one (counted from 1)."""
    table = Table()
    for number, play in enumerate(plays, start=1):
        problem = play_problem(table, play)
        if problem:
            raise BoardFormatError(f"play {number} ({play.describe()}): {problem}")
        table = Table((*table.plays, play))
    return table


def visible_sea(
    table: Table,
    objectives: Mapping[str, Objective] | Iterable[tuple[str, Objective]],
    first: str,
    hands: Mapping[str, int] | Iterable[tuple[str, int]] | None = None,
    next: str | None = None,
) -> Sea:
    """The sea seen from above (cells sorted by (y, x)), ready to score."""
    cells = tuple(cell for cell, _ in sorted(table.visible.values(), key=lambda hit: (hit[0].y, hit[0].x)))
    return Sea(cells, freeze_pairs(objectives), first, None if hands is None else freeze_pairs(hands), next)


def _card_from_json(data: object, where: str) -> CardFace:
    check_keys(data, where, ("id", "set", "kind", "cells"))
    assert isinstance(data, Mapping)
    return CardFace(data["id"], data["set"], data["kind"], data["cells"])


def _play_from_json(data: object, number: int) -> Play:
    where = f"play {number}"
    check_keys(data, where, ("card", "x", "y", "rotation"))
    assert isinstance(data, Mapping)
    try:
        return Play(_card_from_json(data["card"], "card"), data["x"], data["y"], data["rotation"])
    except BoardFormatError as error:
        raise BoardFormatError(f"{where}: {error}") from None


def plays_from_json(data: object) -> tuple[Play, ...]:
    """Read a play sequence (format only; `check_plays` checks the placement rule)."""
    check_header(data, "play sequence")
    check_keys(data, "play sequence", ("format", "game", "plays"))
    assert isinstance(data, Mapping)
    if not isinstance(data["plays"], list):
        raise BoardFormatError(f'"plays" must be a list, got {type(data["plays"]).__name__}')
    if len(data["plays"]) > MAX_PLAYS:
        raise BoardFormatError(f"{len(data['plays']):,} plays; a play sequence has at most {MAX_PLAYS} plays")
    return tuple(_play_from_json(play, number) for number, play in enumerate(data["plays"], start=1))


def plays_to_json(plays: Iterable[Play]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME,
        "plays": [
            {
                "card": {
                    "id": p.card.id,
                    "set": p.card.set,
                    "kind": p.card.kind,
                    "cells": [list(r) for r in p.card.cells],
                },
                "x": p.x,
                "y": p.y,
                "rotation": p.rotation,
            }
            for p in plays
        ],
    }

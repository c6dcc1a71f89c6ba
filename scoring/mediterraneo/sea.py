"""The Mediterráneo sea as the engines see it: visible cells, objectives, round state; JSON in and out.

Every value checks itself on construction and raises :class:`BoardFormatError`, so a sea typed by
hand, read from a photo or built in code is held to the same format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.sides import SIDES

GAME = "mediterraneo"
FORMAT = 1
SPECIES: tuple[str, ...] = ("fish", "ray", "turtle", "starfish", "jellyfish", "crab")
CONTENTS: tuple[str, ...] = (*SPECIES, "octopus", "seagull")
# A cell's frame is the card set its animals are drawn in; seagull cells usually have none.
FRAMES: tuple[str, ...] = ("circle", "square")
MAX_CELLS = 1000  # 18 cards of 6 cells make a sea of at most 108 visible cells


def _or_list(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def is_int(value: object) -> bool:
    """A JSON integer; bools are ints to Python but never coordinates."""
    return type(value) is int


def position(x: int, y: int) -> str:
    return f"({x}, {y})"


def check_header(data: object, what: str) -> None:
    """Check "format" and "game" first, so a Mondo board is named as such and not as unknown keys."""
    if not isinstance(data, Mapping):
        raise BoardFormatError(f"a Mediterráneo {what} must be a JSON object, got {type(data).__name__}")
    if "format" not in data:
        raise BoardFormatError(f'missing "format" (expected {FORMAT})')
    if not is_int(data["format"]) or data["format"] != FORMAT:
        raise BoardFormatError(f'unsupported "format" {shown(data["format"])} (expected {FORMAT})')
    if "game" not in data:
        raise BoardFormatError(f'missing "game" (expected "{GAME}")')
    if data["game"] != GAME:
        raise BoardFormatError(f'"game" is {shown(data["game"])}, not "{GAME}"')


def freeze_pairs(value: Any) -> tuple[tuple[Any, Any], ...]:
    """A mapping or a sequence of pairs as a tuple of pairs (frozen dataclasses hold no dicts)."""
    items = value.items() if isinstance(value, Mapping) else value
    return tuple((k, v) for k, v in items)


def cell_problem(content: object, points: object, frame: object) -> str:
    """What is wrong with a cell's content, points or frame ("" when nothing): shared by code and JSON."""
    if content not in CONTENTS:
        return f"unknown content {shown(content)} (expected {_or_list(CONTENTS)})"
    if content == "octopus" and points not in SIDES:
        return f"an octopus needs points {_or_list(SIDES)}, got {shown(points)}"
    if content != "octopus" and points is not None:
        return f"only an octopus points, but a {content} has points {shown(points)}"
    if frame is not None and frame not in FRAMES:
        return f"unknown frame {shown(frame)} (expected {_or_list(FRAMES)} or none)"
    return ""


@dataclass(frozen=True)
class Cell:
    """One visible lattice cell: a species, an octopus pointing N/E/S/W, or a seagull."""

    x: int
    y: int
    content: str
    points: str | None = None
    frame: str | None = None

    def __post_init__(self) -> None:
        if not is_int(self.x) or not is_int(self.y):
            raise BoardFormatError(
                f"cell coordinates must be integers, got x={shown(self.x)}, y={shown(self.y)}"
            )
        problem = cell_problem(self.content, self.points, self.frame)
        if problem:
            raise BoardFormatError(f"cell {position(self.x, self.y)}: {problem}")

    @property
    def is_animal(self) -> bool:
        """Species and octopuses are animals (they can be covered and counted); seagulls are not."""
        return self.content != "seagull"


@dataclass(frozen=True)
class Objective:
    """An objective side: +2 per visible `plus` animal, -1 per visible `minus` animal."""

    plus: str
    minus: str

    def __post_init__(self) -> None:
        for role in ("plus", "minus"):
            value = getattr(self, role)
            if value not in SPECIES:
                raise BoardFormatError(
                    f"{role} {shown(value)} is not a species (expected {_or_list(SPECIES)})"
                )
        if self.plus == self.minus:
            raise BoardFormatError(f"plus and minus are both {self.plus}; an objective names two species")


@dataclass(frozen=True)
class Sea:
    """The visible sea of one moment of a round, with both objectives and optionally the round state.

    `objectives` (player -> Objective, in the order given) and `hands` (player -> cards left)
    accept a mapping and are frozen into tuples of pairs. `first` chose an objective first;
    `next` plays the next turn. Round end by cards is only known when `hands` and `next` are given.
    """

    cells: tuple[Cell, ...]
    objectives: tuple[tuple[str, Objective], ...]
    first: str
    hands: tuple[tuple[str, int], ...] | None = None
    next: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(self.cells))
        object.__setattr__(self, "objectives", freeze_pairs(self.objectives))
        if self.hands is not None:
            object.__setattr__(self, "hands", freeze_pairs(self.hands))
        seen: set[tuple[int, int]] = set()
        for cell in self.cells:
            if not isinstance(cell, Cell):
                raise BoardFormatError(f"a sea holds Cell values, got {type(cell).__name__}")
            if (cell.x, cell.y) in seen:
                raise BoardFormatError(f"two cells at {position(cell.x, cell.y)}")
            seen.add((cell.x, cell.y))
        players = self.players
        if len(players) != 2 or not all(isinstance(p, str) for p in players) or len(set(players)) != 2:
            raise BoardFormatError(
                f"objectives name {len(players)} players ({', '.join(map(str, players))}); "
                "a sea has exactly two"
            )
        for player, objective in self.objectives:
            if not isinstance(player, str) or not player:
                raise BoardFormatError(f"player names must be non-empty strings, got {shown(player)}")
            if not isinstance(objective, Objective):
                raise BoardFormatError(
                    f"objective of {player} must be an Objective, got {type(objective).__name__}"
                )
        if self.first not in players:
            raise BoardFormatError(
                f"first {shown(self.first)} is not one of the objective players ({', '.join(players)})"
            )
        if self.hands is not None:
            named = [p for p, _ in self.hands]
            if sorted(named) != sorted(players):
                raise BoardFormatError(
                    f"hands name {', '.join(map(str, named)) or 'nobody'}; expected {' and '.join(players)}"
                )
            for player, left in self.hands:
                if not is_int(left) or left < 0:
                    raise BoardFormatError(
                        f"hands: {player} has {shown(left)} cards; expected a whole number >= 0"
                    )
        if self.next is not None and self.next not in players:
            raise BoardFormatError(
                f"next {shown(self.next)} is not one of the objective players ({', '.join(players)})"
            )

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in the order the objectives were given."""
        return tuple(p for p, _ in self.objectives)

    @property
    def second(self) -> str:
        """The player who chose an objective after `first`."""
        return next(p for p in self.players if p != self.first)

    def objective(self, player: str) -> Objective:
        return dict(self.objectives)[player]

    def cards_left(self, player: str) -> int | None:
        """Cards left in `player`'s hand, or None when the sea does not say."""
        return None if self.hands is None else dict(self.hands)[player]


def _cell_from_json(data: object, index: int) -> Cell:
    where = f"cell {index}"
    check_keys(data, where, ("x", "y", "content"), ("points", "frame"))
    assert isinstance(data, Mapping)
    x, y = data["x"], data["y"]
    if not is_int(x) or not is_int(y):
        raise BoardFormatError(f"{where}: coordinates must be integers, got x={shown(x)}, y={shown(y)}")
    content, points, frame = data["content"], data.get("points"), data.get("frame")
    problem = cell_problem(content, points, frame)
    if problem:
        raise BoardFormatError(f"{where} at {position(x, y)}: {problem}")
    return Cell(x, y, content, points, frame)


def _objective_from_json(data: object, player: str) -> Objective:
    where = f"objective of {player}"
    check_keys(data, where, ("plus", "minus"))
    assert isinstance(data, Mapping)
    try:
        return Objective(data["plus"], data["minus"])
    except BoardFormatError as error:
        raise BoardFormatError(f"{where}: {error}") from None


def sea_from_json(data: object) -> Sea:
    """Read a sea in the DESIGN.md board format; raise BoardFormatError naming the first problem."""
    check_header(data, "sea")
    check_keys(data, "sea", ("format", "game", "cells", "objectives", "first"), ("hands", "next"))
    assert isinstance(data, Mapping)
    if not isinstance(data["cells"], list):
        raise BoardFormatError(f'"cells" must be a list, got {type(data["cells"]).__name__}')
    if len(data["cells"]) > MAX_CELLS:
        raise BoardFormatError(f"{len(data['cells']):,} cells; a sea has at most {MAX_CELLS} visible cells")
    cells = tuple(_cell_from_json(cell, i) for i, cell in enumerate(data["cells"]))
    objectives = data["objectives"]
    if not isinstance(objectives, Mapping):
        raise BoardFormatError(
            f'"objectives" must be an object of player: objective, got {type(objectives).__name__}'
        )
    frozen = tuple((str(p), _objective_from_json(o, str(p))) for p, o in objectives.items())
    hands = data.get("hands")
    if hands is not None and not isinstance(hands, Mapping):
        raise BoardFormatError(f'"hands" must be an object of player: cards left, got {type(hands).__name__}')
    return Sea(cells, frozen, data["first"], None if hands is None else freeze_pairs(hands), data.get("next"))


def cell_to_json(cell: Cell) -> dict[str, Any]:
    out: dict[str, Any] = {"x": cell.x, "y": cell.y, "content": cell.content}
    if cell.points is not None:
        out["points"] = cell.points
    if cell.frame is not None:
        out["frame"] = cell.frame
    return out


def sea_to_json(sea: Sea) -> dict[str, Any]:
    """The board format; optional keys only when set, so canonical JSON round-trips exactly."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME,
        "cells": [cell_to_json(cell) for cell in sea.cells],
        "objectives": {p: {"plus": o.plus, "minus": o.minus} for p, o in sea.objectives},
        "first": sea.first,
    }
    if sea.hands is not None:
        out["hands"] = dict(sea.hands)
    if sea.next is not None:
        out["next"] = sea.next
    return out

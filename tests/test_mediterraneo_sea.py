"""The Mediterráneo sea model and its JSON format (DESIGN.md "Board formats")."""

import json
from pathlib import Path

import pytest
from json_edits import DELETE, edited

from scoring.errors import BoardFormatError
from scoring.mediterraneo import SPECIES, Cell, Objective, Sea, sea_from_json, sea_to_json

BOARDS = Path(__file__).parents[1] / "samples/boards"


def small_sea() -> dict:
    """The DESIGN.md example sea (canonical: optional keys only where set)."""
    return {
        "format": 1,
        "game": "mediterraneo",
        "cells": [
            {"x": 0, "y": 0, "content": "fish", "frame": "circle"},
            {"x": 1, "y": 0, "content": "octopus", "points": "E", "frame": "square"},
            {"x": 2, "y": 0, "content": "seagull"},
        ],
        "objectives": {
            "circle": {"plus": "ray", "minus": "fish"},
            "square": {"plus": "turtle", "minus": "ray"},
        },
        "first": "circle",
    }


def test_species_are_the_six_of_the_game():
    assert SPECIES == ("fish", "ray", "turtle", "starfish", "jellyfish", "crab")


def test_read_design_example():
    sea = sea_from_json(small_sea())
    assert sea.cells == (
        Cell(0, 0, "fish", frame="circle"),
        Cell(1, 0, "octopus", points="E", frame="square"),
        Cell(2, 0, "seagull"),
    )
    assert sea.objectives == (("circle", Objective("ray", "fish")), ("square", Objective("turtle", "ray")))
    assert sea.players == ("circle", "square")
    assert sea.first == "circle"
    assert sea.second == "square"
    assert sea.hands is None and sea.next is None
    assert sea.cards_left("circle") is None


@pytest.mark.parametrize("name", ["mediterraneo-octopus-example.json", "mediterraneo-round-over.json", None])
def test_round_trip_is_exact(name):
    data = small_sea() if name is None else json.loads((BOARDS / name).read_text())
    assert sea_to_json(sea_from_json(data)) == data


def test_round_trip_with_round_state():
    data = small_sea() | {"hands": {"circle": 3, "square": 0}, "next": "square"}
    sea = sea_from_json(data)
    assert sea.hands == (("circle", 3), ("square", 0))
    assert sea.cards_left("square") == 0
    assert sea.next == "square"
    assert sea_to_json(sea) == data


def test_sea_freezes_mappings_and_is_hashable():
    sea = Sea(
        [Cell(0, 0, "ray")],
        {"square": Objective("turtle", "ray"), "circle": Objective("ray", "fish")},
        "square",
        hands={"square": 1, "circle": 2},
    )
    assert isinstance(sea.cells, tuple)
    assert sea.objectives == (("square", Objective("turtle", "ray")), ("circle", Objective("ray", "fish")))
    assert sea.hands == (("square", 1), ("circle", 2))
    assert sea.second == "circle"
    assert hash(sea) == hash(Sea((Cell(0, 0, "ray"),), sea.objectives, "square", sea.hands))
    # Objectives keep the order given, which is what the JSON writes back.
    assert list(sea_to_json(sea)["objectives"]) == ["square", "circle"]


def test_cell_is_animal():
    assert Cell(0, 0, "crab").is_animal
    assert Cell(0, 0, "octopus", "N").is_animal
    assert not Cell(0, 0, "seagull").is_animal


def _with(path: tuple, value) -> dict:
    """small_sea() with the value at `path` replaced (or deleted when value is DELETE)."""
    return edited(small_sea(), path, value)


FORMAT_ERRORS = [
    ("format 2", _with(("format",), 2), 'unsupported "format" 2'),
    ("format missing", _with(("format",), DELETE), 'missing "format"'),
    ("format as string", _with(("format",), "1"), "unsupported \"format\" '1'"),
    ("game mondo", _with(("game",), "mondo"), "'mondo', not \"mediterraneo\""),
    ("game missing", _with(("game",), DELETE), 'missing "game"'),
    ("not an object", [], "must be a JSON object"),
    ("cells missing", _with(("cells",), DELETE), "missing key 'cells'"),
    ("cells not a list", _with(("cells",), {}), '"cells" must be a list'),
    ("unknown content", _with(("cells", 0, "content"), "whale"), "cell 0 at (0, 0): unknown content 'whale'"),
    (
        "octopus without points",
        _with(("cells", 1, "points"), DELETE),
        "cell 1 at (1, 0): an octopus needs points",
    ),
    (
        "octopus bad points",
        _with(("cells", 1, "points"), "NE"),
        "an octopus needs points N, E, S or W, got 'NE'",
    ),
    (
        "fish with points",
        _with(("cells", 0, "points"), "E"),
        "cell 0 at (0, 0): only an octopus points, but a fish",
    ),
    ("seagull with points", _with(("cells", 2, "points"), "S"), "only an octopus points, but a seagull"),
    ("x float", _with(("cells", 0, "x"), 1.5), "cell 0: coordinates must be integers, got x=1.5"),
    ("y string", _with(("cells", 0, "y"), "0"), "cell 0: coordinates must be integers, got x=0, y='0'"),
    ("x bool", _with(("cells", 0, "x"), True), "coordinates must be integers, got x=True"),
    ("two cells at one place", _with(("cells", 2, "x"), 1), "two cells at (1, 0)"),
    ("unknown frame", _with(("cells", 0, "frame"), "triangle"), "cell 0 at (0, 0): unknown frame 'triangle'"),
    ("cell unknown key", _with(("cells", 0, "colour"), "blue"), "cell 0: unknown key 'colour'"),
    ("cell missing key", _with(("cells", 0, "content"), DELETE), "cell 0: missing key 'content'"),
    (
        "objective unknown species",
        _with(("objectives", "circle", "plus"), "whale"),
        "objective of circle: plus 'whale' is not a species",
    ),
    (
        "objective minus unknown",
        _with(("objectives", "square", "minus"), "octopus"),
        "objective of square: minus 'octopus' is not a species",
    ),
    (
        "objective plus == minus",
        _with(("objectives", "circle", "minus"), "ray"),
        "objective of circle: plus and minus are both ray",
    ),
    (
        "objective unknown key",
        _with(("objectives", "circle", "bonus"), 3),
        "objective of circle: unknown key 'bonus'",
    ),
    (
        "objective missing minus",
        _with(("objectives", "circle", "minus"), DELETE),
        "objective of circle: missing key 'minus'",
    ),
    ("objectives not an object", _with(("objectives",), []), '"objectives" must be an object'),
    (
        "first not a player",
        _with(("first",), "triangle"),
        "first 'triangle' is not one of the objective players",
    ),
    ("first missing", _with(("first",), DELETE), "missing key 'first'"),
    (
        "one player",
        _with(("objectives", "square"), DELETE),
        "objectives name 1 players (circle); a sea has exactly two",
    ),
    (
        "three players",
        _with(("objectives", "triangle"), {"plus": "crab", "minus": "fish"}),
        "objectives name 3 players (circle, square, triangle)",
    ),
    ("unknown top-level keys", _with(("turn",), 3) | {"score": 1}, "sea: unknown keys 'turn', 'score'"),
    (
        "hands for a stranger",
        _with(("hands",), {"circle": 1, "triangle": 2}),
        "hands name circle, triangle; expected circle and square",
    ),
    ("hands negative", _with(("hands",), {"circle": 1, "square": -1}), "hands: square has -1 cards"),
    ("hands not an object", _with(("hands",), 3), '"hands" must be an object'),
    (
        "next not a player",
        _with(("next",), "triangle"),
        "next 'triangle' is not one of the objective players",
    ),
]


@pytest.mark.parametrize("data, message", [c[1:] for c in FORMAT_ERRORS], ids=[c[0] for c in FORMAT_ERRORS])
def test_format_errors_name_the_problem(data, message):
    with pytest.raises(BoardFormatError) as caught:
        sea_from_json(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Cell(0, 0, "whale"), "cell (0, 0): unknown content 'whale'"),
        (lambda: Cell(0, 0, "octopus"), "cell (0, 0): an octopus needs points"),
        (lambda: Cell(0, 0, "ray", points="E"), "only an octopus points"),
        (lambda: Cell(0.5, 0, "ray"), "cell coordinates must be integers"),
        (lambda: Cell(0, 0, "ray", frame="hexagon"), "unknown frame 'hexagon'"),
        (lambda: Objective("ray", "ray"), "plus and minus are both ray"),
        (lambda: Objective("whale", "ray"), "plus 'whale' is not a species"),
        (
            lambda: Sea(
                (Cell(0, 0, "ray"), Cell(0, 0, "fish")),
                {"a": Objective("ray", "fish"), "b": Objective("fish", "ray")},
                "a",
            ),
            "two cells at (0, 0)",
        ),
        (lambda: Sea((), {"a": Objective("ray", "fish")}, "a"), "objectives name 1 players"),
        (lambda: Sea((), {"a": Objective("ray", "fish"), "b": Objective("crab", "ray")}, "c"), "first 'c'"),
    ],
)
def test_values_built_in_code_are_checked_too(build, message):
    with pytest.raises(BoardFormatError, match=None) as caught:
        build()
    assert message in str(caught.value)

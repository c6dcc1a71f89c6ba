"""Every Mondo format check names the problem; the JSON round-trips."""

import copy
import json

import pytest

from scoring.errors import BoardFormatError
from scoring.mondo import (
    game_from_json,
    game_to_json,
    island_from_json,
    island_to_json,
    turn_from_json,
    turn_to_json,
)


def good_island() -> dict:
    return {
        "format": 1,
        "game": "mondo",
        "grid": 3,
        "tiles": [
            {
                "row": 0,
                "col": 0,
                "edges": {"N": "water", "E": "forest", "S": "forest", "W": "water"},
                "areas": [
                    {"terrain": "water", "sides": ["N", "W"]},
                    {"terrain": "forest", "sides": ["E", "S"]},
                    {"terrain": "desert", "sides": []},
                ],
                "animals": 1,
                "volcanoes": 0,
            }
        ],
    }


def broken(change) -> dict:
    data = copy.deepcopy(good_island())
    change(data)
    return data


def tile0(data):
    return data["tiles"][0]


CASES = [
    ("format 2", lambda d: d.update(format=2), "'format' must be 1"),
    ("another game", lambda d: d.update(game="chess"), "'game' must be 'mondo'"),
    ("grid 5", lambda d: d.update(grid=5), "grid must be one of 3, 4"),
    ("unknown key", lambda d: d.update(colour="red"), "unknown key 'colour'"),
    ("no tiles", lambda d: d.pop("tiles"), "lacks 'tiles'"),
    (
        "unknown edge terrain",
        lambda d: tile0(d)["edges"].update(E="lava"),
        "edge E has unknown terrain 'lava'",
    ),
    ("missing edge", lambda d: tile0(d)["edges"].pop("S"), "edges lacks 'S'"),
    (
        "unknown area terrain",
        lambda d: tile0(d)["areas"][2].update(terrain="swamp"),
        "an area has unknown terrain 'swamp'",
    ),
    ("unknown side", lambda d: tile0(d)["areas"][2].update(sides=["X"]), "unknown side 'X'"),
    (
        "side reached by two areas",
        lambda d: tile0(d)["areas"].append({"terrain": "forest", "sides": ["E"]}),
        "side E is reached by 2 areas (forest, forest)",
    ),
    (
        "side reached by none",
        lambda d: tile0(d)["areas"][1].update(sides=["E"]),
        "side S is reached by no area",
    ),
    (
        "area terrain differs from its edge",
        lambda d: tile0(d)["areas"][1].update(terrain="plains"),
        "the area reaching side E is plains but edge E is forest",
    ),
    ("tile outside the grid", lambda d: tile0(d).update(row=3), "tile (3, 0) lies outside the 3x3 grid"),
    (
        "two tiles in one cell",
        lambda d: d["tiles"].append(copy.deepcopy(d["tiles"][0])),
        "two tiles in one cell",
    ),
    ("negative animals", lambda d: tile0(d).update(animals=-1), "animals must be a whole number 0 or more"),
    ("fractional volcanoes", lambda d: tile0(d).update(volcanoes=1.5), "volcanoes must be a whole number"),
    ("row not a number", lambda d: tile0(d).update(row="a"), "row must be a whole number"),
    ("tile not an object", lambda d: d["tiles"].append(7), "tile #2 must be a JSON object"),
    ("unknown tile key", lambda d: tile0(d).update(colour=1), "unknown key 'colour'"),
    (
        "bad face",
        lambda d: tile0(d).update(component={"id": "T1", "face": "side"}),
        "face must be front or back",
    ),
    (
        "bad rotation",
        lambda d: tile0(d).update(component={"id": "T1", "face": "front", "rotation": 45}),
        "rotation must be 0, 90, 180 or 270",
    ),
    ("bad confidence", lambda d: tile0(d).update(confidence=2), "confidence must be a probability"),
    ("repeated side", lambda d: tile0(d)["areas"][1].update(sides=["E", "E"]), "without repeats"),
]


@pytest.mark.parametrize("name,change,message", CASES, ids=[c[0] for c in CASES])
def test_each_format_check_names_the_problem(name, change, message):
    with pytest.raises(BoardFormatError) as error:
        island_from_json(broken(change))
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_island_round_trips():
    data = good_island()
    data["tiles"][0]["component"] = {"id": "T07", "face": "back", "rotation": 90}
    data["tiles"][0]["confidence"] = {"edges": 0.97, "animals": 0.99}
    assert island_to_json(island_from_json(data)) == data


def test_areas_default_to_one_per_side():
    data = good_island()
    del data["tiles"][0]["areas"]
    island = island_from_json(data)
    assert [a.sides for a in island.tiles[0].areas] == [("N",), ("E",), ("S",), ("W",)]


def test_turn_and_game_round_trip(root):
    turn_json = json.loads((root / "samples/boards/kathrin-peter-turn.json").read_text())
    turn = turn_from_json(turn_json)
    assert turn_from_json(turn_to_json(turn)) == turn
    game = {"format": 1, "game": "mondo", "turns": [{"players": turn_json["players"]}] * 3}
    round_tripped = game_to_json(game_from_json(game))
    assert round_tripped == game_to_json(game_from_json(round_tripped))
    assert [p["name"] for p in round_tripped["turns"][2]["players"]] == ["Kathrin", "Peter"]
    assert game_from_json(round_tripped).turns[0] == turn


TURN_CASES = [
    (
        "two first out",
        lambda t: [p.update(first_out=True) for p in t["players"]],
        "only one player can jump out first",
    ),
    ("same name twice", lambda t: t["players"][1].update(name="Kathrin"), "player 'Kathrin' appears twice"),
    ("no players", lambda t: t.update(players=[]), "at least one player"),
    (
        "first_out not bool",
        lambda t: t["players"][0].update(first_out="yes"),
        "first_out must be true or false",
    ),
    (
        "island problem names the player",
        lambda t: t["players"][1]["island"]["tiles"][0]["edges"].update(N="lava"),
        "Peter's island: tile (0, 0): edge N has unknown terrain 'lava'",
    ),
]


@pytest.mark.parametrize("name,change,message", TURN_CASES, ids=[c[0] for c in TURN_CASES])
def test_turn_checks_name_the_problem(root, name, change, message):
    data = json.loads((root / "samples/boards/kathrin-peter-turn.json").read_text())
    change(data)
    with pytest.raises(BoardFormatError) as error:
        turn_from_json(data)
    assert message in str(error.value)


def test_a_game_has_at_most_three_turns(root):
    turn = json.loads((root / "samples/boards/kathrin-peter-turn.json").read_text())
    with pytest.raises(BoardFormatError, match="a game has 1 to 3 turns, not 4"):
        game_from_json({"format": 1, "game": "mondo", "turns": [{"players": turn["players"]}] * 4})

"""The rulebook's worked example (Example 4): Kathrin 25, Peter 11, scored together as one turn."""

import json

import pytest

from scoring.mondo import score_turn, turn_from_json, turn_score_to_json


@pytest.fixture
def report(root):
    turn = turn_from_json(json.loads((root / "samples/boards/kathrin-peter-turn.json").read_text()))
    return {p["name"]: p for p in turn_score_to_json(score_turn(turn))["players"]}


def test_kathrin_matches_every_count_of_the_rulebook(report):
    k = report["Kathrin"]
    assert k["valid"] is True
    assert k["animals"] == 2
    assert k["scoring_landscapes"] == 11
    assert k["details"]["scoring_landscapes_by_terrain"] == {"forest": 4, "desert": 3, "plains": 4}
    assert k["volcanoes"] == 3 and k["details"]["volcano_majority"]["in_majority"] is True
    assert k["empty_spaces"] == 0 and k["misconnections"] == 0
    assert k["first_out"] is True
    assert k["points"] == {
        "animals": 2,
        "landscapes": 22,
        "volcanoes": -3,
        "empty_spaces": 0,
        "misconnections": 0,
        "first_out": 4,
    }
    assert k["total"] == 25


def test_peter_matches_every_count_of_the_rulebook(report):
    p = report["Peter"]
    assert p["valid"] is True
    assert p["animals"] == 4
    assert p["scoring_landscapes"] == 5
    assert p["details"]["scoring_landscapes_by_terrain"] == {"forest": 2, "desert": 1, "plains": 2}
    assert p["volcanoes"] < report["Kathrin"]["volcanoes"]
    assert p["details"]["volcano_majority"]["in_majority"] is False
    assert p["empty_spaces"] == 1 and p["misconnections"] == 2
    assert p["points"] == {
        "animals": 4,
        "landscapes": 10,
        "volcanoes": 0,
        "empty_spaces": -1,
        "misconnections": -2,
        "first_out": 0,
    }
    assert p["total"] == 11


def test_every_number_is_traceable_in_details(report):
    for player in report.values():
        d = player["details"]
        assert len([ls for ls in d["landscapes"] if ls["scores"]]) == player["scoring_landscapes"]
        assert len(d["misconnection_pairs"]) == player["misconnections"]
        assert len(d["empty_cells"]) == player["empty_spaces"]
        assert sum(t["animals"] for t in d["animal_tiles"]) == player["animals"]
        assert sum(t["volcanoes"] for t in d["volcano_tiles"]) == player["volcanoes"]
        assert sum(player["points"].values()) == d["sum_before_floor"]
        assert max(0, d["sum_before_floor"]) == player["total"]
        for ls in d["landscapes"]:
            assert ls["scores"] == (ls["why_not"] == "")


def test_peters_spoiled_landscapes_say_why(report):
    reasons = [ls["why_not"] for ls in report["Peter"]["details"]["landscapes"] if ls["terrain"] != "water"]
    assert sum("faces the empty space at (0, 2)" in r for r in reasons) == 2
    assert sum(r.startswith("misconnection") for r in reasons) == 4

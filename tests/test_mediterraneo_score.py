"""Scoring a Mediterráneo sea (DESIGN.md "Rules interpretations" / Mediterráneo; rulebook "Octopuses",
"Objective Phase", "Object of the Game")."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.mediterraneo import (
    SPECIES,
    Cell,
    Objective,
    OctopusResolution,
    Sea,
    objective_choice_problem,
    resolve_octopuses,
    score_sea,
    sea_from_json,
    sea_report_to_json,
    species_counts,
)

BOARDS = Path(__file__).parents[1] / "samples/boards"
CIRCLE = Objective("ray", "fish")
SQUARE = Objective("turtle", "ray")


def sea_of(*rows: str, objectives=None, first="circle", hands=None, next=None) -> Sea:
    """A sea from rows of words: a species, "seagull", "octopus:E", or "." for no cell."""
    cells = []
    for y, row in enumerate(rows):
        for x, word in enumerate(row.split()):
            if word == ".":
                continue
            content, _, points = word.partition(":")
            cells.append(Cell(x, y, content, points or None))
    objectives = objectives or {"circle": CIRCLE, "square": SQUARE}
    return Sea(tuple(cells), objectives, first, hands, next)


def resolved(sea: Sea) -> dict[tuple[int, int], str | None]:
    return {(o.x, o.y): o.becomes for o in resolve_octopuses(sea)}


# --- octopuses ---------------------------------------------------------------------------------


def test_rulebook_octopus_example_both_count_as_ray():
    # Octopus A (1, 0) points at a ray; octopus B (0, 0) points at A: both count as a ray.
    sea = sea_of("octopus:E octopus:E ray")
    assert resolve_octopuses(sea) == (
        OctopusResolution(0, 0, "ray", "touches an octopus at (1, 0) that became ray"),
        OctopusResolution(1, 0, "ray", "touches a ray at (2, 0)"),
    )
    assert species_counts(sea)["ray"] == 3


def test_octopus_pointing_north_and_south():
    sea = sea_of("crab . .", "octopus:N . octopus:S", ". . jellyfish")
    assert resolved(sea) == {(0, 1): "crab", (2, 1): "jellyfish"}


def test_two_octopuses_pointing_at_each_other_are_no_species():
    sea = sea_of("fish octopus:E octopus:W fish")
    assert resolve_octopuses(sea) == (
        OctopusResolution(1, 0, None, "two octopuses touch each other: (1, 0) and (2, 0)"),
        OctopusResolution(2, 0, None, "two octopuses touch each other: (2, 0) and (1, 0)"),
    )
    assert species_counts(sea) == {"fish": 2, "ray": 0, "turtle": 0, "starfish": 0, "jellyfish": 0, "crab": 0}


def test_no_odd_cycle_fits_on_the_lattice_and_even_cycles_are_no_species():
    # Every unit step flips the parity of x + y, so a loop of octopuses has even length: a 3-cycle
    # cannot lie on the table. Try every pointing of a 2 x 3 block of octopuses and collect the loops.
    positions = [(x, y) for y in range(3) for x in range(2)]
    loop_lengths = set()
    for code in range(4 ** len(positions)):
        cells = tuple(
            Cell(x, y, "octopus", "NESW"[(code >> (2 * i)) & 3]) for i, (x, y) in enumerate(positions)
        )
        for octopus in resolve_octopuses(Sea(cells, {"circle": CIRCLE, "square": SQUARE}, "circle")):
            assert octopus.becomes is None  # nothing but octopuses: nothing to become
            if octopus.why.startswith("two octopuses touch each other"):
                loop_lengths.add(2)
            elif octopus.why.startswith("part of a cycle"):
                loop_lengths.add(octopus.why.count("->"))
    assert loop_lengths == {2, 4, 6}


def test_four_cycle_is_no_species_and_order_of_why_starts_at_each_octopus():
    sea = sea_of("octopus:S octopus:W", "octopus:E octopus:N", "fish fish")
    result = {(o.x, o.y): o for o in resolve_octopuses(sea)}
    assert {p: o.becomes for p, o in result.items()} == {
        (0, 0): None,
        (1, 0): None,
        (0, 1): None,
        (1, 1): None,
    }
    assert (
        result[(1, 0)].why == "part of a cycle of octopuses: (1, 0) -> (0, 0) -> (0, 1) -> (1, 1) -> (1, 0)"
    )
    assert species_counts(sea)["fish"] == 2


def test_octopus_leading_into_a_pair_is_no_species():
    # Three octopuses in a row: the last two point at each other, the first leads into that dead end.
    sea = sea_of("octopus:E octopus:E octopus:W")
    assert resolve_octopuses(sea) == (
        OctopusResolution(0, 0, None, "touches an octopus at (1, 0) that is no species"),
        OctopusResolution(1, 0, None, "two octopuses touch each other: (1, 0) and (2, 0)"),
        OctopusResolution(2, 0, None, "two octopuses touch each other: (2, 0) and (1, 0)"),
    )


def test_chain_of_three_ending_on_a_fish():
    sea = sea_of("octopus:E octopus:E octopus:S", ". . fish")
    assert resolve_octopuses(sea) == (
        OctopusResolution(0, 0, "fish", "touches an octopus at (1, 0) that became fish"),
        OctopusResolution(1, 0, "fish", "touches an octopus at (2, 0) that became fish"),
        OctopusResolution(2, 0, "fish", "touches a fish at (2, 1)"),
    )
    assert species_counts(sea)["fish"] == 4


def test_octopus_touching_a_seagull_is_no_species():
    sea = sea_of("ray octopus:S", ". seagull")
    assert resolve_octopuses(sea) == (OctopusResolution(1, 0, None, "touches a seagull at (1, 1)"),)
    assert species_counts(sea) == {"fish": 0, "ray": 1, "turtle": 0, "starfish": 0, "jellyfish": 0, "crab": 0}


@pytest.mark.parametrize("points", ["N", "E", "S", "W"])
def test_octopus_at_the_edge_of_the_sea_touches_nothing(points):
    sea = sea_of(f"octopus:{points}")
    assert resolve_octopuses(sea) == (OctopusResolution(0, 0, None, "touches nothing"),)
    assert sum(species_counts(sea).values()) == 0


def test_octopus_pointing_into_a_hole_touches_nothing():
    sea = sea_of("octopus:E . fish")
    assert resolved(sea) == {(0, 0): None}


def test_octopus_touching_an_octopus_that_touches_a_seagull():
    sea = sea_of("octopus:E octopus:E seagull")
    assert resolve_octopuses(sea) == (
        OctopusResolution(0, 0, None, "touches an octopus at (1, 0) that is no species"),
        OctopusResolution(1, 0, None, "touches a seagull at (2, 0)"),
    )


def test_many_octopuses_into_one_resolved_octopus():
    # (1, 0) points S at (1, 1), which points S at the crab; (0, 1) and (2, 1) point at (1, 1) from the sides.
    sea = sea_of(". octopus:S .", "octopus:E octopus:S octopus:W", ". crab .")
    assert resolved(sea) == {(1, 0): "crab", (0, 1): "crab", (1, 1): "crab", (2, 1): "crab"}
    assert resolve_octopuses(sea)[0] == OctopusResolution(
        1, 0, "crab", "touches an octopus at (1, 1) that became crab"
    )
    assert species_counts(sea)["crab"] == 5


# --- order independence (property) -------------------------------------------------------------

CONTENT = st.sampled_from([*SPECIES, "seagull", "octopus", "octopus", "octopus", "octopus"])


@st.composite
def octopus_heavy_seas(draw):
    """Dense seas on a small grid, mostly octopuses, so chains, pairs and cycles are common."""
    width = draw(st.integers(1, 5))
    height = draw(st.integers(1, 5))
    cells = []
    for y in range(height):
        for x in range(width):
            content = draw(st.one_of(st.none(), CONTENT))
            if content is None:
                continue
            points = draw(st.sampled_from("NESW")) if content == "octopus" else None
            cells.append(Cell(x, y, content, points))
    return cells


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_resolution_does_not_depend_on_cell_order(data):
    cells = data.draw(octopus_heavy_seas())
    shuffled = data.draw(st.permutations(cells))
    a = Sea(tuple(cells), {"circle": CIRCLE, "square": SQUARE}, "circle")
    b = Sea(tuple(shuffled), {"circle": CIRCLE, "square": SQUARE}, "circle")
    assert resolve_octopuses(a) == resolve_octopuses(b)
    assert species_counts(a) == species_counts(b)
    assert sea_report_to_json(score_sea(a)) == sea_report_to_json(score_sea(b))
    # Every octopus is resolved exactly once, and a resolved one is backed by its target's species.
    octopuses = [c for c in cells if c.content == "octopus"]
    assert len(resolve_octopuses(a)) == len(octopuses)
    at = {(c.x, c.y): c for c in cells}
    became = resolved(a)
    for cell in octopuses:
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[cell.points]
        target = at.get((cell.x + dx, cell.y + dy))
        if target is None or target.content == "seagull":
            assert became[(cell.x, cell.y)] is None
        elif target.content == "octopus":
            assert became[(cell.x, cell.y)] == became[(target.x, target.y)]
        else:
            assert became[(cell.x, cell.y)] == target.content


# --- objective choice --------------------------------------------------------------------------


def test_rulebook_example_1_not_allowed():
    # The second player's +2 animal is the one that costs the first player a point: not allowed.
    problem = objective_choice_problem(Objective("ray", "fish"), Objective("fish", "turtle"))
    assert problem.startswith("the second player's plus (fish) is the first player's minus")


def test_rulebook_example_2_mirror_allowed():
    # Both objectives take points away from the opponent: allowed.
    assert objective_choice_problem(Objective("ray", "fish"), Objective("fish", "ray")) == ""


def test_rulebook_example_3_unrelated_allowed():
    assert objective_choice_problem(Objective("ray", "fish"), Objective("turtle", "crab")) == ""


def test_same_objective_twice_not_allowed():
    problem = objective_choice_problem(Objective("ray", "fish"), Objective("ray", "fish"))
    assert problem == "the second objective repeats the first (plus ray, minus fish)"


def test_same_plus_different_minus_is_allowed():
    # Only plus = first's minus is forbidden (DESIGN); sharing the plus species is a different objective.
    assert objective_choice_problem(Objective("ray", "fish"), Objective("ray", "crab")) == ""


def test_report_flags_illegal_objectives_but_still_scores():
    sea = sea_of(
        "fish fish ray", objectives={"circle": Objective("ray", "fish"), "square": Objective("fish", "crab")}
    )
    report = sea_report_to_json(score_sea(sea))
    assert report["objectives_legal"] is False
    assert report["objectives_why"].startswith("the second player's plus (fish)")
    assert [p["total"] for p in report["players"]] == [0, 4]


def test_objective_legality_follows_who_chose_first():
    objectives = {"circle": Objective("ray", "fish"), "square": Objective("fish", "crab")}
    # Square chose first: circle's plus (ray) is not square's minus (crab), so it is legal.
    assert score_sea(sea_of("ray", objectives=objectives, first="square")).objectives_legal is True
    assert score_sea(sea_of("ray", objectives=objectives, first="circle")).objectives_legal is False


# --- totals and round end ----------------------------------------------------------------------


def test_player_totals_on_a_hand_built_sea():
    # ray 3 (the octopus touches a ray), fish 2, turtle 1, starfish 1; the seagull counts for nobody.
    sea = sea_of("ray ray octopus:W fish", "fish turtle seagull starfish")
    report = score_sea(sea)
    assert report.species == (("fish", 2), ("ray", 3), ("turtle", 1), ("starfish", 1))
    circle, square = report.players
    assert (circle.name, circle.plus_points, circle.minus_points, circle.total) == ("circle", 6, -2, 4)
    assert (square.name, square.plus_points, square.minus_points, square.total) == ("square", 2, -3, -1)
    assert report.leader == "circle"
    assert (report.round_over, report.round_outcome, report.round_why) == (False, "in_play", "")


def test_report_json_has_the_design_shape():
    sea = sea_of("fish octopus:E ray")
    assert sea_report_to_json(score_sea(sea)) == {
        "format": 1,
        "game": "mediterraneo",
        "species": {"fish": 1, "ray": 2},
        "octopuses": [{"x": 1, "y": 0, "becomes": "ray", "why": "touches a ray at (2, 0)"}],
        "players": [
            {
                "name": "circle",
                "plus": "ray",
                "minus": "fish",
                "points": {"plus": 4, "minus": -1},
                "total": 3,
            },
            {
                "name": "square",
                "plus": "turtle",
                "minus": "ray",
                "points": {"plus": 0, "minus": -2},
                "total": -2,
            },
        ],
        "objectives_legal": True,
        "objectives_why": "",
        "round_over": False,
        "leader": "circle",
        "round_outcome": "in_play",
        "round_why": "",
    }


def test_first_player_is_listed_first():
    sea = sea_of("turtle", first="square")
    assert [p.name for p in score_sea(sea).players] == ["square", "circle"]


def test_nine_points_do_not_end_the_round_ten_do():
    nine = score_sea(sea_of("ray ray ray ray ray fish"))  # circle 10 - 1 = 9
    assert nine.players[0].total == 9
    assert (nine.round_over, nine.round_outcome, nine.leader) == (False, "in_play", "circle")
    ten = sea_of("ray ray ray ray ray")  # circle 10, square -5
    report = score_sea(ten)
    assert [p.total for p in report.players] == [10, -5]
    assert (report.round_over, report.round_outcome, report.leader) == (True, "won", "circle")
    assert report.round_why == "circle has 10 points"


def test_next_player_without_cards_ends_the_round():
    sea = sea_of("turtle ray", hands={"circle": 2, "square": 0}, next="square")
    report = score_sea(sea)
    assert [p.total for p in report.players] == [2, 1]
    assert (report.round_over, report.round_outcome, report.leader) == (True, "won", "circle")
    assert report.round_why == "square has no cards left"


def test_other_player_without_cards_does_not_end_the_round():
    sea = sea_of("turtle ray", hands={"circle": 0, "square": 4}, next="square")
    assert score_sea(sea).round_outcome == "in_play"


def test_tie_at_ten_with_cards_plays_on():
    objectives = {"circle": Objective("ray", "fish"), "square": Objective("turtle", "crab")}
    sea = sea_of(
        "ray ray ray ray ray",
        "turtle turtle turtle turtle turtle",
        objectives=objectives,
        hands={"circle": 3, "square": 2},
        next="circle",
    )
    report = score_sea(sea)
    assert [p.total for p in report.players] == [10, 10]
    assert report.leader is None
    assert (report.round_over, report.round_outcome) == (True, "tie_play_on")
    assert report.round_why == "circle has 10 points; square has 10 points"


def test_tie_without_cards_is_replayed():
    sea = sea_of("ray ray turtle turtle turtle", hands={"circle": 0, "square": 0}, next="circle")
    report = score_sea(sea)
    assert [p.total for p in report.players] == [4, 4]
    assert report.leader is None
    assert (report.round_over, report.round_outcome, report.round_why) == (
        True,
        "replay",
        "circle has no cards left",
    )
    assert sea_report_to_json(report)["leader"] is None


def test_tie_in_play_has_no_leader():
    tie = score_sea(sea_of("ray ray turtle turtle turtle"))
    assert [p.total for p in tie.players] == [4, 4]
    assert (tie.leader, tie.round_over, tie.round_outcome) == (None, False, "in_play")


def test_tie_at_ten_without_known_hands_plays_on():
    objectives = {"circle": Objective("ray", "fish"), "square": Objective("turtle", "crab")}
    sea = sea_of("ray ray ray ray ray turtle turtle turtle turtle turtle", objectives=objectives)
    assert score_sea(sea).round_outcome == "tie_play_on"


# --- random seas (property) --------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_totals_stay_within_the_cell_count(data):
    cells = data.draw(octopus_heavy_seas())
    plus, minus = data.draw(st.lists(st.sampled_from(SPECIES), min_size=2, max_size=2, unique=True))
    other_plus, other_minus = data.draw(
        st.lists(st.sampled_from(SPECIES), min_size=2, max_size=2, unique=True)
    )
    sea = Sea(
        tuple(cells),
        {"circle": Objective(plus, minus), "square": Objective(other_plus, other_minus)},
        "circle",
    )
    report = score_sea(sea)
    counts = species_counts(sea)
    animals = sum(1 for c in cells if c.content in SPECIES)
    assert animals <= sum(counts.values()) <= len(cells) - sum(1 for c in cells if c.content == "seagull")
    for player in report.players:
        assert -len(cells) <= player.total <= 2 * len(cells)
        objective = sea.objective(player.name)
        assert player.total == 2 * counts[objective.plus] - counts[objective.minus]


# --- fixtures ----------------------------------------------------------------------------------


def load(name: str) -> Sea:
    return sea_from_json(json.loads((BOARDS / name).read_text()))


def test_octopus_example_fixture_scores():
    report = sea_report_to_json(score_sea(load("mediterraneo-octopus-example.json")))
    assert report["species"] == {"fish": 2, "ray": 4, "turtle": 2, "starfish": 1, "jellyfish": 1}
    assert report["octopuses"] == [
        {"x": 1, "y": 0, "becomes": "ray", "why": "touches an octopus at (2, 0) that became ray"},
        {"x": 2, "y": 0, "becomes": "ray", "why": "touches a ray at (3, 0)"},
        {"x": 3, "y": 2, "becomes": None, "why": "touches nothing"},
    ]
    assert [(p["name"], p["points"], p["total"]) for p in report["players"]] == [
        ("circle", {"plus": 8, "minus": -2}, 6),
        ("square", {"plus": 4, "minus": -4}, 0),
    ]
    assert report["objectives_legal"] is True
    assert (report["round_over"], report["leader"], report["round_outcome"]) == (False, "circle", "in_play")


def test_round_over_fixture_scores():
    report = sea_report_to_json(score_sea(load("mediterraneo-round-over.json")))
    assert report["species"] == {"fish": 6, "ray": 1, "turtle": 2, "starfish": 1, "crab": 1}
    assert [(p["name"], p["total"]) for p in report["players"]] == [("circle", 11), ("square", -2)]
    assert report["round_over"] is True
    assert report["leader"] == "circle"
    assert report["round_outcome"] == "won"
    assert report["round_why"] == "circle has 11 points"

"""Cards on the lattice and the placement rule (DESIGN.md "Sea placement"; rulebook "Sea Phase", "Seagulls")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from json_edits import DELETE, edited

from scoring.errors import BoardFormatError
from scoring.mediterraneo import (
    SPECIES,
    Cell,
    Objective,
    Play,
    Table,
    card_face_from_rows,
    check_plays,
    place,
    play_cells,
    play_problem,
    plays_from_json,
    plays_to_json,
    score_sea,
    sea_from_json,
    sea_to_json,
    visible_sea,
)

ROWS = [["fish", "octopus:E"], ["ray", "turtle"], ["starfish", "jellyfish"]]
OBJECTIVES = {"circle": Objective("ray", "fish"), "square": Objective("turtle", "ray")}


def sea_card(card_id: str, rows=ROWS, card_set: str = "circle"):
    return card_face_from_rows(card_id, card_set, "sea", rows)


def seagull_card(card_id: str, card_set: str = "square"):
    return card_face_from_rows(card_id, card_set, "seagull", [["seagull"] * 2] * 3)


def grid(cells) -> list[str]:
    """Cells as rows of words (origin at the smallest x, y), octopuses as octopus:D."""
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    words = {(c.x, c.y): c.content + (f":{c.points}" if c.points else "") for c in cells}
    return [
        " ".join(words.get((x, y), ".") for x in range(min(xs), max(xs) + 1))
        for y in range(min(ys), max(ys) + 1)
    ]


# --- faces and rotation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rotation, expected",
    [
        (0, ["fish octopus:E", "ray turtle", "starfish jellyfish"]),
        (90, ["starfish ray fish", "jellyfish turtle octopus:S"]),
        (180, ["jellyfish starfish", "turtle ray", "octopus:W fish"]),
        (270, ["octopus:N turtle jellyfish", "fish ray starfish"]),
    ],
)
def test_play_cells_turn_the_card_and_its_octopus(rotation, expected):
    cells = play_cells(Play(sea_card("C1"), 5, -2, rotation))
    assert grid(cells) == expected
    assert (min(c.x for c in cells), min(c.y for c in cells)) == (5, -2)  # (x, y) is the top-left cell
    width, height = (2, 3) if rotation in (0, 180) else (3, 2)
    assert (max(c.x for c in cells) - 4, max(c.y for c in cells) + 3) == (width, height)
    assert {c.frame for c in cells} == {"circle"}


def test_octopus_east_on_a_card_turned_90_points_south():
    (octopus,) = [c for c in play_cells(Play(sea_card("C1"), 0, 0, 90)) if c.content == "octopus"]
    assert (octopus.x, octopus.y, octopus.points) == (2, 1, "S")


def test_seagull_cells_have_no_frame():
    cells = play_cells(Play(seagull_card("S9"), 0, 0, 0))
    assert len(cells) == 6
    assert all(c == Cell(c.x, c.y, "seagull") for c in cells)


@pytest.mark.parametrize(
    "card_id, card_set, kind, rows, message",
    [
        ("C1", "circle", "sea", [["fish", "ray"]], "cells must be 3 rows of 2"),
        ("C1", "circle", "sea", [["fish", "ray", "crab"]] * 3, "cells must be 3 rows of 2"),
        (
            "C1",
            "circle",
            "sea",
            [["fish", "octopus"], ["ray", "turtle"], ["crab", "crab"]],
            "octopus:N, octopus:E",
        ),
        (
            "C1",
            "circle",
            "sea",
            [["fish", "octopus:X"], ["ray", "turtle"], ["crab", "crab"]],
            "octopus:N, octopus:E",
        ),
        (
            "C1",
            "circle",
            "sea",
            [["fish:E", "ray"], ["ray", "turtle"], ["crab", "crab"]],
            "only an octopus has a",
        ),
        (
            "C1",
            "circle",
            "sea",
            [["whale", "ray"], ["ray", "turtle"], ["crab", "crab"]],
            "row 0: 'whale' on a sea face",
        ),
        (
            "C1",
            "circle",
            "sea",
            [["seagull", "ray"], ["ray", "turtle"], ["crab", "crab"]],
            "seagulls lie on seagull",
        ),
        (
            "C1",
            "circle",
            "seagull",
            [["seagull", "seagull"], ["seagull", "fish"], ["seagull"] * 2],
            "row 1: 'fish'",
        ),
        ("C1", "hexagon", "sea", ROWS, "unknown set 'hexagon'"),
        ("C1", "circle", "objective", ROWS, "unknown kind 'objective'"),
        ("", "circle", "sea", ROWS, "a card id is a non-empty string"),
    ],
)
def test_bad_card_faces_are_named(card_id, card_set, kind, rows, message):
    with pytest.raises(BoardFormatError) as caught:
        card_face_from_rows(card_id, card_set, kind, rows)
    assert message in str(caught.value)


@pytest.mark.parametrize("rotation", [45, -90, 360, 90.0, True])
def test_rotation_must_be_a_quarter_turn(rotation):
    with pytest.raises(BoardFormatError, match="rotation must be 0, 90, 180 or 270"):
        Play(sea_card("C1"), 0, 0, rotation)


# --- the placement rule ------------------------------------------------------------------------


def test_the_first_card_is_free():
    assert play_problem(Table(), Play(sea_card("C1"), -7, 12, 270)) == ""
    table = place(Table(), Play(sea_card("C1"), -7, 12, 270))
    assert len(table.visible) == 6 and table.card_ids == frozenset({"C1"})


def test_a_seagull_side_cannot_be_the_first_card():
    assert play_problem(Table(), Play(seagull_card("S9"), 0, 0, 0)).startswith("covers no animal")


def test_a_later_card_must_overlap():
    table = Table((Play(sea_card("C1"), 0, 0, 0),))
    # Right next to C1, touching edges but sharing no cell.
    problem = play_problem(table, Play(sea_card("C2"), 2, 0, 0))
    assert problem.startswith("overlaps nothing")


def test_a_later_card_must_cover_an_animal():
    # S9 (seagulls) lies at x 2..3; C2 lies over S9's seagull cells only.
    table = Table((Play(sea_card("C1"), 0, 0, 0), Play(seagull_card("S9"), 2, 0, 0)))
    problem = play_problem(table, Play(sea_card("C2"), 3, 0, 0))
    assert problem.startswith("covers no animal")
    # Lying at (1, 2) it covers C1's jellyfish at (1, 2) besides two seagulls: legal.
    assert play_problem(table, Play(sea_card("C2"), 1, 2, 90)) == ""


def test_covering_three_of_one_card_is_illegal():
    table = Table((Play(sea_card("C1"), 0, 0, 0),))
    # Turned 90 at (0, 1): covers (0, 1), (1, 1), (0, 2), (1, 2): four of C1.
    assert play_problem(table, Play(sea_card("C2"), 0, 1, 90)).startswith("covers three of one card (C1)")
    # At (1, 1) turned 90: covers (1, 1), (1, 2): two of C1, the rest is open sea.
    assert play_problem(table, Play(sea_card("C2"), 1, 1, 90)) == ""
    # At (1, 0) upright: covers (1, 0), (1, 1), (1, 2): three of C1.
    problem = play_problem(table, Play(sea_card("C2"), 1, 0, 0))
    assert problem == "covers three of one card (C1): it covers 3 of C1; at most 2 animals of each card"


def test_covering_six_in_all_is_illegal():
    # C1 at x 0..1, C2 at x 2..3 (both upright, y 0..2), C3 lying below at x 0..2, y 3..4.
    table = Table(
        (Play(sea_card("C1"), 0, 0, 0), Play(sea_card("C2"), 2, 0, 0), Play(sea_card("C3"), 0, 3, 90))
    )
    # Upright at (1, 1): two cells of each of C1, C2 and C3.
    problem = play_problem(table, Play(sea_card("C4"), 1, 1, 0))
    assert problem == "covers six in all: 6 visible animals; at most 5"
    # One row lower it covers 1 of C1, 1 of C2, 4 of C3: the per-card limit is named first.
    assert play_problem(table, Play(sea_card("C4"), 1, 2, 0)).startswith("covers three of one card (C3)")


def test_five_in_all_is_legal():
    # The six-in-all table, with a seagull card S9 hiding C3's cell (1, 3) under its seagulls.
    table = Table(
        (
            Play(sea_card("C1"), 0, 0, 0),
            Play(sea_card("C2"), 2, 0, 0),
            Play(sea_card("C3"), 0, 3, 90),
            Play(seagull_card("S9"), -1, 3, 90),  # x -1..1, y 3..4: hides (0, 3), (1, 3) of C3
        )
    )
    # Upright at (1, 1): 2 of C1, 2 of C2, (1, 3) is a seagull, (2, 3) is C3: 5 animals in all.
    assert play_problem(table, Play(sea_card("C4"), 1, 1, 0)) == ""


def test_a_card_already_on_the_table_cannot_be_played_again():
    table = Table((Play(sea_card("C1"), 0, 0, 0),))
    assert play_problem(table, Play(sea_card("C1"), 1, 1, 90)) == "card C1 is already on the table"


def test_a_seagull_face_may_cover_six_animals_of_two_cards():
    table = Table((Play(sea_card("C1"), 0, 0, 0), Play(sea_card("C2", card_set="square"), 2, 0, 0)))
    # Turned 90 at (1, 0): x 1..3, y 0..1 -> (1, 0), (1, 1) of C1 and four cells of C2.
    play = Play(seagull_card("S9"), 1, 0, 90)
    assert play_problem(table, play) == ""
    after = place(table, play)
    assert sum(1 for cell, _ in after.visible.values() if cell.content == "seagull") == 6


def test_a_seagull_face_must_cover_an_animal():
    table = Table((Play(sea_card("C1"), 0, 0, 0),))
    assert play_problem(table, Play(seagull_card("S9"), 4, 0, 0)).startswith("covers no animal")
    on_gulls = place(table, Play(seagull_card("S9"), 0, 0, 0))  # covers all six of C1: legal
    assert play_problem(on_gulls, Play(seagull_card("S8"), 0, 1, 90)).startswith("covers no animal")


def test_place_raises_the_problem():
    table = Table((Play(sea_card("C1"), 0, 0, 0),))
    with pytest.raises(BoardFormatError, match="^overlaps nothing"):
        place(table, Play(sea_card("C2"), 10, 10, 0))


def test_check_plays_names_the_play():
    plays = [
        Play(sea_card("C1"), 0, 0, 0),
        Play(sea_card("C2"), 1, 1, 90),  # covers (1, 1), (1, 2) of C1
        Play(sea_card("C4"), 3, 1, 0),  # covers (3, 1), (3, 2) of C2
        Play(sea_card("C3"), 2, 1, 90),  # covers (2, 1), (2, 2) of C2 and four cells of C4
    ]
    assert check_plays(plays[:3]).plays == tuple(plays[:3])
    with pytest.raises(BoardFormatError) as caught:
        check_plays(plays)
    assert str(caught.value) == (
        "play 4 (C3 at (2, 1) turned 90): covers three of one card (C4): it covers 2 of C2, 4 of C4; "
        "at most 2 animals of each card"
    )


def test_check_plays_example_message():
    plays = [Play(sea_card("C1"), 0, 0, 0), Play(sea_card("C2"), 4, 4, 0), Play(sea_card("C5"), 5, 0, 0)]
    with pytest.raises(BoardFormatError, match=r"^play 2 \(C2 at \(4, 4\) turned 0\): overlaps nothing"):
        check_plays(plays)


def test_visible_sea_shows_the_top_cells():
    c1 = Play(sea_card("C1"), 0, 0, 0)
    c2 = Play(
        sea_card("C2", rows=[["crab", "crab"], ["crab", "crab"], ["crab", "octopus:N"]], card_set="square"),
        1,
        1,
        90,
    )
    table = check_plays([c1, c2])
    # C2 turned 90 at (1, 1): rows "crab crab crab" / "octopus:E crab crab"; it hides C1's (1, 1) and (1, 2).
    sea = visible_sea(table, OBJECTIVES, "circle", hands={"circle": 5, "square": 4}, next="circle")
    assert grid(sea.cells) == [
        "fish octopus:E . .",
        "ray crab crab crab",
        "starfish octopus:E crab crab",
    ]
    assert {c.frame for c in sea.cells if c.content == "crab"} == {"square"}
    assert {c.frame for c in sea.cells if c.content in ("fish", "ray", "starfish")} == {"circle"}
    assert table.visible[(0, 0)][1] == 0 and table.visible[(1, 1)][1] == 1
    assert sea.hands == (("circle", 5), ("square", 4))
    report = score_sea(sea)
    # C1's octopus at (1, 0) points E into open sea; C2's octopus at (1, 2) points E at a crab.
    assert [(o.x, o.y, o.becomes) for o in report.octopuses] == [(1, 0, None), (1, 2, "crab")]
    assert dict(report.species) == {"fish": 1, "ray": 1, "starfish": 1, "crab": 6}
    assert [p.total for p in report.players] == [2 - 1, 0 - 1]


# --- plays JSON --------------------------------------------------------------------------------


def plays_json() -> dict:
    return {
        "format": 1,
        "game": "mediterraneo",
        "plays": [
            {
                "card": {"id": "C1", "set": "circle", "kind": "sea", "cells": ROWS},
                "x": 0,
                "y": 0,
                "rotation": 0,
            },
            {
                "card": {"id": "S9", "set": "square", "kind": "seagull", "cells": [["seagull"] * 2] * 3},
                "x": 1,
                "y": 1,
                "rotation": 90,
            },
        ],
    }


def test_plays_json_round_trip():
    data = plays_json()
    plays = plays_from_json(data)
    assert plays[1] == Play(seagull_card("S9"), 1, 1, 90)
    assert plays_to_json(plays) == data
    assert check_plays(plays).card_ids == frozenset({"C1", "S9"})


def _mutated(path, value):
    """plays_json() with the value at `path` replaced (or deleted when value is None)."""
    return edited(plays_json(), path, DELETE if value is None else value)


@pytest.mark.parametrize(
    "data, message",
    [
        (_mutated(("format",), 3), 'unsupported "format" 3'),
        (_mutated(("game",), "mondo"), "'mondo', not \"mediterraneo\""),
        (_mutated(("plays",), {}), '"plays" must be a list'),
        (_mutated(("extra",), 1), "play sequence: unknown key 'extra'"),
        (_mutated(("plays", 0, "rotation"), 45), "play 1: rotation must be 0, 90, 180 or 270"),
        (_mutated(("plays", 0, "rotation"), None), "play 1: missing key 'rotation'"),
        (_mutated(("plays", 1, "x"), "1"), "play 2: a play's x and y must be integers"),
        (_mutated(("plays", 1, "face"), "back"), "play 2: unknown key 'face'"),
        (_mutated(("plays", 0, "card", "kind"), "objective"), "play 1: card C1: unknown kind 'objective'"),
        (_mutated(("plays", 0, "card", "owner"), "me"), "play 1: card: unknown key 'owner'"),
        (_mutated(("plays", 0, "card", "cells"), [["fish"]]), "play 1: card C1: cells must be 3 rows of 2"),
    ],
)
def test_plays_format_errors(data, message):
    with pytest.raises(BoardFormatError) as caught:
        plays_from_json(data)
    assert message in str(caught.value)


# --- random legal seas (property) --------------------------------------------------------------

FACE_CELL = st.sampled_from([*SPECIES, "octopus:N", "octopus:E", "octopus:S", "octopus:W"])


@st.composite
def faces(draw, card_id: str):
    card_set = draw(st.sampled_from(["circle", "square"]))
    if draw(st.integers(0, 7)) == 0:
        return seagull_card(card_id, card_set)
    rows = [[draw(FACE_CELL), draw(FACE_CELL)] for _ in range(3)]
    return card_face_from_rows(card_id, card_set, "sea", rows)


def independent_problem(plays: list[Play], play: Play) -> str:
    """The placement rule again, written from scratch over painted cells, to check play_problem against."""
    top: dict[tuple[int, int], tuple[str, int]] = {}
    for index, earlier in enumerate(plays):
        for cell in play_cells(earlier):
            top[(cell.x, cell.y)] = (cell.content, index)
    under = [top[(c.x, c.y)] for c in play_cells(play) if (c.x, c.y) in top]
    animals = [index for content, index in under if content != "seagull"]
    if play.card.kind == "seagull":
        return "" if animals else "covers no animal"
    if not plays:
        return ""
    if not under:
        return "overlaps nothing"
    if not animals:
        return "covers no animal"
    if max(animals.count(i) for i in set(animals)) > 2:
        return "covers three of one card"
    if len(animals) > 5:
        return "covers six in all"
    return ""


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_legal_play_sequences(data):
    wanted = data.draw(st.integers(1, 9))
    table = Table()
    plays: list[Play] = []
    rejected = 0
    for number in range(wanted):
        card = data.draw(faces(f"K{number}"))
        for _ in range(25):  # give up on this card after a bounded number of candidates
            if table.plays:
                ax, ay = data.draw(st.sampled_from(sorted(table.visible)))
                x, y = ax - data.draw(st.integers(0, 2)), ay - data.draw(st.integers(0, 2))
            else:
                x, y = data.draw(st.integers(-3, 3)), data.draw(st.integers(-3, 3))
            play = Play(card, x, y, data.draw(st.sampled_from([0, 90, 180, 270])))
            problem = play_problem(table, play)
            assert problem.split(":")[0].split(" (")[0] == independent_problem(plays, play)
            if not problem:
                table = place(table, play)
                plays.append(play)
                break
            rejected += 1
    # A seagull side never starts the sea (it must cover an animal); candidates were really rejected.
    assert not plays or plays[0].card.kind == "sea"
    rebuilt = check_plays(plays)
    assert rebuilt.plays == tuple(plays)
    assert dict(rebuilt.visible) == dict(table.visible)
    # Every lattice cell any card ever covered is still seen (from the newest card over it).
    covered = {(c.x, c.y) for play in plays for c in play_cells(play)}
    assert set(table.visible) == covered
    sea = visible_sea(table, OBJECTIVES, "circle")
    assert len(sea.cells) == len(covered)
    assert sea_from_json(sea_to_json(sea)) == sea
    assert sea_to_json(sea_from_json(sea_to_json(sea))) == sea_to_json(sea)
    assert plays_from_json(plays_to_json(plays)) == tuple(plays)
    for player in score_sea(sea).players:
        assert -len(sea.cells) <= player.total <= 2 * len(sea.cells)

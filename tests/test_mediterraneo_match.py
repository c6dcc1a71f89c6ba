"""A Mediterráneo match over rounds (rulebook "Object of the Game", "End of the Round"; DESIGN.md)."""

import pytest
from json_edits import DELETE, edited

from scoring.errors import BoardFormatError
from scoring.mediterraneo import (
    Match,
    RemovedCard,
    RoundRecord,
    first_player_next_round,
    match_from_json,
    match_report_to_json,
    match_to_json,
    record_round,
    rounds_won,
    start_match,
    winner,
)

CIRCLE_CARDS = [f"C{i}" for i in range(1, 10)]
SQUARE_CARDS = [f"S{i}" for i in range(1, 10)]


def new_match(first: str = "circle") -> Match:
    return start_match(["circle", "square"], {"circle": CIRCLE_CARDS, "square": SQUARE_CARDS}, first)


ROUND_1 = RoundRecord("won", "circle", {"circle": "C3", "square": "S5"}, ("C9",))
ROUND_2 = RoundRecord("replay", None, {"circle": "C4", "square": "S5"}, ("S9",))
ROUND_3 = RoundRecord("won", "square", {"circle": "C4", "square": "S5"}, ())
ROUND_4 = RoundRecord("won", "circle", {"circle": "C4", "square": "S6"}, ())


def test_a_new_match():
    match = new_match()
    assert match.cards == (("circle", tuple(CIRCLE_CARDS)), ("square", tuple(SQUARE_CARDS)))
    assert rounds_won(match) == {"circle": 0, "square": 0}
    assert winner(match) is None
    assert first_player_next_round(match) == "circle"


def test_a_won_round_removes_the_winners_objective_and_the_seagull_cards():
    match = record_round(new_match(), ROUND_1)
    assert match.cards_of("circle") == ("C1", "C2", "C4", "C5", "C6", "C7", "C8")
    assert match.cards_of("square") == tuple(SQUARE_CARDS)  # the loser gets the objective card S5 back
    assert match.removed == (
        RemovedCard("C3", "circle", 1, "objective card of the round winner"),
        RemovedCard("C9", "circle", 1, "played seagull-side"),
    )
    assert rounds_won(match) == {"circle": 1, "square": 0}
    assert first_player_next_round(match) == "square"  # the loser starts


def test_a_replay_keeps_the_first_player_and_removes_seagull_cards():
    match = record_round(record_round(new_match(), ROUND_1), ROUND_2)
    assert match.starters == ("circle", "square")
    assert first_player_next_round(match) == "square"
    assert rounds_won(match) == {"circle": 1, "square": 0}
    assert len(match.cards_of("square")) == 8 and "S9" not in match.cards_of("square")
    assert "C4" in match.cards_of("circle")  # nobody won: no objective card leaves


def test_a_replay_in_the_first_round_keeps_the_first_player():
    match = record_round(new_match("square"), RoundRecord("replay", None, {"circle": "C1", "square": "S1"}))
    assert first_player_next_round(match) == "square"
    assert len(match.cards_of("circle")) == 9 and len(match.cards_of("square")) == 9


def test_two_rounds_win_the_match():
    match = new_match()
    for record in (ROUND_1, ROUND_2, ROUND_3):
        match = record_round(match, record)
        assert winner(match) is None
    assert rounds_won(match) == {"circle": 1, "square": 1}
    assert first_player_next_round(match) == "circle"  # circle lost round 3
    match = record_round(match, ROUND_4)
    assert rounds_won(match) == {"circle": 2, "square": 1}
    assert winner(match) == "circle"
    assert first_player_next_round(match) is None
    assert match.starters == ("circle", "square", "square", "circle")


def test_no_round_after_the_match_is_won():
    match = new_match()
    for record in (ROUND_1, ROUND_2, ROUND_3, ROUND_4):
        match = record_round(match, record)
    with pytest.raises(BoardFormatError, match=r"^round 5: the match is already won by circle$"):
        record_round(match, RoundRecord("won", "square", {"circle": "C5", "square": "S6"}))


@pytest.mark.parametrize(
    "record, message",
    [
        (
            RoundRecord("won", "triangle", {"circle": "C1", "square": "S1"}),
            "round 2: winner 'triangle' is not a player (circle, square)",
        ),
        (
            RoundRecord("won", "square", {"circle": "C3", "square": "S1"}),
            "round 2: circle's objective card C3 is not in circle's hand",
        ),
        (
            RoundRecord("won", "square", {"circle": "S1", "square": "S2"}),
            "round 2: circle's objective card S1 is not in circle's hand",
        ),
        (
            RoundRecord("won", "square", {"circle": "C1", "square": "S1"}, ("C9",)),
            "round 2: seagull card C9 is in neither player's hand",
        ),
        (
            RoundRecord("won", "square", {"circle": "C1", "square": "S1"}, ("X1",)),
            "round 2: seagull card X1 is in neither player's hand",
        ),
        (
            RoundRecord("won", "square", {"circle": "C1", "square": "S1"}, ("S8", "S8")),
            "round 2: seagull card S8 is listed twice",
        ),
        (
            RoundRecord("won", "square", {"circle": "C1", "square": "S1"}, ("S1",)),
            "round 2: card S1 cannot be both an objective and played seagull-side",
        ),
        (
            RoundRecord("won", "square", {"circle": "C1"}),
            "round 2: objective_cards name circle; expected one card each for circle and square",
        ),
    ],
)
def test_impossible_rounds_are_named(record, message):
    with pytest.raises(BoardFormatError) as caught:
        record_round(record_round(new_match(), ROUND_1), record)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: RoundRecord("draw", None, {}), "unknown outcome 'draw'"),
        (lambda: RoundRecord("won", None, {}), "a won round needs its winner"),
        (lambda: RoundRecord("replay", "circle", {}), "a replayed round has no winner, got 'circle'"),
        (
            lambda: start_match(["circle", "circle"], {"circle": []}, "circle"),
            "two differently named players",
        ),
        (
            lambda: start_match(["circle", "square"], {"circle": ["C1"]}, "circle"),
            "cards name circle; expected",
        ),
        (
            lambda: start_match(["circle", "square"], {"circle": ["C1"], "square": ["C1"]}, "circle"),
            "card C1 is listed twice (circle and square)",
        ),
        (
            lambda: start_match(["circle", "square"], {"circle": [], "square": []}, "triangle"),
            "first 'triangle'",
        ),
    ],
)
def test_bad_values_are_named(build, message):
    with pytest.raises(BoardFormatError) as caught:
        build()
    assert message in str(caught.value)


# --- JSON --------------------------------------------------------------------------------------


def match_json() -> dict:
    return {
        "format": 1,
        "game": "mediterraneo",
        "match": {
            "players": ["circle", "square"],
            "cards": {"circle": ["C1", "C2", "C3", "C9"], "square": ["S1", "S2", "S5", "S9"]},
            "first": "circle",
            "rounds": [
                {
                    "outcome": "won",
                    "winner": "circle",
                    "objective_cards": {"circle": "C3", "square": "S5"},
                    "seagull_cards": ["C9"],
                },
                {
                    "outcome": "replay",
                    "objective_cards": {"circle": "C1", "square": "S5"},
                    "seagull_cards": ["S9"],
                },
                {
                    "outcome": "won",
                    "winner": "circle",
                    "objective_cards": {"circle": "C1", "square": "S5"},
                    "seagull_cards": [],
                },
            ],
        },
    }


def test_match_json_round_trip():
    data = match_json()
    match = match_from_json(data)
    assert match_to_json(match) == data
    assert winner(match) == "circle"


def test_match_report():
    assert match_report_to_json(match_from_json(match_json())) == {
        "format": 1,
        "game": "mediterraneo",
        "players": ["circle", "square"],
        "rounds": [
            {"round": 1, "first": "circle", "outcome": "won", "winner": "circle"},
            {"round": 2, "first": "square", "outcome": "replay", "winner": None},
            {"round": 3, "first": "square", "outcome": "won", "winner": "circle"},
        ],
        "rounds_won": {"circle": 2, "square": 0},
        "winner": "circle",
        "cards_left": {"circle": ["C2"], "square": ["S1", "S2", "S5"]},
        "removed": [
            {"card": "C3", "player": "circle", "round": 1, "reason": "objective card of the round winner"},
            {"card": "C9", "player": "circle", "round": 1, "reason": "played seagull-side"},
            {"card": "S9", "player": "square", "round": 2, "reason": "played seagull-side"},
            {"card": "C1", "player": "circle", "round": 3, "reason": "objective card of the round winner"},
        ],
        "first_next_round": None,
    }


def test_match_report_mid_match():
    data = match_json()
    data["match"]["rounds"] = data["match"]["rounds"][:1]
    report = match_report_to_json(match_from_json(data))
    assert report["winner"] is None
    assert report["rounds_won"] == {"circle": 1, "square": 0}
    assert report["first_next_round"] == "square"
    assert report["cards_left"] == {"circle": ["C1", "C2"], "square": ["S1", "S2", "S5", "S9"]}


def _mutated(path, value):
    """match_json() with the value at `path` replaced (or deleted when value is None)."""
    return edited(match_json(), path, DELETE if value is None else value)


@pytest.mark.parametrize(
    "data, message",
    [
        (_mutated(("format",), 2), 'unsupported "format" 2'),
        (_mutated(("game",), "mondo"), "'mondo', not \"mediterraneo\""),
        (_mutated(("match",), None), "match record: missing key 'match'"),
        (_mutated(("match", "score"), 3), "match: unknown key 'score'"),
        (_mutated(("match", "players"), "circle"), "players must be a list of two names"),
        (_mutated(("match", "cards"), []), "cards must be an object of player"),
        (_mutated(("match", "cards", "circle"), "C1"), "cards of circle must be a list of card ids"),
        (_mutated(("match", "rounds", 0, "outcome"), "tie"), "round 1: unknown outcome 'tie'"),
        (
            _mutated(("match", "rounds", 0, "winner"), "triangle"),
            "round 1: winner 'triangle' is not a player",
        ),
        (_mutated(("match", "rounds", 1, "winner"), "circle"), "round 2: a replayed round has no winner"),
        (_mutated(("match", "rounds", 0, "mvp"), "circle"), "round 1: unknown key 'mvp'"),
        (_mutated(("match", "rounds", 0, "seagull_cards"), "C9"), "round 1: seagull_cards must be a list"),
        (
            _mutated(("match", "rounds", 2, "objective_cards", "circle"), "C3"),
            "round 3: circle's objective card C3",
        ),
        (
            _mutated(
                ("match", "rounds"), match_json()["match"]["rounds"] + match_json()["match"]["rounds"][:1]
            ),
            "round 4: the match is already won by circle",
        ),
    ],
)
def test_match_format_errors(data, message):
    with pytest.raises(BoardFormatError) as caught:
        match_from_json(data)
    assert message in str(caught.value)

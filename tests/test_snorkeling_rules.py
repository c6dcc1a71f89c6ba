"""Snorkeling rules (shared/rules/snorkeling.txt, English summary; DESIGN.md "Snorkeling"): the end of a
round, round points, totals and the winner, and every rule of the play checker."""

import pytest

from scoring.errors import BoardFormatError
from scoring.snorkeling import (
    LANTERNFISH_CARD,
    Card,
    Diver,
    Game,
    PlayError,
    RoundBoard,
    TableState,
    Turn,
    add_round,
    apply_turn,
    card_from_text,
    deal_state,
    game_from_json,
    game_to_json,
    name_divers,
    one_higher,
    plays_from_json,
    plays_to_json,
    round_from_json,
    round_report_to_json,
    round_to_json,
    score_round,
    score_snorkeling,
)
from scoring.snorkeling.plays import (
    RULE_CENTRE,
    RULE_DRAW,
    RULE_EXPERT,
    RULE_HAND,
    RULE_OPPONENT,
    RULE_ORDER,
    RULE_OVER,
    RULE_TAKE_BACK,
    PlaySequence,
    check_plays,
)


def c(text: str) -> Card:
    return card_from_text(text)


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(c(t) for t in texts)


def round_json(*tops, before=None, target=None, centre=None, names=("Anna", "Ben", "Cleo", "Dino")):
    players = []
    for mat, (name, top) in enumerate(zip(names, tops, strict=False), start=1):
        value, _, color = top.partition("-")
        card = {"value": int(value)} | ({"color": color} if color else {})
        players.append({"name": name, "mat": mat, "top": card})
    data = {"format": 1, "game": "snorkeling", "players": players}
    if before is not None:
        data["before"] = before
    if target is not None:
        data["target"] = target
    if centre is not None:
        data["centre"] = centre
    return data


# ----------------------------------------------------------------------------------- round end


def test_round_points_are_the_top_values_the_lanternfish_counts_5():
    report = score_snorkeling(round_json("3-yellow", "0-blue", "5", "4-red"))
    assert [p["points"]["top"] for p in report["players"]] == [3, 0, 5, 4]
    assert [p["top"]["card"] for p in report["players"]] == ["turtle", "beach", "lanternfish", "ray"]
    assert report["round_over"] and report["beaches"] == ["Ben"]
    assert report["round_why"] == "a Beach lies on Ben's pile (mat 2)"


def test_a_round_without_a_beach_is_not_over_but_still_reports_the_values():
    report = score_snorkeling(round_json("3-yellow", "1-blue", before={"Anna": 10, "Ben": 2}))
    assert not report["round_over"] and report["beaches"] == []
    assert "not over" in report["round_why"]
    assert [p["total"] for p in report["players"]] == [13, 3]
    # Anna would pass 12, but a round still being played decides nothing
    assert report["game_over"] is False and report["winners"] == []


def test_totals_add_the_round_to_before_and_the_winner_reaches_the_target():
    report = score_snorkeling(round_json("3-yellow", "0-blue", before={"Anna": 9, "Ben": 11}))
    assert [p["total"] for p in report["players"]] == [12, 11]
    assert report["game_over"] and report["winners"] == ["Anna"]


def test_the_short_game_plays_to_6():
    report = score_snorkeling(round_json("5", "0-blue", before={"Anna": 1}, target=6))
    assert report["target"] == 6 and report["winners"] == ["Anna"]
    assert score_snorkeling(round_json("4-red", "0-blue", before={"Anna": 1}, target=6))["winners"] == []


def test_a_tie_at_the_top_at_or_above_the_target_plays_another_round():
    report = score_snorkeling(round_json("3-red", "0-blue", "5", before={"Anna": 10, "Cleo": 8}))
    assert [p["total"] for p in report["players"]] == [13, 0, 13]
    assert not report["game_over"] and report["winners"] == []
    assert "another round" in report["game_why"]
    # the highest total wins even when another player passed the target too
    report = score_snorkeling(round_json("4-red", "0-blue", "5", before={"Anna": 10, "Cleo": 8}))
    assert report["winners"] == ["Anna"]


def test_two_beaches_both_named():
    report = score_snorkeling(round_json("0-red", "0-blue", "2-green"))
    assert report["beaches"] == ["Anna", "Ben"]


def test_divers_without_names_are_named_after_their_mat_or_by_players():
    data = round_json("3-yellow", "0-blue")
    for player in data["players"]:
        del player["name"]
    board = round_from_json(data)
    assert [d.label for d in board.divers] == ["diver 1", "diver 2"]
    named = name_divers(board, {1: "Anna", 2: "Ben"})
    assert [d.label for d in named.divers] == ["Anna", "Ben"]
    with pytest.raises(BoardFormatError, match="no pile lies on mat 3"):
        name_divers(board, {3: "Cleo"})


def test_round_json_round_trips():
    data = round_json("3-yellow", "0-blue", before={"Anna": 3}, target=6, centre={"value": 4, "color": "red"})
    board = round_from_json(data)
    assert round_from_json(round_to_json(board)) == board


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda d: d["players"][1].update(mat=1), "mat 1 appears twice"),
        (lambda d: d["players"][1].update(mat=7), "numbered 1, 2, 3, 4, 5 or 6"),
        (lambda d: d["players"][1]["top"].update(value=6), "value is 0 to 5"),
        (lambda d: d["players"][1]["top"].update(color="pink"), "needs a colour"),
        (lambda d: d["players"][0].update(top={"value": 5, "color": "red"}), "Lanternfish .5. has no colour"),
        (lambda d: d["players"][1]["top"].pop("color"), "needs a colour"),
        (lambda d: d.update(before={"Zoe": 3}), "'Zoe', who is not a player"),
        (lambda d: d.update(centre={"value": 5}), "centre cannot show a Lanternfish"),
        (lambda d: d.update(target=0), "target must be"),
        (lambda d: d["players"].pop(), "2 to 6 players"),
        (lambda d: d["players"][0].update(seat=1), "unknown key 'seat'"),
        (lambda d: d.update(game="mondo"), '"game" is'),
    ],
)
def test_impossible_round_boards_are_refused_with_the_reason(edit, reason):
    data = round_json("5", "0-blue")
    edit(data)
    with pytest.raises(BoardFormatError, match=reason):
        score_snorkeling(data)


def test_seven_players_are_refused():
    data = round_json("5", "0-blue")
    data["players"] = [{"mat": m, "top": {"value": 5}} for m in (1, 2, 3, 4, 5, 6, 6)]
    with pytest.raises(BoardFormatError, match="2 to 6 players"):
        score_snorkeling(data)


# ----------------------------------------------------------------------------- a whole game


def test_a_hand_made_game_of_three_rounds_to_its_winner():
    """Anna reaches 12 alone in round 3 and wins; no round can be added after that."""
    rounds = [
        ("5", "0-blue", "3-red"),
        ("4-green", "0-red", "5"),
        ("3-red", "5", "0-yellow"),  # a Beach on Cleo's pile ends round 3
    ]
    game = Game(("Anna", "Ben", "Cleo"))
    before: dict[str, int] = {}
    expected_totals = [(5, 0, 3), (9, 0, 8), (12, 5, 8)]
    for tops, totals in zip(rounds, expected_totals, strict=True):
        report = score_snorkeling(round_json(*tops, before=before))
        assert report["round_over"]
        assert tuple(p["total"] for p in report["players"]) == totals
        assert report["winners"] == (["Anna"] if totals[0] >= 12 else [])
        game = add_round(game, {p["name"]: p["points"]["top"] for p in report["players"]})
        before = game.totals
    assert game.verdict[0] and game.verdict[1] == ["Anna"]
    with pytest.raises(BoardFormatError, match="already won by Anna"):
        add_round(game, {"Anna": 1, "Ben": 0, "Cleo": 5})


def test_a_tied_game_goes_on_until_one_player_leads_at_the_target():
    game = Game(
        ("Anna", "Ben", "Cleo"), rounds=({"Anna": 5, "Ben": 0, "Cleo": 5}, {"Anna": 4, "Ben": 0, "Cleo": 4})
    )
    game = add_round(game, {"Anna": 3, "Ben": 0, "Cleo": 3})
    assert game.totals == {"Anna": 12, "Ben": 0, "Cleo": 12}
    assert game.verdict[0] is False and "another round" in game.verdict[2]
    game = add_round(game, {"Anna": 2, "Ben": 5, "Cleo": 0})
    assert game.totals == {"Anna": 14, "Ben": 5, "Cleo": 12}
    assert game.verdict[:2] == (True, ["Anna"])
    assert game_from_json(game_to_json(game)) == game


@pytest.mark.parametrize(
    ("rounds", "reason"),
    [
        ([{"Anna": 6, "Ben": 0}], "scored 6"),
        ([{"Anna": 1}], "names Anna; expected Anna, Ben"),
        ([{"Anna": 5, "Ben": 0}] * 3 + [{"Anna": 0, "Ben": 0}], "already won by Anna"),
    ],
)
def test_impossible_game_files_are_refused(rounds, reason):
    data = {"format": 1, "game": "snorkeling", "players": ["Anna", "Ben"], "rounds": rounds}
    with pytest.raises(BoardFormatError, match=reason):
        score_snorkeling(data)


# ------------------------------------------------------------------------------- play checker

HANDS = {
    "Anna": cards("3-red", "1-blue", "2-blue", "4-green", "4-yellow"),
    "Ben": cards("3-blue", "3-green", "0-red", "1-red", "2-green"),
}


def dealt(centre="2-red", hands=None, variant="standard") -> TableState:
    return deal_state(("Anna", "Ben"), c(centre), hands or HANDS, variant)


def play(state, player, centre=(), opponent=None, take_back=False, draw=("0-yellow",)):
    turn = Turn(
        player,
        cards(*centre),
        None if opponent is None else (opponent[0], c(opponent[1])),
        take_back,
        cards(*draw),
    )
    return apply_turn(state, turn)


def broken(rule, state, *args, **kwargs):
    with pytest.raises(PlayError) as caught:
        play(state, *args, **kwargs)
    assert caught.value.rule == rule, str(caught.value)
    return str(caught.value)


def test_one_higher_and_the_beach_after_the_ray():
    assert one_higher(c("3-blue"), c("2-red")) and not one_higher(c("4-blue"), c("2-red"))
    assert one_higher(c("0-blue"), c("4-red")) and one_higher(c("1-blue"), c("0-red"))
    assert not one_higher(c("4-blue"), c("4-red")) and not one_higher(c("0-blue"), c("3-red"))


def test_centre_one_card_exactly_one_higher_any_colour():
    state = play(dealt("2-red"), "Anna", ["3-red"])
    assert state.centre[-1] == c("3-red")
    state = play(dealt("2-green"), "Anna", ["3-red"])
    assert state.centre[-1] == c("3-red") and state.hand("Anna").count(c("0-yellow")) == 1


def test_centre_a_beach_follows_a_ray():
    hands = dict(HANDS, Anna=cards("0-blue", "1-blue", "2-blue", "4-green", "4-yellow"))
    state = play(dealt("4-red", hands), "Anna", ["0-blue"])
    assert state.centre[-1] == c("0-blue") and not state.over  # a Beach in the centre ends nothing


def test_centre_one_or_more_cards_of_the_top_colour():
    state = play(dealt("4-blue"), "Anna", ["1-blue", "2-blue"])
    assert state.centre[-2:] == cards("1-blue", "2-blue")


def test_centre_a_card_neither_one_higher_nor_of_the_colour_breaks_the_centre_rule():
    message = broken(RULE_CENTRE, dealt("2-red"), "Anna", ["4-green"])
    assert message.startswith("turn 1 (Anna): 4-green onto 2-red")


def test_centre_several_cards_must_all_be_of_the_top_colour():
    broken(RULE_CENTRE, dealt("2-red"), "Anna", ["3-red", "4-green"])  # a run is the expert variant's
    broken(RULE_CENTRE, dealt("1-blue"), "Anna", ["2-blue", "3-red"])


def test_cards_come_from_the_hand():
    broken(RULE_HAND, dealt("2-red"), "Anna", ["3-blue"])


def test_turns_go_round_in_seating_order():
    broken(RULE_ORDER, dealt(), "Ben", ["3-blue"])
    state = play(dealt(), "Anna", ["3-red"])
    broken(RULE_ORDER, state, "Anna", ["4-green"])


def test_opponent_pile_one_card_exactly_one_lower_colour_free_after_the_centre():
    state = play(dealt("2-red"), "Anna", ["3-red"], opponent=("Ben", "4-green"))
    assert state.pile("Ben") == (LANTERNFISH_CARD, c("4-green"))
    assert state.tops["Ben"] == c("4-green")
    state = play(state, "Ben", ["0-red"])
    broken(RULE_OPPONENT, state, "Anna", ["1-blue"], opponent=("Ben", "2-blue"))  # 2 onto 4: two lower


def test_opponent_pile_needs_a_centre_play_first():
    message = broken(RULE_OPPONENT, dealt(), "Anna", [], opponent=("Ben", "4-green"))
    assert "without playing to the centre first" in message


def test_opponent_pile_is_another_players():
    broken(RULE_OPPONENT, dealt(), "Anna", ["3-red"], opponent=("Anna", "4-green"))


def test_a_beach_ends_the_round_no_draw_and_no_later_turn():
    state = TableState(
        ("Anna", "Ben"),
        "standard",
        (("Anna", cards("2-red", "0-blue", "3-green")), ("Ben", cards("1-blue", "4-blue"))),
        (
            ("Anna", (LANTERNFISH_CARD,)),
            ("Ben", (LANTERNFISH_CARD, c("4-red"), c("3-red"), c("2-red"), c("1-green"))),
        ),
        (c("1-red"),),
        ((c("2-yellow"), 3),),
    )
    broken(RULE_OVER, state, "Anna", ["2-red"], opponent=("Ben", "0-blue"))  # drew a card after the Beach
    over = play(state, "Anna", ["2-red"], opponent=("Ben", "0-blue"), draw=())
    assert over.over and over.beach_on == "Ben"
    report = round_report_to_json(score_round(over.round_board()))
    assert report["round_over"] and [p["points"]["top"] for p in report["players"]] == [5, 0]
    message = broken(RULE_OVER, over, "Ben", ["4-blue"])
    assert "already over" in message


def test_take_back_only_with_an_empty_hand_never_the_lanternfish():
    pile = (LANTERNFISH_CARD, c("4-red"))
    state = TableState(
        ("Anna", "Ben"),
        "standard",
        (("Anna", cards("2-red", "3-red")), ("Ben", cards("1-blue", "4-blue"))),
        (("Anna", pile), ("Ben", (LANTERNFISH_CARD,))),
        (c("1-red"),),
        ((c("2-yellow"), 3),),
    )
    after = play(state, "Anna", ["2-red", "3-red"], take_back=True, draw=("2-yellow",))
    assert after.pile("Anna") == (LANTERNFISH_CARD,) and sorted(after.hand("Anna")) == sorted(
        cards("2-yellow", "4-red")
    )
    broken(RULE_TAKE_BACK, state, "Anna", ["2-red"], take_back=True)  # still holds 3-red
    # no take back: the empty hand draws two
    after = play(state, "Anna", ["2-red", "3-red"], draw=("2-yellow", "2-yellow"))
    assert len(after.hand("Anna")) == 2
    broken(RULE_DRAW, state, "Anna", ["2-red", "3-red"], draw=("2-yellow",))
    # the Lanternfish stays: draw another card instead
    lantern = TableState(
        state.players,
        "standard",
        state.hands,
        (("Anna", (LANTERNFISH_CARD,)), state.piles[1]),
        state.centre,
        state.deck,
    )
    message = broken(RULE_TAKE_BACK, lantern, "Anna", ["2-red", "3-red"], take_back=True, draw=("2-yellow",))
    assert "Lanternfish stays" in message


def test_draw_one_card_a_turn_from_the_cards_not_in_sight():
    broken(RULE_DRAW, dealt(), "Anna", ["3-red"], draw=())
    broken(RULE_DRAW, dealt(), "Anna", ["3-red"], draw=("0-yellow", "1-yellow"))
    # our edition has 3 copies of 2-red: one in the centre, none in the hands: two to draw, not three
    state = play(dealt("2-red"), "Anna", [], draw=("2-red",))
    state = play(state, "Ben", [], draw=("2-red",))
    message = broken(RULE_DRAW, state, "Anna", [], draw=("2-red",))
    assert "every copy of it is in sight" in message


def test_an_empty_deck_is_refilled_from_the_centre_under_its_top():
    state = TableState(
        ("Anna", "Ben"),
        "standard",
        (("Anna", cards("2-red", "3-red", "1-green")), ("Ben", cards("1-blue", "4-blue"))),
        (("Anna", (LANTERNFISH_CARD,)), ("Ben", (LANTERNFISH_CARD,))),
        cards("4-green", "0-green", "1-red"),
        (),
    )
    after = play(state, "Anna", ["2-red"], draw=("4-green",))
    assert after.centre == (c("2-red"),) and dict(after.deck) == {c("0-green"): 1, c("1-red"): 1}
    broken(RULE_DRAW, state, "Anna", ["2-red"], draw=("2-yellow",))


def test_expert_runs_each_card_one_higher_or_of_the_colour_below_it():
    hands = dict(HANDS, Anna=cards("3-red", "4-red", "0-blue", "1-blue", "4-green"))
    state = play(
        dealt("2-red", hands, "expert"), "Anna", ["3-red", "4-red", "0-blue", "1-blue"], draw=("0-yellow",)
    )
    assert state.centre[-4:] == cards("3-red", "4-red", "0-blue", "1-blue")
    message = broken(RULE_EXPERT, dealt("2-red", hands, "expert"), "Anna", ["3-red", "1-blue"])
    assert "1-blue onto 3-red" in message
    # the expert game still puts one card on an opponent's pile, after the centre
    broken(RULE_OPPONENT, dealt("2-red", hands, "expert"), "Anna", [], opponent=("Ben", "4-green"))


def test_deal_is_checked():
    with pytest.raises(BoardFormatError, match="every player gets 5"):
        dealt(hands=dict(HANDS, Anna=cards("3-red")))
    with pytest.raises(BoardFormatError, match="more than 3 copies of 2-red"):
        dealt("2-red", dict(HANDS, Anna=cards("2-red", "2-red", "2-red", "1-blue", "1-blue")))
    with pytest.raises(BoardFormatError, match="standard or expert"):
        dealt(variant="pro")


def test_play_sequence_json_round_trips_and_reports_the_round_it_leaves():
    sequence = PlaySequence(
        ("Anna", "Ben"),
        c("2-red"),
        tuple(HANDS.items()),
        (
            Turn("Anna", cards("3-red"), ("Ben", c("4-green")), False, cards("0-yellow")),
            Turn("Ben", (), None, False, cards("1-yellow")),
        ),
    )
    data = plays_to_json(sequence)
    assert plays_from_json(data) == sequence
    report = score_snorkeling(data)
    assert report["legal"] and report["turns"] == 2
    assert report["piles"] == {"Anna": ["5"], "Ben": ["5", "4-green"]}
    assert [p["points"]["top"] for p in report["round"]["players"]] == [5, 4]
    assert report["round"]["round_over"] is False
    check_plays(sequence)


def test_play_sequence_json_errors_name_the_turn():
    data = plays_to_json(
        PlaySequence(("Anna", "Ben"), c("2-red"), tuple(HANDS.items()), (Turn("Anna", cards("4-green")),))
    )
    with pytest.raises(PlayError, match=r"turn 1 \(Anna\): 4-green onto 2-red"):
        score_snorkeling(data)
    data["turns"][0]["centre"] = ["9-red"]
    with pytest.raises(BoardFormatError, match="turn 1: centre: a card's value is 0 to 5"):
        score_snorkeling(data)


def test_diver_needs_a_card():
    with pytest.raises(BoardFormatError):
        RoundBoard((Diver(1, "3-red"), Diver(2, c("0-red"))))  # type: ignore[arg-type]

"""Snorkeling property tests: the checker accepts every round the legal random player plays (replayed
from its JSON, so the checker never trusts the player), and totals over rounds never decrease."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import BoardFormatError
from scoring.snorkeling import (
    Game,
    Style,
    add_round,
    check_plays,
    plays_from_json,
    plays_to_json,
    random_round,
    score_snorkeling,
)

NAMES = ("Anna", "Ben", "Cleo", "Dino", "Emil", "Fay")
STYLES = st.builds(
    Style,
    pass_rate=st.floats(0, 0.5),
    attack_rate=st.floats(0.3, 1),
    take_back_rate=st.floats(0, 1),
    stop_run_rate=st.floats(0.1, 0.9),
)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    variant=st.sampled_from(["standard", "expert"]),
    style=STYLES,
)
def test_the_checker_accepts_every_legal_random_round(seed, players, variant, style):
    played = random_round(random.Random(seed), NAMES[:players], variant, style)
    data = json.loads(json.dumps(plays_to_json(played.sequence)))
    report = score_snorkeling(data)
    assert report["legal"] and report["turns"] == len(played.sequence.turns)
    # the round ends exactly at the last turn, with a Beach on one pile, and the report scores it
    assert report["round"]["round_over"] and len(report["round"]["beaches"]) == 1
    assert check_plays(plays_from_json(data)) == played.final
    assert sum(len(p) for p in report["piles"].values()) >= players + 5  # 5 cards at least led to a Beach


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_a_random_round_with_one_turn_changed_is_caught(seed, players):
    """A turn that plays a run no hand can hold (four copies of two cards) is refused, naming the rule."""
    played = random_round(random.Random(seed), NAMES[:players])
    data = plays_to_json(played.sequence)
    rng = random.Random(seed)
    turn = rng.choice(data["turns"])
    turn["centre"] = ["4-purple", "0-purple", "4-purple", "0-purple"]  # no hand holds this run
    with pytest.raises(BoardFormatError, match="rule: "):
        score_snorkeling(data)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 6),
    target=st.sampled_from([6, 12]),
    rounds=st.lists(st.lists(st.integers(0, 5), min_size=6, max_size=6), min_size=1, max_size=12),
)
def test_totals_never_decrease_and_the_first_lone_leader_at_the_target_wins(players, target, rounds):
    names = NAMES[:players]
    game = Game(names, target)
    previous = game.totals
    for points in rounds:
        try:
            game = add_round(game, dict(zip(names, points, strict=False)))
        except BoardFormatError as error:
            assert "already won" in str(error) and game.verdict[0]
            break
        assert all(game.totals[n] >= previous[n] for n in names)
        over, winners, _ = game.verdict
        best = max(game.totals.values())
        leaders = [n for n in names if game.totals[n] == best]
        assert over == (best >= target and len(leaders) == 1)
        assert winners == (leaders if over else [])
        previous = game.totals


def test_a_player_that_never_attacks_is_refused_rather_than_looping():
    with pytest.raises(ValueError, match="ended within"):
        random_round(random.Random(1), NAMES[:2], style=Style(attack_rate=0), deals=3)

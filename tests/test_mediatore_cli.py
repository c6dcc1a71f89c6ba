"""`scorecam score` on Mediatore files and `scorecam mediatore round`: tables, JSON, the ledger file
and the error contract (one line, exit 3 for bad input, 2 for usage)."""

import json
from pathlib import Path

import pytest

from scorecam.cli import main
from scoring.mediatore import DECK

PLAYED = "samples/boards/mediatore-played-round.json"
ROUND = "samples/boards/mediatore-round.json"
LEDGER = "samples/boards/mediatore-ledger.json"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_a_round_with_its_sides_and_payments(root, capsys):
    code, out, err = run(capsys, "score", root / ROUND)
    assert code == 0 and err == ""
    assert "Chiamo by Anna, calling the 3-denari: partner Ben (dealer Dino)" in out
    assert "Bidder (Anna, Ben): 28 cards, 8 2/3 -> 8 points: wins" in out
    assert "Others (Cleo, Dino): 12 cards, 2 + 1 for the last trick = 3 -> 3 points: loses" in out
    total = next(line.split() for line in out.splitlines() if line.startswith("Total"))
    assert total == ["Total", "+5", "+3", "-4", "-4"]


def test_score_prints_every_trick_of_a_played_round_and_a_ledger(root, capsys):
    code, out, _ = run(capsys, "score", root / PLAYED)
    assert code == 0 and "Every play keeps the rules." in out
    assert next(line.split() for line in out.splitlines() if line.startswith("9 ")) == [
        "9", "Dino", "4-denari", "3-denari", "3-spade", "3-bastoni", "Dino", "1",
    ]  # fmt: skip
    code, out, _ = run(capsys, "score", "--json", root / LEDGER)
    report = json.loads(out)
    assert code == 0 and report["balances"] == {"Anna": 21, "Ben": 19, "Cleo": -52, "Dino": 12}
    assert report["next_dealer"] == "Ben"


@pytest.mark.parametrize(
    ("trick", "change", "reason"),
    [
        (8, {"cards": ["3-bastoni", "4-denari", "3-denari", "3-coppe"]},
         "trick 9: Cleo plays 3-coppe, which is not in Cleo's hand (a player plays a card from their own hand)"),
        (7, {"winner": "Anna"},
         "trick 8: won by 'Anna', but Dino's 2-bastoni takes it (the highest card of the suit led wins the trick)"),
        (8, {"leader": "Anna"}, "trick 9: 'Anna' leads, but Dino should (the winner of a trick leads the next)"),
    ],
)  # fmt: skip
def test_an_illegal_play_is_one_line_naming_the_rule(root, tmp_path, capsys, trick, change, reason):
    data = json.loads((root / PLAYED).read_text())
    data["tricks"][trick] |= change
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "score", path)
    assert code == 3 and out == ""
    assert err == f"scorecam: {path}: impossible board: {reason}\n"


def cards_file(tmp_path, name, cards):
    path = tmp_path / name
    path.write_text(json.dumps(cards))
    return path


BIDDER = json.loads((Path(__file__).parents[1] / ROUND).read_text())["bidder_side"]


def test_round_scores_one_side_against_the_rest_of_the_deck_and_keeps_a_ledger(tmp_path, capsys):
    side = cards_file(tmp_path, "bidder.json", BIDDER)
    game = tmp_path / "game.json"
    base = ["mediatore", "round", "--players", "Anna,Ben,Cleo,Dino", "--ledger", game]
    code, out, err = run(
        capsys, *base, "--bid", "chiamo", "--bidder", "Anna", "--called", "3-denari", "--partner", "Ben",
        "--last-trick", "others", "--side", f"bidder={side}", "--json",
    )  # fmt: skip
    report = json.loads(out)
    assert code == 0 and err == ""
    assert report["payments"] == {"Anna": 5, "Ben": 3, "Cleo": -4, "Dino": -4}
    assert report["ledger"] == {
        "file": str(game),
        "round": 1,
        "balances": {"Anna": 5, "Ben": 3, "Cleo": -4, "Dino": -4},
        "leaders": ["Anna"],
        "next_dealer": "Anna",
    }
    # the second round: the others' cards given, the bidder's are the rest; the ledger knows the players
    others = [str(c) for c in DECK if str(c) not in BIDDER]
    side = cards_file(tmp_path, "others.json", others)
    code, out, err = run(
        capsys, "mediatore", "round", "--ledger", game, "--bid", "mediatore", "--bidder", "Cleo",
        "--called", "1-coppe", "--giver", "none", "--last-trick", "others", "--side", f"others={side}",
    )  # fmt: skip
    assert code == 0, err
    assert "Mediatore by Cleo, naming the 1-coppe: it lay in the monte (dealer Anna)" in out
    # Cleo has the 28 cards (8 2/3) and wins 24: 8 from each
    assert next(line.split() for line in out.splitlines() if line.startswith("Balance")) == [
        "Balance",
        "-3",
        "-5",
        "+20",
        "-12",
    ]
    stored = json.loads(game.read_text())
    assert [r["dealer"] for r in stored["rounds"]] == ["Dino", "Anna"] and not (
        tmp_path / "game.json.part"
    ).exists()
    code, out, _ = run(capsys, "score", "--json", game)
    assert json.loads(out)["balances"] == {"Anna": -3, "Ben": -5, "Cleo": 20, "Dino": -12}


def test_two_sides_must_make_the_deck(tmp_path, capsys):
    bidder = cards_file(tmp_path, "bidder.json", BIDDER)
    others = cards_file(tmp_path, "others.json", [str(c) for c in DECK if str(c) not in BIDDER][:-4])
    code, out, err = run(
        capsys, "mediatore", "round", "--bid", "solo", "--bidder", "Anna", "--last-trick", "bidder",
        "--side", f"bidder={bidder}", "--side", f"others={others}",
    )  # fmt: skip
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "impossible round: the two sides hold 36 cards, not the deck's 40" in err


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (["1-coppe", "8-coppe"], "no such card '8-coppe'"),
        (["1-coppe", "1-coppe"], "1-coppe is listed twice"),
        ({"cards": []}, "must be a list of cards"),
        ("[1-coppe", "broken JSON"),
    ],
)
def test_a_bad_cards_file_is_one_line_and_exit_3(tmp_path, capsys, cards, reason):
    path = tmp_path / "side.json"
    path.write_text(cards if isinstance(cards, str) else json.dumps(cards))
    code, out, err = run(
        capsys,
        "mediatore",
        "round",
        "--bid",
        "solo",
        "--bidder",
        "Anna",
        "--last-trick",
        "bidder",
        "--side",
        f"bidder={path}",
    )
    assert (
        code == 3
        and out == ""
        and err.startswith(f"scorecam: {path}: ")
        and reason in err
        and err.count("\n") == 1
    )


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (["--bid", "chiamo", "--partner", "Ben"], "give --called CARD"),
        (["--bid", "chiamo", "--called", "3-coppe"], "give --partner NAME"),
        (["--bid", "solo", "--giver", "Ben"], "only a mediatore bid has a giver"),
        (["--bid", "chiamo", "--called", "3-coppe", "--partner", "Zoe"], "Zoe is not one of the players"),
        (["--bid", "chiamo", "--called", "9-coppe", "--partner", "Ben"], "no such card '9-coppe'"),
        (["--bid", "slam"], "'slam' is not one of"),
        (["--bid", "solo", "--side", "both=x.json"], "write bidder=FILE or others=FILE"),
        (["--bid", "solo", "--players", "Anna,Ben"], "four different names"),
        (["--bid", "solo", "--ledger", "{side}"], "never writes over an input"),
    ],
)
def test_usage_errors_exit_2(tmp_path, capsys, extra, reason):
    side = cards_file(tmp_path, "side.json", BIDDER)
    extra = [e.replace("{side}", str(side)) for e in extra]
    argv = [
        "mediatore",
        "round",
        "--bidder",
        "Anna",
        "--players",
        "Anna,Ben,Cleo,Dino",
        "--last-trick",
        "others",
    ]
    code, _, err = run(capsys, *argv, "--side", f"bidder={side}", *extra)
    assert code == 2 and reason in err
    assert json.loads(side.read_text()) == BIDDER


def test_the_ledger_refuses_a_dealer_out_of_turn_and_other_players(tmp_path, capsys, root):
    game = tmp_path / "game.json"
    game.write_text((root / LEDGER).read_text())
    side = cards_file(tmp_path, "side.json", BIDDER)
    argv = [
        "mediatore",
        "round",
        "--ledger",
        game,
        "--bid",
        "solo",
        "--bidder",
        "Anna",
        "--last-trick",
        "others",
    ]
    code, _, err = run(capsys, *argv, "--side", f"bidder={side}", "--dealer", "Cleo")
    assert code == 2 and "the ledger's next dealer is Ben" in err
    code, _, err = run(capsys, *argv, "--side", f"bidder={side}", "--players", "Anna,Ben,Cleo,Zoe")
    assert code == 2 and "the ledger's players are Anna,Ben,Cleo,Dino" in err
    assert game.read_text() == (root / LEDGER).read_text()
    game.write_text('{"format": 1, "game": "mediatore", "players": ["Anna"], "rounds": []}')
    code, _, err = run(capsys, *argv, "--side", f"bidder={side}")
    assert (
        code == 3 and err.startswith(f"scorecam: {game}: not a Mediatore ledger: ") and err.count("\n") == 1
    )


def test_a_bidding_file_scores_to_its_outcome(tmp_path, capsys):
    from scorecam.commands.mediatore import BID_KINDS
    from scoring.mediatore import BIDS

    assert BID_KINDS == BIDS  # the CLI's choices, kept apart so that start-up loads no engine
    path = tmp_path / "bidding.json"
    board = {"format": 1, "game": "mediatore", "players": ["Anna", "Ben", "Cleo", "Dino"], "dealer": "Ben"}
    path.write_text(json.dumps(board | {"bidding": ["pass", "solo", "pass", "pass", "pass"]}))
    code, out, _ = run(capsys, "score", path)
    assert code == 0 and "Cleo pass, Dino solo, Anna pass" in out and "Outcome: solo by Dino" in out
    path.write_text(json.dumps(board | {"bidding": ["pass"] * 4}))
    code, out, _ = run(capsys, "score", "--json", path)
    assert code == 0 and json.loads(out)["redeal"] is True

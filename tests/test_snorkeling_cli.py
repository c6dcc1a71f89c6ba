"""`scorecam score` on Snorkeling boards: table, --json, --players, --totals and bad input."""

import json

import pytest

from scorecam.cli import main

ROUND = "samples/boards/snorkeling-round.json"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(path, data):
    path.write_text(json.dumps(data))
    return path


def unnamed_round(*tops):
    players = [{"mat": mat, "top": top} for mat, top in enumerate(tops, start=1)]
    return {"format": 1, "game": "snorkeling", "players": players}


BEACH = {"value": 0, "color": "blue"}
TURTLE = {"value": 3, "color": "red"}
LANTERNFISH = {"value": 5}


def test_round_table_and_json(root, capsys):
    code, out, err = run(capsys, "score", root / ROUND)
    assert code == 0 and err == ""
    rows = {line.split("  ")[0]: line.split() for line in out.splitlines() if "  " in line}
    assert rows["This round"][-3:] == ["+3", "0", "+5"]
    assert rows["Total"][-3:] == ["10", "4", "11"]
    assert "Round over: a Beach lies on Ben's pile (mat 2)" in out
    code, out, _ = run(capsys, "score", "--json", root / ROUND)
    report = json.loads(out)
    assert code == 0 and report["game"] == "snorkeling" and report["round_over"]
    assert [p["total"] for p in report["players"]] == [10, 4, 11]


def test_sample_game_and_plays(root, capsys):
    code, out, _ = run(capsys, "score", "--json", root / "samples/boards/snorkeling-game.json")
    report = json.loads(out)
    assert (
        code == 0 and report["totals"] == {"Anna": 14, "Ben": 5, "Cleo": 13} and report["winners"] == ["Anna"]
    )
    code, out, _ = run(capsys, "score", root / "samples/boards/snorkeling-plays.json")
    assert code == 0 and out.startswith("All 9 turns keep the rules (standard game)")


def test_players_name_the_mats(tmp_path, capsys):
    path = write(tmp_path / "r.json", unnamed_round(TURTLE, BEACH))
    code, out, _ = run(capsys, "score", path, "--players", "1=Anna", "2=Ben", "--json")
    assert code == 0 and [p["name"] for p in json.loads(out)["players"]] == ["Anna", "Ben"]
    code, out, _ = run(capsys, "score", path, "--json")
    assert [p["name"] for p in json.loads(out)["players"]] == ["diver 1", "diver 2"]
    code, _, err = run(capsys, "score", path, "--players", "1=Anna", "3=Cleo")
    assert code == 3 and err.count("\n") == 1 and "no pile lies on mat 3" in err
    code, _, err = run(capsys, "score", path, "--players", "Anna")
    assert code == 2 and "is not N or MAT=NAME" in err


def test_totals_keep_a_running_game_to_its_winner(tmp_path, capsys):
    game = tmp_path / "game.json"
    rounds = [(LANTERNFISH, BEACH), (LANTERNFISH, BEACH), ({"value": 4, "color": "red"}, BEACH)]
    for number, tops in enumerate(rounds, start=1):
        path = write(tmp_path / f"round{number}.json", unnamed_round(*tops))
        code, out, err = run(capsys, "score", path, "--players", "1=Anna", "2=Ben", "--totals", game)
        assert code == 0, err
        assert f"Round {number}" in out
    assert "Game to 12: Anna reaches 14 of 12 points and wins" in out
    saved = json.loads(game.read_text())
    assert saved["players"] == ["Anna", "Ben"] and saved["rounds"][-1] == {"Anna": 4, "Ben": 0}
    assert not (tmp_path / "game.json.part").exists()
    # the game is won: a fourth round is refused, and the file is left as it was
    before = game.read_bytes()
    code, _, err = run(capsys, "score", path, "-p", "1=Anna", "2=Ben", "--totals", game)
    assert code == 3 and "already won by Anna" in err and game.read_bytes() == before


def test_totals_json_has_the_game(tmp_path, capsys):
    path = write(tmp_path / "r.json", unnamed_round(TURTLE, BEACH))
    code, out, _ = run(
        capsys, "score", path, "--players", "1=Anna", "2=Ben", "--totals", tmp_path / "g.json", "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["totals"]["totals"] == {"Anna": 3, "Ben": 0}
    assert report["totals"]["file"].endswith("g.json")


@pytest.mark.parametrize(
    ("setup", "reason", "exit_code"),
    [
        (lambda t: write(t / "r.json", unnamed_round(TURTLE, TURTLE)), "not over yet: not added", 3),
        (
            lambda t: (
                write(t / "g.json", {"format": 1}) and write(t / "r.json", unnamed_round(TURTLE, BEACH))
            ),
            "not a Snorkeling game file",
            3,
        ),
        (
            lambda t: (
                write(t / "g.json", {"format": 1, "game": "snorkeling", "players": ["X", "Y"], "rounds": []})
                and write(t / "r.json", unnamed_round(TURTLE, BEACH))
            ),
            "are not those of g.json",
            3,
        ),
    ],
)
def test_totals_refuse_what_cannot_be_added(tmp_path, capsys, setup, reason, exit_code):
    setup(tmp_path)
    code, _, err = run(capsys, "score", tmp_path / "r.json", "--totals", tmp_path / "g.json")
    assert code == exit_code and reason in err and err.count("\n") == 1


def test_totals_never_write_over_an_input(tmp_path, capsys):
    path = write(tmp_path / "r.json", unnamed_round(TURTLE, BEACH))
    before = path.read_bytes()
    code, _, err = run(capsys, "score", path, "--totals", path)
    assert code == 2 and "never writes over an input" in err and path.read_bytes() == before


@pytest.mark.parametrize(
    ("board", "reason"),
    [
        ({"format": 1, "game": "snorkeling"}, 'needs "players"'),
        (unnamed_round(TURTLE, {"value": 7, "color": "red"}), "player 2: top: a card's value is 0 to 5"),
        (unnamed_round(TURTLE, {"value": 3, "color": "pink"}), "needs a colour"),
    ],
)
def test_bad_boards_get_one_line_and_exit_3(tmp_path, capsys, board, reason):
    path = write(tmp_path / "bad.json", board)
    code, out, err = run(capsys, "score", path)
    assert code == 3 and out == "" and err.startswith("scorecam: ") and reason in err and err.count("\n") == 1


def test_totals_take_the_games_target_and_refuse_a_before_that_disagrees(tmp_path, capsys):
    game = write(
        tmp_path / "g.json",
        {
            "format": 1,
            "game": "snorkeling",
            "target": 6,
            "players": ["Anna", "Ben"],
            "rounds": [{"Anna": 4, "Ben": 1}],
        },
    )
    path = write(tmp_path / "r.json", unnamed_round(TURTLE, BEACH))
    code, out, err = run(capsys, "score", path, "-p", "1=Anna", "2=Ben", "--totals", game, "--json")
    report = json.loads(out)
    assert code == 0, err
    assert report["target"] == 6 and [p["total"] for p in report["players"]] == [7, 1]
    assert report["totals"]["winners"] == ["Anna"]
    late = write(tmp_path / "late.json", unnamed_round(TURTLE, BEACH) | {"before": {"diver 1": 3}})
    code, _, err = run(capsys, "score", late, "--totals", tmp_path / "new.json")
    assert code == 3 and "does not exist yet" in err and not (tmp_path / "new.json").exists()


def test_names_on_the_board_win_over_players(tmp_path, capsys):
    board = unnamed_round(TURTLE, BEACH)
    board["players"][0]["name"] = "Zoe"
    path = write(tmp_path / "r.json", board)
    code, out, _ = run(capsys, "score", path, "--players", "1=Anna", "2=Ben", "--json")
    assert code == 0 and [p["name"] for p in json.loads(out)["players"]] == ["Zoe", "Ben"]


def _without_central_pile(photo, out):
    """``photo`` with every card of its central pile painted over in the table's colour round it (the
    truth file beside it says where they lie), written to ``out``."""
    import cv2
    import numpy as np

    truth = json.loads(photo.with_suffix(".json").read_text())
    image = cv2.imread(str(photo))
    mask = np.zeros(image.shape[:2], np.uint8)
    for card in truth["centre"]:
        cv2.fillPoly(mask, [np.array(card["corners"], np.int32)], 255)
    ring = cv2.dilate(mask, np.ones((41, 41), np.uint8)) & ~mask
    image[cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0] = np.median(image[ring > 0], 0)
    cv2.imwrite(str(out), image)
    return out


def test_a_photo_s_notes_are_printed_as_notes_and_never_make_it_check(root, capsys, tmp_path):
    # doubts about the central pile are notes, printed after the flags: the samples as they are, and
    # the first with its central pile painted over (the shipped models read every sample's surely)
    from vision.photo_io import read_photo
    from vision.snorkeling import read_round

    samples = sorted((root / "samples" / "snorkeling").glob("*.jpg"))
    hidden = _without_central_pile(samples[0], tmp_path / "no-central-pile.jpg")
    noted = []
    for photo in [*samples, hidden]:
        _, reading = read_round(read_photo(photo))
        code, out, err = run(capsys, "score", photo, "--game", "snorkeling", "--json")
        assert code == 0, err
        report = json.loads(out)
        assert report["notes"] == list(reading.notes)
        assert report["flags"] == list(reading.flags)
        assert report["status"] == ("check" if reading.flags else "ok")
        code, text, _ = run(capsys, "score", photo, "--game", "snorkeling")
        assert [line[len("note: ") :] for line in text.splitlines() if line.startswith("note: ")] == report[
            "notes"
        ]
        if report["notes"]:
            noted.append(photo)
    assert hidden in noted
    _, reading = read_round(read_photo(hidden))
    assert reading.notes == ("Central pile not found (it scores nobody)",) and not reading.flags

"""`scorecam score` on board files: tables, JSON reports and the error contract."""

import json
import subprocess
import sys

import pytest

from scorecam.cli import main

TURN = "samples/boards/kathrin-peter-turn.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_turn_table_has_the_rulebooks_line_items(root, capsys):
    code, out, err = run(capsys, "score", str(root / TURN))
    assert code == 0 and err == ""
    lines = {line.split("  ")[0]: line.split() for line in out.splitlines() if "  " in line}
    assert lines["Animals"][-2:] == ["+2", "+4"]
    assert lines["Landscapes"][-2:] == ["+22", "+10"]
    assert lines["Volcanoes"][-2:] == ["-3", "0"]
    assert lines["Empty Spaces / Misconnections"][-2:] == ["0", "-3"]
    assert lines["Jumped Out 1st"][-2:] == ["+4", "0"]
    assert lines["Sum"][-2:] == ["+25", "+11"]
    assert "11 enclosed landscapes (4 forest, 4 plains, 3 desert), 3 volcanoes (the most)" in out


def test_json_report_has_the_keys_of_the_design(root, capsys):
    code, out, _ = run(capsys, "score", "--json", str(root / TURN))
    report = json.loads(out)
    assert code == 0
    assert set(report) == {"format", "game", "players"}
    kathrin = report["players"][0]
    assert set(kathrin) >= {
        "name", "valid", "animals", "scoring_landscapes", "volcanoes", "empty_spaces",
        "misconnections", "first_out", "points", "total", "details",
    }  # fmt: skip
    assert set(kathrin["details"]) >= {"invalid_edges", "misconnection_pairs", "landscapes"}
    assert [p["total"] for p in report["players"]] == [25, 11]


def test_a_lone_island_is_a_turn_of_one_player_named_after_its_file(root, tmp_path, capsys):
    turn = json.loads((root / TURN).read_text())
    island = {"format": 1, "game": "mondo", **turn["players"][1]["island"]}
    path = tmp_path / "peter.json"
    path.write_text(json.dumps(island))
    code, out, _ = run(capsys, "score", "--json", str(path))
    report = json.loads(out)
    assert code == 0 and report["players"][0]["name"] == "peter"
    # alone, Peter's 2 volcanoes are the most: 4 + 10 - 2 - 3
    assert report["players"][0]["total"] == 9


def test_mediterraneo_sea_report(root, capsys):
    code, out, _ = run(
        capsys, "score", "--json", str(root / "samples/boards/mediterraneo-octopus-example.json")
    )
    report = json.loads(out)
    assert code == 0
    assert {"species", "octopuses", "players", "objectives_legal", "round_over", "leader"} <= set(report)
    assert report["species"]["ray"] == 4


def test_several_files_print_a_table_each(root, capsys):
    code, out, _ = run(
        capsys, "score", str(root / TURN), str(root / "samples/boards/mediterraneo-round-over.json")
    )
    assert code == 0
    assert out.count("== ") == 2
    assert "Round over: circle wins the round" in out


@pytest.mark.parametrize(
    "content,reason",
    [
        (b'{"format": 1, "game": ', "broken JSON at line 1"),
        (b"", "empty file"),
        (b"\xff\xd8\xff\xe0 not json", "not a text file"),
        (b'{"format": 1, "game": "mondo", "grid": 3, "tiles": [{"row": 0, "col": 0, '
         b'"edges": {"N": "lava", "E": "water", "S": "water", "W": "water"}}]}',
         "impossible board: tile (0, 0): edge N has unknown terrain 'lava'"),
        (b'{"format": 1, "game": "chess"}', "impossible board: 'game' must be one of mondo, mediterraneo"),
        (b"[1, 2]", "impossible board: a board must be a JSON object"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_naming_the_file_with_exit_3(tmp_path, capsys, content, reason):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(capsys, "score", str(path))
    assert code == 3
    assert err.count("\n") == 1
    assert err.startswith(f"scorecam: {path}: ") and reason in err


def test_a_missing_file_and_a_folder(tmp_path, capsys):
    code, _, err = run(capsys, "score", str(tmp_path / "nope.json"), str(tmp_path))
    assert code == 3
    assert "nope.json: no such file" in err and "is a folder" in err


def test_one_bad_file_does_not_stop_the_others(root, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, out, err = run(capsys, "score", str(bad), str(root / TURN))
    assert code == 3
    assert "+25" in out and "bad.json" in err


def test_usage_errors_exit_2_scoped_to_the_command(capsys):
    code, out, err = run(capsys, "score")
    assert code == 2 and out == ""
    assert "Usage: scorecam score [OPTIONS] FILE..." in err and "Missing argument 'FILE...'" in err
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and "No such command 'frobnicate'" in err


def test_the_console_script_prints_no_traceback(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": 1, "game": "mondo", "grid": 3, "tiles": [{"row": 9}]}')
    result = subprocess.run(
        [sys.executable, "-m", "scorecam", "score", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 3
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"scorecam: {bad}: impossible board: tile #1 lacks 'col', 'edges'"


def test_every_sample_board_scores(root, capsys):
    boards = sorted((root / "samples/boards").glob("*.json"))
    assert len(boards) >= 7
    code, out, err = run(capsys, "score", *map(str, boards))
    assert code == 0 and err == ""
    assert out.count("== ") == len(boards)


def test_game_table_names_the_winner(root, capsys):
    code, out, _ = run(capsys, "score", str(root / "samples/boards/mondo-game.json"))
    assert code == 0
    assert "Total        57     61" in out and "Winner: Peter" in out


def test_plays_table_draws_the_visible_sea(root, capsys):
    code, out, _ = run(capsys, "score", str(root / "samples/boards/mediterraneo-plays.json"))
    assert code == 0
    assert "All 4 plays keep the placement rules" in out
    assert "oc>" in out and "gul" in out


def test_an_illegal_play_names_the_play_and_the_rule(root, tmp_path, capsys):
    data = json.loads((root / "samples/boards/mediterraneo-plays.json").read_text())
    data["plays"][2]["x"] = 9  # the third card now lies away from the others
    path = tmp_path / "plays.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "score", str(path))
    assert code == 3
    assert "impossible board: play 3 (C3" in err and "overlaps nothing" in err

"""The command line as a standard click CLI: usage errors scoped to the sub-command with suggestions,
one meaning per option, game names as a player types them, shell completion, and the usage
errors of `turn` and `synth` that used to be tracebacks (issue 13, defects 4 and 8)."""

import os
import subprocess
import sys

import click
import pytest

from scorecam.cli import cli, main, synth_options
from scorecam.commands.options import GAME, folded

ISLAND = "samples/boards/island-4x4.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_misspelled_option_is_scoped_to_its_command_and_suggests(capsys):
    code, out, err = run(capsys, "score", "--anotate", "x.png", "photo.jpg")
    assert code == 2 and out == ""
    assert "Usage: scorecam score [OPTIONS] FILE..." in err  # the sub-command's usage, not the top level
    assert "Did you mean '--annotate'?" in err
    assert "Traceback" not in err


def test_a_misspelled_command_suggests(capsys):
    code, _, err = run(capsys, "scroe", "photo.jpg")
    assert code == 2 and "No such command 'scroe'. Did you mean 'score'?" in err


@pytest.mark.parametrize("typed", ["Mondo", "MONDO", "mondo", "Mediterráneo", "mediterráneo", "MEDITERRANEO"])
def test_game_names_are_case_and_accent_insensitive(typed):
    expected = "mondo" if folded(typed) == "mondo" else "mediterraneo"
    assert GAME.convert(typed, None, None) == expected
    assert synth_options([typed, "-n", "3"])["game"] == expected


def test_an_unknown_game_is_a_usage_error_that_names_the_games(capsys, tmp_path):
    code, _, err = run(capsys, "kit", "chess", "-o", str(tmp_path / "kit"))
    assert (
        code == 2
        and "'chess' is not a game this command knows (mondo, mediterraneo, snorkeling or mediatore)" in err
    )
    assert not (tmp_path / "kit").exists()
    with pytest.raises(click.BadParameter, match="Did you mean 'mondo'"):
        GAME.convert("mundo", None, None)


def test_short_options_and_defaults():
    options = synth_options(["mondo", "-n", "3", "-s", "7", "-j", "2", "-o", "out"])
    assert (options["count"], options["seed"], options["jobs"], str(options["out"])) == (3, 7, 2, "out")
    assert synth_options(["mondo"])["out"] is None  # the command writes to synth-GAME then


def test_help_says_the_defaults_and_the_shell_completion(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "Photograph the table, get the score." in out and "examples:" in out
    assert "exit codes: 0 scored, 1 some inputs failed (batch), 2 usage" in out
    assert "_SCORECAM_COMPLETE=bash_source scorecam" in out
    for command, default in (("batch", "scorecam-results.csv"), ("kit", "kit-GAME"), ("synth", "synth-GAME")):
        code, out, _ = run(capsys, command, "--help")
        # the help wraps long lines, at a hyphen too ("scorecam-" / "results.csv"): compare without spaces
        assert code == 0 and default in "".join(out.split()), command


def test_json_is_a_switch_everywhere_and_a_file_is_out(capsys, tmp_path):
    # eval: --out FILE writes the figures; --json takes no value, so a file after it is an extra argument
    code, _, err = run(capsys, "eval", str(tmp_path), "--json", str(tmp_path / "figures.json"))
    assert code == 2 and "unexpected extra argument" in err
    for name, command in cli.commands.items():
        options = {opt: param for param in command.params for opt in param.opts}
        if "--json" in options:
            assert options["--json"].is_flag, name
        if "--out" in options:
            assert not options["--out"].is_flag and "-o" in options, name
    assert {"score", "turn", "eval"} <= {
        n for n, c in cli.commands.items() if any("--json" in p.opts for p in c.params)
    }


def test_shell_completion_completes_game_names(root):
    env = dict(os.environ, _SCORECAM_COMPLETE="bash_complete", COMP_WORDS="scorecam kit M", COMP_CWORD="2")
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from scorecam.cli import main; sys.exit(main())"],
        capture_output=True, text=True, env=env, cwd=root, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0
    assert "plain,mondo" in result.stdout and "plain,mediterraneo" in result.stdout


# ------------------------------------------------------------------------------- turn (defect 4)


def test_a_player_named_twice_is_a_usage_error(capsys):
    code, out, err = run(capsys, "turn", "Kathrin=a.jpg", "Kathrin=b.jpg")
    assert code == 2 and out == ""
    assert "player 'Kathrin' is named twice" in err and "Traceback" not in err


def test_a_turn_of_more_players_than_a_turn_can_have_is_a_usage_error(root, capsys):
    island = str(root / ISLAND)
    code, out, err = run(capsys, "turn", *(f"P{i}={island}" for i in range(51)))
    assert code == 2 and out == "" and "51 players; a turn has at most 50" in err


def test_first_is_matched_exactly_and_a_case_slip_is_pointed_out(root, capsys):
    island = str(root / ISLAND)
    code, _, err = run(capsys, "turn", "--first", "kathrin", f"Kathrin={island}", f"Peter={island}")
    assert code == 2
    assert "--first 'kathrin' is not one of the players (Kathrin, Peter); did you mean 'Kathrin'?" in err
    code, _, err = run(capsys, "turn", "-f", "Zed", f"Kathrin={island}")
    assert code == 2 and "did you mean" not in err
    code, out, _ = run(capsys, "turn", "--json", "-f", "Kathrin", f"Kathrin={island}", f"Peter={island}")
    assert code == 0 and '"first_out": true' in out


def test_a_malformed_player_is_a_usage_error(capsys):
    code, _, err = run(capsys, "turn", "kathrin.jpg")
    assert code == 2 and "'kathrin.jpg' is not NAME=FILE" in err


# ------------------------------------------------------------------------------ synth (defect 4)


@pytest.mark.parametrize(
    "options, says",
    [
        (["--long-side", "10"], "'--long-side': must be 64 to 4000, not 10"),
        (["-n", "0"], "0 is not in the range x>=1"),
        (["--contact-sheet", "sheet.txt"], "the sheet is a .jpg or .png file"),
        (["--tables", "velvet"], "unknown table families ['velvet']"),
    ],
)
def test_synth_usage_errors_come_before_any_folder_is_made(tmp_path, capsys, options, says):
    out = tmp_path / "s"
    code, stdout, err = run(capsys, "synth", "mondo", "--n", "1", "--out", str(out), *options)
    assert code == 2 and stdout == ""
    assert "Usage: scorecam synth" in err and says in err and "Traceback" not in err
    assert not out.exists()


def test_main_returns_the_exit_code_of_help_and_version(capsys):
    assert main(["--version"]) == 0 and "scorecam" in capsys.readouterr().out
    assert main(["turn", "-h"]) == 0 and "NAME=FILE" in capsys.readouterr().out


def test_a_bug_is_one_line_and_its_own_exit_code_not_a_traceback(root, capsys, monkeypatch):
    import scorecam.inputs

    def broken(data, path):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(scorecam.inputs, "score_board_data", broken)
    code, out, err = run(capsys, "score", str(root / ISLAND))
    assert code == 70 and out == "" and "Traceback" not in err
    assert err.splitlines() == [
        "scorecam: internal error (ZeroDivisionError: a bug); please report it (SCORECAM_DEBUG=1 shows where)"
    ]

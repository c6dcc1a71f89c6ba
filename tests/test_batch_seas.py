"""`scorecam batch` over Mediterráneo sea photos (issue 9, item 7): the objectives come from an
objectives.txt beside the photos or from `batch --objectives/--first`; rows whose totals are the
truth's, a table of the sea's own columns, a failure row naming what is missing, and --resume."""

from __future__ import annotations

import csv
import json
import pickle
import shutil
from pathlib import Path

import pytest

from scorecam.batch import find_jobs, run_batch
from scorecam.batch.games import FIELDS, table_path
from scorecam.batch.seas import OBJECTIVES_FILE, objectives_in, parse_sea_objectives, run_objectives
from scorecam.cli import main
from scorecam.errors import Exit

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mediterraneo"
SEA_A = SAMPLES / "mediterraneo-s9900-00000.jpg"  # read exactly, nothing to check
SEA_B = SAMPLES / "mediterraneo-s9900-00004.jpg"  # read exactly, nothing to check


def truth(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


def objectives_words(photo: Path) -> list[str]:
    board = truth(photo)["board"]
    return [f"{p}={o['plus']}/{o['minus']}" for p, o in board["objectives"].items()]


def objectives_text(photo: Path) -> str:
    return (
        " ".join(objectives_words(photo)) + f"\nfirst={truth(photo)['board']['first']}  # who chose first\n"
    )


def truth_totals(photo: Path) -> dict[str, str]:
    return {p["name"]: str(p["total"]) for p in truth(photo)["report"]["players"]}


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def totals_by_photo(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for row in rows:
        out.setdefault(Path(row["source"]).name, {})[row["player"]] = row["total"]
    return out


def test_two_seas_with_their_objectives_txt_score_as_their_truth_and_resume_keeps_them(tmp_path):
    folder = tmp_path / "club"
    for name, photo in (("round-1", SEA_A), ("round-2", SEA_B)):
        (folder / name).mkdir(parents=True)
        shutil.copy(photo, folder / name / photo.name)
        (folder / name / OBJECTIVES_FILE).write_text(objectives_text(photo))
    out = tmp_path / "results.csv"
    summary = run_batch(folder, out, None, jobs=1)
    assert (summary.players_scored, summary.inputs_failed) == (4, 0)
    rows = rows_of(out)
    assert all(row["status"] == "ok" for row in rows)
    assert totals_by_photo(rows) == {SEA_A.name: truth_totals(SEA_A), SEA_B.name: truth_totals(SEA_B)}
    table = table_path(out, "mediterraneo")
    seas = rows_of(table)
    assert list(seas[0]) == FIELDS["mediterraneo"]
    for row in seas:
        photo = SEA_A if Path(row["source"]).name == SEA_A.name else SEA_B
        player = next(p for p in truth(photo)["report"]["players"] if p["name"] == row["player"])
        assert (row["plus"], row["minus"], row["total"]) == (
            player["plus"],
            player["minus"],
            str(player["total"]),
        )
        assert row["points_plus"] == str(player["points"]["plus"])
        assert row["chose_first"] == str(row["player"] == truth(photo)["board"]["first"])
        assert row["objectives_from"].endswith(OBJECTIVES_FILE)
    before = (out.read_bytes(), table.read_bytes())
    again = run_batch(folder, out, None, jobs=1, resume=True)
    assert again.skipped == 2 and again.players_scored == 4
    assert (out.read_bytes(), table.read_bytes()) == before


def test_a_sea_without_objectives_is_a_failure_naming_what_is_missing(tmp_path):
    from sea_photo_edits import hide_objective_cards  # the objective cards are read when they show

    folder = tmp_path / "in"
    folder.mkdir()
    hide_objective_cards(SEA_A, folder / "sea.jpg")
    out = tmp_path / "results.csv"
    summary = run_batch(folder, out, None, jobs=1)
    (row,) = rows_of(out)
    assert summary.inputs_failed == 1 and row["status"] == "failed"
    assert "looks like a Mediterráneo sea" in row["error"] and "no objectives" in row["error"]
    assert OBJECTIVES_FILE in row["error"] and "--objectives" in row["error"]
    assert "4 fish" in row["error"]  # the species counts are still reported
    assert not table_path(out, "mediterraneo").exists()


def test_the_runs_objectives_score_a_sea_and_a_folders_objectives_txt_wins_over_them(tmp_path, capsys):
    folder = tmp_path / "in"
    (folder / "other").mkdir(parents=True)
    shutil.copy(SEA_B, folder / SEA_B.name)  # scored by the run's --objectives
    shutil.copy(SEA_A, folder / "other" / SEA_A.name)  # by its own objectives.txt
    (folder / "other" / OBJECTIVES_FILE).write_text(objectives_text(SEA_A))
    out = tmp_path / "results.csv"
    args = ["batch", str(folder), "-o", str(out), "-j", "1", "--objectives", *objectives_words(SEA_B)]
    code = main([*args, "--first", truth(SEA_B)["board"]["first"]])
    said = capsys.readouterr().out
    assert code == Exit.SCORED, said
    assert "scored 4 players" in said and "0 inputs failed" in said
    assert totals_by_photo(rows_of(out)) == {SEA_A.name: truth_totals(SEA_A), SEA_B.name: truth_totals(SEA_B)}


def test_a_broken_objectives_txt_fails_its_seas_with_its_reason(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SEA_B, folder / "sea.jpg")
    (folder / OBJECTIVES_FILE).write_text("circle=ray/fish square=whale/ray\n")
    out = tmp_path / "results.csv"
    run_batch(folder, out, None, jobs=1)
    (row,) = rows_of(out)
    assert row["status"] == "failed"
    assert f"{OBJECTIVES_FILE}: unknown species 'whale'" in row["error"]


def test_a_folder_with_objectives_txt_holds_seas_not_a_mondo_turn(tmp_path):
    folder = tmp_path / "in" / "table-3"
    folder.mkdir(parents=True)
    for name in ("a.jpg", "b.jpg"):
        shutil.copy(SEA_A, folder / name)
    assert [job.turn for job in find_jobs(tmp_path / "in")] == ["table-3"]  # several photos: a turn
    (folder / OBJECTIVES_FILE).write_text(objectives_text(SEA_A))
    jobs = find_jobs(tmp_path / "in", run_objectives(tuple(objectives_words(SEA_B)), None))
    assert [(job.turn, job.files[0].name) for job in jobs] == [("", "a.jpg"), ("", "b.jpg")]
    assert all(job.sea == objectives_in(folder) for job in jobs)  # the folder's, not the run's
    assert pickle.loads(pickle.dumps(jobs)) == jobs  # they travel to worker processes and Ray


def test_objectives_words_as_a_file_and_the_command_line_give_them():
    sea = parse_sea_objectives(["circle=ray/fish, square=turtle/ray", "first=square"], "x")
    assert sea.objectives == (("circle", "ray", "fish"), ("square", "turtle", "ray"))
    assert sea.first == "square"
    assert list(sea.options()["objectives"]) == ["circle", "square"]
    with pytest.raises(ValueError, match="players are circle and square"):
        parse_sea_objectives(["circle=ray/fish square=turtle/ray first=triangle"], "x")
    with pytest.raises(ValueError, match="names no objectives"):
        parse_sea_objectives(["first=circle"], "x")
    with pytest.raises(ValueError, match="both players"):
        parse_sea_objectives(["circle=ray/fish"], "x")
    assert run_objectives((), None) is None
    with pytest.raises(ValueError, match="--first needs --objectives"):
        run_objectives((), "circle")
    assert run_objectives(("circle=ray/fish", "square=turtle/ray"), "square").first == "square"


def test_a_stray_argument_is_still_a_usage_error(tmp_path, capsys):
    code = main(["batch", str(tmp_path), "-o", str(tmp_path / "r.csv"), "extra"])
    assert code == Exit.USAGE
    assert "unexpected extra argument (extra)" in capsys.readouterr().err

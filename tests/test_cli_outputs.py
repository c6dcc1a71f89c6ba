"""What the command line writes and prints: never over an input (defect 1), the truth files beside
sample photos skipped and Mediterráneo photos named (defect 7), the provisional volcano penalty of
an island scored alone (defect 3), batch's summary (defect 5), and plain text wherever colour is
not wanted."""

import io
import json
import shutil

import cv2
import numpy as np
import pytest

import scorecam.batch
from scorecam.cli import main
from scorecam.commands.annotated import MARK, marked, written_by_scorecam
from scorecam.progress import Progress
from scorecam.tables import check_lines, report_layout, show

PHOTO = "samples/mondo/mondo-s9900-00000.jpg"
TURN = "samples/boards/kathrin-peter-turn.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_photos(root, tmp_path):
    a, b = tmp_path / "a.jpg", tmp_path / "b.jpg"
    shutil.copy(root / PHOTO, a)
    shutil.copy(root / PHOTO, b)
    return a, b


# ---------------------------------------------------------------- never over an input (defect 1)


def test_annotate_taken_as_a_switch_does_not_destroy_a_photo(two_photos, capsys):
    a, b = two_photos
    before = a.read_bytes()
    code, out, err = run(capsys, "score", "--annotate", str(a), str(b))
    assert code == 2 and out == ""
    assert "scorecam did not draw it" in err and "-a annotated/" in err
    assert a.read_bytes() == before


def test_an_output_that_is_an_input_is_refused_before_any_work(two_photos, capsys, monkeypatch):
    a, _ = two_photos
    before = a.read_bytes()
    monkeypatch.setattr("scorecam.photos.score_photo_file", lambda *a, **k: pytest.fail("read a photo"))
    code, _, err = run(capsys, "score", "-a", str(a), str(a))
    assert code == 2 and "that is the input" in err and "never writes over an input" in err
    link = a.with_name("link.png")
    link.symlink_to(a)
    code, _, err = run(capsys, "score", "-a", str(link), str(a))
    assert code == 2 and "that is the input" in err
    assert a.read_bytes() == before


def test_several_photos_need_a_folder_not_a_png(two_photos, capsys, tmp_path):
    code, _, err = run(capsys, "score", "-a", str(tmp_path / "two.png"), *map(str, two_photos))
    assert code == 2 and "2 photos need a folder for their pictures, not one .png file" in err
    assert not (tmp_path / "two.png").exists()


@pytest.mark.parametrize("name", ["out.txt", "island.gif"])
def test_an_annotate_suffix_that_is_no_picture_is_a_usage_error(two_photos, capsys, tmp_path, name):
    code, _, err = run(capsys, "score", "-a", str(tmp_path / name), str(two_photos[0]))
    assert code == 2 and "the picture is a .png, .jpg or .jpeg file (or a folder)" in err
    assert not (tmp_path / name).exists()


def test_a_turn_annotate_folder_cannot_be_a_png(root, capsys, tmp_path):
    photo = str(root / PHOTO)
    code, _, err = run(capsys, "turn", "-a", str(tmp_path / "turn.png"), f"Ann={photo}", f"Ben={photo}")
    assert code == 2 and "a turn's pictures go into a folder" in err


def test_scorecam_marks_its_pictures_and_replaces_only_those(two_photos, capsys, tmp_path):
    a, _ = two_photos
    folder = tmp_path / "annotated"
    code, out, _ = run(capsys, "score", "-a", str(folder), str(a))
    picture = folder / "a-annotated.png"
    assert code == 0 and f"annotated picture: {picture}" in out
    assert written_by_scorecam(picture) and not written_by_scorecam(a)
    assert cv2.imread(str(picture)) is not None
    code, _, _ = run(capsys, "score", "-a", str(picture), str(a))  # its own picture: replaced
    assert code == 0


def test_the_mark_keeps_pngs_and_jpegs_valid():
    image = np.random.default_rng(1).integers(0, 255, (40, 60, 3), np.uint8)
    for suffix in (".png", ".jpg"):
        data = marked(cv2.imencode(suffix, image)[1].tobytes(), suffix)
        assert MARK in data[:512]
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert decoded.shape == image.shape
    png = marked(cv2.imencode(".png", image)[1].tobytes(), ".png")
    assert np.array_equal(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), image)


def test_eval_out_may_not_be_a_truth_file(root, tmp_path, capsys):
    shutil.copy(root / PHOTO, tmp_path / "p.jpg")
    truth = tmp_path / "p.json"
    shutil.copy((root / PHOTO).with_suffix(".json"), truth)
    before = truth.read_bytes()
    code, _, err = run(capsys, "eval", str(tmp_path), "-o", str(truth))
    assert code == 2 and "never writes over an input" in err
    assert truth.read_bytes() == before


# ---------------------------------------------------------------- samples and seas (defect 7)


def test_the_simulators_truth_beside_a_photo_is_skipped_not_failed(root, tmp_path, capsys):
    photo = tmp_path / "mondo-s9900-00000.jpg"
    truth = photo.with_suffix(".json")
    shutil.copy(root / PHOTO, photo)
    shutil.copy((root / PHOTO).with_suffix(".json"), truth)
    code, out, err = run(capsys, "score", str(truth), str(root / TURN))
    assert code == 0 and "+25" in out
    assert err == f"scorecam: {truth}: simulator truth for {photo.name}, not a board (skipped)\n"
    photo.unlink()  # without its photo beside it, the same file is scored (and refused) as a board
    code, _, err = run(capsys, "score", str(truth))
    assert code == 3 and "simulator truth" not in err


def test_a_mediterraneo_photo_is_named_as_a_sea(root, capsys, tmp_path):
    from sea_photo_edits import hide_objective_cards  # the objective cards are read when they show

    sample = sorted((root / "samples/mediterraneo").glob("*.jpg"))[0]
    photo = hide_objective_cards(sample, tmp_path / "sea.jpg")
    code, out, err = run(capsys, "score", str(photo))
    assert code == 2 and out == ""
    assert err.startswith(f"scorecam: {photo}: a sea of 25 visible cells (") and err.count("\n") == 1
    assert "no objectives to score it by" in err and "pass --objectives" in err


def test_the_sea_hint_finds_cells_in_a_sea_and_none_in_an_island(root):
    from vision.photo_io import read_photo
    from vision.sea_hint import looks_like_mediterraneo, sea_cells

    sea = sorted((root / "samples/mediterraneo").glob("*.jpg"))[1]
    assert looks_like_mediterraneo(read_photo(sea, 600).image)
    assert sea_cells(read_photo(root / PHOTO, 600).image) < 2
    plain_table = np.full((480, 640, 3), (150, 110, 60), np.uint8)  # a blue table, nothing on it
    assert not looks_like_mediterraneo(plain_table)


# ------------------------------------------------------------- an island alone (defect 3)


def test_an_island_scored_alone_says_its_volcano_penalty_is_provisional(root, tmp_path, capsys):
    turn = json.loads((root / TURN).read_text())
    island = tmp_path / "kathrin.json"
    island.write_text(json.dumps({"format": 1, "game": "mondo", **turn["players"][0]["island"]}))
    code, out, _ = run(capsys, "score", str(island))
    assert code == 0
    assert "note: kathrin: the volcano penalty (-3) is provisional" in out and "scorecam turn" in out
    code, out, _ = run(capsys, "score", "--json", str(island))
    notes = json.loads(out)["notes"]
    assert len(notes) == 1 and "provisional" in notes[0] and "scorecam turn" in notes[0]
    code, out, _ = run(capsys, "score", "--json", str(root / TURN))  # a whole turn: nothing provisional
    assert "notes" not in json.loads(out)


def test_an_island_without_volcanoes_has_nothing_provisional(root, tmp_path, capsys):
    island = json.loads((root / "samples/boards/island-4x4.json").read_text())
    for tile in island["tiles"]:
        tile["volcanoes"] = 0
    path = tmp_path / "calm.json"
    path.write_text(json.dumps(island))
    code, out, _ = run(capsys, "score", "--json", str(path))
    report = json.loads(out)
    assert code == 0 and report["players"][0]["points"]["volcanoes"] == 0 and "notes" not in report


# -------------------------------------------------------------------- batch summary (defect 5)


@pytest.mark.parametrize(
    "counts, code, says",
    [
        ({"players_scored": 12, "players_to_check": 7}, 0, "scored 12 players, 7 to check (status 'check'), 0 inputs failed"),
        ({"players_scored": 3, "inputs_failed": 1}, 1, "scored 3 players, 0 to check (status 'check'), 1 input failed"),
        ({"players_scored": 2, "turns_incomplete": 1}, 1, "1 turn incomplete"),
        ({"players_scored": 2, "skipped": 5}, 0, "5 already in the output (skipped)"),
    ],
)  # fmt: skip
def test_the_batch_summary_counts_readings_to_check(tmp_path, capsys, monkeypatch, counts, code, says):
    calls = []

    def fake_batch(folder, csv_path, jsonl_path, **options):
        calls.append(options)
        return scorecam.batch.BatchSummary(**counts)

    monkeypatch.setattr(scorecam.batch, "run_batch", fake_batch)
    out_csv = tmp_path / "r.csv"
    got, out, _ = run(capsys, "batch", str(tmp_path), "-o", str(out_csv), "-j", "2", "--resume", "--ray")
    assert got == code and says in out and f"results in {out_csv} and {tmp_path / 'r.jsonl'}" in out
    assert {k: calls[0][k] for k in ("jobs", "resume", "ray", "grid")} == {
        "jobs": 2, "resume": True, "ray": "auto", "grid": None,
    }  # fmt: skip


def test_batch_defaults_to_every_core_without_ray(tmp_path, capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(
        scorecam.batch, "run_batch", lambda *a, **k: calls.append((a, k)) or scorecam.batch.BatchSummary()
    )
    monkeypatch.chdir(tmp_path)
    assert main(["batch", str(tmp_path), "--ray", "ray://head:10001"]) == 0
    (folder, csv_path, jsonl), options = calls[0]
    assert str(csv_path) == "scorecam-results.csv" and jsonl is None
    assert options["jobs"] is None and options["ray"] == "ray://head:10001"


# --------------------------------------------------------------------------- plain and colour


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_no_escape_codes_when_piped_or_under_no_color(root, monkeypatch, capsys):
    report = json.loads((root / TURN).read_text())
    from scoring.boards import score_board

    layout = report_layout(score_board(report, name="turn"))
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    terminal = Terminal()
    show(layout, terminal)
    assert "\x1b[" in terminal.getvalue()  # a terminal gets colour ...
    monkeypatch.setenv("NO_COLOR", "1")
    plain_terminal = Terminal()
    show(layout, plain_terminal)
    assert "\x1b" not in plain_terminal.getvalue() and "Sum" in plain_terminal.getvalue()
    monkeypatch.delenv("NO_COLOR")
    code, out, _ = run(capsys, "score", str(root / TURN))  # ... a pipe never
    assert code == 0 and "\x1b" not in out and "Sum" in out


def test_each_flag_whose_second_reading_changes_the_score_says_the_total_it_would_give():
    flag = "Row 1, tile 2: is the right edge forest or plains? (61% / 37%) — if plains: +2 points"
    same = "Row 2, tile 1: is the top edge forest or plains? (55% / 45%) — if plains: no change to the score"
    report = {
        "flags": ["the island's grid was guessed", flag, same],
        "checks": [
            {"text": flag, "total_if_second": 27, "change": 2},
            {"text": same, "total_if_second": 25, "change": 0},
        ],
    }
    assert check_lines(report) == [
        "  the island's grid was guessed",
        f"  {flag} (total 27)",
        f"  {same}",  # no change: the total would only repeat the score
    ]
    assert check_lines({"flags": [flag]}) == [f"  {flag}"]  # flags as they come


def test_progress_draws_only_on_a_terminal():
    piped = io.StringIO()
    bar = Progress("work", 3, stream=piped)
    bar(1)
    bar(3, 3)
    assert piped.getvalue() == "" and bar.elapsed >= 0
    terminal = Terminal()
    bar = Progress("work", 0, stream=terminal)
    bar(1, 2)
    bar(2)
    assert "work" in terminal.getvalue() and "2/2" in terminal.getvalue()


def test_a_closed_pipe_ends_quietly(root, monkeypatch):
    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", Closed())
    assert main(["score", str(root / TURN)]) == 0


def test_a_batch_that_cannot_start_is_not_exit_1(tmp_path, capsys):
    code, _, err = run(capsys, "batch", str(tmp_path / "missing"))
    assert code == 2 and "does not exist" in err

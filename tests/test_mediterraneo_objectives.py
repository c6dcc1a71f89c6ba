"""The two objective cards beside a Mediterráneo sea, read from the photo (issue 9, item 2): the
sample photos' cards read as their truth, `scorecam score` scoring a sea by them, given objectives
overriding them, a card cut off or missing flagged (never a silently wrong total), the eval's
figures, and the reference faces the reader matches against."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sea_photo_edits import cut_off_objective_card, hide_objective_cards, objective_corners, truth_of

from scorecam.cli import main
from scorecam.evaluate_mediterraneo import eval_table, figures, measure_photo
from scoring.mediterraneo import Objective, score_sea, sea_from_json
from vision.mediterraneo.objectives import FACES_FILE, load_faces
from vision.mediterraneo.reader import first_unseen, read_sea
from vision.onnx_model import models_dir
from vision.photo_io import read_photo

ROOT = Path(__file__).resolve().parents[1]
SEA_SAMPLES = sorted((ROOT / "samples" / "mediterraneo").glob("*.jpg"))


def truth_objectives(photo: Path) -> dict[str, tuple[str, str]]:
    return {p: (o["plus"], o["minus"]) for p, o in truth_of(photo)["board"]["objectives"].items()}


def truth_totals(photo: Path) -> dict[str, int]:
    return {p["name"]: p["total"] for p in truth_of(photo)["report"]["players"]}


def totals(report: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in report["players"]}


def score_json(capsys, *args: str) -> tuple[int, dict | None, str]:
    code = main(["score", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


@pytest.fixture(scope="module")
def sample_readings():
    return {photo: read_sea(read_photo(photo)) for photo in SEA_SAMPLES}


def test_the_sample_seas_objective_cards_read_as_their_truth_and_where_they_lie(sample_readings):
    assert len(SEA_SAMPLES) == 10
    for photo, (sea, reading) in sample_readings.items():
        cards = reading.objectives
        assert cards is not None and reading.objectives_from == "read", photo.name
        read = {c.player: (c.objective.plus, c.objective.minus) for c in cards.cards}
        assert read == truth_objectives(photo), photo.name
        assert all(c.sure for c in cards.cards) and not cards.flags, (photo.name, cards.flags)
        assert {p: (o.plus, o.minus) for p, o in sea.objectives} == truth_objectives(photo)
        for c in cards.cards:  # each read card's corners on its printed corners, in the reader's view
            truth = objective_corners(photo)[c.player] / read_photo(photo).scale
            side = np.linalg.norm(truth[1] - truth[0])
            nearest = np.linalg.norm(truth[:, None] - c.quad[None], axis=2).min(1)
            # (0.15: the lattice of the 2026-12-04 locator puts one corner of sample 6's circle card
            # 0.136 of a side off, where the lattice's perspective is extrapolated; the card reads right)
            assert nearest.max() < 0.15 * side, (photo.name, c.player, nearest)


def test_the_annotated_picture_outlines_each_card_read_and_says_the_objectives_were_read(sample_readings):
    from scorecam.sea_picture import annotate_sea, plan_sea_picture, sea_panel_lines
    from scoring.mediterraneo import sea_report_to_json, sea_to_json

    photo = SEA_SAMPLES[0]
    sea, reading = sample_readings[photo]
    report = sea_report_to_json(score_sea(sea)) | {
        "board": sea_to_json(sea),
        "flags": list(reading.all_flags),
        "objectives_from": "read",
    }
    image = read_photo(photo).image  # the view the reading's quads are in
    quads = np.array([r.quad for r in reading.readings], np.float32)
    cards = [(c.words(), c.quad, c.sure) for c in reading.objectives.cards]
    plain = annotate_sea(image, reading.readings, quads, report)
    marked = annotate_sea(image, reading.readings, quads, report, cards)
    for c in reading.objectives.cards:  # sure cards: a white outline along each edge
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
            x, y = np.round((c.quad[a] + c.quad[b]) / 2).astype(int)
            assert tuple(marked[y, x]) == (255, 255, 255) and tuple(plain[y, x]) != (255, 255, 255)
    lines = sea_panel_lines(report, plan_sea_picture(reading.readings, quads, report, image.shape))
    assert sum("(read from its card)" in line.text for line in lines) == 2


def test_score_without_objectives_reads_the_cards_and_scores_the_truth_totals(capsys):
    photo = SEA_SAMPLES[0]
    code, report, err = score_json(capsys, str(photo))
    assert code == 0, err
    assert report["status"] == "ok" and report["flags"] == []
    assert report["objectives_from"] == "read" and report["first_from"] == "assumed"
    assert totals(report) == truth_totals(photo)
    assert report["board"]["objectives"] == truth_of(photo)["board"]["objectives"]
    read = {c["player"]: (c["plus"], c["minus"]) for c in report["objective_cards"]}
    assert read == truth_objectives(photo)
    assert "objectives" in report["timing_ms"]


def test_given_objectives_override_the_cards_read(capsys):
    photo = SEA_SAMPLES[0]
    truth = truth_objectives(photo)
    # each player given the other's objective: what the cards show must not count
    given = [f"circle={'/'.join(truth['square'])}", f"square={'/'.join(truth['circle'])}"]
    code, report, err = score_json(capsys, str(photo), "--objectives", *given, "--first", "square")
    assert code == 0, err
    assert report["objectives_from"] == "given" and report["objective_cards"] == []
    assert {p["name"]: (p["plus"], p["minus"]) for p in report["players"]} == {
        "circle": truth["square"],
        "square": truth["circle"],
    }
    board = sea_from_json(truth_of(photo)["board"])
    swapped = {"circle": Objective(*truth["square"]), "square": Objective(*truth["circle"])}
    expected = score_sea(type(board)(board.cells, swapped, "square"))
    assert totals(report) == {p.name: p.total for p in expected.players}


def test_a_card_cut_off_by_the_photos_edge_is_read_but_makes_the_photo_check(tmp_path, capsys):
    photo = SEA_SAMPLES[2]
    cut = cut_off_objective_card(photo, tmp_path / "cut.jpg", "square")
    assert cut is not None  # a quarter of the square card lies beyond the cropped photo's edge
    code, report, err = score_json(capsys, str(cut))
    assert code == 0, err
    assert report["status"] == "check"
    assert any("square objective card" in f and "cut off" in f for f in report["flags"]), report["flags"]
    sure = {c["player"]: c["sure"] for c in report["objective_cards"]}
    assert sure == {"circle": True, "square": False}


def test_a_photo_with_an_objective_card_hidden_names_the_missing_card(tmp_path, capsys):
    photo = SEA_SAMPLES[0]
    hidden = hide_objective_cards(photo, tmp_path / "one-card.jpg", ("square",))
    _, reading = read_sea(read_photo(hidden))
    assert reading.status == "check" and reading.objectives.missing() == ("square",)
    assert any("square objective card was not found" in f for f in reading.all_flags)
    code = main(["score", str(hidden)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no objectives to score it by" in err
    plus, minus = truth_objectives(photo)["circle"]
    assert "square objective card is not in the photo" in err and f"circle read as {plus}/{minus}" in err
    assert "--objectives" in err


def test_batch_scores_a_sea_photo_by_its_cards_where_no_objectives_are_given(tmp_path):
    import csv
    import shutil

    from scorecam.batch import run_batch
    from scorecam.batch.games import table_path

    photo = SEA_SAMPLES[0]
    (tmp_path / "in").mkdir()
    shutil.copy(photo, tmp_path / "in" / photo.name)
    out = tmp_path / "results.csv"
    summary = run_batch(tmp_path / "in", out, None, jobs=1)
    assert (summary.players_scored, summary.inputs_failed) == (2, 0)
    with table_path(out, "mediterraneo").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert {r["player"]: int(r["total"]) for r in rows} == truth_totals(photo)
    assert {r["player"]: (r["plus"], r["minus"]) for r in rows} == truth_objectives(photo)
    assert {r["objectives_from"] for r in rows} == {"read"} and {r["status"] for r in rows} == {"ok"}


def test_who_chose_first_is_taken_as_circle_unless_only_square_first_is_a_legal_choice():
    apart = {"circle": Objective("ray", "fish"), "square": Objective("turtle", "crab")}
    assert first_unseen(apart) == "circle"
    # square's plus is circle's minus (not the mirror): legal only with square choosing first
    objectives = {"circle": Objective("crab", "turtle"), "square": Objective("turtle", "ray")}
    assert first_unseen(objectives) == "square"


def test_eval_counts_the_objectives_read_and_the_totals_with_them():
    photo = SEA_SAMPLES[0]
    record = measure_photo(photo, truth_of(photo))
    assert record["objectives_right"] and record["totals_right_read"] and not record["flagged_read"]
    result = figures([record])
    assert result["objectives_read"] == 1.0 and result["totals_exact_read_objectives"] == 1.0
    assert result["wrong_unflagged_read_objectives"] == 0.0
    assert "objectives read" in eval_table(result)


def test_the_committed_reference_faces_are_what_the_builder_draws():
    from vision.training.mediterraneo_objective_faces import objective_faces

    path = models_dir() / FACES_FILE
    assert path.stat().st_size < 300_000
    faces = load_faces(str(path))
    drawn, cards = objective_faces(faces.px)
    assert np.array_equal(faces.faces, drawn.astype(np.float32))
    assert list(faces.cards) == cards and len(cards) == 16
    assert {c["frame"] for c in cards} == {"circle", "square"}


def test_the_reader_never_imports_the_simulator():
    code = (
        "import sys, vision.mediterraneo.reader, vision.mediterraneo.objectives; "
        "sys.exit(any(m.startswith('vision.synth') or m.startswith('vision.training') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


@pytest.mark.parametrize(("index", "circle", "square"), [(126, ("crab", "jellyfish"), ("turtle", "ray")),
                                                         (184, ("crab", "jellyfish"), ("fish", "ray"))])  # fmt: skip
def test_an_objective_card_under_a_hard_shadows_edge_is_read_in_the_shade_free_look(
    monkeypatch, index, circle, square
):
    """Stress photos of seed 9647 (development photos now) drawn again by the simulator: a hard
    shadow's edge runs across one objective card, which the plain look does not find at all."""
    from vision.mediterraneo import objectives
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    photo = decode_photo(make_scene("mediterraneo", 9647, index, 4000, world=World(stress=True)).jpeg)
    cards = read_sea(photo)[1].objectives
    read = {c.player: (c.objective.plus, c.objective.minus) for c in cards.cards}
    assert read == {"circle": circle, "square": square} and all(c.sure for c in cards.cards), cards.flags
    monkeypatch.setattr(objectives, "shade_free_faces", lambda faces: faces)  # the plain look again
    missing = read_sea(photo)[1].objectives.missing()
    assert missing and set(missing) < {"circle", "square"}

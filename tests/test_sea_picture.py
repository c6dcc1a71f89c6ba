"""The annotated picture of a Mediterráneo sea (issue 9, item 6): written by `scorecam score
--annotate` beside the report, never over an input, with a margin for the panel; every visible cell
labelled, an arrow from each octopus to the cell it touches coloured as what the engine says it
became, flagged cells numbered as the panel lists them, both objectives and totals and the round's
verdict in the panel. The sample photos are read once per module."""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scorecam.annotate import overlap
from scorecam.cli import main
from scorecam.commands.annotated import written_by_scorecam
from scorecam.sea_picture import annotate_sea, flag_marks, plan_sea_picture, sea_panel_lines
from scoring.mediterraneo import Sea, score_sea, sea_from_json, sea_report_to_json, sea_to_json
from scoring.sides import STEP
from vision.mediterraneo.reader import read_sea
from vision.photo_io import read_photo

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "mediterraneo"
NOTHING_SEA = SAMPLES / "mediterraneo-s9900-00004.jpg"  # 4 octopuses, 3 of them touch nothing
FLAGGED_SEA = SAMPLES / "mediterraneo-s9900-00001.jpg"  # 5 octopuses (read with a flag by older models)


def truth(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


def objectives_args(photo: Path) -> list[str]:
    board = truth(photo)["board"]
    pairs = [f"{p}={o['plus']}/{o['minus']}" for p, o in board["objectives"].items()]
    return ["--objectives", *pairs, "--first", board["first"]]


def read(photo: Path):
    """(view image, reading, report) of a sample, scored by its truth's objectives."""
    board = sea_from_json(truth(photo)["board"])
    view = read_photo(photo)
    _, reading = read_sea(view)
    sea = Sea(reading.cells, board.objectives, board.first)
    report = sea_report_to_json(score_sea(sea)) | {"board": sea_to_json(sea), "flags": list(reading.flags)}
    return view.image, reading, report


@pytest.fixture(scope="module")
def nothing_sea():
    return read(NOTHING_SEA)


@pytest.fixture(scope="module")
def flagged_sea():
    return read(FLAGGED_SEA)


@pytest.fixture(scope="module")
def one_cell_doubted(tmp_path_factory):
    """FLAGGED_SEA with the left 60% of cell (1, 11) (a fish) painted over in that part's own median
    colour: the one reading the reader then asks about."""
    from sea_photo_edits import paint_over_cell

    photo = tmp_path_factory.mktemp("doubted") / FLAGGED_SEA.name
    shutil.copy(FLAGGED_SEA.with_suffix(".json"), photo.with_suffix(".json"))
    view = read_photo(FLAGGED_SEA)
    _, reading = read_sea(view)
    (cell,) = [r for r in reading.readings if r.cell is not None and (r.cell.x, r.cell.y) == (1, 11)]
    assert cell.cell.content == "fish"
    paint_over_cell(FLAGGED_SEA, photo, cell.quad * view.scale, share=0.6)
    return read(photo)


def plan_of(sample):
    image, reading, report = sample
    quads = np.array([r.quad for r in reading.readings], np.float32)
    return plan_sea_picture(reading.readings, quads, report, image.shape)


def test_score_annotate_writes_a_png_larger_than_the_photo_and_leaves_the_photo_alone(tmp_path, capsys):
    photo = tmp_path / "sea.jpg"
    shutil.copy(FLAGGED_SEA, photo)
    before = hashlib.sha256(photo.read_bytes()).hexdigest()
    out = tmp_path / "pictures" / "sea.png"
    code = main(["score", str(photo), *objectives_args(FLAGGED_SEA), "--json", "--annotate", str(out)])
    said, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(said)
    assert report["annotated"] == str(out)
    assert {p["name"]: p["total"] for p in report["players"]} == {
        p["name"]: p["total"] for p in truth(FLAGGED_SEA)["report"]["players"]
    }
    with Image.open(out) as picture:
        assert picture.format == "PNG"
        picture.verify()
    with Image.open(out) as picture, Image.open(photo) as original:
        assert picture.width > original.width and picture.height >= original.height  # the panel's margin
    assert written_by_scorecam(out)
    assert hashlib.sha256(photo.read_bytes()).hexdigest() == before


def test_annotate_never_writes_over_an_input_or_a_file_scorecam_did_not_draw(tmp_path, capsys):
    photo = tmp_path / "sea.jpg"
    shutil.copy(NOTHING_SEA, photo)
    other = tmp_path / "holiday.png"
    other.write_bytes(b"\x89PNG not scorecam's")
    for target in (photo, other):
        before = target.read_bytes()
        code = main(["score", str(photo), *objectives_args(NOTHING_SEA), "--annotate", str(target)])
        _, err = capsys.readouterr()
        assert code == 2 and "--annotate" in err
        assert target.read_bytes() == before


def test_every_octopus_has_an_arrow_into_the_cell_it_touches_with_what_the_engine_says(nothing_sea):
    _, reading, report = nothing_sea
    plan = plan_of(nothing_sea)
    octopuses = {(o["x"], o["y"]): o for o in report["octopuses"]}
    assert len(octopuses) == 4 and sum(o["becomes"] is None for o in octopuses.values()) == 3
    assert {(a.x, a.y) for a in plan.arrows} == set(octopuses)
    quads = {(r.cell.x, r.cell.y): r.quad for r in reading.readings if r.cell is not None}
    for arrow in plan.arrows:
        engine = octopuses[(arrow.x, arrow.y)]
        assert (arrow.becomes, arrow.why) == (engine["becomes"], engine["why"])
        assert cv2.pointPolygonTest(quads[(arrow.x, arrow.y)].astype(np.float32), arrow.start, False) > 0
        dx, dy = STEP[arrow.points]
        touched = quads.get((arrow.x + dx, arrow.y + dy))
        if touched is not None:  # the arrow ends inside the touched cell
            assert cv2.pointPolygonTest(touched.astype(np.float32), arrow.end, False) > 0
        else:  # touches nothing: the arrow leaves the sea's cells
            assert engine["why"] == "touches nothing"
            assert all(
                cv2.pointPolygonTest(q.astype(np.float32), arrow.end, False) < 0 for q in quads.values()
            )


def test_every_visible_cell_has_one_label_and_no_label_covers_another(nothing_sea, flagged_sea):
    for sample in (nothing_sea, flagged_sea):
        _, reading, _ = sample
        plan = plan_of(sample)
        cell_labels = [label for label in plan.labels if label.kind not in ("axis", "check")]
        assert len(cell_labels) == len(reading.cells) == len(plan.outlines)
        assert sorted(label.kind for label in cell_labels) == sorted(c.content for c in reading.cells)
        assert {label.text for label in cell_labels if label.kind == "seagull"} <= {"gull"}
        for a, b in itertools.combinations(plan.labels, 2):
            assert overlap(a.box, b.box) == 0, (a, b)
        columns = {c.x for c in reading.cells}
        assert {label.text for label in plan.labels if label.kind == "axis" and label.text[0] == "x"} == {
            f"x={x}" for x in columns
        }


def test_flagged_cells_are_numbered_as_the_panel_lists_them(one_cell_doubted):
    _, reading, report = one_cell_doubted
    (flag,) = report["flags"]
    assert flag.startswith("Cell (1, 11): ")
    plan = plan_of(one_cell_doubted)
    (mark,) = plan.marks
    assert (
        mark.number == 1
        and reading.readings[mark.index].cell.x == 1
        and reading.readings[mark.index].cell.y == 11
    )
    (number,) = [label for label in plan.labels if label.kind == "check"]
    assert number.text == "1"
    q = reading.readings[mark.index].quad
    assert np.linalg.norm(np.array(number.anchor) - q.mean(0)) < np.linalg.norm(q[1] - q[0])
    panel = [line.text for line in sea_panel_lines(report, plan)]
    assert f"1. {flag}" in panel and "CHECK: 1 reading to look at" in panel
    # a flag about no cell is a note; a no-card cell is found by where it is
    near = reading.readings[mark.index].quad.mean(0).round().astype(int)
    marks, notes = flag_marks(
        [
            "The sea reaches the photo's edge: check",
            f"Cell near photo px ({near[0]}, {near[1]}): read as no card",
        ],
        reading.readings,
    )
    assert notes == ["The sea reaches the photo's edge: check"]
    assert [(m.number, m.index) for m in marks] == [(1, mark.index)]


def test_the_panel_gives_both_objectives_both_totals_the_round_and_who_leads(flagged_sea, nothing_sea):
    _, _, report = flagged_sea
    panel = [line.text for line in sea_panel_lines(report, plan_of(flagged_sea))]
    assert "circle (chose first): +2 crab, -1 jellyfish" in panel and "square: +2 ray, -1 fish" in panel
    assert "Total circle\t13" in panel and "Total square\t7" in panel
    assert "Round over (circle has 13 points): circle wins the round" in panel
    assert "(4, 4) -> jellyfish: touches a jellyfish at (5, 4)" in panel
    _, _, report = nothing_sea
    panel = [line.text for line in sea_panel_lines(report, plan_of(nothing_sea))]
    assert sum(text.endswith("-> nothing: touches nothing") for text in panel) == 3


def test_the_drawing_keeps_the_photo_away_from_the_sea_and_adds_the_margin(nothing_sea):
    image, reading, report = nothing_sea
    original = image.copy()
    quads = np.array([r.quad for r in reading.readings], np.float32)
    out = annotate_sea(image, reading.readings, quads, report)
    assert np.array_equal(image, original)  # the input is not drawn on
    assert out.shape[0] >= image.shape[0] and out.shape[1] >= image.shape[1] + 380
    corners = np.array([r.quad for r in reading.readings if r.cell is not None]).reshape(-1, 2)
    cell = float(np.linalg.norm(quads[0][1] - quads[0][0]))
    x0, y0 = (corners.min(0) - 2 * cell).astype(int).clip(0)
    x1, y1 = (corners.max(0) + 2 * cell).astype(int)
    away = np.ones(image.shape[:2], bool)
    away[y0:y1, x0:x1] = False
    h, w = image.shape[:2]
    assert np.array_equal(out[:h, :w][away], image[away])
    assert not np.array_equal(out[:h, :w], image)

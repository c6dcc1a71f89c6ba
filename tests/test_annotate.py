"""The annotated picture (scorecam/annotate.py): the panel in a margin beside an untouched photo,
labels that never cover each other, nothing drawn as scoring on an invalid island, and checks
numbered as the report numbers them."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest
from mondo_builders import F, W, full_forest_island, tile

from scorecam import annotate
from scorecam.annotate import (
    MAGENTA,
    CellMap,
    annotate_island,
    check_marks,
    overlap,
    panel_lines,
    plan_annotation,
)
from scoring.mondo import Island, score_turn, single_island_turn, turn_score_to_json
from vision.mondo.checks import Check, settle

HEIGHT, WIDTH, CELL, ORIGIN = 800, 1200, 120, (450, 250)
FOREST = full_forest_island(3, animals_at=((0, 0), (1, 1)), volcanoes_at=((1, 1), (2, 2)))
BROKEN = Island(3, tuple(tile(0, 0, F, F, F, W) if t.cell == (0, 0) else t for t in FOREST.tiles))


def quads(grid: int = 3) -> np.ndarray:
    x0, y0 = ORIGIN
    return np.array(
        [
            [[x0 + c * CELL, y0 + r * CELL], [x0 + (c + 1) * CELL, y0 + r * CELL],
             [x0 + (c + 1) * CELL, y0 + (r + 1) * CELL], [x0 + c * CELL, y0 + (r + 1) * CELL]]
            for r in range(grid)
            for c in range(grid)
        ],
        np.float32,
    )  # fmt: skip


def photo() -> np.ndarray:
    return np.random.default_rng(7).integers(0, 256, (HEIGHT, WIDTH, 3), dtype=np.uint8)


def player(island: Island) -> dict:
    return turn_score_to_json(score_turn(single_island_turn("Kathrin", island)))["players"][0]


def doubts(island: Island) -> tuple[Check, ...]:
    return settle(
        island,
        [
            Check(0, 1, "edge_E", (("forest", 0.61), ("plains", 0.37))),
            Check(1, 1, "animals", (("1", 0.55), ("0", 0.45))),
            Check(1, 1, "join_NE", (("no", 0.6), ("yes", 0.4))),
            Check(1, 1, "edge_W", (("forest", 0.6), ("desert", 0.4))),
            Check(1, 1, "volcanoes", (("1", 0.7), ("0", 0.3))),
            Check(2, 2, "present", (("tile", 0.6), ("empty", 0.4))),
        ],
    )


def plan_of(island: Island, checks=()):
    marks, notes = check_marks([c.text for c in checks], checks)
    return plan_annotation(island, CellMap(quads(), island.grid), (HEIGHT, WIDTH, 3), marks, notes)


def test_the_panel_lies_in_a_margin_and_the_photo_is_untouched_away_from_the_island():
    image = photo()
    checks = doubts(FOREST)
    out = annotate_island(image, FOREST, quads(), player(FOREST), [c.text for c in checks], checks=checks)
    assert out.shape[0] >= HEIGHT and out.shape[1] >= WIDTH + 380  # the picture grows by the margin
    assert np.array_equal(image, photo())  # the input is not drawn on
    # away from the island (and the numbers along its sides) every pixel of the photo is the photo's
    x0, y0 = ORIGIN
    away = np.ones((HEIGHT, WIDTH), bool)
    away[y0 - int(1.5 * CELL) : y0 + int(4.5 * CELL), x0 - int(1.5 * CELL) : x0 + int(4.5 * CELL)] = False
    assert np.array_equal(out[:HEIGHT, :WIDTH][away], image[away])
    assert not np.array_equal(out[:HEIGHT, :WIDTH], image)  # the island itself is drawn on


def test_the_panel_keeps_the_signature_the_cli_calls():
    flags = [c.text for c in doubts(FOREST)]
    out = annotate_island(photo(), FOREST, quads(), player(FOREST), flags)  # no structured checks
    assert out.shape[1] > WIDTH


def test_labels_never_cover_each_other():
    plan = plan_of(FOREST, doubts(FOREST))
    kinds = {label.kind for label in plan.labels}
    assert kinds == {"row", "tile", "landscape", "check", "animals", "volcanoes"}
    assert sum(label.kind == "landscape" for label in plan.labels) == 12
    for a, b in itertools.combinations(plan.labels, 2):
        assert overlap(a.box, b.box) == 0, (a, b)


def test_an_invalid_island_shows_nothing_as_scoring():
    assert not player(BROKEN)["valid"]
    valid, invalid = plan_of(FOREST), plan_of(BROKEN)
    assert any(label.kind == "landscape" for label in valid.labels)
    assert not any(label.kind == "landscape" for label in invalid.labels)
    assert "landscape" in valid.legend and "water_rule" not in valid.legend
    assert "water_rule" in invalid.legend and not {"landscape", "misconnection"} & set(invalid.legend)
    texts = [line.text for line in panel_lines(player(BROKEN), invalid)]
    assert "invalid: breaks the water rule" in texts
    assert not any(text.startswith(("Landscapes", "Animals", "Misconnections")) for text in texts)
    assert any(
        text.startswith("Landscapes") for text in (line.text for line in panel_lines(player(FOREST), valid))
    )

    # the edge that breaks the rule is drawn in magenta; a valid island has no magenta at all
    def magenta(island):
        out = annotate_island(np.zeros((HEIGHT, WIDTH, 3), np.uint8), island, quads(), player(island), ())
        return np.all(out[:HEIGHT, :WIDTH] == MAGENTA, axis=2)

    assert not magenta(FOREST).any()
    broken_edge = magenta(BROKEN)[ORIGIN[1] - 3 : ORIGIN[1] + 4, ORIGIN[0] : ORIGIN[0] + CELL]
    assert broken_edge.sum() > CELL  # along the top of row 1, tile 1


def test_checks_are_numbered_as_the_report_numbers_them():
    checks = doubts(FOREST)
    report = [c.to_json() for c in checks]
    flags = ["The grid is uncertain: check that every row and every tile of the island was found"]
    flags += [c.text for c in checks]
    from_checks, notes = check_marks(flags, checks)
    from_words, notes_from_words = check_marks(flags, None)  # only the flags' words: the same numbers
    assert notes == notes_from_words == flags[:1]
    assert [(m.number, m.row + 1, m.col + 1) for m in from_checks] == [
        (i, c["row"], c["tile"]) for i, c in enumerate(report, 1)
    ]
    assert [(m.number, m.row, m.col, m.text) for m in from_words] == [
        (m.number, m.row, m.col, m.text) for m in from_checks
    ]
    plan = plan_of(FOREST, checks)
    numbers = [label.text for label in plan.labels if label.kind == "check"]
    assert numbers == [str(i) for i in range(1, len(checks) + 1)]
    listed = [line.text for line in panel_lines(player(FOREST), plan) if line.kind == "check"]
    assert listed == [f"{i}. {c['text']}" for i, c in enumerate(report, 1)]


def test_text_is_drawn_with_the_bundled_font(monkeypatch):
    assert annotate.FONT_PATH.is_file()
    assert annotate.font(20).getname()[0] == "DejaVu Sans"

    def no_hershey(*args, **kwargs):
        raise AssertionError("cv2.putText used")

    monkeypatch.setattr(cv2, "putText", no_hershey)
    checks = doubts(FOREST)
    annotate_island(photo(), FOREST, quads(), player(FOREST), [c.text for c in checks], checks=checks)


@pytest.mark.parametrize("size", [1.0, 0.12])
def test_a_small_island_is_shown_enlarged_in_the_panel(size):
    cells = CellMap(quads() * size, 3)
    inset = annotate.island_inset(photo(), cells)
    assert (inset is None) == (size == 1.0)  # the island as big as it is: no inset
    if inset is not None:
        assert inset.shape[0] < HEIGHT / 2

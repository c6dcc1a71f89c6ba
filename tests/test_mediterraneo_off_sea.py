"""The sea reader's two guards against the misses of the dev photos (issue 9): an animal no card of
the kit explains is left out of the sea (flagged) where the locator is not sure of a sea card there or
where it lies on an objective card; a pale seagull read as "no card" still counts as a seagull, for
the reader where the locator saw a card and for the kit's seagull cards."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from sea_cell_probs import SURE_P
from sea_cell_probs import cell_probs as _probs
from sea_cell_probs import face as _face
from sea_cell_probs import visible_cells as _sea

from scorecam.sea_picture import flag_marks
from scoring.mediterraneo import Cell, Play
from vision.mediterraneo.cells import HEADS
from vision.mediterraneo.kit_decode import decode_sea
from vision.mediterraneo.reader import (
    GULL_SEEN,
    SEA_SURE,
    CellReading,
    _cells,
    _flags,
    _kit_readings,
    most_sea_cells,
)

MODEL = SimpleNamespace(heads=HEADS)


def _row(head: str, **p: float) -> np.ndarray:
    """A head's probabilities: the labels given, the rest spread evenly."""
    labels = HEADS[head]
    rest = (1 - sum(p.values())) / (len(labels) - len(p))
    return np.array([p.get(label, rest) for label in labels])


def _square(x: float, y: float, side: float = 10.0) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float)


def _lone_crab_sea(seen: bool, sea: float):
    """C2 upright, each cell 10 px from (20, 20), and a crab two cells off it that no card of 2 x 3 explains."""
    cells = _sea(Play(_face("C2"), 0, 0, 0)) + [Cell(4, 1, "crab", None, "square")]
    nodes = np.array([(c.x, c.y) for c in cells])
    quads = np.array([_square(20 + 10 * x, 20 + 10 * y) for x, y in nodes])
    readings = [CellReading(c, q, SURE_P, "fish 0.01") for c, q in zip(cells, quads, strict=True)]
    found = SimpleNamespace(
        nodes=nodes,
        quads=quads,
        seen=np.array([True] * (len(cells) - 1) + [seen]),
        sea_values=np.array([1.0] * (len(cells) - 1) + [sea]),
    )
    return cells, readings, found


@pytest.mark.parametrize(
    ("seen", "sea", "why"),
    [
        (False, 0.9, "the locator sees no card's centre there"),
        (True, SEA_SURE - 0.05, f"the locator is unsure of a sea card there ({SEA_SURE - 0.05:.2f})"),
    ],
)
def test_an_animal_no_card_explains_where_the_locator_is_unsure_is_left_out_and_flagged(seen, sea, why):
    cells, readings, found = _lone_crab_sea(seen, sea)
    kept, flags, _ = _kit_readings(MODEL, _probs(cells), found, readings, None)
    lone = kept[-1]
    assert lone.cell is None and lone.left_out
    assert [r.cell for r in kept[:-1]] == cells[:-1]  # the card's own cells stay
    assert flags == (
        f"Cell near photo px (65, 35): read as a crab (0.97) and left out of the sea: no card of the kit "
        f"shows it there and {why}: check it",
    )
    # one flag on the cell, not a second "read as no card" one; the picture marks it on the cell it
    # names (the sea left is one card's 6 cells, which says check of its own)
    assert [f for f in _flags(kept, found, (), (100, 100, 3)) if not f.startswith("Only 6 cells")] == []
    marks, notes = flag_marks(flags, kept)
    assert [m.index for m in marks] == [len(kept) - 1] and notes == []


def test_an_animal_no_card_explains_on_an_objective_card_is_left_out():
    cells, readings, found = _lone_crab_sea(True, 1.0)
    card = ("square", np.array([[60, 20], [80, 20], [80, 50], [60, 50]], float))
    kept, flags, _ = _kit_readings(MODEL, _probs(cells), found, readings, None, [card])
    assert kept[-1].cell is None
    assert flags[0].endswith(
        "no card of the kit shows it there and it lies on the square objective card: check it"
    )


def test_an_animal_the_locator_is_sure_of_stays_in_the_sea_flagged():
    cells, readings, found = _lone_crab_sea(True, SEA_SURE + 0.05)
    away = ("circle", np.array([[100, 100], [120, 100], [120, 130], [100, 130]], float))
    kept, flags, _ = _kit_readings(MODEL, _probs(cells), found, readings, None, [away])
    assert [r.cell for r in kept] == cells
    assert flags == ("Cell (4, 1): read as a crab (0.97), which no card of the kit shows there: check it",)


def test_a_seagull_no_card_explains_is_neither_flagged_nor_left_out():
    # a seagull scores as no card does: whatever explains it, no total changes
    cells, readings, found = _lone_crab_sea(False, 0.2)
    cells[-1] = Cell(4, 1, "seagull")
    readings[-1] = CellReading(cells[-1], readings[-1].quad, SURE_P, "crab 0.01")
    kept, flags, _ = _kit_readings(MODEL, _probs(cells), found, readings, None)
    assert [r.cell for r in kept] == cells and flags == ()


def test_a_cell_read_as_a_seagull_stays_one_where_the_kits_card_would_show_an_animal():
    # C2's other five cells pin the card; its sixth cell looks like a seagull to the model (0.8 with
    # "none") and little like the card's animal there: the card must not add that animal's points
    cells = _sea(Play(_face("C2"), 0, 0, 0))
    j = next(i for i, c in enumerate(cells) if c.content not in ("octopus", "seagull"))
    animal = cells[j].content
    probs = _probs(cells)
    probs["content"][j] = _row("content", seagull=0.55, none=0.25, **{animal: 0.1})
    probs["frame"][j] = _row("frame", circle=0.5, none=0.45)
    nodes = np.array([(c.x, c.y) for c in cells])
    assert decode_sea(nodes, np.ones(len(cells), bool), probs, HEADS).cells[j].cell.content == animal

    gull = Cell(cells[j].x, cells[j].y, "seagull")
    readings = [CellReading(c, _square(20 + 10 * c.x, 20 + 10 * c.y), SURE_P, "fish 0.01") for c in cells]
    readings[j] = CellReading(gull, readings[j].quad, 0.8, f"{animal} 0.10")
    found = SimpleNamespace(nodes=nodes, seen=np.ones(len(cells), bool), sea_values=np.ones(len(cells)))
    kept, flags, _ = _kit_readings(MODEL, probs, found, readings, None)
    assert [r.cell for r in kept] == [*cells[:j], gull, *cells[j + 1 :]]
    assert flags == (
        f"Cell ({gull.x}, {gull.y}): read as a seagull (0.80), though the card of the kit that fits there "
        f"shows a {animal}: check it",
    )


def test_a_seen_cell_read_as_no_card_with_a_seagulls_chance_is_a_seagull():
    nodes = np.array([(0, 0), (1, 0), (2, 0), (3, 0)])
    pale = _row("content", none=0.9, seagull=GULL_SEEN + 0.02)
    table = _row("content", none=0.995, seagull=GULL_SEEN / 10)
    probs = {
        "content": np.array([pale, pale, table, _row("content", fish=0.97)]),
        "points": np.full((4, 4), 0.25),
        "frame": np.array([_row("frame", none=0.9)] * 3 + [_row("frame", circle=0.9)]),
    }
    found = SimpleNamespace(
        nodes=nodes,
        quads=np.array([_square(10 * x, 0) for x, _ in nodes]),
        seen=np.array([True, False, True, True]),  # the second: no card's centre seen there
        sea_values=np.ones(4),
    )
    readings = _cells(MODEL, probs, found)
    assert [r.cell.content if r.cell else None for r in readings] == ["seagull", None, None, "fish"]
    assert readings[0].confidence > 0.9  # a seagull or no card: one outcome, and a sure one


def test_the_kit_places_a_seagull_card_whose_pale_cells_the_model_reads_as_no_card():
    # S9's seagull side over the lower right of C2; the model reads its visible cells as "no card"
    # mostly, and one of them as a crab more than as the table (a pale gull on a misplaced crop)
    cells = _sea(Play(_face("C2"), 0, 0, 0), Play(_face("S9", "back"), 1, 1, 0))
    gulls = [i for i, c in enumerate(cells) if c.content == "seagull"]
    assert len(gulls) == 6
    probs = _probs(cells)
    for i in gulls:
        probs["content"][i] = _row("content", none=0.7, seagull=0.1)
    crab_like = gulls[0]
    probs["content"][crab_like] = _row("content", crab=0.6, none=0.38, seagull=0.005)
    probs["frame"][crab_like] = _row("frame", square=0.5, none=0.45)
    assert HEADS["content"][int(np.argmax(probs["content"][crab_like]))] == "crab"  # head by head
    nodes = np.array([(c.x, c.y) for c in cells])

    decoded = decode_sea(nodes, np.ones(len(cells), bool), probs, HEADS)

    assert [c.cell for c in decoded.cells] == cells
    assert decoded.cells[crab_like].card in ("C9", "S9")
    assert {p.face for p in decoded.placements} == {"front", "back"}


def test_a_sea_larger_than_the_kit_can_make_says_the_table_was_read_as_cards():
    assert most_sea_cells() == 18 * 6
    for n, flagged in ((most_sea_cells(), False), (most_sea_cells() + 1, True)):
        cells = [Cell(i % 20, i // 20, "fish", None, "circle") for i in range(n)]
        readings = [CellReading(c, _square(20 + 10 * c.x, 20 + 10 * c.y), SURE_P, "ray 0.01") for c in cells]
        found = SimpleNamespace(seen=np.ones(n, bool), sea_values=np.ones(n))
        flags = _flags(readings, found, (), (1000, 1000, 3))
        assert flags == (
            (f"The sea read holds {n} cells, more than the kit's cards can show (108): the table's "
             "pattern was taken for cards; check the photo",) if flagged else ()
        )  # fmt: skip

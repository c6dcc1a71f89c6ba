"""The sea locator on degenerate lattices and rare paths: a hard photo gives "no sea found" or a
flagged reading, never an exception, and `scorecam eval` records a reading that raises as a failure
and goes on.

The locator net is replaced by a stand-in that sees a cell centre wherever the photo has a bright
dot, so the geometry after it runs on hand-made photos with known cells (60 px apart).
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.mediterraneo.locate as locate
from scorecam import evaluate_mediterraneo
from scoring.mediterraneo import Cell, Objective, Sea, sea_to_json
from vision.errors import PhotoError
from vision.lattice import LatticeFit, fit_lattice
from vision.locator_net import LocatorModel
from vision.photo_io import Photo

CELL = 60.0  # view px between cell centres
STRIDE, OFFSET = 4, 1.5  # the stand-in's map px j lies at picture px j * 4 + 1.5 (a 4 px block's middle)
VIEW = (400, 800)  # (h, w): twice as wide as high, so the second pass's square-ish region is told apart
GRID = np.array([(400 + (i - 1.5) * CELL, 200 + (j - 1.5) * CELL) for i in range(4) for j in range(4)])
# What fit_lattice returned on stress photo 00007 of seed 9621: a least-squares fit to nodes on one
# line maps the whole photo onto that line (its second row is zero), so G has no inverse.
LINE_G = np.array([[1 / CELL, 0.0, -310 / CELL], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def _model() -> LocatorModel:
    meta = {
        "input": {"long_side": 512, "cell_px": 24.0},
        "outputs": {"maps": {"channels": ["sea", "centres"], "stride": STRIDE, "offset": OFFSET}},
    }
    return LocatorModel(session=None, meta=meta)  # type: ignore[arg-type]


def _photo(centres: np.ndarray) -> Photo:
    """A dark photo with a bright blob at each cell centre."""
    h, w = VIEW
    yy, xx = np.mgrid[0:h, 0:w]
    light = np.zeros((h, w), np.float64)
    for x, y in centres:
        light = np.maximum(light, np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 10.0**2)))
    image = np.repeat((255 * light).astype(np.uint8)[..., None], 3, axis=2)
    return Photo(image=image, scale=1.0, size=(w, h), format="PNG")


def _stand_in_net(second_pass_blind: bool = False):
    """run_net's stand-in: the sea everywhere, a centre where the picture is bright. Blind: it sees no
    centre in the second pass's region (a picture not shaped like the whole photo)."""

    def run(model: LocatorModel, picture: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = picture.shape[:2]
        size = (math.ceil(w / STRIDE), math.ceil(h / STRIDE))
        centres = cv2.resize(picture.max(axis=2).astype(np.float32) / 255, size, interpolation=cv2.INTER_AREA)
        if second_pass_blind and w / h < 1.5:
            centres[:] = 0.0
        return np.ones_like(centres), centres

    return run


def _line_fit(pts: np.ndarray) -> LatticeFit:
    """A degenerate fit of `pts`: every point an inlier on its own node of one line, as much support
    as the true lattice's (one node a point) and found first."""
    n = len(pts)
    nodes = np.column_stack([np.arange(n), np.zeros(n, int)])
    return LatticeFit(LINE_G, nodes, np.ones(n, bool), np.zeros(n))


def test_cell_size_of_a_degenerate_lattice_is_none_not_an_error():
    assert locate.cell_px_at(LINE_G, np.array([2.0, 0.0]), 800) is None  # no inverse
    assert locate.cell_px_at(np.full((3, 3), np.nan), np.zeros(2), 800) is None
    # cells wider than the photo, or a sliver a few hundredths of a px wide: no sea lies on them
    assert locate.cell_px_at(np.diag([1 / 2000, 1 / 2000, 1.0]), np.zeros(2), 800) is None
    assert locate.cell_px_at(np.diag([1 / CELL, 30.0, 1.0]), np.zeros(2), 800) is None
    # beyond the horizon of a perspective lattice (w = 0 at x = 1): no finite cell
    horizon = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    assert locate.cell_px_at(horizon, np.array([-0.5, 0.0]), 800) is None
    square = np.diag([1 / CELL, 1 / CELL, 1.0])
    assert locate.cell_px_at(square, np.array([3.0, 2.0]), 800) == pytest.approx(CELL)


def test_a_fit_on_one_line_is_not_usable():
    assert not locate.usable(_line_fit(GRID[:5]), 800)
    assert not locate.usable(None, 800)
    good = fit_lattice(GRID)
    assert good is not None and locate.usable(good, 800)


def test_a_degenerate_fit_gives_way_to_the_true_lattice(monkeypatch):
    """Stress photo 00007: the first pass's fit (a line, singular G) had the most support and stopped
    `eval` on the whole folder with a LinAlgError in cell_size; the other pass's lattice is read."""
    calls = []

    def first_fit_on_a_line(pts, tol=0.3, start=None):
        calls.append(start is None)
        return _line_fit(pts) if len(calls) == 1 else fit_lattice(pts, tol, start)

    monkeypatch.setattr(locate, "run_net", _stand_in_net())
    monkeypatch.setattr(locate, "fit_lattice", first_fit_on_a_line)
    found, _ = locate.locate_sea(_photo(GRID), _model())
    assert found.seen.sum() == 16
    block = {(x, y) for x in (1, 2, 3, 4) for y in (1, 2, 3, 4)}  # the ring of cells around from (0, 0)
    assert {tuple(n) for n in found.nodes[found.seen].tolist()} == block
    assert found.cell_px == pytest.approx(CELL, rel=0.05)


def test_only_degenerate_fits_mean_no_sea(monkeypatch):
    monkeypatch.setattr(locate, "run_net", _stand_in_net())
    monkeypatch.setattr(locate, "fit_lattice", lambda pts, tol=0.3, start=None: _line_fit(pts))
    with pytest.raises(PhotoError) as error:
        locate.locate_sea(_photo(GRID), _model())
    assert error.value.kind == "no_board" and error.value.reason == locate.NO_SEA


def test_a_second_pass_with_too_few_cells_keeps_the_first(monkeypatch):
    """Stress photo 00030: the second pass found too few cells and `maps` was never bound."""
    monkeypatch.setattr(locate, "run_net", _stand_in_net(second_pass_blind=True))
    found, _ = locate.locate_sea(_photo(GRID), _model())
    assert found.seen.sum() == 16
    assert found.cell_px == pytest.approx(CELL, rel=0.05)
    # the first pass's sea map is the one sampled: the stand-in sees sea everywhere
    assert np.allclose(found.sea_values, 1.0)


def test_a_row_of_cells_alone_is_no_sea(monkeypatch):
    """Centres on one line: no lattice in two directions, so no sea (never an exception)."""
    monkeypatch.setattr(locate, "run_net", _stand_in_net())
    row = np.array([(250 + i * CELL, 200.0) for i in range(6)])
    with pytest.raises(PhotoError) as error:
        locate.locate_sea(_photo(row), _model())
    assert error.value.kind == "no_board"


def test_eval_records_a_reading_that_raises_and_goes_on(monkeypatch, tmp_path: Path):
    import vision.mediterraneo.reader as reader
    import vision.photo_io as photo_io

    def singular(*_, **__):
        return np.linalg.inv(np.zeros((3, 3)))

    monkeypatch.setattr(photo_io, "read_photo", lambda path: _photo(GRID))
    monkeypatch.setattr(reader, "read_sea", singular)
    board = Sea(
        (Cell(0, 0, "fish", None, "circle"), Cell(1, 0, "ray", None, "square")),
        {"circle": Objective("ray", "fish"), "square": Objective("turtle", "crab")},
        "circle",
    )
    record = evaluate_mediterraneo.measure_photo(tmp_path / "sea.jpg", {"board": sea_to_json(board)})
    assert record["found"] is False and record["cells"] == 2
    assert record["raised"].startswith("LinAlgError: Singular matrix at ")
    assert "in singular" in record["raised"]
    result = evaluate_mediterraneo.figures([record])
    assert result["seas_found"] == 0.0
    assert result["raised"] == [{"photo": "sea.jpg", "raised": record["raised"]}]
    table = evaluate_mediterraneo.eval_table(result)
    assert "readings that raised (bugs)" in table and f"  sea.jpg: {record['raised']}" in table

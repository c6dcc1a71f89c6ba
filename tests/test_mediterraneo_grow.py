"""The sea's region looked at again while the sea found in it grows (issue 9, stress photos): a first
look at the whole photo can see only some of a small sea's cards (those of one frame, in bad light),
and the second pass looked only 1.5 cells around them. And the objective cards fitted closely to the
mean face (a homography), where the lattice's perspective, extrapolated beyond the sea, is off.

The locator net is replaced by a stand-in (as in test_mediterraneo_locate_faults): it sees a cell
centre wherever the picture has a bright dot, but on the whole photo only the sea's left four columns.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from test_mediterraneo_locate_faults import STRIDE, _model, _photo

import vision.mediterraneo.locate as locate
from vision.mediterraneo.objectives import ALIGN_MOVE, _align, load_faces

CELL = 60.0
COLUMNS, ROWS = 10, 4
SEA = np.array([(130 + i * CELL, 110 + j * CELL) for i in range(COLUMNS) for j in range(ROWS)])
SEEN_FIRST = 4  # columns the whole-photo look sees


def _half_blind_net():
    """run_net's stand-in: the sea everywhere; centres where the picture is bright, but on the whole
    photo (a picture twice as wide as high, as the 400 x 800 view is) none right of the fourth column."""

    def run(model, picture: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = picture.shape[:2]
        size = (math.ceil(w / STRIDE), math.ceil(h / STRIDE))
        centres = cv2.resize(picture.max(axis=2).astype(np.float32) / 255, size, interpolation=cv2.INTER_AREA)
        if abs(w / h - 2.0) < 0.02:  # the whole photo
            cut = (130 + (SEEN_FIRST - 0.5) * CELL) / 800 * size[0]
            centres[:, int(cut) :] = 0.0
        return np.ones_like(centres), centres

    return run


def _seen_columns(found: locate.FoundSea) -> int:
    xs = found.nodes[found.seen][:, 0]
    return int(xs.max() - xs.min() + 1)


def test_the_second_pass_grows_with_the_sea_it_finds(monkeypatch):
    monkeypatch.setattr(locate, "run_net", _half_blind_net())
    found, _ = locate.locate_sea(_photo(SEA), _model())
    # the first second pass reaches one column beyond the four seen; each pass after it one more
    assert _seen_columns(found) == SEEN_FIRST + locate.GROW_PASSES
    assert found.seen.sum() == ROWS * (SEEN_FIRST + locate.GROW_PASSES)
    assert found.cell_px == pytest.approx(CELL, rel=0.05)
    monkeypatch.setattr(locate, "GROW_PASSES", 1)  # the reader before: one second pass only
    found, _ = locate.locate_sea(_photo(SEA), _model())
    assert _seen_columns(found) == SEEN_FIRST + 1


def test_a_pass_whose_lattice_fits_worse_or_that_finds_too_little_is_not_taken(monkeypatch):
    monkeypatch.setattr(locate, "run_net", _half_blind_net())
    real = locate._second_pass
    calls = []

    def loose_after_the_first(*args):
        """Grown passes whose centres lie a quarter cell off their nodes (a patterned table's dots)."""
        out = real(*args)
        calls.append(out)
        if out is None or len(calls) == 1:
            return out
        fit, seen, maps, nodes = out
        rng = np.random.default_rng(len(calls))
        return fit, seen + rng.choice([-1, 1], seen.shape) * 0.25 * CELL, maps, nodes

    monkeypatch.setattr(locate, "_second_pass", loose_after_the_first)
    found, _ = locate.locate_sea(_photo(SEA), _model())
    assert len(calls) == 2  # the second pass, then one grown pass refused
    assert _seen_columns(found) == SEEN_FIRST + 1
    assert locate._doubt(found.g, np.zeros((0, 2))) == 0.0

    monkeypatch.setattr(locate, "_second_pass", real)
    monkeypatch.setattr(locate, "GROW_MIN", ROWS + 1)  # a column more is too little: stop after one
    found, _ = locate.locate_sea(_photo(SEA), _model())
    assert _seen_columns(found) == SEEN_FIRST + 1


# ---------------------------------------------------------------------------------- objective cards


def _card_window(h: np.ndarray, margin: int, template: np.ndarray) -> np.ndarray:
    """A window with the mean face drawn through `h` (face px -> window px) on a mid-grey table."""
    th, tw = template.shape[:2]
    size = (tw + 2 * margin, th + 2 * margin)
    face = cv2.warpPerspective(template, h, size, flags=cv2.INTER_LINEAR, borderValue=0)
    mask = cv2.warpPerspective(np.ones_like(template), h, size, flags=cv2.INTER_NEAREST, borderValue=0)
    return np.where(mask > 0, face, 110.0).astype(np.float32)


def test_the_card_is_fitted_to_the_mean_face_where_it_lies_in_perspective():
    faces = load_faces()
    template = cv2.cvtColor(faces.mean_face(faces.px), cv2.COLOR_BGR2GRAY)
    th, tw = template.shape[:2]
    margin = 9
    # the card where the lattice put it (margin, margin) but lying 3 px right, a little turned and
    # nearer the camera at its bottom (wider there)
    true = np.array([[1.04, 0.05, margin + 3.0], [-0.03, 1.02, margin + 1.0], [0.0, 0.0015, 1.0]])
    window = _card_window(true, margin, template)
    got = _align(window, template, margin, margin)
    assert got is not None
    box = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
    from vision.lattice import apply_h

    assert np.abs(apply_h(got, box) - apply_h(true, box)).max() < 1.0  # px
    start = np.array([[1.0, 0, margin], [0, 1.0, margin], [0, 0, 1]])
    assert np.abs(apply_h(start, box) - apply_h(true, box)).max() > 3.0  # where it began: off


def test_no_fit_on_a_blank_window_or_one_that_moves_the_card_far():
    faces = load_faces()
    template = cv2.cvtColor(faces.mean_face(faces.px), cv2.COLOR_BGR2GRAY)
    th, tw = template.shape[:2]
    assert _align(np.full((th + 18, tw + 18), 110.0, np.float32), template, 9, 9) is None
    # the face lies far off where it was looked for: no fit is taken (the card read as found stands)
    far = ALIGN_MOVE * tw + 6
    window = _card_window(np.array([[1.0, 0, 9 + far], [0, 1.0, 9.0], [0, 0, 1]]), int(far) + 12, template)
    assert _align(window, template, 9, 9) is None

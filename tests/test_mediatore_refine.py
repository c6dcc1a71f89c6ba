"""How the Mediatore reader mends the locator's rough corner boxes: the axis from the edges round a
box (``vision.mediatore.refine``), the size from the corners near it read surely (the reader's second
pass), and how the zoomed look sizes the photo's boxes (``locate._typical_long``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.mediatore.crops import Spot, box_spot
from vision.mediatore.locate import Corner, _typical_long
from vision.mediatore.reader import SURE, _read_corners, _read_looks, load_corner_model
from vision.mediatore.refine import NEIGHBOURS, local_long, refine_axes
from vision.photo_io import read_photo
from vision.synth.mediatore_scene import SHOWN

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples" / "mediatore").glob("*.jpg"))


def _shown(photo_path: Path):
    """The photo and (card, truth box in view px) of every corner whose index shows."""
    truth = json.loads(photo_path.with_suffix(".json").read_text())
    photo = read_photo(photo_path)
    shown = [
        (c["card"], box_spot(np.array(c["corner_boxes"][w]) / photo.scale))
        for c in truth["cards"]
        for w, share in c["uncovered"].items()
        if share >= SHOWN
    ]
    return photo, shown


def _quarter_error(a: float, b: float) -> float:
    """Degrees between two axes, modulo a quarter turn (the reader reads both)."""
    return abs((a - b + 45.0) % 90.0 - 45.0)


@pytest.mark.parametrize("photo_path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_an_axis_20_degrees_off_is_turned_onto_the_boxs_edges(photo_path):
    photo, shown = _shown(photo_path)
    off = [replace(s, angle=s.angle + (20.0 if i % 2 else -20.0)) for i, (_, s) in enumerate(shown)]
    refined = refine_axes(photo, off)
    errors = np.array([_quarter_error(r.angle, s.angle) for r, (_, s) in zip(refined, shown, strict=True)])
    assert errors.max() < 15.0 and np.median(errors) < 7.0, errors.round(1)  # from 20 degrees each
    # only the axis changes
    assert [(r.x, r.y, r.long) for r in refined] == [(s.x, s.y, s.long) for s in off]


def test_refine_axes_of_nothing_is_nothing():
    assert refine_axes(read_photo(SAMPLES[0]), []) == []


@pytest.mark.parametrize("photo_path", SAMPLES[1:], ids=[p.stem for p in SAMPLES[1:]])
def test_a_corner_cut_too_small_and_turned_is_read_at_its_neighbours_size(photo_path):
    # five corners as a rough locator gives them: 0.6 of their size and 20 degrees off; the others
    # as they are
    photo, shown = _shown(photo_path)
    model = load_corner_model()
    spoiled = [replace(s, long=s.long * 0.6, angle=s.angle + 20.0) for _, s in shown[:5]]
    truth = [card for card, _ in shown[:5]]
    alone = [r.card.id if r.card else None for r in _read_looks(photo, model, spoiled)]
    reads = _read_corners(photo, model, spoiled + [s for _, s in shown[5:]])
    mended = [r.card.id if r.card else None for r in reads[:5]]
    assert mended == truth
    lost = [a != t for a, t in zip(alone, truth, strict=True)]
    assert any(lost)  # read as cut, some are lost ...
    for r, (_, s), was_lost in zip(reads[:5], shown[:5], lost, strict=True):
        # ... and those are read again at their neighbours' size, unless the axis turned onto the
        # edges was enough to read them surely where they were cut
        if was_lost and r.spot.long < 0.8 * s.long:
            assert r.confidence >= SURE


def test_a_boxs_long_side_is_the_median_of_its_nearest_sure_corners():
    near = [Spot(100.0 + i, 100.0, long, 0.0) for i, long in enumerate((40.0, 42.0, 44.0, 46.0, 48.0))]
    far = [Spot(2000.0, 2000.0, 10.0, 0.0)] * 6  # small boxes across the photo do not count
    assert local_long(Spot(100.0, 100.0, 20.0, 0.0), near + far) == 44.0
    assert len(near) == NEIGHBOURS
    assert local_long(Spot(0.0, 0.0, 20.0, 0.0), []) is None


def test_the_zoomed_look_sizes_boxes_by_the_large_regions_not_the_many_small_ones():
    big = [Corner(Spot(0.0, 0.0, 90.0 + i, 0.0), 0.9, 130, 2.0) for i in range(5)]
    small = [Corner(Spot(0.0, 0.0, 30.0 + i, 0.0), 0.75, 12, 1.5) for i in range(7)]
    corners = big + small
    assert float(np.median([c.spot.long for c in corners])) < 40.0  # the plain median: the pips
    assert 90.0 <= _typical_long(corners) <= 94.0
    assert _typical_long(small) == pytest.approx(33.0)


def test_the_decodes_size_leaves_out_the_boxes_of_cards_near_the_camera():
    from vision.mediatore.refine import typical_long

    small = [Spot(0.0, 0.0, long, 0.0) for long in (10.0, 11.0, 12.0, 13.0)]
    large = [Spot(0.0, 0.0, long, 0.0) for long in (40.0, 45.0, 50.0)]
    assert typical_long(small) == 11.5
    assert typical_long(small + large) == 11.5  # the median of all seven is 13
    assert typical_long([]) is None

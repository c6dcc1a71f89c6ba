"""Where the Snorkeling reader looks: the mats' size from the locator's regions (small regions of
junk do not set it), each region read at its own size where it is one mat's, and a closer look
round a region the locator is sure of that reads as no mat (its outline turned off the mat's axis)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from snorkeling_looks import turned_and_looked_at

from vision.geometry import median
from vision.photo_io import read_photo
from vision.snorkeling import read_round
from vision.snorkeling import reader as snorkeling_reader
from vision.snorkeling.candidates import OWN_SIZE, REGION_OVER_MAT, candidates
from vision.snorkeling.crops import Spot
from vision.snorkeling.locate import MAT_ASPECT, Region, locate_table, mat_length, mats_long
from vision.snorkeling.reader import _read_spots, load_card_model

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "snorkeling" / "snorkeling-s9900-00001.jpg"  # six mats, all read right


def _region(long: float, area: int, x: float = 0.0) -> Region:
    return Region(Spot(x, 0.0, long, 0.0), 0.99, area, False)


def test_the_mats_size_is_that_of_the_large_regions_not_of_many_small_ones():
    mats = [_region(100.0, 400), _region(104.0, 420), _region(97.0, 380)]
    junk = [_region(18.0 + k, 14) for k in range(12)] + [_region(45.0, 40)] * 3  # a tiled table's bits
    assert float(median([r.spot.long for r in mats + junk])) < 30  # what a plain median took
    assert mats_long(mats + junk) in (97.0, 100.0, 104.0)
    # one region of a mat and a hand together does not take over either
    assert mats_long([*mats, _region(180.0, 700)]) == 104.0
    assert mats_long([_region(60.0, 50)]) == 60.0
    with pytest.raises(ValueError):
        mats_long([])


def test_a_mat_joined_along_its_length_to_the_central_pile_is_as_long_as_its_width_says():
    # a 2-player table: one mat alone, the other's region joined to the central pile along its length
    alone = replace(_region(100.0, 330), short=75.0)  # its pile's cards peek out a little
    joined = replace(_region(212.0, 760), short=72.0)  # twice as long, a mat's width
    assert mat_length(alone) == 100.0  # a mat's own shape: its long side
    assert mat_length(joined) == pytest.approx(72.0 / MAT_ASPECT)
    assert mats_long([alone, joined]) == pytest.approx(100.0)  # the larger region no longer sets it
    assert mats_long([_region(212.0, 760), _region(100.0, 330)]) == 212.0  # not measured: its long side


def test_a_region_of_one_mat_is_read_at_its_own_size_others_at_the_mats_size():
    common = 100.0
    near, far = 1.2 * common, 0.7 * common  # a table at a slant: near mats larger than far ones
    part, pair = 0.4 * common, 1.8 * common  # part of a mat; a mat and a hand beside it
    assert OWN_SIZE[0] <= 0.7 < 1.2 <= OWN_SIZE[1]  # the first two are one mat's, the last two not
    assert OWN_SIZE[0] > 0.4 and OWN_SIZE[1] < 1.8
    regions = [Spot(100.0 + 300 * k, 100.0, long, 0.0) for k, long in enumerate((near, far, part, pair))]
    sizes: dict[int, set[float]] = {}
    for c in candidates(regions, common):
        sizes.setdefault(c.region, set()).add(round(c.spot.long, 6))
    assert sizes == {
        0: {round(near / REGION_OVER_MAT, 6)},
        1: {round(far / REGION_OVER_MAT, 6)},
        2: {common},
        3: {common},
    }


@pytest.fixture(scope="module")
def sample():
    photo = read_photo(SAMPLE)
    found = locate_table(photo)
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    return photo, found, truth


def test_a_closer_look_finds_a_mat_whose_region_is_turned_off_its_axis_and_nothing_on_the_rest(sample):
    photo, found, _ = sample
    model = load_card_model()
    none = model.heads["mat"].index("none")
    mat_long = mats_long(found.strong)
    mats_seen = nothing_seen = 0
    for region in found.strong:
        read, sure, more, probs = turned_and_looked_at(model, photo, found, region, 30.0, mat_long)
        is_mat = 1.0 - read[0, none] >= 0.5
        if is_mat:
            if sure.max() >= 0.5:
                continue  # read as a mat even turned: nothing to look closer at
            mats_seen += 1
            assert len(more) == 1  # found again, numbered as the region read as found
            assert np.argmax(probs["mat"][0]) == np.argmax(read[0])
            spot = more[0].spot
            assert np.hypot(spot.x - region.spot.x, spot.y - region.spot.y) < 0.25 * mat_long
        else:
            nothing_seen += 1
            assert more == []  # a region of no mat (the central pile, a hand) stays none
    assert mats_seen >= 3 and nothing_seen >= 1


def test_read_round_reads_mats_whose_regions_the_locator_turned_and_flags_them(sample, monkeypatch):
    photo, found, truth = sample
    tops = {p["mat"]: p["top"] for p in truth["board"]["players"]}
    right, plain = read_round(photo)
    assert {d.mat for d in right.divers} == set(tops)
    # the two largest mats' regions turned 30 degrees: read as no mat where the region lies
    turned = sorted(found.strong, key=lambda r: -r.area)[:2]
    mats = tuple(
        replace(r, spot=replace(r.spot, angle=r.spot.angle + 30.0)) if r in turned else r for r in found.mats
    )
    monkeypatch.setattr(snorkeling_reader, "locate_table", lambda *_: replace(found, mats=mats))
    board, reading = read_round(photo)
    assert {d.mat: d.top for d in board.divers} == {d.mat: d.top for d in right.divers}
    # each turned region that reads as no mat at all its spots is found again at the closer look, and
    # flagged once; one still read as a mat turned needs no closer look
    model, mat_long = load_card_model(), mats_long(found.strong)
    none = model.heads["mat"].index("none")
    lost = 0
    for region in turned:
        looks = candidates([replace(region.spot, angle=region.spot.angle + 30.0)], mat_long)
        sure = 1.0 - _read_spots(model, photo, [c.spot for c in looks], looks, mat_long)["mat"][:, none]
        lost += bool(sure.max() < 0.5)
    closer = [f for f in reading.flags if "closer look" in f]
    assert lost >= 1 and len(closer) == lost and reading.status == "check"
    assert not any("closer look" in f for f in plain.flags)


def test_the_mats_sizes_across_a_slanted_table_are_a_plane_fitted_to_those_read():
    from vision.snorkeling.sizes import RANGE, fit_sizes

    # mats on a table seen at a slant: the near ones (larger y) larger, size = 40 + 0.1 y
    spots = [Spot(x, y, 40.0 + 0.1 * y, 0.0) for x, y in ((100, 100), (400, 120), (250, 400), (120, 380))]
    sizes = fit_sizes(spots, 60.0)
    assert sizes.plane is not None
    assert sizes.at(250.0, 250.0) == pytest.approx(65.0)
    assert sizes.at(0.0, 500.0) == pytest.approx(90.0)
    # far off the mats the plane is clamped to what a photo shows (a fit from 3 mats can run off)
    assert sizes.at(0.0, 5000.0) == pytest.approx(RANGE[1] * 60.0)
    # fewer than three mats, or mats along one line, give no plane: the common size everywhere
    assert fit_sizes(spots[:2], 60.0).at(0.0, 500.0) == 60.0
    in_a_line = [Spot(100.0 * k, 200.0, 40.0 + 10.0 * k, 0.0) for k in range(4)]
    assert fit_sizes(in_a_line, 60.0).plane is None

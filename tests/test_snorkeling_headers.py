"""The second look at a mat's number: its header's numerals, read by the header model, multiplied
into the card model's reading (look-alike colours, orange 1 / yellow 4 and sky 2 / blue 5, told
apart by the numeral's shape)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.photo_io import read_photo
from vision.snorkeling import read_round
from vision.snorkeling.crops import (
    HEADER_DISC_MM,
    HEADER_DISC_R_MM,
    MAT_MM,
    Spot,
    header_spots,
    spot_of,
)
from vision.snorkeling.headers import header_evidence, load_header_model, search_spots, with_headers
from vision.snorkeling.heads import MAT_LABELS
from vision.spots import crop_square, spot_crops
from vision.synth import snorkeling_art

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples" / "snorkeling").glob("*.jpg"))
NONE = MAT_LABELS.index("none")


def test_the_reader_knows_where_the_kit_draws_the_header_discs():
    # render_mat draws each disc at 14 mm from the side, centred in the header band (3 mm to 27 mm)
    assert HEADER_DISC_MM == (14.0, (3.0 + snorkeling_art.MAT_HEADER_MM) / 2)
    assert HEADER_DISC_R_MM == 10.2
    assert tuple(snorkeling_art._catalog()["mat_mm"]) == MAT_MM


@pytest.mark.parametrize("turn", [0.0, 180.0, 37.0])
def test_the_header_spots_of_a_mat_lie_on_its_two_discs_at_one_end(turn):
    px = 4.0  # px per mm
    mat = snorkeling_art.render_mat(4, False, px)
    h, w = mat.shape[:2]
    canvas = np.full((2 * h, 2 * h, 3), 128, np.uint8)
    y0, x0 = (2 * h - h) // 2, (2 * h - w) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = mat
    centre = (h, h)
    m = cv2.getRotationMatrix2D(centre, -turn, 1.0)
    canvas = cv2.warpAffine(canvas, m, canvas.shape[1::-1], borderValue=(128, 128, 128))
    quad = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64)
    quad = np.hstack([quad, np.ones((4, 1))]) @ m.T
    spot = spot_of(quad)
    discs = [((x0 + HEADER_DISC_MM[0] * px), y0 + HEADER_DISC_MM[1] * px),
             ((x0 + w - HEADER_DISC_MM[0] * px), y0 + HEADER_DISC_MM[1] * px)]  # fmt: skip
    discs = [m @ np.array([x, y, 1.0]) for x, y in discs]
    spots = header_spots(spot)
    # one end's two spots are the two discs (within 2% of the mat's length), the other end's far off
    near = [min(np.hypot(s.x - d[0], s.y - d[1]) for d in discs) for s in spots]
    ends = [near[:2], near[2:]]
    header_end = int(np.argmin([max(e) for e in ends]))
    assert max(ends[header_end]) < 0.02 * spot.long
    assert min(ends[1 - header_end]) > 0.5 * spot.long
    # the crops of one end show the header upright whichever way the mat's axis runs: turned half
    # round, the spots are the same places with the ends (and the sides) swapped
    turned = header_spots(Spot(spot.x, spot.y, spot.long, spot.angle + 180.0))
    for a, b in zip(spots, [turned[3], turned[2], turned[1], turned[0]], strict=True):
        assert (a.x, a.y) == pytest.approx((b.x, b.y), abs=1e-6)
        assert (a.angle - b.angle) % 360.0 == pytest.approx(0.0, abs=1e-6)


def test_the_header_multiplies_into_the_card_models_numbers_and_keeps_the_mat_share():
    card = np.zeros((2, len(MAT_LABELS)))
    card[:, NONE] = 0.1
    card[:, MAT_LABELS.index("1")] = 0.72  # orange 1, read by its colour
    card[:, MAT_LABELS.index("4")] = 0.18  # yellow 4
    evidence = np.ones_like(card)
    numbers = [j for j in range(len(MAT_LABELS)) if j != NONE]
    evidence[0, numbers] = 0.01 / 5
    evidence[0, MAT_LABELS.index("4")] = 0.99  # the numeral reads 4
    evidence[1, numbers] = 1 / 6  # a header hidden by a hand: no evidence
    out = with_headers(card, evidence, NONE)
    assert out[:, NONE] == pytest.approx(card[:, NONE])
    assert out.sum(1) == pytest.approx([1.0, 1.0])
    assert int(np.argmax(out[0, numbers])) + 1 == 4
    assert out[1] == pytest.approx(card[1])


@pytest.fixture(scope="module")
def header_model():
    model = load_header_model()
    assert model is not None, "models/snorkeling-headers.onnx is shipped"
    return model


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_the_header_model_reads_each_mat_of_the_sample_photos(sample, header_model):
    """Each mat of the committed samples, at the spot the reader read it: the header's evidence alone
    names its true number."""
    truth = json.loads(sample.with_suffix(".json").read_text())
    photo = read_photo(sample)
    _, reading = read_round(photo, headers=False)
    true_mats = [(m["mat"], spot_of(np.array(m["corners"])).scaled(1 / photo.scale)) for m in truth["mats"]]
    spots, numbers = [], []
    for pile in reading.piles:
        mat, near = min(true_mats, key=lambda t: np.hypot(t[1].x - pile.spot.x, t[1].y - pile.spot.y))
        if np.hypot(near.x - pile.spot.x, near.y - pile.spot.y) < near.long / 3:
            spots.append(pile.spot)
            numbers.append(mat)
    assert spots, "the reader finds mats on every sample"
    assert _named(header_evidence(photo, spots, header_model, MAT_LABELS)) == numbers


def _named(evidence: np.ndarray) -> list[int]:
    """The likeliest mat number of each row of header evidence."""
    return [
        int(MAT_LABELS[int(np.argmax(np.where(np.arange(len(MAT_LABELS)) == NONE, -1, e)))]) for e in evidence
    ]


def test_a_missing_header_model_leaves_the_card_models_numbers(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORECAM_MODELS", str(tmp_path))
    assert load_header_model() is None


def test_a_header_spot_beyond_the_photos_edge_is_cut_from_the_edge_not_refused():
    """A mat lying at the photo's edge puts one end's header spots outside the photo."""
    image = np.zeros((100, 200, 3), np.uint8)
    image[:, 150:] = 255
    outside = [Spot(260.0, 50.0, 120.0, 0.0), Spot(-40.0, -30.0, 120.0, 90.0), Spot(100.0, 400.0, 600.0, 0.0)]
    crops = spot_crops(image, outside, crop_square, 48, 0.33, (0.8, 1.6))
    assert crops.shape == (3, 48, 48, 3)
    assert crops[0].min() == 255  # the right edge's white, repeated
    assert crops[1].max() == 0


def _distorted(spot: Spot) -> list[Spot]:
    """A true mat's spot as a rough region's rectangle may give it: sized to its pile's cards, turned
    a quarter round and sized to the mat's width, moved off its centre."""
    a = np.radians(spot.angle)
    return [
        Spot(spot.x, spot.y, spot.long * 0.72, spot.angle),
        Spot(spot.x, spot.y, spot.long * 0.72, spot.angle + 90.0),
        Spot(
            spot.x + 0.1 * spot.long * np.cos(a),
            spot.y + 0.1 * spot.long * np.sin(a),
            spot.long * 0.8,
            spot.angle,
        ),
    ]


LOOK_ALIKES = {1: (1, 4), 4: (1, 4), 2: (2, 5), 5: (2, 5), 3: (3,), 6: (6,)}  # by the mats' colours


def _read_off_the_mats(sample: Path, header_model) -> tuple[list[int], list[int]]:
    """(true numbers, numbers read) of each true mat of ``sample`` at spots off the mat
    (``_distorted``), with a card model that knows the mat's colour but not which of two look-alikes
    it is (``LOOK_ALIKES``)."""
    truth = json.loads(sample.with_suffix(".json").read_text())
    photo = read_photo(sample)
    mats = [(m["mat"], spot_of(np.array(m["corners"])).scaled(1 / photo.scale)) for m in truth["mats"]]
    spots = [s for _, t in mats for s in _distorted(t)]
    numbers = [n for n, _ in mats for _ in range(3)]
    prior = np.zeros((len(spots), len(MAT_LABELS)))
    for row, n in zip(prior, numbers, strict=True):
        for m in LOOK_ALIKES[n]:
            row[MAT_LABELS.index(str(m))] = 1.0 / len(LOOK_ALIKES[n])
    evidence = header_evidence(photo, spots, header_model, MAT_LABELS, prior)
    return numbers, _named(evidence * np.maximum(prior, 1e-9))


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_a_header_the_mats_spot_misses_is_found_round_it(sample, header_model):
    """The header looked for round a spot off the mat names the true number."""
    numbers, read = _read_off_the_mats(sample, header_model)
    assert read == numbers


def test_without_the_search_spots_off_the_mats_misread_some(header_model, monkeypatch):
    monkeypatch.setattr("vision.snorkeling.headers.SEARCH_BELOW", -1.0)  # the spots as given
    wrong = 0
    for sample in SAMPLES:
        numbers, read = _read_off_the_mats(sample, header_model)
        wrong += sum(a != b for a, b in zip(numbers, read, strict=True))
    assert wrong >= 2


def test_the_header_search_round_a_spot_holds_it_larger_moved_and_turned():
    spot = Spot(100.0, 50.0, 80.0, 30.0)
    grid = search_spots(spot)
    assert spot in grid
    assert any(g.long > 1.4 * spot.long and g.angle == spot.angle for g in grid)
    turned = [g for g in grid if g.angle == spot.angle + 90.0]
    assert turned and all(g.long == pytest.approx(spot.long * MAT_MM[1] / MAT_MM[0]) for g in turned)
    assert max(np.hypot(g.x - spot.x, g.y - spot.y) for g in grid) > 0.15 * spot.long

"""The Snorkeling reader says "check" rather than score a round with a mat missed in silence: the gap
a mat not found leaves round the table, and what the players know (``score --players N`` or
``--players 1=Anna ...``). Tested on hand-placed mats and on sample photos with one mat painted out."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scorecam.cli import main
from scorecam.evaluate_snorkeling import figures, measure_photo
from vision.photo_io import decode_photo
from vision.snorkeling import read_round
from vision.snorkeling.candidates import Candidate
from vision.snorkeling.crops import Spot
from vision.snorkeling.heads import HEADS
from vision.snorkeling.layout import OFF_RING, gap_limit, layout_flag, off_the_ring, table_middle
from vision.snorkeling.players import players_flags
from vision.snorkeling.reader import DECK_CARDS, CardReading, PileReading, _piles, _second_look

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "snorkeling"
TWO = SAMPLES / "snorkeling-s9900-00000.jpg"  # 2 divers, read right and "ok"
SIX = SAMPLES / "snorkeling-s9900-00003.jpg"  # 6 divers, read right and "ok"


def _ring(count: int, skip: tuple[int, ...] = (), radius: float = 300.0, start: float = 20.0):
    """``count`` mats evenly round (500, 400), mat numbers 1..count, their headers facing the middle
    (long axis radial), less the seats in ``skip``."""
    mats = []
    for seat in range(count):
        if seat in skip:
            continue
        a = math.radians(start + 360.0 * seat / count)
        spot = Spot(500 + radius * math.cos(a), 400 + radius * math.sin(a), 100.0, math.degrees(a))
        mats.append((seat + 1, spot))
    return mats


MIDDLE = Spot(500.0, 400.0, 100.0, 0.0)

# ------------------------------------------------------------------------------------------ layout


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_mats_evenly_round_the_table_are_not_flagged(count):
    assert layout_flag(_ring(count), MIDDLE) is None
    assert layout_flag(_ring(count), None) is None  # the middle from the mats' axes


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_a_mat_missing_leaves_a_gap_that_is_flagged_naming_its_neighbours(count):
    for seat in range(count):
        mats = _ring(count, skip=(seat,))
        for centre in (MIDDLE, None if len(mats) >= 3 else MIDDLE):
            flag = layout_flag(mats, centre)
            assert flag is not None, (count, seat)
            left, right = (seat - 1) % count + 1, (seat + 1) % count + 1
            assert f"Mats {left} and {right} lie {720 / count:.0f}° apart" in flag


def test_a_gap_within_the_limit_is_not_flagged_and_one_beyond_it_is():
    # five mats, one pushed along the ring towards its neighbour: the gap it leaves behind grows
    limit = gap_limit(5)
    assert 72.0 < limit < 2 * 72.0 * 5 / 6
    mats = _ring(5)
    for shift, flagged in ((limit - 72.0 - 2.0, False), (limit - 72.0 + 2.0, True)):
        a = math.radians(20.0 + 72.0 + shift)
        moved = (2, Spot(500 + 300 * math.cos(a), 400 + 300 * math.sin(a), 100.0, math.degrees(a)))
        assert (layout_flag([mats[0], moved, *mats[2:]], MIDDLE) is not None) is flagged


def test_two_mats_and_no_central_pile_tell_nothing_and_six_mats_are_the_whole_game():
    assert table_middle([s for _, s in _ring(2)], None) is None
    assert layout_flag(_ring(3, skip=(2,)), None) is None  # two mats: their axes are one line
    assert layout_flag(_ring(6)[:-1] + [(6, Spot(520.0, 120.0, 100.0, 90.0))], MIDDLE) is None


def test_a_spot_far_off_the_ring_of_mats_is_left_out():
    ring = [s for _, s in _ring(5)]
    middle = (MIDDLE.x, MIDDLE.y)
    assert off_the_ring(ring, middle) == []
    for factor, out in ((OFF_RING + 0.2, [5]), (OFF_RING - 0.2, [])):
        far = Spot(500 + 300 * factor, 400.0, 100.0, 0.0)  # a card at the table's edge, say
        assert off_the_ring([*ring, far], middle) == out
        assert off_the_ring([*ring, far], table_middle(ring, None)) == out  # the middle from the axes
    assert off_the_ring([ring[0], Spot(2000.0, 400.0, 100.0, 0.0)], middle) == []  # two: no ring
    assert off_the_ring(ring, None) == []


# ------------------------------------------------------------------------------------------ players


def test_the_players_count_and_names_against_the_mats_read():
    assert players_flags([1, 2, 5]) == []
    assert players_flags([1, 2, 5], count=3) == []
    assert players_flags([1, 2, 5], names={1: "Anna", 2: "Ben", 5: "Eve"}) == []
    [short] = players_flags([1, 2, 5], count=4)
    assert short.startswith("3 mats found (mats 1, 2, 5) for 4 players: 1 mat not found")
    [extra] = players_flags([1, 2, 5], count=2)
    assert extra.startswith("3 mats found (mats 1, 2, 5) for 2 players: one may be a hand")
    named = players_flags([1, 2, 5], names={1: "Anna", 2: "Ben", 3: "Cleo"})
    assert named == [
        "Mat 3 (Cleo) not found: check that its pile is in the photo",
        "Mat 5 read, but no player was named for it: a hand or a card read as a mat?",
    ]


# ------------------------------------------------------------------------------------------ photos


def _painted(photo: Path, mat: int, out: Path) -> Path:
    """``photo`` with diver mat ``mat`` painted out: the mat, its pile and its hand inpainted from the
    table around them (their corners from the simulator's truth)."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    image = cv2.imread(str(photo))
    quads = [m["corners"] for m in truth["mats"] if m["mat"] == mat]
    quads += [c["corners"] for m in truth["mats"] if m["mat"] == mat for c in m["pile"]]
    quads += [q for h in truth["hands"] if h["mat"] == mat for q in h["cards"]]
    assert quads, f"no mat {mat} in {photo.name}"
    mask = np.zeros(image.shape[:2], np.uint8)
    for quad in quads:
        cv2.fillPoly(mask, [np.round(np.array(quad)).astype(np.int32)], 255)
    mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))
    cv2.imwrite(str(out), cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


@pytest.fixture(scope="module")
def painted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("painted")
    # mat 6 lies across the photo from the camera's slant: its gap shows; mat 4 lies along the slant,
    # where the table is foreshortened and the gap it leaves stays under the limit
    return {mat: _painted(SIX, mat, folder / f"six-without-{mat}.jpg") for mat in (4, 6)}


def test_right_rounds_stay_ok():
    for photo in (TWO, SIX):
        truth = json.loads(photo.with_suffix(".json").read_text())
        record = measure_photo(photo, truth)
        assert record["scored_right"] and not record["flagged"], record["flags"]
        assert not record["flagged_players_given"]


def test_a_mat_painted_out_is_flagged_by_the_gap_it_leaves(painted):
    board, reading = read_round(decode_photo(painted[6].read_bytes()))
    assert sorted(d.mat for d in board.divers) == [1, 2, 3, 4, 5]  # mat 6 gone, the others read
    assert reading.status == "check"
    assert any("apart round the table" in f and "Mats 5 and 1" in f for f in reading.flags), reading.flags
    # and it says where the missing mat likely lies: near where mat 6 was
    truth = json.loads(SIX.with_suffix(".json").read_text())
    [six] = [np.mean(m["corners"], axis=0) / reading.view_scale for m in truth["mats"] if m["mat"] == 6]
    mat_long = float(np.median([p.spot.long for p in reading.piles]))
    assert reading.missing_at is not None
    assert math.dist(reading.missing_at, six) < 1.5 * mat_long


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_players_count_flags_a_mat_the_photo_does_not_show(painted, capsys):
    code, out, err = _run(capsys, "score", painted[4], "--players", "6", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["status"] == "check"
    assert [p["mat"] for p in report["players"]] == [1, 2, 3, 5, 6]
    assert any(
        f.startswith("5 mats found (mats 1, 2, 3, 5, 6) for 6 players: 1 mat not found")
        for f in report["flags"]
    )


def test_players_names_flag_the_named_mat_not_found_and_name_the_others(painted, capsys):
    names = ["1=Anna", "2=Ben", "3=Cleo", "4=Dee", "5=Eve", "6=Finn"]
    code, out, err = _run(capsys, "score", painted[4], "--players", *names, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["status"] == "check"
    assert [p["name"] for p in report["players"]] == ["Anna", "Ben", "Cleo", "Eve", "Finn"]
    assert "Mat 4 (Dee) not found: check that its pile is in the photo" in report["flags"]


def test_a_round_with_a_diver_not_found_is_not_added_to_the_running_game(painted, tmp_path, capsys):
    game = tmp_path / "game.json"
    names = ["1=Anna", "2=Ben", "3=Cleo", "4=Dee", "5=Eve", "6=Finn"]
    code, _, err = _run(capsys, "score", painted[4], "--players", *names, "--totals", game)
    assert code == 3 and err.count("\n") == 1
    assert "mat 4 (Dee) not found in the photo: not added to game.json" in err
    code, _, err = _run(capsys, "score", painted[4], "--players", "6", "--totals", game)
    assert code == 3 and "5 mats found for 6 players: not added to game.json" in err
    assert not game.exists()  # no game started without Dee


def test_players_count_agreeing_keeps_a_right_round_ok_and_disagreeing_flags_it(capsys):
    code, out, _ = _run(capsys, "score", TWO, "--players", "2", "--json")
    assert code == 0 and json.loads(out)["status"] == "ok"
    code, out, _ = _run(capsys, "score", TWO, "--players", "3", "--json")
    report = json.loads(out)
    assert code == 0 and report["status"] == "check"
    assert report["flags"][-1].startswith("2 mats found (mats ")


def test_players_count_on_a_board_file_must_match_and_is_checked_on_the_command_line(tmp_path, capsys):
    board = {
        "format": 1,
        "game": "snorkeling",
        "players": [
            {"mat": 1, "top": {"value": 3, "color": "red"}},
            {"mat": 2, "top": {"value": 0, "color": "blue"}},
        ],
    }
    path = tmp_path / "round.json"
    path.write_text(json.dumps(board))
    code, out, _ = _run(capsys, "score", path, "--players", "2", "--json")
    assert code == 0 and [p["name"] for p in json.loads(out)["players"]] == ["diver 1", "diver 2"]
    code, _, err = _run(capsys, "score", path, "--players", "3")
    assert code == 3 and err.count("\n") == 1 and "2 divers on the board, --players says 3" in err
    for bad in (["7"], ["1"], ["2", "1=Anna", "2=Ben", "3=Cleo"]):
        code, _, err = _run(capsys, "score", path, "--players", *bad)
        assert code == 2 and "--players" in err, bad


def test_eval_figures_count_rounds_as_read_when_the_players_tell_their_count_or_mats():
    record = measure_photo(TWO, json.loads(TWO.with_suffix(".json").read_text()))
    for told in ("players", "mats"):  # the sample read again, told: right and not flagged
        assert record[f"scored_right_{told}_given"] and not record[f"flagged_{told}_given"]
    # a round that missed a mat with nothing in the photo to flag it: the players' count flags it,
    # and their mats named find it (read right, flagged as a second look)
    missed = record | {
        "scored_right": False,
        "exact": False,
        "flagged": False,
        "scored_right_players_given": False,
        "flagged_players_given": True,
        "scored_right_mats_given": True,
        "flagged_mats_given": True,
    }
    result = figures([record, missed])
    assert result["rounds_scored_exactly"] == 0.5 and result["wrong_unflagged"] == 0.5
    assert result["rounds_scored_exactly_players_given"] == 0.5
    assert result["wrong_unflagged_players_given"] == 0.0
    assert result["right_flagged_players_given"] == 0.0
    assert result["rounds_scored_exactly_mats_given"] == 1.0
    assert result["wrong_unflagged_mats_given"] == 0.0
    assert result["right_flagged_mats_given"] == 0.5


# ------------------------------------------------------------------------------------------ mats named


def _probs(mats: list[list[float]]) -> dict[str, np.ndarray]:
    """Card-model readings of spots: ``mats`` each spot's (none, 1..6); every top card a 3 red."""
    n = len(mats)
    value = np.tile(np.eye(6)[3], (n, 1))
    color = np.tile(np.eye(6)[0], (n, 1))
    return {"mat": np.array(mats, float), "value": value, "color": color}


MODEL = SimpleNamespace(heads=HEADS)
SPOTS = [Spot(100.0 * k, 100.0, 80.0, 0.0) for k in range(1, 4)]


def test_named_mats_number_a_look_alike_as_the_mat_in_play():
    # a yellow mat 4 read where the players named mats 1 and 3: an orange 1 in yellow light
    probs = _probs([[0.0, 0.3, 0.0, 0.0, 0.7, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]])
    piles, _ = _piles(MODEL, probs, [0, 1], SPOTS, [False] * 3)
    assert [p.mat for p in piles] == [3, 4]
    piles, flags = _piles(MODEL, probs, [0, 1], SPOTS, [False] * 3, frozenset({1, 3}))
    assert [p.mat for p in piles] == [1, 3]
    assert piles[0].mat_confidence == pytest.approx(1.0) and flags == []


def test_a_region_beyond_the_mats_named_is_left_out_the_least_mat_like():
    # two real mats (1 and 3) and a hand read as a shaky mat 1: the hand goes, not a look-alike
    probs = _probs(
        [
            [0.0, 0.9, 0.0, 0.0, 0.1, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            [0.45, 0.5, 0, 0, 0.05, 0, 0],
        ]
    )
    piles, flags = _piles(MODEL, probs, [0, 1, 2], SPOTS, [False] * 3, frozenset({1, 3}))
    assert [(p.mat, p.spot) for p in piles] == [(1, SPOTS[0]), (3, SPOTS[1])]
    assert flags == [
        "3 regions read as mats, more than the 2 mats in play: 1 left out, check that each mat read is the right one"
    ]


def test_a_mat_that_surely_reads_as_one_nobody_named_is_flagged():
    probs = _probs([[0.0, 0.0, 0.0, 0.0, 0.0, 0.99, 0.01], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]])
    piles, flags = _piles(MODEL, probs, [0, 1], SPOTS, [False] * 3, frozenset({3, 6}))
    assert [p.mat for p in piles] == [3, 6]
    assert flags == ["Mat 6: reads as mat 5 (99%), which no player named"]


def test_read_round_refuses_mat_numbers_outside_the_six():
    with pytest.raises(ValueError):
        read_round(TWO, mats={0, 7})
    with pytest.raises(ValueError):
        read_round(TWO, mats=set())


# ------------------------------------------------------------------------------------------ second look


def test_told_the_count_a_second_look_takes_the_likeliest_spot_in_the_gap():
    ring = _ring(6, skip=(3,))  # five mats read, seat 4 empty
    card = CardReading(DECK_CARDS[0], 0.9, DECK_CARDS[1], 0.1)
    piles = [PileReading(mat, 0.9, card, spot, False) for mat, spot in ring]
    a = math.radians(20.0 + 3 * 60.0)
    in_gap = Spot(500 + 300 * math.cos(a), 400 + 300 * math.sin(a), 100.0, 0.0)
    far = Spot(500 + 900 * math.cos(a), 400 + 900 * math.sin(a), 100.0, 0.0)  # off the ring
    beside = Spot(ring[0][1].x + 40.0, ring[0][1].y, 100.0, 0.0)  # on a mat read
    spots = [s for _, s in ring] + [in_gap, far, beside, MIDDLE]
    looks = [Candidate(s, k, True, False) for k, s in enumerate(spots[:-1])]
    mats = [[0.0, 1.0, 0, 0, 0, 0, 0]] * 5 + [[0.8, 0, 0, 0, 0.2, 0, 0], [0.4, 0.6, 0, 0, 0, 0, 0]]
    mats += [[0.1, 0.9, 0, 0, 0, 0, 0], [1.0, 0, 0, 0, 0, 0, 0]]  # beside a mat; the central pile
    probs = _probs(mats)
    sure = 1.0 - probs["mat"][: len(looks), 0]
    args = (MODEL, probs, sure, looks, spots, list(range(5)), piles, [len(spots) - 1], 100.0)
    assert _second_look(*args) == 5  # the gap's spot, though less sure than the two others
    probs["mat"][5] = [0.97, 0, 0, 0, 0.03, 0, 0]  # under SECOND_LOOK: nothing taken
    assert _second_look(MODEL, probs, 1.0 - probs["mat"][: len(looks), 0], *args[3:]) is None

"""The photo's verdict (`status`), the flag figures of `scorecam eval` (wrong and unflagged, right
but flagged) and their breakdown by condition, its time figures (the tail beside the median), and
the world options of `scorecam synth`."""

import json
from dataclasses import replace

import numpy as np
import pytest

import scorecam.photos
from scorecam.annotate import GREEN, ORANGE, score_panel, verdict_line
from scorecam.cli import main, synth_options, synth_world
from scorecam.evaluate import condition_table, eval_table, verdict_figures
from scorecam.evaluate_games import figures_table, time_figures, time_rows
from scorecam.tables import status_line
from vision.synth.world import TABLE_FAMILIES, World

SAMPLE = "samples/mondo/mondo-s9900-00000.jpg"
FLAGS = (
    "check row 0 col 1: edge E forest 0.61 / plains 0.37",
    "check row 2 col 2: animals 1 0.55 / 0 0.45",
)


def record(score_right, flagged, found=True, **conditions):
    return {"found": found, "score_right": score_right, "flagged": flagged, "conditions": conditions}


# ------------------------------------------------------------------------------- eval figures


def test_the_time_figures_name_the_tail_beside_the_median():
    # nine quick photos and one a reader looked at again and again: the median hides it
    records = [{"photo": f"p{i}.jpg", "ms": 100.0 + i} for i in range(9)] + [
        {"photo": "slow.jpg", "ms": 9000.0}
    ]
    figures = time_figures(records)
    assert figures["median_ms_per_photo"] == 104.5
    assert figures["longest_ms_per_photo"] == 9000.0 and figures["longest_photo"] == "slow.jpg"
    assert 108.0 < figures["p90_ms_per_photo"] < 9000.0  # between the ninth and the tenth
    text = figures_table(time_rows(figures))
    assert "90th percentile" in text and "9000 ms (slow.jpg)" in text
    # one photo: every figure is its time
    one = time_figures([{"photo": "a.jpg", "ms": 80.0}])
    assert one["median_ms_per_photo"] == one["p90_ms_per_photo"] == one["longest_ms_per_photo"] == 80.0
    # a result stored before the tail was reported prints its median alone
    assert time_rows({"median_ms_per_photo": 120.0}) == [
        ("median time per photo", "120 ms (decoding included, one core)")
    ]


def test_wrong_unflagged_and_right_flagged_are_counted_over_all_photos():
    records = [
        record(True, False),  # right, quiet: the good case
        record(True, True),  # right but flagged: a false alarm
        record(False, True),  # wrong and flagged: the player looks again
        record(False, False),  # wrong and unflagged: the worst
        record(False, True, found=False),  # no island found: flagged, never exact
    ]
    figures = verdict_figures(records)
    assert figures["wrong_unflagged"] == pytest.approx(1 / 5)
    assert figures["right_flagged"] == pytest.approx(1 / 5)
    assert figures["by_condition"] == {}  # no photo names its conditions


def test_breakdown_by_condition():
    records = [
        record(True, False, **{"tilt": "30° or more", "light": "dim"}),
        record(False, False, **{"tilt": "30° or more", "light": "glare"}),
        record(True, True, **{"tilt": "under 20°", "light": "dim"}),
        record(False, True, found=False, **{"tilt": "20-30°"}),  # an old truth: tilt only
        record(True, False),  # no conditions at all: only in the overall figures
    ]
    by = verdict_figures(records)["by_condition"]
    assert list(by) == ["tilt", "light"]
    assert list(by["tilt"]) == ["under 20°", "20-30°", "30° or more"]  # natural order, not by label
    steep = by["tilt"]["30° or more"]
    assert steep == {
        "photos": 2,
        "found": 1.0,
        "scores_exact": 0.5,
        "wrong_unflagged": 0.5,
        "right_flagged": 0.0,
    }
    assert by["tilt"]["20-30°"] == {
        "photos": 1,
        "found": 0.0,
        "scores_exact": 0.0,
        "wrong_unflagged": 0.0,
        "right_flagged": 0.0,
    }
    assert by["light"]["dim"]["photos"] == 2 and by["light"]["dim"]["right_flagged"] == 0.5
    assert sum(b["photos"] for b in by["tilt"].values()) == 4


def test_size_buckets_keep_their_natural_order_and_unknown_labels_come_last():
    sizes = ["55% or more", "under 25%", "40-55%", "25-40%"]
    records = [record(True, False, **{"island size in frame": s}) for s in sizes]
    records.append(record(True, False, **{"island size in frame": "zzz", "a new family": "x"}))
    by = verdict_figures(records)["by_condition"]
    assert list(by["island size in frame"]) == ["under 25%", "25-40%", "40-55%", "55% or more", "zzz"]
    assert list(by) == ["island size in frame", "a new family"]


def _result(by_condition):
    return {
        "photos": 4,
        "islands_found": 1.0,
        "least_tile_clearance": 0.1,
        "outline_corners_within_0.1_cell": 1.0,
        "edge_accuracy": 0.99,
        "head_accuracy": {"animals": 1.0},
        "islands_read_exactly": 0.75,
        "scores_exact": 0.75,
        "wrong_unflagged": 0.25,
        "right_flagged": 0.0,
        "scores_exact_head_by_head": 0.5,
        "median_ms_per_photo": 120.0,
        "by_condition": by_condition,
    }


def test_eval_table_shows_the_flag_figures_and_an_aligned_condition_table():
    records = [
        record(True, False, **{"table family": "felt", "tilt": "under 20°"}),
        record(False, False, **{"table family": "wood", "tilt": "under 20°"}),
        record(True, True, **{"table family": "tablecloth", "tilt": "30° or more"}),
    ]
    text = eval_table(_result(verdict_figures(records)["by_condition"]))
    assert "wrong and unflagged           25.00%" in text
    assert "right but flagged             0.00%" in text
    table = condition_table(verdict_figures(records)["by_condition"])
    lines = table.splitlines()
    assert lines[0].split("  ")[0] == "condition" and "wrong & unflagged" in lines[0]
    assert len({len(line) for line in lines}) == 1  # every row as wide: the columns line up
    assert lines[1].startswith("tilt ") and lines[3].startswith("table family ")
    assert lines[2].startswith(" ")  # the family is named once
    wood = next(line for line in lines if " wood " in line)
    assert wood.split()[-5:] == ["1", "100.0%", "0.0%", "100.0%", "0.0%"]


def test_eval_table_without_conditions_has_no_condition_table():
    assert "by condition" not in eval_table(_result({}))


def test_eval_table_when_no_island_was_found():
    nothing = _result({}) | {"edge_accuracy": None, "head_accuracy": {}, "least_tile_clearance": None}
    assert "per-edge terrain accuracy       n/a" in eval_table(nothing)


# --------------------------------------------------------------------------- the photo verdict


def test_a_sample_photo_reports_status_ok(root, capsys):
    assert main(["score", "--json", str(root / SAMPLE)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["flags"] == [] and report["status"] == "ok"
    assert main(["score", str(root / SAMPLE)]) == 0
    assert "status: ok" in capsys.readouterr().out.splitlines()


@pytest.fixture
def doubtful(monkeypatch):
    """Every photo read with two doubtful cells."""
    read = scorecam.photos.read_island_photo

    def with_flags(*args, **kwargs):
        photo = read(*args, **kwargs)
        return replace(photo, reading=replace(photo.reading, flags=FLAGS))

    monkeypatch.setattr(scorecam.photos, "read_island_photo", with_flags)


def test_a_photo_with_doubtful_readings_reports_status_check(root, capsys, doubtful):
    assert main(["score", "--json", str(root / SAMPLE)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "check" and report["flags"] == list(FLAGS)
    assert main(["score", str(root / SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "status: check (2 readings to check)" in out.splitlines()
    assert FLAGS[0] in out


def test_status_line():
    assert status_line({"status": "ok", "flags": []}) == "status: ok"
    assert status_line({"status": "check", "flags": ["a"]}) == "status: check (1 reading to check)"


def test_the_annotated_panel_shows_the_verdict():
    assert verdict_line(0) == ("OK: nothing to check", GREEN)
    assert verdict_line(2) == ("CHECK: 2 readings to look at", ORANGE)
    player = {
        "name": "island",
        "points": dict.fromkeys(
            ("animals", "landscapes", "volcanoes", "empty_spaces", "misconnections", "first_out"), 0
        ),
        "total": 0,
        "valid": True,
    }

    def has(image, colour):
        return bool(np.all(image.reshape(-1, 3) == colour, axis=1).any())

    ok = score_panel(np.full((900, 1200, 3), 255, np.uint8), player, 0)
    check = score_panel(np.full((900, 1200, 3), 255, np.uint8), player, 2)
    assert has(ok, GREEN) and not has(ok, ORANGE)
    assert has(check, ORANGE) and not has(check, GREEN)


# ------------------------------------------------------------------------------ synth options


def world_of(*options):
    return synth_world(**synth_options(["mondo", "--out", "x", *options]))


def test_synth_options_make_the_world():
    assert world_of() is None  # the scenes' everyday world, called as always
    assert world_of("--stress") == World(stress=True)
    assert world_of("--tables", "felt, Cloth") == World(tables=("felt", "cloth"))
    assert world_of("--exclude-tables", "wood,photo") == World(exclude_tables=("wood", "photo"))
    assert world_of("--terrain-hues") == World(terrain_hues=True)
    both = world_of("--stress", "--tables", "felt,wood", "--exclude-tables", "wood", "--terrain-hues")
    assert both == World(stress=True, tables=("felt", "wood"), exclude_tables=("wood",), terrain_hues=True)
    assert both.families() == ("felt",)
    assert world_of("--exclude-tables", "felt").families() == tuple(f for f in TABLE_FAMILIES if f != "felt")


@pytest.mark.parametrize(
    "options, says",
    [
        (["--tables", "felt,velvet"], "unknown table families ['velvet']"),
        (["--exclude-tables", "lava"], "unknown table families ['lava']"),
        (["--tables", "felt", "--exclude-tables", "felt"], "no table family left"),
        (["--tables", ","], "no table family left"),
        (["--tables", "wood,tiled", "--terrain-hues"], "--terrain-hues needs"),
    ],
)
def test_bad_synth_worlds_are_one_line_usage_errors(tmp_path, capsys, options, says):
    out = tmp_path / "photos"
    assert main(["synth", "mondo", "--n", "1", "--out", str(out), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Usage: scorecam synth" in captured.err and f"Error: {says}" in captured.err
    assert not out.exists()


@pytest.mark.parametrize("px", ["10", "63", "4001"])
def test_a_long_side_out_of_range_is_a_usage_error(tmp_path, capsys, px):
    out = tmp_path / "photos"
    assert main(["synth", "mondo", "--n", "1", "--out", str(out), "--long-side", px]) == 2
    assert "'--long-side': must be 64 to 4000" in capsys.readouterr().err
    assert not out.exists()


def test_the_world_goes_through_to_the_scene(tmp_path, monkeypatch):
    import pickle
    from types import SimpleNamespace

    import vision.synth.dataset as dataset

    calls = []

    def scene(rng, catalog, **kwargs):
        calls.append(kwargs)
        return SimpleNamespace(jpeg=b"jpeg", truth={"game": "mondo"})

    monkeypatch.setattr(dataset, "mondo_scene", scene)
    world = World(stress=True, tables=("felt",))
    assert pickle.loads(pickle.dumps(world)) == world  # it travels to the worker processes
    dataset.write_photos("mondo", 2, 5, tmp_path, long_side_px=640, world=world)
    dataset.write_photos("mondo", 1, 5, tmp_path / "plain", long_side_px=640)
    assert [c.get("world") for c in calls] == [world, world, None]
    assert "world" not in calls[-1]  # scenes that predate World are called as before


def test_synth_help_names_every_table_family(capsys):
    assert main(["synth", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(" + ", ".join(TABLE_FAMILIES) + ")" in help_text

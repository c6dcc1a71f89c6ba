"""The conditions a simulated sea was photographed under, kept in its truth JSON, and `scorecam eval`'s
breakdown of the sea figures by them (issue 9): the same keys and meanings as a Mondo truth's where
they apply, nothing drawn again for them, and the Mondo per-condition figures and table reused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scorecam.cli import main
from scorecam.evaluate_mediterraneo import eval_table, figures, measure_photo
from vision.synth.catalog import load_catalog
from vision.synth.mediterraneo_sea import random_sea
from vision.synth.scenes import SEA_CONDITIONS, mediterraneo_scene
from vision.synth.world import Conditions, World, condition_buckets, draw_conditions

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "mediterraneo" / "mediterraneo-s9900-00000.jpg"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog("mediterraneo")


def scene(catalog, seed: int, world: World | None = None):
    return mediterraneo_scene(np.random.default_rng([seed, 0]), catalog, long_side_px=480, world=world)


def test_a_stress_sea_keeps_the_conditions_it_drew_that_a_sea_shows(catalog):
    for seed in (3, 4):
        truth = scene(catalog, seed, World(stress=True)).truth
        rng = np.random.default_rng([seed, 0])
        random_sea(catalog, rng, None)  # the draws made before the conditions, in the same order
        drawn = draw_conditions(rng, World(stress=True)).to_dict()
        want = {k: v for k, v in drawn.items() if k in SEA_CONDITIONS} | {"span": max(0.55, drawn["span"])}
        assert truth["conditions"] == want
        assert set(truth["conditions"]) == set(SEA_CONDITIONS) < set(Conditions.__dataclass_fields__)
        style = truth["camera"]["style"]
        assert (style["table"], style["table_terrain_hue"], style["hand"]) == (
            want["table"], want["terrain_hue"], want["hand"],
        )  # fmt: skip
        assert want["stress"] and want["light"] != "normal" and want["print"] != "normal"


def test_an_everyday_sea_reads_its_conditions_off_the_style_it_drew(catalog):
    lights = set()
    for seed in range(12):
        truth = scene(catalog, seed).truth
        c, style = truth["conditions"], truth["camera"]["style"]
        assert set(c) == set(SEA_CONDITIONS) - {"span"}
        assert c["table"] == style["table"] and c["terrain_hue"] == style["table_terrain_hue"]
        assert c["tilt_deg"] == pytest.approx(style["tilt_deg"], abs=1e-4)
        assert c["light"] == ("glare" if style["glare"] > 0 else "normal") and c["print"] == "normal"
        assert c["hand"] == style["hand"] and c["stress"] is False
        lights.add(c["light"])
    assert lights == {"normal", "glare"}  # both seen in 12 seas: the test looks at both


def test_sea_buckets_name_the_sea_and_only_what_a_sea_photo_shows():
    truth = {
        "game": "mediterraneo",
        "conditions": {"tilt_deg": 33.0, "table": "felt", "terrain_hue": True, "light": "dim",
                       "print": "faded", "hand": True, "stress": True},
        "scene": {"cards": 9, "loose_cards": 1, "span": 0.31},
        "camera": {"tilt_deg": 31.0},
    }  # fmt: skip
    assert condition_buckets(truth) == {
        "sea size in frame": "25-40%",
        "tilt": "30° or more",
        "table family": "felt",
        "table hue": "terrain hues",
        "light": "dim",
        "print": "faded",
        "hand in frame": "yes",
    }


def record(found: bool, right: bool, flagged: bool, **conditions) -> dict:
    r = {"photo": "p.jpg", "found": found, "cells": 4, "ms": 1.0, "conditions": conditions}
    if found:
        r |= {"cells_right": 4, "frames_right": 4, "octopuses": 0, "octopuses_right": 0, "extra_cells": 0,
              "exact": right, "totals_right": right, "flagged": flagged, "flags": [], "kit_ms": 0.0,
              "objectives_right": True, "totals_right_read": right, "flagged_read": flagged,
              "objective_flags": [], "objectives_ms": 0.0}  # fmt: skip
        r |= {f"{k}_head_by_head": r[k] for k in ("cells_right", "octopuses_right", "extra_cells", "exact", "totals_right", "flagged")}  # fmt: skip
    return r


def test_sea_figures_per_condition_are_the_totals_with_the_objectives_read():
    records = [
        record(True, True, False, light="dim", tilt="30° or more"),
        record(True, False, False, light="dim", tilt="30° or more"),  # wrong and unflagged
        record(True, True, True, light="normal", tilt="under 20°"),  # a false alarm
        record(False, False, True, light="normal", tilt="30° or more"),  # not found: flagged, not exact
    ]
    result = figures(records)
    by = result["by_condition"]
    assert list(by) == ["tilt", "light"]  # the Mondo table's order of families
    assert list(by["light"]) == ["normal", "dim"]  # and of buckets
    assert by["light"]["dim"] == {"photos": 2, "found": 1.0, "scores_exact": 0.5, "wrong_unflagged": 0.5,
                                  "right_flagged": 0.0}  # fmt: skip
    assert by["light"]["normal"] == {"photos": 2, "found": 0.5, "scores_exact": 0.5, "wrong_unflagged": 0.0,
                                     "right_flagged": 0.5}  # fmt: skip
    assert by["tilt"]["30° or more"]["photos"] == 3
    table = eval_table(result)
    assert "by condition (both totals, objectives read)" in table
    assert any(line.split()[:3] == ["light", "normal", "2"] for line in table.splitlines())


def test_an_old_truth_without_conditions_gives_no_table():
    result = figures([record(True, True, False)])
    assert result["by_condition"] == {} and "by condition" not in eval_table(result)


def test_eval_of_a_sea_folder_prints_and_stores_the_breakdown(tmp_path: Path, capsys):
    folder = tmp_path / "seas"
    folder.mkdir()
    photo = folder / SAMPLE.name
    shutil.copy(SAMPLE, photo)
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    truth["conditions"] = {"tilt_deg": 10.0, "table": "wood", "terrain_hue": False, "light": "glare",
                           "print": "normal", "hand": False, "stress": False}  # fmt: skip
    photo.with_suffix(".json").write_text(json.dumps(truth))
    out = tmp_path / "eval.json"
    assert main(["eval", str(folder), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "by condition (both totals, objectives read)" in printed
    stored = json.loads(out.read_text())
    rec = stored["records"][0]
    assert rec["conditions"] == condition_buckets(truth) and rec["conditions"]["light"] == "glare"
    assert stored["by_condition"]["light"]["glare"]["photos"] == 1
    exact = stored["by_condition"]["table family"]["wood"]["scores_exact"]
    assert exact == stored["totals_exact_read_objectives"]
    assert measure_photo(photo, truth)["conditions"] == rec["conditions"]

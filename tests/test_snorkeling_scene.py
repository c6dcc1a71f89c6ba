"""Simulated Snorkeling tables: legal rounds from the engine's random player, truth that agrees with
the rules engine and with where things lie in the photo."""

import cv2
import numpy as np
import pytest

from scoring.snorkeling import check_plays, plays_from_json, score_snorkeling
from vision.catalogs import load_catalog
from vision.synth.snorkeling_scene import snorkeling_scene
from vision.synth.world import World


@pytest.fixture(scope="module")
def scenes():
    catalog = load_catalog("snorkeling")
    return [
        snorkeling_scene(np.random.default_rng(seed), catalog, long_side_px=640, players=players)
        for seed, players in ((1, 2), (2, 6), (3, None))
    ] + [snorkeling_scene(np.random.default_rng(4), catalog, long_side_px=640, world=World(stress=True))]


def test_the_table_is_the_end_of_a_legal_round_and_the_truth_scores_it(scenes):
    for scene in scenes:
        truth = scene.truth
        final = check_plays(plays_from_json(truth["plays"]))  # replayed from the JSON by the checker
        assert final.over
        board = truth["board"]
        assert truth["report"] == score_snorkeling(board) and truth["report"]["round_over"]
        tops = {p["mat"]: p["top"] for p in board["players"]}
        for mat in truth["mats"]:
            pile = mat["pile"]
            assert pile[0]["card"] == "5"  # the Lanternfish lies at the bottom
            assert pile[-1]["card"] == (
                f"{tops[mat['mat']]['value']}-{tops[mat['mat']]['color']}"
                if "color" in tops[mat["mat"]]
                else "5"
            )
            assert [c["card"] for c in pile] == [str(c) for c in final.pile(f"diver {mat['mat']}")]
        centre_top = board["centre"]
        assert truth["centre"][-1]["card"] == f"{centre_top['value']}-{centre_top['color']}"
        assert 2 <= truth["scene"]["players"] <= 6 and len(truth["mats"]) == truth["scene"]["players"]
    assert [s.truth["scene"]["players"] for s in scenes[:2]] == [2, 6]


def test_every_pile_lies_on_its_mat_inside_the_photo(scenes):
    for scene in scenes:
        h, w = scene.shot.image.shape[:2]
        for mat in scene.truth["mats"]:
            outline = np.array(mat["corners"], np.float32)
            assert cv2.contourArea(outline) > 0
            top = np.array(mat["pile"][-1]["corners"])
            assert (top >= -1).all() and (top[:, 0] <= w + 1).all() and (top[:, 1] <= h + 1).all()
            assert cv2.pointPolygonTest(outline, tuple(map(float, top.mean(axis=0))), False) > 0


def test_the_same_seed_gives_the_same_photo():
    catalog = load_catalog("snorkeling")
    a, b = (snorkeling_scene(np.random.default_rng(9), catalog, long_side_px=480) for _ in range(2))
    assert a.jpeg == b.jpeg and a.truth == b.truth

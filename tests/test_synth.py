"""Simulated photos: truth equals the engines' score of the truth board, seeds reproduce files."""

import json

import cv2
import numpy as np
import pytest

from scorecam.cli import main
from scoring.boards import score_board
from scoring.mediterraneo import Objective, check_plays, plays_from_json, sea_to_json, visible_sea
from scoring.mondo import island_from_json
from vision.synth.dataset import write_photos


def _photos(game, tmp_path_factory):
    return game, write_photos(game, 4, 11, tmp_path_factory.mktemp(game), long_side_px=640)


@pytest.fixture(scope="module")
def mondo_photos(tmp_path_factory):
    return _photos("mondo", tmp_path_factory)


@pytest.fixture(scope="module")
def mediterraneo_photos(tmp_path_factory):
    return _photos("mediterraneo", tmp_path_factory)


@pytest.fixture(params=["mondo", "mediterraneo"])
def photos(request):
    return request.getfixturevalue(f"{request.param}_photos")


def truth_of(photo):
    return json.loads(photo.with_suffix(".json").read_text())


def test_each_truth_report_is_the_engines_score_of_the_truth_board(photos):
    game, paths = photos
    for photo in paths:
        truth = truth_of(photo)
        assert truth["game"] == game and truth["photo"] == photo.name
        name = truth["report"]["players"][0]["name"]
        assert truth["report"] == score_board(truth["board"], name=name)


def test_photos_are_jpegs_within_12_megapixels_with_corners_inside(photos):
    game, paths = photos
    for photo in paths:
        image = cv2.imread(str(photo))
        assert image is not None and max(image.shape[:2]) == 640
        h, w = image.shape[:2]
        truth = truth_of(photo)
        for item in truth["tiles" if game == "mondo" else "cards"]:
            corners = np.array(item["corners"])
            assert corners.shape == (4, 2)
            assert (corners[:, 0] > -0.05 * w).all() and (corners[:, 0] < 1.05 * w).all()
            assert (corners[:, 1] > -0.05 * h).all() and (corners[:, 1] < 1.05 * h).all()


def test_mondo_truth_lists_every_tile_and_cell(mondo_photos):
    _, paths = mondo_photos
    for photo in paths:
        truth = truth_of(photo)
        island = island_from_json(truth["board"])
        assert len(truth["tiles"]) == len(island.tiles)
        assert len(truth["cells"]) == island.grid**2
        assert {(t["row"], t["col"]) for t in truth["tiles"]} == {t.cell for t in island.tiles}
        assert all(t.component is not None for t in island.tiles)


def test_mediterraneo_truth_is_a_legal_play_sequence(mediterraneo_photos):
    _, paths = mediterraneo_photos
    for photo in paths:
        truth = truth_of(photo)
        plays = plays_from_json({"format": 1, "game": "mediterraneo", "plays": truth["plays"]})
        table = check_plays(plays)
        board = truth["board"]
        objectives = {p: Objective(o["plus"], o["minus"]) for p, o in board["objectives"].items()}
        sea = visible_sea(table, objectives, board["first"])
        assert [c for c in sea_to_json(sea)["cells"]] == board["cells"]
        assert 3 <= len(plays) <= 16
        assert sum(card["role"] == "objective" for card in truth["cards"]) == 2


def test_the_same_seed_reproduces_the_same_files(photos, tmp_path):
    game, paths = photos
    again = write_photos(game, 2, 11, tmp_path, long_side_px=640)
    for first, second in zip(paths[:2], again, strict=True):
        assert first.read_bytes() == second.read_bytes()
        assert first.with_suffix(".json").read_text() == second.with_suffix(".json").read_text()
    other = write_photos(game, 1, 12, tmp_path / "other", long_side_px=640)
    assert other[0].read_bytes() != paths[0].read_bytes()


def test_synth_command_with_contact_sheet(tmp_path, capsys):
    sheet = tmp_path / "sheet.jpg"
    code = main(["synth", "mondo", "--n", "2", "--seed", "5", "--out", str(tmp_path / "p"), "--long-side", "480",
                 "--contact-sheet", str(sheet)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "wrote 2 photos" in out
    assert len(list((tmp_path / "p").glob("*.jpg"))) == 2
    assert cv2.imread(str(sheet)).shape[1] == 4 * 480


def test_kit_command(tmp_path, capsys):
    assert main(["kit", "mediterraneo", "--out", str(tmp_path)]) == 0
    assert "wrote 18 components (36 faces)" in capsys.readouterr().out
    assert (tmp_path / "mediterraneo-kit.pdf").exists()


def test_islands_with_empty_spaces_stay_connected():
    from vision.synth.catalog import load_catalog
    from vision.synth.mondo_island import _connected, random_layout

    catalog = load_catalog("mondo")
    for seed in range(40):
        layout = random_layout(catalog, np.random.default_rng(seed), 3 + seed % 2, "empty")
        assert len(layout) < (3 + seed % 2) ** 2
        assert _connected(layout)

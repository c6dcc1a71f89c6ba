"""The Mediterráneo training run: which world each training photo comes from, which crops are held
out, and (the `train` extra; `make test-slow`) `python -m vision.training.train_mediterraneo` end to
end on a tiny run with a set of stress photos added and the locator trained on from the shipped
file, written as ONNX files the reader loads, their metadata saying how they were made."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_stress_set_draws_every_second_photo_from_the_stress_world_and_the_rest_from_the_wide_one():
    from vision.training.mediterraneo_data import DataSpec, photo_world

    plain = DataSpec()
    assert [photo_world(plain, i) is None for i in range(4)] == [False, True, False, True]
    assert not any(photo_world(plain, i).stress for i in (0, 2))
    stress = DataSpec(seed=2, n=10, stress_every=2)
    worlds = [photo_world(stress, i) for i in range(4)]
    assert [w.stress for w in worlds] == [False, True, False, True]
    # a spec that draws stress photos is cached apart from the plain one
    assert stress.cache_path() != DataSpec(seed=2, n=10).cache_path()


@pytest.mark.train  # (torch: the `train` extra)
def test_the_cell_crops_of_both_validation_sets_are_held_out_and_seagulls_repeated():
    from vision.mediterraneo.cells import HEADS
    from vision.training.train_mediterraneo import SEAGULL_REPEAT, split_cells

    gull, fish = HEADS["content"].index("seagull"), HEADS["content"].index("fish")
    photo = np.array([0, 0, 1, 2, 3, 3, 4])
    content = np.array([fish, gull, fish, fish, gull, fish, fish])
    data = {
        "crops": np.arange(len(photo), dtype=np.uint8)[:, None, None, None] * np.ones((1, 2, 2, 3), np.uint8),
        "labels": np.stack([content, -np.ones_like(content), np.zeros_like(content)], 1).astype(np.int8),
        "photo": photo,
    }
    train_x, train_y, valid_x, _, stress_x, _ = split_cells(data, np.array([0]), np.array([3]))
    assert valid_x[:, 0, 0, 0].tolist() == [0, 1] and stress_x[:, 0, 0, 0].tolist() == [4, 5]
    # photos 1, 2 and 4 train; none of them holds a gull, so nothing is repeated
    assert sorted(train_x[:, 0, 0, 0].tolist()) == [2, 3, 6]
    train_x, train_y, *_ = split_cells(data, np.array([0]))
    shown = train_x[:, 0, 0, 0].tolist()
    assert shown.count(4) == SEAGULL_REPEAT and shown.count(5) == 1 and 0 not in shown and 1 not in shown
    assert (train_y[:, 0] == gull).sum() == SEAGULL_REPEAT


@pytest.mark.train
def test_a_tiny_run_with_stress_photos_writes_a_locator_and_a_cell_model_the_reader_loads(tmp_path):
    from vision.errors import PhotoError
    from vision.mediterraneo.locate import load_locator
    from vision.mediterraneo.reader import load_cell_model, read_sea
    from vision.photo_io import read_photo
    from vision.training.train_mediterraneo import main

    shipped = ROOT / "models" / "mediterraneo-locator.onnx"
    common = ["--smoke", "--out-dir", str(tmp_path), "--stress-seeds", "4", "--stress-n", "20"]
    main([*common, "--locator-init", str(shipped), "--locator-lr", "1e-3"])
    # the reader takes both files as they are, with the metadata they carry
    locator = load_locator(str(tmp_path / "mediterraneo-locator.onnx"))
    cells = load_cell_model(str(tmp_path / "mediterraneo-cells.onnx"))
    sets = [{"seed": 4, "photos": 20, "stress_every": 2}]
    loc_training = locator.meta["training"]
    assert loc_training["continued_from"] == str(shipped) and loc_training["stress_sets"] == sets
    assert set(loc_training["stress_val"]) == {"photo", "window"}
    assert loc_training["command"].startswith("python -m vision.training.train_mediterraneo --smoke")
    cell_meta = cells.metadata
    assert cell_meta["training"]["stress_sets"] == sets and cell_meta["training"]["hard_light"] > 0
    stress_val = cell_meta["metrics"]["stress_validation"]
    assert stress_val["crops"] > 0 and 0.0 <= stress_val["content"] <= 1.0
    photo = read_photo(sorted((ROOT / "samples" / "mediterraneo").glob("*.jpg"))[0])
    try:
        _, reading = read_sea(photo, locator=locator, cells=cells)
    except PhotoError:  # a tiny model may find no sea: that is said, not a crash
        return
    assert all(np.isfinite(r.confidence) for r in reading.readings)

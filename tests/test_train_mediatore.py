"""`python -m vision.training.train_mediatore` end to end on a tiny run (the `train` extra; `make
test-slow`): a locator trained on from the shipped one with a set of stress photos added, and
quantised, and a corner model (two located sets, hard light on half its crops), both written as ONNX
files the reader loads, their metadata saying how they were made; and the shipped corner model trained
on from located crops alone, a set of photos on paper tables and one in dim light among them. The
photos are cached under build/mediatore-data/ like any training run's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.train
def test_a_tiny_run_from_the_shipped_locator_with_stress_photos_writes_both_models(tmp_path):
    import onnx

    from vision.mediatore import read_cards
    from vision.mediatore.locate import load_locator
    from vision.mediatore.reader import load_corner_model
    from vision.training.train_mediatore import main

    argv = ["--smoke", "--out-dir", str(tmp_path), "--stress-seeds", "4", "--stress-n", "8"]
    argv += ["--locator-init", str(ROOT / "models" / "mediatore-locator.onnx"), "--located-photos", "8"]
    argv += ["--located-seeds", "3,8", "--located-stress-every", "2", "--hard-light", "0.5"]
    main(argv)
    locator, corners = tmp_path / "mediatore-locator.onnx", tmp_path / "mediatore-corners.onnx"
    meta = {p.key: p.value for p in onnx.load(str(locator)).metadata_props}
    training = json.loads(meta["scorecam"])["training"]
    assert training["continued_from"].endswith("models/mediatore-locator.onnx")
    assert training["stress_sets"] == [{"seed": 4, "photos": 8, "stress_every": 2}]
    assert training["command"].startswith("python -m vision.training.train_mediatore --smoke")
    quantized = json.loads(meta["scorecam"])["quantized"]  # calibrated on the reader's looks, 4 photos
    assert quantized["calibration"]["photos"] == 4 and quantized["calibration"]["windows"] > 0
    assert any(node.op_type == "QuantizeLinear" for node in onnx.load(str(locator)).graph.node)
    meta = {p.key: p.value for p in onnx.load(str(corners)).metadata_props}
    training = json.loads(meta["scorecam"])["training"]
    sets = training["data"]  # the located sets last, one a seed
    assert [(s["seed"], s["stress_every"]) for s in sets] == [(1, 4), (4, 2), (3, 2), (8, 2)]
    assert training["hard_light"] == 0.5
    # the reader takes both files as they are
    photo = sorted((ROOT / "samples" / "mediatore").glob("*.jpg"))[1]
    try:
        cards, reading = read_cards(
            photo, locator=load_locator(str(locator)), corners=load_corner_model(str(corners))
        )
    except Exception as error:  # a tiny model may find no card: that is a PhotoError, not a crash
        from vision.errors import PhotoError

        assert isinstance(error, PhotoError)
    else:
        assert reading.status in ("ok", "check") and np.isfinite([c.confidence for c in reading.cards]).all()


@pytest.mark.train
def test_the_shipped_corner_model_trained_on_from_the_located_crops_alone(tmp_path):
    import shutil

    import onnx

    from vision.mediatore import read_cards
    from vision.mediatore.reader import load_corner_model
    from vision.training.train_mediatore import main

    shutil.copy(ROOT / "models" / "mediatore-locator.onnx", tmp_path)  # the located crops' locator
    shipped = ROOT / "models" / "mediatore-corners.onnx"
    # (two epochs: one over so few crops is too short a schedule for the learning rate's cycle)
    argv = [
        "--out-dir",
        str(tmp_path),
        "--only",
        "corners",
        "--corners-init",
        str(shipped),
        "--corner-epochs",
        "2",
    ]
    argv += [
        "--located-photos",
        "10",
        "--located-seeds",
        "3",
        "--corner-lr",
        "1e-4",
        "--located-version",
        "3",
    ]
    argv += ["--located-paper-seeds", "12", "--located-dim-seeds", "13"]  # a set of each kind of photo
    main(argv)
    corners = tmp_path / "mediatore-corners.onnx"
    training = json.loads({p.key: p.value for p in onnx.load(str(corners)).metadata_props}["scorecam"])[
        "training"
    ]
    assert training["continued_from"] == str(shipped) and training["lr"] == 1e-4
    sets = training["data"]  # nothing else rendered; the sets of one kind say which
    assert [s["seed"] for s in sets] == [3, 12, 13]
    assert "tables" not in sets[0] and "lights" not in sets[0]
    assert sets[1]["tables"] == ["paper"] and sets[2]["lights"] == ["dim"]
    # one epoch at a low rate from the shipped model: the sample still reads as the shipped model reads it
    photo = sorted((ROOT / "samples" / "mediatore").glob("*.jpg"))[1]
    before, _ = read_cards(photo)
    after, _ = read_cards(photo, corners=load_corner_model(str(corners)))
    assert len(set(before) ^ set(after)) <= 2

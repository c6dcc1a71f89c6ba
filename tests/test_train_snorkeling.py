"""`python -m vision.training.train_snorkeling` end to end on a tiny run (the `train` extra; `make
test-slow`): a locator trained on from the shipped one and a card model, each with a set of stress
photos added (`--stress-seeds`), written as ONNX files the reader loads, their metadata saying how
they were made. The photos are cached under build/snorkeling-data/ like any training run's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _training(path: Path) -> dict:
    import onnx

    meta = {p.key: p.value for p in onnx.load(str(path)).metadata_props}
    return json.loads(meta["scorecam"])["training"]


@pytest.mark.train
def test_a_tiny_run_with_stress_photos_writes_a_locator_and_a_card_model_the_reader_loads(tmp_path):
    from vision.errors import PhotoError
    from vision.snorkeling import read_round
    from vision.snorkeling.locate import load_locator
    from vision.snorkeling.reader import load_card_model
    from vision.training.train_snorkeling import main

    shipped = ROOT / "models" / "snorkeling-locator.onnx"
    common = ["--smoke", "--out-dir", str(tmp_path), "--stress-seeds", "4", "--stress-n", "8"]
    main([*common, "--only", "locator", "--init-from", str(shipped)])
    main([*common, "--only", "cards"])
    locator, cards = tmp_path / "snorkeling-locator.onnx", tmp_path / "snorkeling-cards.onnx"
    sets = [{"seed": 1, "photos": 40, "stress_every": 4}, {"seed": 4, "photos": 8, "stress_every": 2}]
    training = _training(locator)
    assert training["init_from"] == str(shipped) and training["photos"] == 48
    assert training["sets"] == sets
    assert training["command"].startswith("python -m vision.training.train_snorkeling --smoke")
    assert _training(cards)["sets"] == sets and _training(cards)["photos"] == 48
    # the reader takes both files as they are
    photo = sorted((ROOT / "samples" / "snorkeling").glob("*.jpg"))[0]
    try:
        _, reading = read_round(photo, locator=load_locator(str(locator)), cards=load_card_model(str(cards)))
    except PhotoError:  # a tiny model may find no mat: that is said, not a crash
        return
    assert all(np.isfinite([p.mat_confidence, p.top.confidence]).all() for p in reading.piles)

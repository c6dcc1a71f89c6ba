"""`python -m vision.training.train_mondo_tiles` end to end on a tiny run (the `train` extra; `make
test-slow`): everyday photos, two sets of stress photos (--stress-seeds), one epoch, written as an
ONNX file the reader loads, its metadata saying what it learnt from. The crops are cached in a
temporary folder, not under build/."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.train
def test_a_tiny_run_with_two_stress_sets_writes_a_model_the_reader_loads(tmp_path):
    from vision.onnx_model import load_model
    from vision.training.train_mondo_tiles import main

    out = tmp_path / "mondo-tiles.onnx"
    argv = ["--out", str(out), "--cache-dir", str(tmp_path / "crops"), "--epochs", "1", "--jobs", "1"]
    argv += ["--photos", "4", "--valid-photos", "2", "--stress-photos", "2", "--stress-valid-photos", "2"]
    argv += ["--stress-seeds", "3,5", "--variants", "1"]
    assert main(argv) == 0
    # one cache file a set: everyday, validation, each stress seed, stress validation
    assert len(list((tmp_path / "crops").glob("*.npz"))) == 5
    model = load_model(out)
    training = model.metadata["training"]
    assert training["stress_seeds"] == [3, 5] and training["stress_photos"] == 2
    assert training["command"].startswith("python -m vision.training.train_mondo_tiles --out")
    crops = np.zeros((3, model.input_size, model.input_size, 3), np.uint8)
    probs = model.run(crops)
    assert set(probs) == set(model.heads) and all(
        np.allclose(p.sum(axis=1), 1, atol=1e-4) for p in probs.values()
    )

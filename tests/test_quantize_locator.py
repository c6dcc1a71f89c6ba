"""The locators' input and the Mediatore locator's 8-bit form (``vision.training.quantize_locator``)."""

from __future__ import annotations

import numpy as np
import pytest


def _numpy_input(picture, mean, std):
    x = (picture.astype(np.float32) - np.float32(mean)) / np.float32(std)
    return x.transpose(2, 0, 1)[None]


@pytest.mark.parametrize(
    ("mean", "std"), [([127.5] * 3, [64.0] * 3), ([100.0, 120.0, 140.0], [50.0, 60.0, 70.0])]
)
def test_a_locators_input_is_the_picture_normalised_channel_by_channel(mean, std):
    """OpenCV's one pass (one std for every channel) and numpy's (one a channel) give numpy's numbers."""
    from vision.locator_net import net_input

    picture = np.random.default_rng(0).integers(0, 256, (48, 80, 3), np.uint8)
    picture[0, 0] = (0, 128, 255)
    got = net_input(picture, mean, std)
    assert got.shape == (1, 3, 48, 80) and got.dtype == np.float32 and got.flags["C_CONTIGUOUS"]
    np.testing.assert_allclose(got, _numpy_input(picture, mean, std), rtol=0, atol=1e-6)
    assert got[0, :, 0, 0] == pytest.approx(
        [(0 - mean[0]) / std[0], (128 - mean[1]) / std[1], (255 - mean[2]) / std[2]]
    )


def test_the_shipped_mediatore_locator_is_quantised_and_says_how():
    from vision.mediatore.locate import load_locator

    note = load_locator().meta["quantized"]
    assert note["weights"].startswith("int8") and note["activations"].startswith("uint8")
    assert note["calibration"]["seed"] < 9000 and note["calibration"]["windows"] > 100
    assert note["command"].startswith("python -m vision.training.quantize_locator")


def test_calibration_windows_share_one_shape_and_skip_small_looks():
    from vision.training.quantize_locator import WINDOW, WINDOWS_PER_PICTURE, windows

    rng = np.random.default_rng(0)
    looks = [np.ones((1, 3, 512, 384), np.float32), np.ones((1, 3, 200, 600), np.float32),
             np.arange(3 * WINDOW * WINDOW, dtype=np.float32).reshape(1, 3, WINDOW, WINDOW)]  # fmt: skip
    out = windows(looks, rng)
    assert len(out) == 2 * WINDOWS_PER_PICTURE  # the 200 px high look is left out
    assert {w.shape for w in out} == {(1, 3, WINDOW, WINDOW)}
    assert np.array_equal(out[-1], looks[-1])  # a look of the window's size is taken whole


@pytest.mark.train
def test_a_quantised_locator_is_not_quantised_again(root, tmp_path):
    from vision.training.quantize_locator import is_quantized, main, quantize_locator

    shipped = root / "models" / "mediatore-locator.onnx"
    assert is_quantized(shipped) and not is_quantized(root / "models" / "mondo-locator.onnx")
    with pytest.raises(ValueError, match="already quantised"):
        quantize_locator("mediatore", shipped, tmp_path / "q.onnx", photos=1)
    with pytest.raises(SystemExit):  # the float locator is kept: --out must differ from --model
        main(["--model", str(shipped), "--out", str(shipped)])
    assert not (tmp_path / "q.onnx").exists()

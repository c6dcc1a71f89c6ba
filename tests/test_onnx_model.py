"""The shipped Mondo tile model as the runtime sees it, and the training data's 90-degree turns.

Accuracy here is a loose sanity check on one held-out photo; the real figures come from
``scorecam eval`` (see models/README.md).
"""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.geometry import CROP_MARGIN, crop_quads
from vision.mondo.heads import HEADS, tile_labels, turn_crops, turn_labels, turned_head, turned_head_sources
from vision.mondo.reader import read_turns
from vision.onnx_model import ModelFileError, load_model
from vision.synth.catalog import load_catalog
from vision.synth.dataset import make_scene
from vision.synth.mondo_island import PlacedTile, tile_of
from vision.training.mondo_tiles_data import cell_labels, ring_quads

MODEL = Path(__file__).resolve().parents[1] / "models" / "mondo-tiles.onnx"


@pytest.fixture(scope="module")
def model():
    return load_model(MODEL)


@pytest.fixture(scope="module")
def held_out_scene():
    return make_scene("mondo", 9999, 0, long_side_px=1300)  # an evaluation seed (>= 9000)


@pytest.fixture(scope="module")
def held_out_cells(model, held_out_scene):
    """Crops and encoded labels of every cell of a photo the model never saw."""
    scene = held_out_scene
    image = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    cells = cell_labels(scene.truth)
    quads = np.stack([quad for quad, _ in cells])
    # bring tiles to about 1.6 crops, as the reader's reduced decode does
    cell_px = np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1))
    scale = min(1.0, 1.6 * model.input_size / (1 + 2 * CROP_MARGIN) / cell_px)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    crops = crop_quads(small, quads * np.float32(scale), model.input_size)
    return crops, np.stack([labels for _, labels in cells])


def test_metadata_describes_input_and_every_head(model):
    meta = model.metadata
    assert meta["task"] == "mondo-tiles"
    assert meta["input"] == {
        "size": model.input_size,
        "channels": "BGR",
        "layout": "NHWC",
        "dtype": "uint8",
        "crop_margin": CROP_MARGIN,
    }
    assert model.heads == {name: list(labels) for name, labels in HEADS.items()}
    assert all(seed < 9000 for seed in meta["training"]["seeds"])
    assert MODEL.stat().st_size <= 2_000_000


def test_outputs_are_probabilities_of_every_head(model):
    crops = np.random.default_rng(0).integers(0, 256, (3, model.input_size, model.input_size, 3), np.uint8)
    probs = model.run(crops)
    assert set(probs) == set(HEADS)
    for name, labels in HEADS.items():
        assert probs[name].shape == (3, len(labels))
        np.testing.assert_allclose(probs[name].sum(axis=1), 1.0, atol=1e-5)
    assert model.run(crops[:0])["present"].shape == (0, 2)


def test_model_reads_the_edges_of_a_held_out_photo(model, held_out_cells):
    crops, labels = held_out_cells
    probs = model.run(crops)
    present = labels[:, 0] == HEADS["present"].index("tile")
    assert (probs["present"].argmax(1) == labels[:, 0]).mean() >= 0.9
    names = list(HEADS)
    hits = [
        probs[f"edge_{side}"][present].argmax(1) == labels[present, names.index(f"edge_{side}")]
        for side in "NESW"
    ]
    assert np.concatenate(hits).mean() >= 0.9


def test_reading_the_four_turns_turns_with_the_cell(model, held_out_cells):
    """Averaged over all four turns, the reading of a turned cell is the cell's reading turned:
    its E edge is what the unturned cell showed on N, and so on; counts and face stay."""
    crops, labels = held_out_cells
    probs = read_turns(model, crops)
    for p in probs.values():
        np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    turned = read_turns(model, turn_crops(crops, 1))
    for head in HEADS:
        np.testing.assert_allclose(turned[head], probs[turned_head(head, 1)], atol=1e-5)
    assert turned_head("edge_E", 1) == "edge_N" and turned_head("join_ES", 1) == "join_NE"
    # and each head keeps its meaning: the four-turn reading agrees with the plain one on the tiles
    plain = model.run(crops)
    tiles = labels[:, 0] == HEADS["present"].index("tile")
    for head in HEADS:
        agree = probs[head][tiles].argmax(1) == plain[head][tiles].argmax(1)
        assert agree.mean() >= 0.95, head


def test_load_model_is_cached_and_refuses_what_is_no_model(model, tmp_path):
    assert load_model(MODEL) is model
    with pytest.raises(ModelFileError, match="missing"):
        load_model(tmp_path / "absent.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="not a readable ONNX model"):
        load_model(junk)


@pytest.mark.train
def test_model_without_scorecam_metadata_is_refused(tmp_path):
    import onnx  # the `train` extra

    proto = onnx.load(str(MODEL))
    del proto.metadata_props[:]
    bare = tmp_path / "bare.onnx"
    onnx.save(proto, str(bare))
    with pytest.raises(ModelFileError, match="no 'scorecam' metadata"):
        load_model(bare)


# --- the training data's 90-degree turns -------------------------------------------------------------


@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_turned_labels_are_the_labels_of_the_turned_tile(quarter_turns):
    """Every catalog face: turning its labels = labelling the face turned by the catalog's own rule."""
    catalog = load_catalog("mondo")
    for component in catalog["components"]:
        for face in ("front", "back"):
            upright = tile_of(PlacedTile(component["id"], face, 0, 0, 0), catalog)
            turned = tile_of(PlacedTile(component["id"], face, 90 * quarter_turns, 0, 0), catalog)
            assert turn_labels(tile_labels(upright), quarter_turns) == tile_labels(turned)


def test_turns_compose_and_leave_empty_cells_alone():
    assert turned_head_sources(0) == list(range(len(HEADS)))
    once = turned_head_sources(1)
    twice = [once[i] for i in once]
    assert twice == turned_head_sources(2)
    assert turn_labels({"present": "empty"}, 1) == {"present": "empty"}


def test_turned_crop_is_the_crop_of_the_turned_cell():
    """np.rot90 clockwise (turn_crops) = the cell read with its W side as N: the way the labels turn."""
    rng = np.random.default_rng(1)
    image = cv2.GaussianBlur(rng.integers(0, 256, (200, 200, 3), np.uint8), (0, 0), 4)
    quad = np.array([[50, 60], [150, 55], [155, 150], [45, 140]], np.float32)
    crop = crop_quads(image, quad[None], 48)
    turned_cell = crop_quads(image, np.roll(quad, 1, axis=0)[None], 48)  # W side first: BL TL TR BR
    diff = np.abs(turn_crops(crop, 1).astype(int) - turned_cell.astype(int))
    assert diff.mean() < 2.0


@pytest.mark.train
def test_torch_turns_match_the_numpy_turns():
    import torch  # the `train` extra

    from vision.training.mondo_tiles_model import to_float_nchw, turned_batch

    crops = np.random.default_rng(2).integers(0, 256, (64, 8, 8, 3), np.uint8)
    labels = np.tile(np.arange(len(HEADS), dtype=np.int8), (64, 1))
    x, y = turned_batch(to_float_nchw(torch.from_numpy(crops)), torch.from_numpy(labels), torch.Generator())
    for i in range(64):
        k = next(k for k in range(4) if (y[i].numpy() == labels[0][turned_head_sources(k)]).all())
        expected = turn_crops(crops[i : i + 1], k)[0].transpose(2, 0, 1)
        np.testing.assert_array_equal(x[i].numpy(), expected)


def test_ring_cells_continue_the_grid(held_out_scene):
    """The extra empty cells lie just outside the grid: the one above cell (0, 0) shares its top edge."""
    truth = held_out_scene.truth
    grid = truth["scene"]["grid"]
    ring = ring_quads(truth)
    assert len(ring) == 4 * grid + 4
    first = np.array(truth["cells"][0]["quad"], np.float32)
    above = ring[1]  # ring order is reading order from (-1, -1): (-1, 0) comes second
    side = np.linalg.norm(first[1] - first[0])
    assert np.abs(above[[3, 2]] - first[[0, 1]]).max() < 0.05 * side


@pytest.mark.train
def test_a_shipped_tile_model_trained_on_starts_from_exactly_what_the_file_computes(root):
    """`train_mondo_tiles --init-from`: the net rebuilt from the ONNX file (batch norms folded into the
    convolutions by the export) gives the file's probabilities, and its frozen batch norms keep the
    folded weights while it trains (their statistics are not learned again)."""
    import onnxruntime as ort
    import torch  # the `train` extra

    from vision.onnx_model import load_session
    from vision.training.export_onnx import SoftmaxHeads
    from vision.training.mondo_tiles_model import TrainConfig, from_onnx, train

    path = root / "models" / "mondo-tiles.onnx"
    net = from_onnx(path)
    calibration = load_session(path)[1]["metrics"]["calibration"]
    temperatures = [calibration[head]["temperature"] for head in HEADS]
    crops = np.random.default_rng(3).integers(0, 256, (6, 72, 72, 3), np.uint8)
    expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"crops": crops})
    with torch.no_grad():
        got = SoftmaxHeads(net.eval(), temperatures)(torch.from_numpy(crops))
    for a, b in zip(got, expected, strict=True):
        np.testing.assert_allclose(a.numpy(), b, atol=1e-5)
    x = torch.from_numpy(crops)
    y = torch.zeros((6, len(HEADS)), dtype=torch.int8)
    train(net, x, y, x, y, TrainConfig(epochs=1, batch=3, lr=1e-3), log=lambda _: None)
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and all(float(m.running_mean.abs().max()) == 0.0 for m in norms)
    assert all(float(m.running_var.max()) == float(m.running_var.min()) for m in norms)


@pytest.mark.train
def test_hard_light_touches_only_its_share_and_keeps_pixels_in_range():
    import torch  # the `train` extra

    from vision.training.mondo_tiles_model import hard_light

    grey = torch.full((400, 3, 16, 16), 128.0)
    none = hard_light(grey, torch.Generator().manual_seed(0), 0.0)
    assert torch.equal(none, grey)
    lit = hard_light(grey, torch.Generator().manual_seed(0), 0.5)
    assert lit.min() >= 0 and lit.max() <= 255
    changed = (lit != grey).flatten(1).any(1)
    # a washed or boosted colour leaves a grey crop grey; the other three kinds change it
    assert 0.25 < changed.float().mean() < 0.5
    blue_red = lit[:, 0].mean((1, 2)) - lit[:, 2].mean((1, 2))
    assert (blue_red > 20).any() and (blue_red < -20).any()  # casts both ways: shade and tungsten
    shadowed = lit[:, 1].amin((1, 2)) < 100  # a shadow edge darkens part of a crop, not all of it
    assert shadowed.any() and (lit[shadowed, 1].amax((1, 2)) > 110).all()

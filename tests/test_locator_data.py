"""The locator's training data: the stress photos it learns beside the everyday mix."""

from dataclasses import replace

import numpy as np
import pytest

from vision.synth.dataset import photo_rng
from vision.synth.world import SPAN_RANGE, STRESS_SPAN, draw_conditions
from vision.training.locator_data import DataSpec, render_side, world_of


def test_a_stress_spec_draws_its_photos_from_the_stress_world():
    everyday, stress = DataSpec(n=40), replace(DataSpec(n=40), seed=3, stress=True)
    assert world_of(stress).stress and not world_of(everyday).stress
    spans = [draw_conditions(photo_rng(3, i), world_of(stress)).span for i in range(40)]
    assert STRESS_SPAN[0] <= min(spans) and max(spans) <= STRESS_SPAN[1]
    # the everyday mix reaches islands larger than the stress world ever draws
    spans = [draw_conditions(photo_rng(1, i), world_of(everyday)).span for i in range(40)]
    assert max(spans) > STRESS_SPAN[1] and max(spans) <= SPAN_RANGE[1]


def test_stress_photos_are_rendered_so_their_cells_keep_the_same_size():
    """Small islands are rendered on larger photos (within bounds), so a cell spans about the same px."""
    spec = replace(DataSpec(n=20), seed=3, stress=True)
    for i in range(20):
        span = draw_conditions(photo_rng(3, i), world_of(spec)).span
        side = render_side(spec, i)
        lo, hi = spec.render_long_side
        assert lo <= side <= hi
        if lo < side < hi:
            cell = side * 0.75 * span / 4
            assert abs(cell - spec.render_cell_px) < 8


def test_the_stress_data_is_cached_apart_from_the_everyday_data():
    spec = DataSpec(n=40)
    assert replace(spec, stress=True).cache_path() != spec.cache_path()
    lit = replace(spec, stress=True, lights=("overexposed",))
    assert lit.cache_path() != replace(spec, stress=True).cache_path()
    assert world_of(lit).lights == ("overexposed",) and world_of(spec).lights is None
    assert np.all([replace(spec, seed=s).cache_path() != spec.cache_path() for s in (3, 4)])


def test_a_spec_without_lights_keeps_the_cache_key_it_had_before_lights_were_added():
    # the key of DataSpec() hashed before the field existed (build/locator-data caches keep their names)
    assert DataSpec().cache_path().name == "mondo-locator-213b57d2662d.npz"
    assert (
        replace(DataSpec(), seed=3, n=1000, stress=True).cache_path().name == "mondo-locator-ed090402eb01.npz"
    )


@pytest.mark.train
@pytest.mark.parametrize(
    ("name", "atol"), [("mondo-locator", 1e-5), ("snorkeling-locator", 1e-5), ("mediatore-locator", 0.06)]
)
def test_a_shipped_locator_trained_on_starts_from_exactly_what_the_file_computes(root, name, atol):
    """`train_locator --init-from`: the net rebuilt from the ONNX file (batch norms folded into the
    convolutions by the export) draws the same maps as the file, and its frozen batch norms stay so
    while it trains. The Mediatore locator is quantised (8-bit weights read back, in float): its
    maps differ by the file's 8-bit activations alone, a few hundredths of a probability."""
    import onnxruntime as ort
    import torch  # the `train` extra

    from vision.training.train_locator import Exported, from_onnx, train_epoch

    model = root / "models" / f"{name}.onnx"
    net = from_onnx(model)
    x = np.random.default_rng(0).normal(0, 1, (1, 3, 64, 96)).astype(np.float32)
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    expected = session.run(None, {"image": x})[0]
    got = Exported(net).eval()(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(got, expected, atol=atol)
    pictures = np.zeros((2, 32, 32, 3), np.uint8)
    labels = np.zeros((2, 32, 32, 2), np.uint8)
    opt = torch.optim.SGD(net.parameters(), lr=0.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda _: 1.0)
    train_epoch(net, [(pictures, labels)], [(0, np.arange(2))], np.random.default_rng(0), opt, sched)
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and all(float(m.running_var.max()) == float(m.running_var.min()) for m in norms)
    assert all(abs(float(m.running_mean.abs().max())) == 0.0 for m in norms)


def test_several_seeds_data_sets_merge_with_the_first_sets_photos_first():
    """`train_snorkeling --data-seeds 1,2`: the crops' photo indices count on, so the validation
    photos (the first ones) are the first set's alone."""
    from vision.training.common import merge_sets

    def data(seed: int, crops_per_photo: list[int]) -> dict:
        photo = np.repeat(np.arange(len(crops_per_photo)), crops_per_photo).astype(np.int32)
        return {"images": np.full((len(crops_per_photo), 2, 2, 3), seed, np.uint8),
                "crops": np.full((len(photo), 4, 4, 3), seed, np.uint8), "photo": photo}  # fmt: skip

    merged = merge_sets([data(1, [2, 1, 3]), data(2, [1, 2, 2])], n=3)
    assert merged["images"].shape[0] == 6 and merged["crops"].shape[0] == 11
    assert merged["photo"].tolist() == [0, 0, 1, 2, 2, 2, 3, 4, 4, 5, 5]
    assert (merged["crops"][merged["photo"] < 3] == 1).all() and (
        merged["crops"][merged["photo"] >= 3] == 2
    ).all()
    one = data(1, [1, 1])
    assert merge_sets([one], n=2)["photo"].tolist() == [0, 1]
    pictures = merge_sets([{"images": one["images"]}, {"images": one["images"]}], n=2)
    assert list(pictures) == ["images"] and len(pictures["images"]) == 4
    # sets of different sizes (`--stress-seeds`, fewer photos each): each set counts on from the last
    merged = merge_sets([data(1, [2, 1, 3]), data(2, [1, 2])], n=[3, 2])
    assert merged["photo"].tolist() == [0, 0, 1, 2, 2, 2, 3, 4, 4]
    with pytest.raises(ValueError):
        merge_sets([one, one], n=[2])

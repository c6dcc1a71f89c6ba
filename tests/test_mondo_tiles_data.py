"""The tile model's crop sets: cache keys and joining (no torch needed)."""

import hashlib
import json
from dataclasses import asdict

import numpy as np

from vision.mondo.heads import HEADS
from vision.training.mondo_tiles_data import DATA_VERSION, CropSet, CropSpec, cache_path, joined


def test_the_stress_world_has_its_own_cache_and_the_everyday_cache_keeps_its_name(tmp_path):
    everyday, stress, lights = (
        cache_path(1, 10, CropSpec(), tmp_path),
        cache_path(1, 10, CropSpec(stress=True), tmp_path),
        cache_path(1, 10, CropSpec(stress=True, lights=("overexposed", "dim")), tmp_path),
    )
    assert len({everyday, stress, lights}) == 3
    # the key of crops cached before the stress and lights fields existed: the same file name
    fields = {k: v for k, v in asdict(CropSpec()).items() if k not in ("stress", "lights")}
    key = json.dumps({"v": DATA_VERSION, "heads": HEADS, **fields}, sort_keys=True)
    assert everyday.name == f"crops-s1-n10-72px-{hashlib.sha1(key.encode()).hexdigest()[:10]}.npz"


def _set(n_photos: int, per_photo: int, value: int) -> CropSet:
    n = n_photos * per_photo
    return CropSet(
        crops=np.full((n, 4, 4, 3), value, np.uint8),
        labels=np.full((n, len(HEADS)), value, np.int8),
        photo=np.repeat(np.arange(n_photos, dtype=np.int32), per_photo),
        ring=np.zeros(n, bool),
        seed=value,
        photos=n_photos,
    )


def test_joined_sets_keep_every_crop_and_number_the_photos_on():
    both = joined(_set(3, 2, 1), _set(2, 5, 7))
    assert len(both.crops) == len(both.labels) == 16 and both.photos == 5 and both.seed == 1
    assert both.photo.tolist() == [0, 0, 1, 1, 2, 2] + [3] * 5 + [4] * 5
    assert (both.crops[6:] == 7).all() and (both.labels[:6] == 1).all()

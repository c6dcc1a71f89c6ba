"""Table surfaces of the photo simulator (vision.synth.tables)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.mondo_art import TERRAIN_BGR
from vision.synth.tables import TABLE_KINDS, draw_table, hard, photographs
from vision.synth.world import HUED_FAMILIES, TABLE_FAMILIES

SHAPES = (((37, 53), 0.7), ((240, 320), 3.0), ((101, 77), 12.0))


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _hue_deg(bgr) -> float:
    return float(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV_FULL)[0, 0, 0]) * 360.0 / 256.0


TERRAIN_HUES = tuple(_hue_deg(c) for c in TERRAIN_BGR.values())


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _dominant_hue(img: np.ndarray) -> tuple[float, float]:
    """The most common hue (degrees) of the coloured pixels, and the fraction of pixels that are coloured
    (grey, black and white pixels have no meaningful hue)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV_FULL).reshape(-1, 3)
    coloured = (hsv[:, 1] > 25) & (hsv[:, 2] > 40)
    hue = hsv[coloured, 0].astype(np.float64) * 360.0 / 256.0
    hist = np.bincount((hue // 10).astype(int) % 36, minlength=36).astype(np.float64)
    hist += 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))  # 10-degree bins, a little smoothed
    return (int(np.argmax(hist)) + 0.5) * 10.0, float(coloured.mean())


def test_table_kinds_are_the_world_families() -> None:
    assert TABLE_KINDS == TABLE_FAMILIES
    assert set(TABLE_KINDS) >= HUED_FAMILIES


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_every_family_renders_at_the_requested_shape(kind: str) -> None:
    for i, (shape, p) in enumerate((*SHAPES, ((64, 96), 1.5))):
        for seed in range(2):
            for terrain in (False, True):
                t = draw_table(_rng(10 * i + seed), shape, p, kind, terrain)
                assert t.shape == (*shape, 3) and t.dtype == np.uint8
                assert t.flags.c_contiguous
                assert t.std() > 0.5, (kind, shape, p, seed, terrain)  # not a flat fill


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_same_seed_same_table_other_seed_other_table(kind: str) -> None:
    for terrain in (False, True):
        a = draw_table(_rng(5), (120, 160), 2.0, kind, terrain)
        b = draw_table(_rng(5), (120, 160), 2.0, kind, terrain)
        c = draw_table(_rng(6), (120, 160), 2.0, kind, terrain)
        assert a.tobytes() == b.tobytes()
        assert a.tobytes() != c.tobytes()


def test_output_depends_only_on_the_generator() -> None:
    np.random.seed(1)  # the global state must not matter
    a = draw_table(_rng(3), (80, 100), 2.0)
    np.random.seed(2)
    b = draw_table(_rng(3), (80, 100), 2.0)
    assert a.tobytes() == b.tobytes()


def test_unknown_kind_and_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError) as err:
        draw_table(_rng(1), (64, 64), 4.0, "marble")
    assert "marble" in str(err.value)
    for kind in TABLE_KINDS:
        assert kind in str(err.value)
    with pytest.raises(ValueError):
        draw_table(_rng(1), (0, 64), 4.0, "wood")
    with pytest.raises(ValueError):
        draw_table(_rng(1), (64, 64), 0.0, "wood")


def test_kind_none_draws_every_family() -> None:
    seen = set()
    for seed in range(200):
        twin = _rng(seed)
        kind = TABLE_KINDS[int(twin.integers(len(TABLE_KINDS)))]  # draw_table's own first draw
        seen.add(kind)
        drawn = draw_table(_rng(seed), (24, 32), 1.0)
        assert drawn.tobytes() == draw_table(twin, (24, 32), 1.0, kind).tobytes()
    assert seen == set(TABLE_KINDS)


@pytest.mark.parametrize("kind", sorted(HUED_FAMILIES))
def test_terrain_hue_makes_a_terrain_colour_dominant(kind: str) -> None:
    for seed in range(6):
        for shape, p in (((240, 320), 3.0), ((150, 200), 1.0)):
            img = draw_table(_rng(seed), shape, p, kind, terrain_hue=True)
            hue, coloured = _dominant_hue(img)
            assert coloured > 0.05, (kind, seed, shape)
            # Terrain colours jittered by a few degrees, and neighbours such as terracotta (~20 degrees
            # off the desert's hue): within 30 degrees of a terrain's hue.
            gap = min(_hue_gap(hue, t) for t in TERRAIN_HUES)
            assert gap <= 30.0, (kind, seed, shape, hue)


@pytest.mark.parametrize("kind", sorted(HUED_FAMILIES))
def test_without_terrain_hue_the_colour_is_free(kind: str) -> None:
    """Any hue: over some seeds the table's dominant hue lands well away from every terrain hue (the
    terrains' hues are spread round the circle, so only about a third of random hues do)."""
    far = 0
    for seed in range(40):
        hue, coloured = _dominant_hue(draw_table(_rng(seed), (60, 80), 2.0, kind))
        far += coloured > 0.2 and min(_hue_gap(hue, t) for t in TERRAIN_HUES) > 35.0
    assert far >= 2, kind


@pytest.mark.parametrize("kind", sorted(set(TABLE_KINDS) - HUED_FAMILIES))
def test_terrain_hue_is_ignored_where_the_colour_is_not_free(kind: str) -> None:
    a = draw_table(_rng(4), (60, 80), 2.0, kind, terrain_hue=True)
    b = draw_table(_rng(4), (60, 80), 2.0, kind, terrain_hue=False)
    assert a.tobytes() == b.tobytes()


def _ring_peak(img: np.ndarray, p: float) -> float:
    """Strongest point of the power spectrum against the median of its frequency ring: high for a
    lattice of straight lines (sharp peaks), low for noise-like textures."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g = cv2.resize(grey, None, fx=1 / p, fy=1 / p, interpolation=cv2.INTER_AREA)  # 1 px per mm
    g -= g.mean()
    n = g.shape[0]
    win = np.hanning(n).astype(np.float32)
    power = np.abs(np.fft.fftshift(np.fft.fft2(g * np.outer(win, win)))) ** 2
    yy, xx = np.indices(power.shape) - n // 2
    radius = np.hypot(yy, xx).astype(int)
    best = 0.0
    for r in range(3, n // 4):
        ring = power[radius == r]
        best = max(best, float(ring.max() / (np.median(ring) + 1e-9)))
    return best


def test_tiled_tables_show_grout_lines_and_noise_does_not() -> None:
    for seed in range(4):
        tiled = draw_table(_rng(seed), (1024, 1024), 4.0, "tiled")
        assert _ring_peak(tiled, 4.0) > 300.0, seed
        noise = draw_table(_rng(seed), (1024, 1024), 4.0, "noise")
        assert _ring_peak(noise, 4.0) < 100.0, seed


@pytest.mark.parametrize("shift", [0.0, 0.5])
def test_game_sized_tiles_have_periodic_grout(shift: float) -> None:
    """Tiles as big as the game's (50 mm), square or brick bond, at 4 px/mm: the row-mean profile
    repeats with the lattice pitch (tile + grout)."""
    p, size = 4.0, 1280  # 320 mm: six rows of tiles
    img = hard._tile_lattice(
        _rng(0),
        size,
        size,
        p,
        (50.0, 50.0),
        3.0,
        shift,
        0.0,
        np.float32([200, 200, 200]),
        np.float32([90, 90, 90]),
    )
    profile = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float64).mean(axis=1)
    profile -= profile.mean()
    # Autocorrelation: its strongest peak between 20 and 100 mm of lag is the lattice pitch.
    ac = np.correlate(profile, profile, "full")[size - 1 :] / np.arange(size, 0, -1)
    lo, hi = int(20 * p), int(100 * p)
    lag = lo + int(np.argmax(ac[lo:hi]))
    assert abs(lag / p - 53.0) < 2.0  # mm
    assert ac[lag] > 0.6 * ac[0]  # strongly periodic


def test_tile_sizes_include_the_game_tile_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A good share of tiled tables has tiles of 40-60 mm, the island locator's hard case."""
    sizes = []
    original = hard._tile_lattice

    def spy(rng, h, w, p, tile_mm, *args, **kwargs):
        sizes.append(tile_mm)
        return original(rng, h, w, p, tile_mm, *args, **kwargs)

    monkeypatch.setattr(hard, "_tile_lattice", spy)
    for seed in range(60):
        draw_table(_rng(seed), (16, 16), 1.0, "tiled")
    game_sized = sum(min(s) >= 40 and max(s) <= 60 for s in sizes)
    assert game_sized >= 8
    assert max(max(s) for s in sizes) > 150  # and big ones too
    assert all(min(s) >= 40 and max(s) <= 300 for s in sizes)


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_families_look_the_same_at_any_resolution(kind: str) -> None:
    """Generated in mm: the same seed at 2 and 4 px/mm gives about the same mean colour, and the fine
    render shrunk to the coarse one's size is close to it in the mean (detail fades to its mean)."""
    coarse = draw_table(_rng(7), (100, 140), 2.0, kind).reshape(-1, 3).mean(0)
    fine = draw_table(_rng(7), (200, 280), 4.0, kind).reshape(-1, 3).mean(0)
    assert np.abs(coarse - fine).max() < 60, (kind, coarse, fine)


def test_photo_tables_use_the_bundled_textures_without_scikit_image() -> None:
    import subprocess
    import sys
    import tomllib
    from pathlib import Path

    textures = Path(photographs.__file__).parents[1] / "textures"
    for name, _, _ in photographs._PHOTOS:
        img = photographs._photo_source(name)
        assert img.dtype == np.uint8 and img.ndim == 2
        assert img.shape == ((430, 430) if name == "moon" else (512, 512))  # the moon without its frame
        assert img.std() > 10, "a photograph, not a flat grey"
        assert (textures / f"{name}.png").is_file()
    assert (textures / "README.md").read_text().count("CC0") >= 3, "sources and licences beside the images"
    # shipped with the package, and drawn in a process that cannot import scikit-image (seeds 0-11 draw all four)
    pyproject = tomllib.loads((Path(photographs.__file__).parents[3] / "pyproject.toml").read_text())
    assert "textures/*.png" in pyproject["tool"]["setuptools"]["package-data"]["vision.synth"]
    code = (
        "import sys; sys.modules['skimage'] = None; import numpy as np; from vision.synth.tables import draw_table;"
        "[draw_table(np.random.default_rng(s), (64, 80), 3.0, kind='photo') for s in range(12)]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(photographs.__file__).parents[3])

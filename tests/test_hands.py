"""A hand entering the photo: it touches a frame edge, stays off the keep-out polygon, changes nothing but
itself and its shadow, and is deterministic."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.hands import draw_hand

SCALE = 150.0  # palm width, px
# The shadow lies at most 14% of the palm width away from the hand, blurred with a sigma up to 9% of it.
SHADOW_REACH = int(SCALE * (0.14 + 3 * 0.09)) + 8


def grey(h: int, w: int) -> np.ndarray:
    return np.full((h, w, 3), 128, np.uint8)


def box(h: int, w: int, lo: float, hi: float) -> np.ndarray:
    return np.array([[lo * w, lo * h], [hi * w, lo * h], [hi * w, hi * h], [lo * w, hi * h]])


def inside(poly: np.ndarray, h: int, w: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(m, np.round(poly).astype(np.int32), 1)
    return m.astype(bool)


def touches_border(mask: np.ndarray) -> bool:
    return bool(
        max(mask[0].max(), mask[-1].max(), mask[:, 0].max(), mask[:, -1].max()) > 0.5,
    )


@pytest.mark.parametrize("seed", range(8))
def test_changes_only_hand_and_shadow(seed: int) -> None:
    img = grey(975, 1300)
    mask = draw_hand(img, np.random.default_rng(seed), light_dir=(0.6, -0.8), scale_px=SCALE)
    assert mask is not None
    assert mask.shape == (975, 1300) and mask.dtype == np.float32
    assert mask.min() >= 0.0 and mask.max() <= 1.0
    assert (mask > 0.99).sum() > 0.1 * SCALE * SCALE  # a hand's worth of solid pixels
    assert touches_border(mask)
    changed = np.any(img != 128, axis=2)
    drawn = (mask > 0).astype(np.uint8)
    near = cv2.dilate(drawn, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SHADOW_REACH + 1,) * 2))
    assert not np.any(changed & (near == 0))
    assert changed[mask > 0.5].mean() > 0.99  # the hand really is drawn where its mask says
    shadow = changed & (drawn == 0)
    assert shadow.any()
    assert img[shadow].max() <= 128  # a shadow only darkens


def shifted(m: np.ndarray, dx: int, dy: int) -> np.ndarray:
    out = np.zeros_like(m)
    h, w = m.shape
    out[max(dy, 0) : h + min(dy, 0), max(dx, 0) : w + min(dx, 0)] = m[
        max(-dy, 0) : h + min(-dy, 0), max(-dx, 0) : w + min(-dx, 0)
    ]
    return out


@pytest.mark.parametrize("light", [(0.6, -0.8), (-1.0, 0.0), (0.0, 1.0)])
def test_shadow_falls_away_from_the_light(light: tuple[float, float]) -> None:
    for seed in range(4):
        img = grey(975, 1300)
        mask = draw_hand(img, np.random.default_rng(seed), light_dir=light, scale_px=SCALE)
        assert mask is not None
        hand = mask > 0
        lx, ly = np.array(light) / np.hypot(*light) * 15
        away = shifted(hand, round(-lx), round(-ly)) & ~hand
        toward = shifted(hand, round(lx), round(ly)) & ~hand
        g = img[..., 1].astype(np.float64)
        assert g[away].mean() < g[toward].mean()


@pytest.mark.parametrize("seed", range(20))
def test_keeps_off_the_board(seed: int) -> None:
    h, w = 975, 1300
    board = box(h, w, 0.25, 0.75)
    img = grey(h, w)
    mask = draw_hand(img, np.random.default_rng(seed), keep_out=board)
    if mask is None:
        assert np.all(img == 128)
        return
    assert mask[inside(board, h, w)].max() == 0.0
    assert touches_border(mask)


def test_keep_out_leaves_room_for_most_seeds() -> None:
    h, w = 975, 1300
    drawn = sum(
        draw_hand(grey(h, w), np.random.default_rng(seed), keep_out=box(h, w, 0.25, 0.75)) is not None
        for seed in range(10)
    )
    assert drawn >= 7


def test_no_room_draws_nothing() -> None:
    h, w = 975, 1300
    for seed in range(3):
        img = grey(h, w)
        assert draw_hand(img, np.random.default_rng(seed), keep_out=box(h, w, 0.01, 0.99)) is None
        assert np.all(img == 128)


def test_keep_out_reaching_past_the_frame() -> None:
    """A board larger than the photo on one side: it is clipped to the frame, the hand finds room."""
    h, w = 975, 1300
    board = np.array([[-400.0, -300.0], [0.7 * w, -300.0], [0.7 * w, h + 300.0], [-400.0, h + 300.0]])
    img = grey(h, w)
    mask = draw_hand(img, np.random.default_rng(5), keep_out=board)
    assert mask is not None
    assert mask[inside(board, h, w)].max() == 0.0


def test_deterministic() -> None:
    a, b, c = grey(975, 1300), grey(975, 1300), grey(975, 1300)
    ma = draw_hand(a, np.random.default_rng(11))
    mb = draw_hand(b, np.random.default_rng(11))
    draw_hand(c, np.random.default_rng(12))
    assert ma is not None and mb is not None
    assert a.tobytes() == b.tobytes()
    assert ma.tobytes() == mb.tobytes()
    assert a.tobytes() != c.tobytes()


@pytest.mark.parametrize("shape", [(975, 1300), (1300, 975), (3000, 4000), (4000, 3000), (240, 320)])
def test_sizes(shape: tuple[int, int]) -> None:
    h, w = shape
    for seed in range(2):
        img = grey(h, w)
        mask = draw_hand(img, np.random.default_rng(seed), keep_out=box(h, w, 0.3, 0.7))
        assert mask is not None
        assert mask.shape == (h, w)
        assert touches_border(mask)
        assert mask[inside(box(h, w, 0.3, 0.7), h, w)].max() == 0.0
        assert np.any(img != 128)


def test_rejects_non_bgr() -> None:
    with pytest.raises(ValueError):
        draw_hand(np.zeros((100, 100), np.uint8), np.random.default_rng(0))

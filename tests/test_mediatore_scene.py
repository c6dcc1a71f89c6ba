"""Simulated photos of a side's won Mediatore cards: the truth holds, and every corner the truth
calls uncovered shows its own card in the photo."""

import cv2
import numpy as np
import pytest

from scoring.mediatore import card, thirds_of
from vision.synth.mediatore_art import CORNER_MM, render_card
from vision.synth.mediatore_scene import (
    CORNERS,
    INDEX_BOX_MM,
    LAYOUTS,
    SHOWN,
    SMEARED,
    Laid,
    corner_uncovered,
    index_height_px,
    mediatore_scene,
    random_pile,
    shown_legibly,
)
from vision.synth.photo_style import PhotoStyle

CORNER_PX = (26, 54)  # a corner box compared at 2 px/mm


def upright_corner(image: np.ndarray, quad: list) -> np.ndarray:
    """The corner box at ``quad`` (TL, TR, BR, BL as the corner reads) warped upright."""
    w, h = CORNER_PX
    target = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(np.float32(quad), target)
    return cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_AREA).astype(np.float32)


@pytest.fixture(scope="module")
def templates():
    out = {}
    for rank in ("1", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re"):
        for suit in ("coppe", "denari", "spade", "bastoni"):
            face = render_card(rank, suit, 8.0)
            box = face[: round(CORNER_MM[1] * 8), : round(CORNER_MM[0] * 8)]
            out[f"{rank}-{suit}"] = cv2.resize(box, CORNER_PX, interpolation=cv2.INTER_AREA).astype(
                np.float32
            )
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_uncovered_corner_shows_its_own_card(layout, templates):
    # a clean straight-down render, large in the frame: the truth's geometry is what is tested here
    scene = mediatore_scene(
        np.random.default_rng(7), long_side_px=1400, layout=layout, n_cards=16, style=PhotoStyle(span=0.9)
    )
    truth = scene.truth
    cards = truth["board"]["cards"]
    assert len(cards) == 16 == len(set(cards)) and truth["scene"]["layout"] == layout
    assert truth["report"]["card_thirds"] == thirds_of(card(c) for c in cards)
    image = scene.shot.image
    checked = 0
    for entry in truth["cards"]:
        assert entry["seen"] == any(entry["uncovered"][w] >= SHOWN for w in CORNERS)
        for which in CORNERS:
            if entry["uncovered"][which] < 1.0:
                continue
            seen = upright_corner(image, entry["corner_boxes"][which])
            seen = (
                seen
                / np.percentile(seen, 90, axis=(0, 1))
                * np.percentile(templates[entry["card"]], 90, axis=(0, 1))
            )
            nearest = min(templates, key=lambda t: np.abs(templates[t] - seen).mean())
            assert nearest == entry["card"], (layout, which, entry["card"], nearest)
            checked += 1
    assert checked >= 8
    assert truth["board"]["seen"] == [c["card"] for c in truth["cards"] if c["seen"]]


def test_each_layout_shows_the_corners_it_promises():
    rng = np.random.default_rng(3)
    grid = mediatore_scene(rng, long_side_px=400, layout="grid", n_cards=20).truth
    assert all(c["uncovered"] == {"top_left": 1.0, "bottom_right": 1.0} for c in grid["cards"])
    for layout in ("rows", "fan"):
        truth = mediatore_scene(rng, long_side_px=400, layout=layout, n_cards=24).truth
        assert all(c["uncovered"]["top_left"] >= SHOWN for c in truth["cards"]), (
            layout
        )  # every top-left corner
        assert sum(c["uncovered"]["bottom_right"] < SHOWN for c in truth["cards"]) >= 12, (
            layout
        )  # the rest hidden
    heap = mediatore_scene(rng, long_side_px=400, layout="heap", n_cards=40).truth
    assert 0 < len(heap["board"]["seen"]) <= 40


def test_a_pile_is_what_tricks_make_and_a_scene_repeats_from_its_seed():
    rng = np.random.default_rng(1)
    sizes = {len(random_pile(rng)) for _ in range(200)}
    assert sizes <= set(range(4, 41, 4)) and len(sizes) >= 8
    with pytest.raises(ValueError, match="4 a trick"):
        random_pile(rng, 10)
    a = mediatore_scene(np.random.default_rng(5), long_side_px=300)
    b = mediatore_scene(np.random.default_rng(5), long_side_px=300)
    assert a.jpeg == b.jpeg and a.truth == b.truth


def test_an_index_height_is_its_share_of_the_corner_box_at_any_turn():
    # a box 27 mm long drawn 2 px a mm, turned 30 degrees: the 8 mm index is 16 px tall
    a = np.radians(30.0)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    box = [p.tolist() for p in (np.zeros(2), 26 * u, 26 * u + 54 * v, 54 * v)]
    assert index_height_px(box) == pytest.approx(16.0)


def test_a_shaken_photo_smears_the_small_indices_first_and_a_still_one_none():
    truth = mediatore_scene(np.random.default_rng(7), long_side_px=1000, layout="grid", n_cards=12).truth
    scale = max(truth["camera"]["image_size"]) / 4000.0  # the style's blur is given for a 4000 px photo
    heights = sorted(index_height_px(c["corner_boxes"][w]) for c in truth["cards"] for w in CORNERS)

    def legible_at(blur_px: float) -> list[str]:
        style = truth["camera"]["style"] | {"motion_px": blur_px / scale}
        return shown_legibly(truth | {"camera": truth["camera"] | {"style": style}})

    assert legible_at(0.0) == truth["board"]["seen"]  # a grid: every card shows, none smeared
    assert legible_at(SMEARED * heights[0] * 0.99) == truth["board"]["seen"]
    assert legible_at(SMEARED * heights[-1] * 1.01) == []
    # between the two, the cards with a larger index (nearer the camera) are still read
    middle = legible_at(SMEARED * float(np.median(heights)))
    assert 0 < len(middle) < len(truth["board"]["seen"])


def test_a_card_lying_over_a_corners_index_hides_the_index_but_not_the_symbol_below_it():
    # card A upright with its top-left at the origin; card B above it covers A down to y = 14 mm:
    # A's index (y 4.5-12.5 mm) is hidden, its suit symbol (y ~15-25 mm) shows
    a = Laid("5-coppe", (29.0, 45.0), 0.0, 0)
    b = Laid("re-spade", (29.0, 45.0 - 90.0 + 14.0), 0.0, 1)
    box = corner_uncovered([a, b])[0]["top_left"]
    index = corner_uncovered([a, b], box=INDEX_BOX_MM)[0]["top_left"]
    assert index == 0.0 and 0.4 < box < SHOWN  # the corner looks half there; its rank is not
    # B moved up so that it covers A down to y = 6 mm only: the index shows in part
    c = Laid("re-spade", (29.0, 45.0 - 90.0 + 6.0), 0.0, 1)
    assert 0.0 < corner_uncovered([a, c], box=INDEX_BOX_MM)[0]["top_left"] < 1.0
    # the truth of a scene gives the index's share beside the box's, never more hidden than the box
    truth = mediatore_scene(np.random.default_rng(11), long_side_px=400, layout="heap", n_cards=24).truth
    for card_truth in truth["cards"]:
        for w in CORNERS:
            if card_truth["uncovered"][w] == 1.0:
                assert card_truth["index_uncovered"][w] == 1.0
            if card_truth["uncovered"][w] == 0.0:
                assert card_truth["index_uncovered"][w] == 0.0

"""The Mediatore locator's training samples: the zoomed window shows the corner boxes at the size the
reader's zoomed look brings them to (``DataSpec.window_box``), and its maps lie on the boxes of the
simulated photo's truth, for a 12 MP render and a smaller one, landscape and portrait."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.mediatore.crops import box_spot
from vision.synth.dataset import make_scene
from vision.synth.world import World, draw_conditions
from vision.training.mediatore_data import (
    DataSpec,
    LocatedSpec,
    _landscape,
    _zoomed,
    index_share,
    left_out,
    shown_boxes,
)

SPEC = DataSpec()


def _regions(layer: np.ndarray) -> list[tuple[float, tuple[float, float]]]:
    """(long side, centre) of each region of a corners map layer, grown back by the shrink."""
    count, labels, stats, centres = cv2.connectedComponentsWithStats((layer > 127).astype(np.uint8))
    out = []
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < 6:
            continue
        ys, xs = np.nonzero(labels == i)
        pts = np.column_stack([xs, ys]).astype(np.float32)
        (_, _), (w, h), _ = cv2.minAreaRect(pts)
        out.append((max(w, h) / SPEC.box_shrink, tuple(centres[i])))
    return out


@pytest.mark.parametrize("long_side", [2000, 4000])
def test_the_zoomed_window_shows_the_boxes_at_the_zoomed_looks_size(long_side):
    scene = make_scene("mediatore", 1, 0, long_side)  # small cards: the window is always a zoom
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    photo, boxes = _landscape(photo, [q for _, q in shown_boxes(scene.truth)])
    seen = []
    for k in range(6):
        picture, maps = _zoomed(SPEC, photo, boxes, np.random.default_rng(k))
        assert picture.shape == (SPEC.input_short, SPEC.input_long, 3)
        assert maps.shape == (SPEC.input_short, SPEC.input_long, 2)
        whole = [r for r in _regions(maps[..., 0]) if min(r[1]) > 30 and r[1][0] < SPEC.input_long - 30]
        assert whole, "the window lies about a corner that shows"
        seen.append(np.median([r[0] for r in whole]))
    lo, hi = SPEC.window_box
    assert lo * 0.7 < min(seen) and max(seen) < hi * 1.3, seen
    assert max(seen) / min(seen) > 1.3, "the window's scale varies over its range"


def test_the_window_maps_lie_on_the_boxes_of_the_photo():
    """Drawn back into the photo, each region's centre lands on a box centre of the truth."""
    scene = make_scene("mediatore", 1, 3, 2000)
    photo = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    photo, boxes = _landscape(photo, [q for _, q in shown_boxes(scene.truth)])
    picture, maps = _zoomed(SPEC, photo, boxes, np.random.default_rng(0))
    # the same window found again in the photo by its pixels: where the picture matches the photo
    # brought to the window's scale
    longs = [box_spot(q).long for q in boxes]
    regions = _regions(maps[..., 0])
    f = np.median([r[0] for r in regions]) / np.median(longs)
    small = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    match = cv2.matchTemplate(small, picture[40:-40, 40:-40], cv2.TM_SQDIFF_NORMED)
    _, _, (mx, my), _ = cv2.minMaxLoc(match)
    x0, y0 = mx - 40, my - 40
    centres = np.array([[box_spot(q).x, box_spot(q).y] for q in boxes]) * f
    for _, (cx, cy) in regions:
        d = np.hypot(*(centres - [cx + x0, cy + y0]).T).min()
        assert d < 0.25 * np.median(longs) * f


def test_portrait_photos_are_stored_landscape_with_their_boxes():
    photo = np.zeros((40, 30, 3), np.uint8)
    photo[5, 20] = 255  # x 20, y 5
    box = np.array([[20.0, 5.0], [22.0, 5.0], [22.0, 9.0], [20.0, 9.0]])
    turned, (moved,) = _landscape(photo, [box])
    assert turned.shape == (30, 40, 3)
    x, y = moved[0]
    assert turned[int(y), int(x)].max() == 255


def test_a_partly_covered_corner_whose_rank_is_hidden_is_a_none_crop_and_one_whose_rank_may_show_is_left_out():
    assert not left_out(0.98, 1.0, 3) and not left_out(0.3, 0.0, 3)  # shows (a card) / hidden (none)
    assert not left_out(0.65, 0.2, 3)  # version 3: its suit symbol shows, its rank does not: "none"
    assert left_out(0.65, 0.9, 3)  # its rank shows, most of it: neither a sure card nor none
    assert left_out(0.65, 0.2, 2)  # version 2 (the sets of the model shipped before) left all such out
    # a truth made before the index's own share took the index as covered as much as its box
    assert index_share({"uncovered": {"top_left": 0.7}}, "top_left") == 0.7
    assert (
        index_share({"uncovered": {"top_left": 0.7}, "index_uncovered": {"top_left": 0.1}}, "top_left") == 0.1
    )


def test_a_located_set_of_one_kind_draws_its_photos_from_that_kind_and_the_everyday_sets_keep_their_cache():
    everyday = LocatedSpec(seed=3, locator_sha="abc", stress_every=2)
    assert everyday.world(0) is None and everyday.world(1) == World(stress=True)
    paper = replace(everyday, tables=("paper",))
    dim = replace(everyday, lights=("dim",))
    assert paper.world(0) == World(tables=("paper",)) and paper.world(1).stress
    assert dim.world(0).lights == ("dim",) and dim.world(1) == World(stress=True, lights=("dim",))
    for i in range(4):  # the photo's conditions as the scene draws them
        assert draw_conditions(np.random.default_rng(i), paper.world(i)).table == "paper"
        assert draw_conditions(np.random.default_rng(i), dim.world(i)).light == "dim"
    # the sets cut before the fields came keep their cache (its key made by the code before them)
    assert everyday.cache_path().name == "mediatore-located-2d1610583298.npz"
    assert everyday.cache_path() != paper.cache_path() != dim.cache_path()

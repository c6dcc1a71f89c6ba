"""Photo simulator: exact corner truth, determinism, framing ranges, tables and clutter."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.synth.photo import (
    MAX_LONG_SIDE,
    PhotoStyle,
    Piece,
    Shot,
    draw_style,
    encode_jpeg,
    photograph,
)
from vision.synth.tables import TABLE_KINDS, draw_table

# Saturated colours, far from each other and from every plain table colour (BGR).
COLOURS = [
    (30, 30, 220),
    (40, 200, 40),
    (220, 60, 30),
    (20, 210, 230),
    (200, 40, 200),
    (10, 120, 250),
    (120, 20, 90),
    (30, 90, 20),
    (90, 10, 10),
]


def grid(thickness: float = 1.8, radius: float = 0.0, pitch: float = 53.0) -> list[Piece]:
    pieces = []
    for k, c in enumerate(COLOURS):
        art = np.empty((64, 64, 3), np.uint8)
        art[:] = c
        r, q = divmod(k, 3)
        pieces.append(Piece(art, (50.0, 50.0), (q * pitch, r * pitch), 0.0, thickness, radius))
    return pieces


def project(cam: dict, xyz: np.ndarray) -> np.ndarray:
    """The truth dict's own camera model, written out independently of the simulator."""
    K, R, t = np.array(cam["K"]), np.array(cam["R"]), np.array(cam["t"])
    k1, k2 = cam["dist"]
    c = np.asarray(xyz, np.float64) @ R.T + t
    x = c[:, :2] / c[:, 2:3]
    r2 = np.sum(x * x, 1, keepdims=True)
    x = x * (1 + k1 * r2 + k2 * r2 * r2)
    return x * [K[0, 0], K[1, 1]] + K[:2, 2]


def face_corners_mm(p: Piece) -> np.ndarray:
    w, h = p.size_mm
    a = np.radians(p.angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ rot.T + p.center_mm


CLEAN = PhotoStyle()


@pytest.fixture
def grey_table(monkeypatch):
    """A light grey table with fine grain: the geometry tests measure the pieces' edges against it,
    far from every piece colour (drawn tables may take any colour, the pieces' own included)."""
    import vision.synth.photo as photo_module

    def grey(rng, shape, px_per_mm, kind=None, terrain_hue=False):
        base = np.full((*shape, 3), (200, 202, 200), np.float32)
        return np.clip(base + rng.normal(0, 1.5, (*shape, 1)), 0, 255).astype(np.uint8)

    monkeypatch.setattr(photo_module, "draw_table", grey)


TILTED = replace(CLEAN, tilt_deg=32.0, tilt_dir_deg=20.0, roll_deg=37.0, fill=0.6, offset=(0.4, -0.3))
DISTORTED = replace(TILTED, k1=-0.08, k2=0.02)
PINCUSHION = replace(CLEAN, roll_deg=200.0, tilt_deg=15.0, k1=0.05, k2=-0.01, fill=0.5)


def shoot(style: PhotoStyle, pieces: list[Piece], seed: int = 0, long_side: int = 1200) -> Shot:
    return photograph(pieces, np.random.default_rng(seed), long_side_px=long_side, style=style)


def quad_mask(shape: tuple[int, ...], quad: np.ndarray) -> np.ndarray:
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(quad * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return m.astype(bool)


def colour_mask(img: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.max(np.abs(img.astype(np.int16) - np.array(colour, np.int16)), axis=2) < 30


def sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float image at (N, 2) xy."""
    mx = pts[:, 0].astype(np.float32).reshape(1, -1)
    my = pts[:, 1].astype(np.float32).reshape(1, -1)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR)[0]


def edge_offsets(shot: Shot, piece: Piece, colour: tuple[int, int, int], z: float) -> list[float]:
    """Signed distance (px) between each lens-projected face edge and the image's 50% colour transition,
    measured across the edge at several points."""
    img = shot.image.astype(np.float32)
    c = face_corners_mm(piece)
    centre = project(shot.camera, np.array([[*np.mean(c, 0), z]]))[0]
    out = []
    for i in range(4):
        a, b = c[i], c[(i + 1) % 4]
        for t in (0.25, 0.5, 0.75):
            p = a + t * (b - a)
            q = project(shot.camera, np.array([[*p, z], [*(p + 0.2 * (b - a) / np.linalg.norm(b - a)), z]]))
            tangent = (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
            normal = np.array([tangent[1], -tangent[0]])
            if normal @ (q[0] - centre) < 0:
                normal = -normal
            steps = np.arange(-5, 5.01, 0.25)
            vals = sample(img, q[0] + steps[:, None] * normal)
            inside = np.array(colour, np.float32)
            outside = np.median(vals[steps >= 3], axis=0)
            d = outside - inside
            alpha = (vals - inside) @ d / (d @ d)  # 0 on the face, 1 outside
            k = int(np.argmax(alpha > 0.5))
            x = steps[k - 1] + (0.5 - alpha[k - 1]) / (alpha[k] - alpha[k - 1]) * 0.25
            out.append(float(x))
    return out


@pytest.mark.parametrize(
    "style", [CLEAN, TILTED, DISTORTED, PINCUSHION], ids=["flat", "tilted", "barrel", "pincushion"]
)
def test_corners_are_exact(style: PhotoStyle, grey_table) -> None:
    thin = grid(thickness=0.01)  # no visible edge band: the face meets the table directly
    shot = shoot(style, thin)
    for p, colour, corners in zip(thin, COLOURS, shot.corners, strict=True):
        # The reported corners are the camera dict's projection of the face corners.
        xyz = np.column_stack([face_corners_mm(p), np.full(4, -p.thickness_mm)])
        np.testing.assert_allclose(corners, project(shot.camera, xyz), atol=1e-3)
        # ...and the image's colour edges run through them, to well under a pixel.
        offsets = edge_offsets(shot, p, colour, -p.thickness_mm)
        assert max(abs(o) for o in offsets) < 0.3, offsets


@pytest.mark.parametrize(
    "style", [CLEAN, TILTED, DISTORTED, PINCUSHION], ids=["flat", "tilted", "barrel", "pincushion"]
)
def test_colour_regions_match_corner_quads(style: PhotoStyle, grey_table) -> None:
    pieces = grid(thickness=1.8, radius=0.0)
    shot = shoot(style, pieces, seed=3)
    img = shot.image
    for p, colour, corners in zip(pieces, COLOURS, shot.corners, strict=True):
        centre = project(shot.camera, np.array([[*p.center_mm, -p.thickness_mm]]))[0]
        x, y = np.round(centre).astype(int)
        assert np.max(np.abs(img[y, x].astype(int) - colour)) <= 4
        q, m = quad_mask(img.shape, corners), colour_mask(img, colour)
        iou = (q & m).sum() / (q | m).sum()
        assert iou > 0.97, (colour, iou)


def test_rounded_thick_pieces_under_full_style_still_match(grey_table) -> None:
    """A drawn (realistic) style: blur, noise, light and tone change colours, so compare regions loosely."""
    pieces = grid(thickness=1.8, radius=1.5)
    style = replace(
        draw_style(np.random.default_rng(5)), tilt_deg=30.0, clutter_objects=0, glare=0.0, hand_shadow=0.0
    )
    style = replace(
        style, exposure=1.0, white_balance=(1.0, 1.0, 1.0), gradient=0.0, vignette=0.0, motion_px=0.0
    )
    shot = shoot(style, pieces, seed=9)
    for p, corners in zip(pieces, shot.corners, strict=True):
        centre = project(shot.camera, np.array([[*p.center_mm, -p.thickness_mm]]))[0]
        x, y = np.round(centre).astype(int)
        seen = shot.image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(0)
        q = quad_mask(shot.image.shape, corners)
        m = np.linalg.norm(shot.image.astype(np.float32) - seen, axis=2) < 40
        assert (q & m).sum() / (q | m).sum() > 0.93


@pytest.mark.parametrize("angle", [0.0, 90.0, 200.0, 333.0])
def test_corner_order_follows_the_art(angle: float) -> None:
    """TL, TR, BR, BL are the art's own corners wherever the piece is turned: each corner's quadrant of
    the art has its own colour, and that colour is found just inside the reported corner."""
    quads = [(30, 30, 220), (40, 200, 40), (220, 60, 30), (20, 210, 230)]  # TL, TR, BR, BL quadrants
    art = np.empty((80, 60, 3), np.uint8)
    art[:40, :30], art[:40, 30:], art[40:, 30:], art[40:, :30] = quads
    piece = Piece(art, (60.0, 80.0), (10.0, -5.0), angle, 1.8, 0.0)
    shot = shoot(replace(TILTED, roll_deg=111.0), [piece], long_side=800)
    c = shot.corners[0]
    centre = c.mean(0)
    for k, colour in enumerate(quads):
        x, y = np.round(c[k] + 0.15 * (centre - c[k])).astype(int)
        assert np.max(np.abs(shot.image[y, x].astype(int) - colour)) <= 4, (k, shot.image[y, x])


def test_upper_card_lies_on_the_lower_one() -> None:
    red, blue = np.full((90, 60, 3), (30, 30, 220), np.uint8), np.full((90, 60, 3), (220, 60, 30), np.uint8)
    cards = [Piece(red, (60, 90), (0, 0), 0, 0.3, 2.5, 0), Piece(blue, (60, 90), (30, 20), 90, 0.3, 2.5, 1)]
    shot = shoot(TILTED, cards, long_side=1000)
    xyz = np.column_stack([face_corners_mm(cards[1]), np.full(4, -0.6)])  # on top of the first card
    np.testing.assert_allclose(shot.corners[1], project(shot.camera, xyz), atol=1e-3)
    overlap = project(shot.camera, np.array([[15.0, 10.0, -0.6]]))[0]
    x, y = np.round(overlap).astype(int)
    assert np.max(np.abs(shot.image[y, x].astype(int) - (220, 60, 30))) <= 4


def test_same_seed_same_bytes_and_different_seeds_differ() -> None:
    pieces = grid()

    def run(seed: int) -> tuple[bytes, bytes]:
        rng = np.random.default_rng(seed)
        shot = photograph(pieces, rng, long_side_px=640)
        return shot.image.tobytes(), encode_jpeg(shot.image, rng)

    a, b, c = run(11), run(11), run(12)
    assert a == b
    assert a[0] != c[0] and a[1] != c[1]


def test_pinned_style_pins_the_camera() -> None:
    style = draw_style(np.random.default_rng(4))
    s1 = shoot(style, grid(), seed=1, long_side=480)
    s2 = shoot(style, grid(), seed=2, long_side=480)
    np.testing.assert_allclose(s1.homography, s2.homography)
    assert s1.image.tobytes() != s2.image.tobytes()  # texture and noise still come from the rng


def test_framing_and_pose_stay_in_range() -> None:
    pieces = grid()
    box = (-30.0, -30.0, 140.0, 140.0)
    for seed in range(10):
        rng = np.random.default_rng(100 + seed)
        shot = photograph(pieces, rng, subject_mm=box, long_side_px=480)
        h, w = shot.image.shape[:2]
        assert max(h, w) == 480 and min(h, w) == 360
        cam = shot.camera
        json.dumps(cam)  # the truth JSON can carry it
        corners = np.array(
            [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], np.float64
        )
        quad = cv2.perspectiveTransform(corners[None], shot.homography)[0]
        fill = cv2.contourArea(quad.astype(np.float32)) / (w * h)
        assert 0.25 <= fill <= 0.85, fill
        assert abs(fill - cam["subject_fill"]) < 1e-3
        R = np.array(cam["R"])
        tilt = np.degrees(np.arccos(R[2, 2]))
        assert tilt <= 40.0 + 1e-6 and abs(tilt - cam["tilt_deg"]) < 1e-6
        assert 0.0 <= cam["roll_deg"] < 360.0
        for c in shot.corners:  # the board is in the picture
            assert np.all(c >= 0) and np.all(c[:, 0] < w) and np.all(c[:, 1] < h)


def test_drawn_poses_cover_the_range() -> None:
    styles = [draw_style(np.random.default_rng(s)) for s in range(300)]
    tilts = np.array([s.tilt_deg for s in styles])
    rolls = np.array([s.roll_deg for s in styles])
    fills = np.array([s.fill for s in styles])
    assert tilts.min() >= 0 and tilts.max() <= 40 and tilts.max() > 35 and tilts.min() < 3
    assert rolls.min() < 20 and rolls.max() > 340
    assert fills.min() >= 0.25 and fills.max() <= 0.85
    assert {s.table for s in styles} == set(TABLE_KINDS)
    assert any(s.portrait for s in styles) and not all(s.portrait for s in styles)


def test_roll_turns_the_table_axes_in_the_image() -> None:
    shot = shoot(replace(CLEAN, roll_deg=30.0), grid(), long_side=480)
    p = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [100.0, 0.0]]]), shot.homography)[0]
    d = p[1] - p[0]
    assert abs(np.degrees(np.arctan2(d[1], d[0])) - 30.0) < 0.01


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_every_table_kind_renders_at_the_requested_shape(kind: str) -> None:
    for seed, (shape, p) in enumerate((((37, 53), 0.7), ((240, 320), 3.0), ((101, 77), 12.0))):
        for k in range(2 if kind != "photo" else 4):
            t = draw_table(np.random.default_rng(10 * seed + k), shape, p, kind)
            assert t.shape == (*shape, 3) and t.dtype == np.uint8
            assert t.std() > 0.5  # not a flat fill


def test_tables_differ_by_seed_and_reject_bad_input() -> None:
    a = draw_table(np.random.default_rng(1), (64, 64), 4.0, "wood")
    b = draw_table(np.random.default_rng(2), (64, 64), 4.0, "wood")
    assert a.tobytes() != b.tobytes()
    with pytest.raises(ValueError):
        draw_table(np.random.default_rng(1), (64, 64), 4.0, "marble")


def test_clutter_never_overlaps_the_subject() -> None:
    pieces = grid()
    box = (-27.0, -27.0, 133.0, 133.0)
    loose = [Piece(np.full((40, 40, 3), 200, np.uint8), (50, 50), (0, 0)) for _ in range(2)]
    box_poly = np.array([[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], np.float32)
    placed = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        style = replace(draw_style(rng), clutter_objects=4, fill=0.3)
        shot = photograph(pieces, rng, subject_mm=box, clutter=loose, long_side_px=480, style=style)
        subject_px = cv2.perspectiveTransform(box_poly[None].astype(np.float64), shot.homography)[0]
        for item in shot.camera["clutter"]:
            area, _ = cv2.intersectConvexConvex(np.array(item["footprint_mm"], np.float32), box_poly)
            assert area <= 0.0, item["kind"]
            placed += 1
        for c in shot.clutter_corners:
            area, _ = cv2.intersectConvexConvex(c.astype(np.float32), subject_px.astype(np.float32))
            assert area <= 0.0
    assert placed >= 8  # the test saw clutter at all


def test_output_sizes_stay_within_12_megapixels() -> None:
    shot = shoot(CLEAN, grid(), long_side=MAX_LONG_SIDE)
    assert shot.image.shape == (3000, 4000, 3)
    assert shot.image.shape[0] * shot.image.shape[1] <= 12_000_000
    portrait = shoot(replace(CLEAN, portrait=True), grid(), long_side=800)
    assert portrait.image.shape == (800, 600, 3)
    with pytest.raises(ValueError):
        shoot(CLEAN, grid(), long_side=MAX_LONG_SIDE + 1)


def test_jpeg_quality_is_drawn() -> None:
    img = shoot(draw_style(np.random.default_rng(0)), grid(), long_side=320).image
    sizes = {len(encode_jpeg(img, np.random.default_rng(s))) for s in range(6)}
    assert len(sizes) > 1
    decoded = cv2.imdecode(
        np.frombuffer(encode_jpeg(img, np.random.default_rng(0)), np.uint8), cv2.IMREAD_COLOR
    )
    assert decoded.shape == img.shape

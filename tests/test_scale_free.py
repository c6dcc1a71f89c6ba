"""Scale-free reading: finer decodes of the photo on demand, crops that follow tiles pushed out of
line, islands cut by the frame left aside."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import grid_cell_quads
from vision.mondo.cell_quads import offset_cell_quads, tile_offsets
from vision.mondo.locate import quad_of
from vision.mondo.outline import upright
from vision.photo_io import decode_photo


def jpeg(w: int, h: int) -> bytes:
    image = np.zeros((h, w, 3), np.uint8)
    cv2.rectangle(image, (w // 4, h // 4), (w // 2, h // 2), (0, 200, 255), -1)
    return cv2.imencode(".jpg", image)[1].tobytes()


def test_a_photo_gives_finer_views_of_itself():
    photo = decode_photo(jpeg(4000, 3000))
    assert photo.image.shape[:2] == (750, 1000) and photo.scale == 4.0
    half, scale = photo.at_scale(2.0)
    assert half.shape[:2] == (1500, 2000) and scale == 2.0
    full, scale = photo.at_scale(0.3)  # nothing finer than the file itself
    assert full.shape[:2] == (3000, 4000) and scale == 1.0
    same, scale = photo.at_scale(6.0)
    assert same is photo.image and scale == 4.0
    assert photo.at_scale(2.0)[0] is half  # decoded once


def test_a_large_png_keeps_its_full_pixels_for_finer_views():
    png = cv2.imencode(".png", np.full((2400, 3200, 3), 90, np.uint8))[1].tobytes()
    photo = decode_photo(png)
    assert max(photo.image.shape[:2]) == 2000
    full, scale = photo.at_scale(1.0)
    assert full.shape[:2] == (2400, 3200) and scale == 1.0


def lattice_map(angle: float = 0.3, cell: float = 40.0, at=(100.0, 80.0)) -> np.ndarray:
    """image px -> lattice (tile centres at integers) of a square grid turned by `angle`."""
    c, s = np.cos(angle), np.sin(angle)
    to_img = np.array([[cell * c, -cell * s, at[0]], [cell * s, cell * c, at[1]], [0, 0, 1]])
    return np.linalg.inv(to_img)


def to_image(g_h: np.ndarray, pts) -> np.ndarray:
    p = np.column_stack([np.asarray(pts, float), np.ones(len(pts))]) @ np.linalg.inv(g_h).T
    return p[:, :2] / p[:, 2:]


def test_crops_follow_a_tile_pushed_out_of_line():
    g_h, extent = lattice_map(), (0, 0, 3)
    lattice = [(i, j) for j in range(3) for i in range(3)]
    seen = np.array(lattice, float)
    seen[2] += (0.0, -0.3)  # the top right tile pushed up (off the island) by 0.3 cell
    seen[4] += (0.02, -0.01)  # a centre's own error: no offset
    offsets = tile_offsets(g_h, to_image(g_h, seen), extent)
    assert np.allclose(offsets[2], (0.0, -0.26), atol=1e-6)
    assert np.allclose(np.delete(offsets, 2, axis=0), 0.0)
    quad = upright(quad_of(g_h, extent)).astype(np.float32)
    plain = offset_cell_quads(g_h, extent, np.zeros((9, 2)), quad)
    assert np.allclose(plain, grid_cell_quads(quad, 3), atol=1e-3)
    moved = offset_cell_quads(g_h, extent, offsets, quad)
    changed = [k for k in range(9) if not np.allclose(moved[k], plain[k], atol=1e-3)]
    assert len(changed) == 1
    shift = moved[changed[0]].mean(0) - plain[changed[0]].mean(0)
    assert abs(np.hypot(*shift) - 0.26 * 40) < 0.05


def test_a_centre_far_from_every_cell_moves_nothing():
    g_h = lattice_map()
    seen = np.array([(0.5, 0.0), (5.0, 5.0)])  # between two cells; beyond the grid
    assert np.allclose(tile_offsets(g_h, to_image(g_h, seen), (0, 0, 3)), 0.0)


def island_photos(root):
    return sorted((root / "samples/mondo-stress").glob("*.jpg"))


def encode(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


def test_the_same_island_cropped_or_halved_reads_the_same(root):
    """A photo, the same photo cut down to the island, and the same photo at half size: the same
    board, whatever share of the frame the island fills (the reader finds it at any size, then
    reads it at the resolution its tiles need)."""
    import json

    from scoring.mondo import score_turn, single_island_turn, turn_score_to_json
    from vision.mondo.reader import read_island

    path = island_photos(root)[1]  # a small island (a fifth of the frame), a steep tilt
    truth = json.loads(path.with_suffix(".json").read_text())
    full = cv2.imread(str(path))
    quad = np.array(truth["island_quad"])
    x0, y0 = np.maximum(quad.min(0) - 0.6 * np.ptp(quad, 0), 0).astype(int)
    x1, y1 = np.minimum(quad.max(0) + 0.6 * np.ptp(quad, 0), full.shape[1::-1]).astype(int)
    views = {
        "photo": path.read_bytes(),
        "cropped": encode(full[y0:y1, x0:x1]),
        "halved": encode(cv2.resize(full, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)),
    }
    islands = {name: read_island(decode_photo(data)).island for name, data in views.items()}
    # what scores: the cells and every tile's edges, areas, animals and volcanoes (the catalog may
    # name another physical tile of the same face)
    boards = {
        name: [(t.cell, t.edges, sorted(map(repr, t.areas)), t.animals, t.volcanoes) for t in island.tiles]
        for name, island in islands.items()
    }
    assert boards["cropped"] == boards["photo"] and boards["halved"] == boards["photo"]
    got = turn_score_to_json(score_turn(single_island_turn("island", islands["photo"])))["players"][0]
    want = truth["report"]["players"][0]
    assert (got["points"], got["total"]) == (want["points"], want["total"])
    assert truth["scene"]["span"] < 0.4  # the ordinary small-island photo the issue is about

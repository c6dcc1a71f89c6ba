"""Photo simulator: flat components lying on a table -> a realistic phone photo, with exact corner truth.

Geometry. The table is the world plane Z = 0 in millimetres, x right and y down as seen by the player
(toward the player), Z pointing into the table (so "up" is -Z). A pinhole phone camera (focal length of a
26 mm-equivalent main camera, any in-plane rotation, tilt up to 40 degrees) looks at the subject box; a
piece's printed face lies at the height of its thickness (plus whatever it lies on). Corners are the
projections of the face's corners, pushed through the same radial lens model (OpenCV's k1, k2) that
warps the rendered image, so they are exact to well under a pixel. Pixel centres sit at integer
coordinates (OpenCV convention).

Rendering. Everything is drawn straight into an undistorted image (with a margin for the lens warp):
the table texture is generated top-down at a resolution near the photo's own and warped in once, every
piece is warped from its art into its own small region, with its shadow, its cardboard edge and
anti-aliased rounded corners, clutter objects are small faceted 3D models. One remap applies the lens
distortion; lighting, depth of field, motion blur, the phone's tone curve and sharpening, and sensor noise
follow. `PhotoStyle` holds every parameter that sets the look (draw one with `draw_style`, or pin one:
`PhotoStyle()` is a clean top-down render); `rng` supplies the details (texture, clutter, noise).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.synth import clutter as clutter_mod
from vision.synth.camera import Camera, box_corners, edge_points, frame_size, frame_subject
from vision.synth.optics import (
    _GAUSS_LUT,
    REFERENCE_LONG_SIDE,
    SHIFT,
    _add_noise,
    _blur_levels,
    _depth_blur_map,
    _lens_maps,
    _lighting,
    _motion_blur,
    _saturate,
    _sharpen,
    _tone_lut,
)
from vision.synth.photo_style import PhotoStyle, Piece, Shot, draw_style
from vision.synth.tables import draw_table

MAX_LONG_SIDE = REFERENCE_LONG_SIDE  # 4000 x 3000 = 12 MP, a phone's main camera
_SHIFT = SHIFT  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


# ---------------------------------------------------------------------------------------------- geometry


def _rounded_rect(w: float, h: float, r: float, per_corner: int = 7) -> np.ndarray:
    """Outline (N, 2) of a rounded rectangle centred at 0, clockwise on screen (y down), mm."""
    r = float(np.clip(r, 0.0, min(w, h) / 2 - 1e-6))
    if r <= 0:
        return np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    pts = []
    for cx, cy, a0 in (
        (w / 2 - r, -h / 2 + r, -90),
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
    ):
        for a in np.radians(np.linspace(a0, a0 + 90, per_corner)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def _piece_to_table(piece: Piece) -> np.ndarray:
    """3x3 affine: piece-local mm (centre origin, y toward the piece's S side) -> table mm."""
    a = math.radians(piece.angle_deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, piece.center_mm[0]], [s, c, piece.center_mm[1]], [0.0, 0.0, 1.0]])


def _apply(A: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return pts @ A[:2, :2].T + A[:2, 2]


def piece_footprint(piece: Piece) -> np.ndarray:
    """The piece's outline on the table (N, 2) mm."""
    return _apply(_piece_to_table(piece), _rounded_rect(*piece.size_mm, piece.corner_radius_mm))


def piece_corners_mm(piece: Piece) -> np.ndarray:
    """TL, TR, BR, BL of the upright face, table mm (4, 2)."""
    w, h = piece.size_mm
    return _apply(
        _piece_to_table(piece), np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    )


def _overlaps(a: np.ndarray, b: np.ndarray, min_area: float = 0.5) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > min_area


def _base_heights(pieces: Sequence[Piece], order: list[int]) -> dict[int, float]:
    """Height each piece rests at: the top of the highest lower-layer piece under it, else the table."""
    tops: dict[int, float] = {}
    base: dict[int, float] = {}
    prints = {i: piece_footprint(pieces[i]) for i in order}
    for i in order:
        b = 0.0
        for j, top in tops.items():
            if pieces[j].layer < pieces[i].layer and _overlaps(prints[i], prints[j]):
                b = max(b, top)
        base[i] = b
        tops[i] = b + pieces[i].thickness_mm
    return base


# ---------------------------------------------------------------------------------------------- drawing


def _density(cam: Camera, xy: np.ndarray, z: float = 0.0) -> float:
    """Pixels per mm near table point xy (geometric mean of the two directions)."""
    p = np.array([[xy[0], xy[1], z], [xy[0] + 1, xy[1], z], [xy[0], xy[1] + 1, z]])
    q = cam.project(p, distort=False)
    a, b = q[1] - q[0], q[2] - q[0]
    return math.sqrt(abs(a[0] * b[1] - a[1] * b[0]))


def _roi(pts: np.ndarray, shape: tuple[int, ...], pad: float) -> tuple[int, int, int, int] | None:
    if not np.all(np.isfinite(pts)):
        return None
    x0 = max(0, int(math.floor(pts[:, 0].min() - pad)))
    y0 = max(0, int(math.floor(pts[:, 1].min() - pad)))
    x1 = min(shape[1], int(math.ceil(pts[:, 0].max() + pad)) + 1)
    y1 = min(shape[0], int(math.ceil(pts[:, 1].max() + pad)) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _poly_mask(
    shape: tuple[int, int], pts: np.ndarray, offset: tuple[float, float], scale: float = 1.0
) -> np.ndarray:
    """Anti-aliased 0..1 float32 mask of a convex polygon given in image px (for soft things: shadows)."""
    m = np.zeros(shape, np.float32)
    q = np.round(((pts - offset) * scale) * _ONE).astype(np.int32)
    cv2.fillConvexPoly(m, q, 1.0, cv2.LINE_AA, _SHIFT)
    return m


def coverage(
    shape: tuple[int, int], poly: np.ndarray, offset: tuple[float, float] = (0.0, 0.0)
) -> np.ndarray:
    """Exact-edged 0..1 float32 coverage of a convex polygon (image px, pixel centres at integers).

    cv2's anti-aliased fill grows shapes by half a pixel or more, which would bias every edge of the
    truth. Here the interior is a plain fill, and only a band along the outline gets its coverage from
    the signed distance to the polygon, clip(0.5 + d, 0, 1): the area of a pixel inside a straight edge."""
    pts = np.asarray(poly, np.float64) - offset
    fixed = np.round(pts * _ONE).astype(np.int32)
    m = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(m, fixed, 1, cv2.LINE_8, _SHIFT)
    band = np.zeros(shape, np.uint8)
    cv2.polylines(band, [fixed], True, 1, 5, cv2.LINE_8, _SHIFT)
    ys, xs = np.nonzero(band)
    out = m.astype(np.float32)
    if len(xs) == 0:
        return out
    a = pts.astype(np.float32)
    d = np.roll(a, -1, 0) - a
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length > 1e-6
    a, d, length = a[keep], d[keep], length[keep]
    # Signed distance to each edge's line; the outline's orientation decides which side is inside.
    twice_area = float(np.sum(a[:, 0] * np.roll(a[:, 1], -1) - np.roll(a[:, 0], -1) * a[:, 1]))
    orient = 1.0 if twice_area > 0 else -1.0
    nx, ny = -d[:, 1] / length * orient, d[:, 0] / length * orient  # inward normals
    c = -(a[:, 0] * nx + a[:, 1] * ny)
    dist = xs.astype(np.float32)[:, None] * nx + ys.astype(np.float32)[:, None] * ny + c
    out[ys, xs] = np.clip(0.5 + dist.min(axis=1), 0.0, 1.0)
    return out


def _darken(img: np.ndarray, poly_px: np.ndarray, strength: float, sigma_px: float) -> None:
    """Darken img under a blurred polygon (a soft shadow), in place. Drawn at reduced resolution."""
    if strength <= 0:
        return
    roi = _roi(poly_px, img.shape, 3 * sigma_px + 2)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    k = float(np.clip(sigma_px / 3, 1.0, 8.0))  # the shadow is smooth: draw it at 1/k resolution
    sh, sw = max(1, int(math.ceil((y1 - y0) / k))), max(1, int(math.ceil((x1 - x0) / k)))
    m = _poly_mask((sh, sw), poly_px, (x0 - 0.5 + 0.5 * k, y0 - 0.5 + 0.5 * k), 1 / k)
    s = max(sigma_px / k, 0.3)
    m = cv2.GaussianBlur(m, (0, 0), s)
    m = cv2.resize(m, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    gain = 1.0 - strength * m
    patch = img[y0:y1, x0:x1]
    patch[:] = cv2.multiply(patch, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)


def _jitter_print(
    art: np.ndarray, rng: np.random.Generator, amount: float, style: PhotoStyle | None = None
) -> np.ndarray:
    """Print variation: the run's fade or over-inking, saturation and hue drift (`style`), then small
    brightness, saturation and hue shifts of the whole piece."""
    run = style is not None and (style.print_fade or style.print_saturation != 1.0 or style.print_hue)
    if amount <= 0 and not run:
        return art
    hsv = cv2.cvtColor(art, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue, sat, val = 0.0, 1.0, 1.0
    if run:
        hue, sat = style.print_hue / 2, style.print_saturation  # OpenCV hue is in half degrees
        if style.print_fade < 0:  # faded: ink thins towards the paper's white
            sat *= 1 + style.print_fade
            hsv[..., 2] += -style.print_fade * (255 - hsv[..., 2])
        else:  # over-inked: darker and denser
            val *= 1 - 0.6 * style.print_fade
            sat *= 1 + 0.5 * style.print_fade
    hsv[..., 0] = np.mod(hsv[..., 0] + hue + rng.normal(0, 6 * amount), 180)
    hsv[..., 1] *= sat * (1 + rng.normal(0, 1.5 * amount))
    hsv[..., 2] *= val * (1 + rng.normal(0, amount))
    hsv[..., 1:] = np.clip(hsv[..., 1:], 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def _edge_colour(piece: Piece, rng: np.random.Generator, tone: float) -> np.ndarray:
    if piece.thickness_mm < 0.7:  # card stock and paper: a light core
        c = np.array([214.0, 220.0, 224.0])
    else:  # grey board or brown board
        c = np.array([118.0, 142.0, 160.0]) if rng.random() < 0.6 else np.array([128.0, 134.0, 138.0])
    return c * tone * (1 + rng.normal(0, 0.05))


def _surface(face: np.ndarray, rng: np.random.Generator, style: PhotoStyle, px_per_mm: float) -> np.ndarray:
    """Paper grain (fibres of about 0.15 mm) and a sheen ramp across a warped face patch."""
    if style.paper_grain <= 0 and style.sheen <= 0:
        return face
    h, w = face.shape[:2]
    gain = np.ones((h, w), np.float32)
    if style.paper_grain > 0:
        grain = _GAUSS_LUT[rng.integers(0, 256, (h, w), dtype=np.uint8)]
        grain = cv2.GaussianBlur(grain, (0, 0), max(0.5, 0.15 * px_per_mm))
        gain += grain * np.float32(style.paper_grain * 2.0)  # blurring lowers the amplitude; restore it
    if style.sheen > 0:
        a = rng.uniform(0, 2 * math.pi)
        x = (np.arange(w, dtype=np.float32) / max(w - 1, 1) - 0.5)[None, :]
        y = (np.arange(h, dtype=np.float32) / max(h - 1, 1) - 0.5)[:, None]
        gain += np.float32(style.sheen * rng.uniform(0.3, 1.0)) * (math.cos(a) * x + math.sin(a) * y + 0.5)
    return cv2.multiply(face, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)


def _draw_piece(
    img: np.ndarray,
    piece: Piece,
    base_mm: float,
    cam: Camera,
    style: PhotoStyle,
    light: np.ndarray,
    rng: np.random.Generator,
) -> None:
    """Draw one piece (shadow, cardboard edge, face) into the undistorted image `img`, in place."""
    art = np.asarray(piece.image)
    if art.ndim == 2:
        art = cv2.cvtColor(art, cv2.COLOR_GRAY2BGR)
    art = art[..., :3]
    w_mm, h_mm = piece.size_mm
    top_z = -(base_mm + piece.thickness_mm)
    T = _piece_to_table(piece)
    local = _rounded_rect(w_mm, h_mm, piece.corner_radius_mm)
    outline = _apply(T, local)
    n = len(outline)
    top3 = np.column_stack([outline, top_z - curl_lift(piece, local)])
    bot3 = np.column_stack([outline, np.full(n, -base_mm)])
    top_px = cam.project(top3, distort=False)
    bot_px = cam.project(bot3, distort=False)
    p_local = _density(cam, T[:2, 2], top_z)

    # Shadow on whatever lies below: the outline swept away from the light by the piece's height above
    # the surface it rests on, softened.
    up = max(-light[2], 0.15)
    sweep = -light[:2] / up * piece.thickness_mm
    shadow_mm = cv2.convexHull(np.vstack([outline, outline + sweep]).astype(np.float32))[:, 0, :]
    shadow_px = cam.project(np.column_stack([shadow_mm, np.full(len(shadow_mm), -base_mm)]), distort=False)
    sigma = max(0.6, style.shadow_softness_mm * p_local * (0.5 + 0.3 * piece.thickness_mm))
    _darken(img, shadow_px, style.shadow_strength * 0.8, sigma)

    hull = cv2.convexHull(np.vstack([top_px, bot_px]).astype(np.float32))[:, 0, :].astype(np.float64)
    roi = _roi(hull, img.shape, 2)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    rh, rw = y1 - y0, x1 - x0
    patch = img[y0:y1, x0:x1]

    # Cardboard edge: the sides that face the camera, each shaded by the light.
    centre_cam = cam.center
    edge = _edge_colour(piece, rng, style.edge_tone)
    side_img = np.empty((rh, rw, 3), np.uint8)
    side_img[:] = np.clip(edge * 0.8, 0, 255).astype(np.uint8)
    d = np.roll(outline, -1, 0) - outline
    normals = np.column_stack([d[:, 1], -d[:, 0]]) / (np.hypot(d[:, 0], d[:, 1])[:, None] + 1e-12)  # outward
    mids = outline + 0.5 * d
    facing = np.einsum("ij,ij->i", normals, centre_cam[:2] - mids) > 0
    lam = np.clip(normals @ light[:2], 0.0, None)
    quads = np.stack([top_px, np.roll(top_px, -1, 0), np.roll(bot_px, -1, 0), bot_px], 1) - (x0, y0)
    quads = np.round(quads * _ONE).astype(np.int32)
    for i in np.nonzero(facing)[0]:
        col = np.clip(edge * (0.62 + 0.5 * lam[i]), 0, 255)
        cv2.fillConvexPoly(side_img, quads[i], tuple(float(c) for c in col), cv2.LINE_8, _SHIFT)
    side_alpha = coverage((rh, rw), hull, (x0, y0))
    patch[:] = cv2.blendLinear(side_img, patch, side_alpha, 1.0 - side_alpha)

    # Face: the art at about the local resolution (INTER_AREA first: warping from far more pixels would
    # alias print detail), with print variation, warped through the face plane's homography.
    ah, aw = art.shape[:2]
    c4 = cam.project(np.column_stack([piece_corners_mm(piece), np.full(4, top_z)]), distort=False)
    sides = np.linalg.norm(c4 - np.roll(c4, -1, 0), axis=1) / [w_mm, h_mm, w_mm, h_mm]
    need = 1.3 * float(sides.max())  # art px per mm worth keeping: a little above the photo's
    if aw / w_mm > 1.5 * need and ah / h_mm > 1.5 * need:
        art = cv2.resize(
            art, (max(2, round(w_mm * need)), max(2, round(h_mm * need))), interpolation=cv2.INTER_AREA
        )
        ah, aw = art.shape[:2]
    art = _jitter_print(art, rng, style.print_jitter, style if piece.printed else None)
    A = np.array(
        [
            [w_mm / aw, 0.0, w_mm / aw / 2 - w_mm / 2],
            [0.0, h_mm / ah, h_mm / ah / 2 - h_mm / 2],
            [0.0, 0.0, 1.0],
        ]
    )
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    if piece.curl_mm <= 0.05:
        M = shift @ cam.homography(top_z) @ T @ A
        face = cv2.warpPerspective(art, M, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        face = _curled_face(art, piece, top_z, cam, light, shift, (rw, rh))
    face = _surface(face, rng, style, p_local)
    alpha = coverage((rh, rw), top_px, (x0, y0))
    patch[:] = cv2.blendLinear(face, patch, alpha, 1.0 - alpha)


def curl_lift(piece: Piece, local_mm: np.ndarray) -> np.ndarray:
    """How far (mm) points of a piece (piece-local mm, centre origin) lie above its flat face: a curl
    rises linearly from the middle line to the two lifted edges (a shallow roof)."""
    if piece.curl_mm <= 0:
        return np.zeros(len(local_mm))
    axis = 1 if piece.curl_axis == 0 else 0  # N/S edges lift: height grows with |y|
    half = piece.size_mm[axis] / 2
    return piece.curl_mm * np.clip(np.abs(np.asarray(local_mm, np.float64)[:, axis]) / half, 0, 1)


def _curled_face(
    art: np.ndarray,
    piece: Piece,
    top_z: float,
    cam: Camera,
    light: np.ndarray,
    shift: np.ndarray,
    size: tuple[int, int],
) -> np.ndarray:
    """The face of a curled piece: each half is a plane from the middle line up to its lifted edge,
    warped on its own and lit by its own slope; the halves meet on the middle line."""
    w_mm, h_mm = piece.size_mm
    ah, aw = art.shape[:2]
    T = _piece_to_table(piece)
    axis = 1 if piece.curl_axis == 0 else 0
    rw, rh = size
    halves = []
    for sign in (-1.0, 1.0):
        if axis == 1:
            local = np.array(
                [[-w_mm / 2, 0.0], [w_mm / 2, 0.0], [w_mm / 2, sign * h_mm / 2], [-w_mm / 2, sign * h_mm / 2]]
            )
        else:
            local = np.array(
                [[0.0, -h_mm / 2], [0.0, h_mm / 2], [sign * w_mm / 2, h_mm / 2], [sign * w_mm / 2, -h_mm / 2]]
            )
        art_px = (local + [w_mm / 2, h_mm / 2]) / [w_mm, h_mm] * [aw, ah] - 0.5
        world = np.column_stack([_apply(T, local), top_z - curl_lift(piece, local)])
        img_px = cam.project(world, distort=False) + shift[:2, 2]  # roi px
        M = cv2.getPerspectiveTransform(art_px.astype(np.float32), img_px.astype(np.float32))
        warped = cv2.warpPerspective(
            art, M, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        # the half rises towards its edge: it turns to the light on one side and away on the other
        rise = np.zeros(2)
        rise[axis] = sign
        direction = T[:2, :2] @ rise
        slope = piece.curl_mm / (piece.size_mm[axis] / 2)
        gain = float(np.clip(1.0 - 2.5 * slope * float(direction @ light[:2]), 0.7, 1.3))
        halves.append((cv2.convertScaleAbs(warped, alpha=gain), img_px[0], img_px[1], img_px[2]))
    # which half each pixel shows: the side of the projected middle line its own half lies on
    (_, a, b, edge_pt) = halves[1]
    ys, xs = np.mgrid[0:rh, 0:rw].astype(np.float32)
    side = (b[0] - a[0]) * (ys - a[1]) - (b[1] - a[1]) * (xs - a[0])
    pos_side = (b[0] - a[0]) * (edge_pt[1] - a[1]) - (b[1] - a[1]) * (edge_pt[0] - a[0])
    pick = (side * np.sign(pos_side) > 0)[..., None]
    return np.where(pick, halves[1][0], halves[0][0])


def _object_shadow_and_draw(
    img: np.ndarray, obj: clutter_mod.ClutterObject, cam: Camera, view: clutter_mod.View, style: PhotoStyle
) -> None:
    poly = clutter_mod.shadow_polygon(obj, view.light)
    px = cam.project(np.column_stack([poly, np.zeros(len(poly))]), distort=False)
    p_local = _density(cam, np.asarray(obj.center_mm))
    sigma = (style.shadow_softness_mm + 0.06 * clutter_mod.height_mm(obj)) * p_local
    _darken(img, px, min(0.7, style.shadow_strength * 1.3), max(1.0, sigma))
    clutter_mod.draw_object(img, obj, view)


# ---------------------------------------------------------------------------------------------- table


def _render_table(cam: Camera, style: PhotoStyle, p_sub: float, rng: np.random.Generator) -> np.ndarray:
    """The table as the (undistorted, margin-including) camera sees it: generated top-down on a canvas
    aligned near the image axes at a resolution the budget allows, then warped in."""
    w, h = cam.size
    Hm = cam.homography()
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    back = cv2.perspectiveTransform(corners[None], np.linalg.inv(Hm))[0]  # frame corners on the table, mm
    ex = back[1] - back[0]
    angle = math.atan2(ex[1], ex[0]) + math.radians(float(rng.uniform(-25, 25)))
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, s], [-s, c]])  # table -> canvas frame
    local = back @ rot.T
    lo, hi = local.min(0), local.max(0)
    size_mm = hi - lo
    budget = min(w * h * 0.5, 5.0e6)
    p = float(min(0.85 * p_sub, math.sqrt(budget / max(size_mm[0] * size_mm[1], 1.0))))
    cw, ch = int(math.ceil(size_mm[0] * p)) + 2, int(math.ceil(size_mm[1] * p)) + 2
    canvas = draw_table(rng, (ch, cw), p, style.table, terrain_hue=style.table_terrain_hue)
    # canvas px -> table mm: x_local = lo + (j, i) / p ; table = rot.T @ x_local
    S = np.array([[1 / p, 0.0, lo[0]], [0.0, 1 / p, lo[1]], [0.0, 0.0, 1.0]])
    Rinv = np.eye(3)
    Rinv[:2, :2] = rot.T
    M = Hm @ Rinv @ S
    return cv2.warpPerspective(canvas, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


# ---------------------------------------------------------------------------------------------- clutter


def _place_near_edges(
    rng: np.random.Generator,
    cam: Camera,
    radius_mm: float,
    blocked: list[np.ndarray],
    make_footprint: Callable[[tuple[float, float], float], np.ndarray],
    subject_px: np.ndarray,
    tries: int = 40,
) -> tuple[tuple[float, float], float, np.ndarray] | None:
    """Find a spot near a frame edge (possibly running off it) for something of about `radius_mm`,
    whose footprint (from `make_footprint(center, angle)`) stays 6 mm clear of every polygon in
    `blocked` (mm) and whose image stays off the subject's. Returns (center, angle, footprint) or None."""
    w, h = cam.size
    Hinv = np.linalg.inv(cam.homography())
    for _ in range(tries):
        edge = int(rng.integers(4))
        along = float(rng.uniform(0.05, 0.95))
        p_guess = _density(
            cam, cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), Hinv)[0, 0]
        )
        r_px = radius_mm * p_guess
        inset = float(rng.uniform(-0.3, 0.9)) * r_px
        pt = {
            0: (along * w, inset),
            1: (w - 1 - inset, along * h),
            2: (along * w, h - 1 - inset),
            3: (inset, along * h),
        }[edge]
        center = cv2.perspectiveTransform(np.array([[pt]], np.float64), Hinv)[0, 0]
        angle = float(rng.uniform(0, 360))
        fp = make_footprint((float(center[0]), float(center[1])), angle)
        grown = cv2.convexHull(
            np.vstack([fp + d for d in ((-6, -6), (6, -6), (6, 6), (-6, 6))]).astype(np.float32)
        )[:, 0, :]
        if any(_overlaps(grown, b, 0.0) for b in blocked):
            continue
        fp_px = cam.project(np.column_stack([fp, np.zeros(len(fp))]), distort=False)
        if _overlaps(cv2.convexHull(fp_px.astype(np.float32))[:, 0, :], subject_px, 0.0):
            continue
        return (float(center[0]), float(center[1])), angle, fp
    return None


def _place_across_edge(
    rng: np.random.Generator, cam: Camera, group: Sequence[Piece], blocked: list[np.ndarray], tries: int = 30
) -> list[Piece] | None:
    """The group's pieces moved and turned so that the group lies across a frame edge, its nearest
    row 0.3 to 1.2 pieces deep inside the frame, clear of everything in `blocked` by 8 mm."""
    w, h = cam.size
    h_inv = np.linalg.inv(cam.homography())
    centre_mm = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), h_inv)[0, 0]
    size = max(max(p.size_mm) for p in group)
    for _ in range(tries):
        edge = int(rng.integers(4))
        along = float(rng.uniform(0.15, 0.85))
        pt = {0: (along * w, 0.0), 1: (w - 1.0, along * h), 2: (along * w, h - 1.0), 3: (0.0, along * h)}[
            edge
        ]
        at = cv2.perspectiveTransform(np.array([[pt]], np.float64), h_inv)[0, 0]
        inward = centre_mm - at
        inward /= np.linalg.norm(inward) + 1e-12
        angle = float(rng.uniform(0, 360))
        turned = [replace(p, center_mm=tuple(_rot(angle) @ np.asarray(p.center_mm)), angle_deg=p.angle_deg + angle)
                  for p in group]  # fmt: skip
        reach = max(float(np.max(piece_footprint(p) @ inward)) for p in turned)
        depth = float(rng.uniform(0.3, 1.2)) * size
        origin = at + inward * (depth - reach)
        moved = [
            replace(p, center_mm=(p.center_mm[0] + origin[0], p.center_mm[1] + origin[1])) for p in turned
        ]
        prints = [piece_footprint(p) for p in moved]
        grown = [cv2.convexHull(np.vstack([fp + d for d in ((-8, -8), (8, -8), (8, 8), (-8, 8))]).astype(np.float32))[:, 0, :]
                 for fp in prints]  # fmt: skip
        if any(_overlaps(g, b, 0.0) for g in grown for b in blocked):
            continue
        return moved
    return None


def _rot(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _light_in_image(cam: Camera, at_mm: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The direction in the image that the light comes from, at a table point."""
    p = cam.project(
        np.array([[at_mm[0], at_mm[1], 0.0], [at_mm[0] + light[0] * 50, at_mm[1] + light[1] * 50, 0.0]])
    )
    d = p[1] - p[0]
    return d / (np.linalg.norm(d) + 1e-12)


def _gloss(
    img: np.ndarray,
    cam: Camera,
    pieces: list[tuple[Piece, float]],
    light: np.ndarray,
    gloss: float,
    rng: np.random.Generator,
) -> None:
    """Glossy print: the light's reflection, a broad bright patch where the camera sees the light
    mirrored in the table plane, on the pieces only (the table stays matte). In place."""
    h, w = img.shape[:2]
    up = max(-light[2], 0.1)
    c = cam.center  # the camera is above the table (c[2] < 0): the mirror point lies toward the light
    t = -c[2] / up
    spot = np.array([c[0] + t * light[0], c[1] + t * light[1], 0.0])
    centre = cam.project(spot[None])[0] + rng.normal(0, 0.05 * min(w, h), 2)
    k = 4  # the patch and the mask are smooth: draw them at a quarter of the size
    sw, sh = max(1, w // k), max(1, h // k)
    mask = np.zeros((sh, sw), np.float32)
    for piece, base in pieces:
        local = _rounded_rect(*piece.size_mm, piece.corner_radius_mm)
        pts = np.column_stack(
            [_apply(_piece_to_table(piece), local), np.full(len(local), -(base + piece.thickness_mm))]
        )
        px = cam.project(pts) / k
        cv2.fillConvexPoly(mask, np.round(px * _ONE).astype(np.int32), 1.0, cv2.LINE_AA, _SHIFT)
    radius = float(rng.uniform(0.08, 0.25)) * min(sw, sh)
    xx, yy = np.meshgrid(np.arange(sw, dtype=np.float32), np.arange(sh, dtype=np.float32))
    blob = np.exp(-((xx - centre[0] / k) ** 2 + (yy - centre[1] / k) ** 2) / (2 * radius * radius))
    add = np.clip(gloss * 230 * blob * mask, 0, 255).astype(np.uint8)
    add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
    img[:] = cv2.add(img, cv2.cvtColor(add, cv2.COLOR_GRAY2BGR))


# ---------------------------------------------------------------------------------------------- photograph


def _subject_box(pieces: Sequence[Piece]) -> tuple[float, float, float, float]:
    pts = np.vstack([piece_footprint(p) for p in pieces])
    lo, hi = pts.min(0), pts.max(0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def photograph(
    pieces: Sequence[Piece],
    rng: np.random.Generator,
    *,
    subject_mm: tuple[float, float, float, float] | None = None,
    clutter: Sequence[Piece] = (),
    edge_groups: Sequence[Sequence[Piece]] = (),
    long_side_px: int = 4000,
    style: PhotoStyle | None = None,
) -> Shot:
    """Photograph `pieces` lying on a table. The camera frames `subject_mm` (x0, y0, x1, y1; default: the
    pieces' bounding box). `clutter` pieces are laid near the frame edges by this function (their
    center_mm and angle_deg are ignored), clear of the subject box; with `style.clutter_objects` mugs,
    dice, pencils, pens and notes join them. Each of `edge_groups` (pieces placed around their group's
    origin: another player's island) is laid across a frame edge, so that only its first row or two
    shows. Deterministic for a given rng state."""
    if not pieces:
        raise ValueError("photograph needs at least one piece")
    if not 64 <= long_side_px <= MAX_LONG_SIDE:
        raise ValueError(f"long_side_px must be in 64..{MAX_LONG_SIDE}, got {long_side_px}")
    if style is None:
        style = draw_style(rng)
    box = subject_mm if subject_mm is not None else _subject_box(pieces)
    if box[2] <= box[0] or box[3] <= box[1]:
        raise ValueError(f"subject box must have positive size, got {box}")
    # Independent streams, so that changing one part (say, the table) does not reshuffle the others.
    seeds = rng.integers(0, 2**63, 7)
    r_table, r_pieces, r_clutter, r_light, r_noise, r_edge, r_hand = (
        np.random.default_rng(int(s)) for s in seeds
    )

    size = frame_size(long_side_px, style.portrait)
    layers = 1 + max(p.layer for p in pieces) - min(p.layer for p in pieces)
    stack_mm = max(p.thickness_mm for p in pieces) * layers  # how high the faces may lie, at most
    cam, used = frame_subject(style, size, box, stack_mm)
    scale = long_side_px / MAX_LONG_SIDE

    # Undistorted render frame, with a margin wherever the lens pulls pixels from outside the frame.
    w, h = size
    border = np.vstack(
        [np.stack([np.linspace(0, w - 1, 64), np.full(64, y)], 1) for y in (0, h - 1)]
        + [np.stack([np.full(64, x), np.linspace(0, h - 1, 64)], 1) for x in (0, w - 1)]
    )
    und = cam.undistort(border)
    mx = int(math.ceil(max(0.0, -und[:, 0].min(), und[:, 0].max() - (w - 1)))) + 2 if cam.k1 or cam.k2 else 0
    my = int(math.ceil(max(0.0, -und[:, 1].min(), und[:, 1].max() - (h - 1)))) + 2 if cam.k1 or cam.k2 else 0
    rcam = cam.shifted(mx, my)

    S = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
    p_sub = _density(cam, S)
    img = _render_table(rcam, style, p_sub, r_table)

    az, el = math.radians(style.light_azimuth_deg), math.radians(style.light_elevation_deg)
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
    view = clutter_mod.View(rcam.projection(), rcam.center, light)

    # Clutter: caller's loose pieces and notes (flat) and 3D objects, near the edges, clear of the subject.
    blocked = [np.array([[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], np.float64)]
    blocked += [piece_footprint(p) for p in pieces]
    subject_px = cv2.convexHull(cam.project(box_corners(box), distort=False).astype(np.float32))[:, 0, :]
    placed_info: list[dict] = []  # what went where, for the truth JSON
    flat: list[Piece] = []
    flat_from_caller: list[int] = []
    for k, cp in enumerate(clutter):
        r = 0.5 * math.hypot(*cp.size_mm)
        spot = _place_near_edges(
            r_clutter,
            cam,
            r,
            blocked,
            lambda c, a, cp=cp: piece_footprint(replace(cp, center_mm=c, angle_deg=a)),
            subject_px,
        )
        if spot is None:
            continue
        center, angle, fp = spot
        flat.append(replace(cp, center_mm=center, angle_deg=angle, layer=-1))
        placed_info.append({"kind": "piece", "index": k, "footprint_mm": fp.tolist()})
        flat_from_caller.append(k)
        blocked.append(fp)
    edge_placed: list[int] = []  # indices into `flat` of the edge groups' pieces
    for group in edge_groups:
        spot = _place_across_edge(r_edge, cam, group, blocked)
        if spot is None:
            continue
        for piece in spot:
            edge_placed.append(len(flat))
            flat.append(replace(piece, layer=-1))
            blocked.append(piece_footprint(piece))
        placed_info.append({"kind": "edge group", "tiles": len(spot)})
    objects: list[clutter_mod.ClutterObject] = []
    height = float(-cam.center[2])
    for _ in range(style.clutter_objects):
        kind = clutter_mod.CLUTTER_KINDS[int(r_clutter.integers(len(clutter_mod.CLUTTER_KINDS)))]
        if kind == "mug" and height < 3.2 * 105:  # a close-up camera would sit inside the mug's reach
            kind = "die"
        if kind == "note":
            nsize = clutter_mod.random_note_size(r_clutter)
            note = Piece(np.zeros((2, 2, 3), np.uint8), nsize, (0.0, 0.0), 0.0, 0.1, 0.5, -2, printed=False)
            spot = _place_near_edges(
                r_clutter,
                cam,
                0.5 * math.hypot(*nsize),
                blocked,
                lambda c, a, n=note: piece_footprint(replace(n, center_mm=c, angle_deg=a)),
                subject_px,
            )
            if spot is None:
                continue
            art = clutter_mod.note_image(r_clutter, nsize, p_sub)
            flat.append(replace(note, image=art, center_mm=spot[0], angle_deg=spot[1]))
            placed_info.append({"kind": "note", "footprint_mm": spot[2].tolist()})
            blocked.append(spot[2])
            continue
        obj = clutter_mod.random_object(r_clutter, kind)
        spot = _place_near_edges(
            r_clutter,
            cam,
            clutter_mod.radius_mm(obj),
            blocked,
            lambda c, a, o=obj: clutter_mod.footprint(clutter_mod.placed(o, c, a)),
            subject_px,
        )
        if spot is None:
            continue
        obj = clutter_mod.placed(obj, spot[0], spot[1])
        # Tall objects lean in a tilted view: keep their whole image off the subject too.
        fp = clutter_mod.footprint(obj)
        body = np.vstack(
            [np.column_stack([fp, np.full(len(fp), z)]) for z in (0.0, -clutter_mod.height_mm(obj))]
        )
        body_px = cv2.convexHull(cam.project(body, distort=False).astype(np.float32))[:, 0, :]
        if _overlaps(body_px, subject_px, 0.0):
            continue
        objects.append(obj)
        placed_info.append({"kind": kind, "footprint_mm": spot[2].tolist()})
        blocked.append(spot[2])

    # Flat things: clutter first (lowest), then the pieces by layer; each lies on what is under it.
    everything = flat + list(pieces)
    order = sorted(range(len(everything)), key=lambda i: (everything[i].layer, i))
    bases = _base_heights(everything, order)
    for i in order:
        _draw_piece(img, everything[i], bases[i], rcam, style, light, r_pieces)
    # Standing objects last, far ones first (their shadows may fall over the board).
    objects.sort(key=lambda o: -float(np.linalg.norm(np.asarray(o.center_mm) - cam.center[:2])))
    for obj in objects:
        _object_shadow_and_draw(img, obj, rcam, view, style)

    # Lens: one remap from the undistorted render.
    if mx or my:
        map_x, map_y = _lens_maps(cam, rcam)
        img = cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    subject_hull = cv2.convexHull(
        cam.project(np.vstack([edge_points(box), edge_points(box) - [0.0, 0.0, stack_mm]])).astype(np.float32)
    )[:, 0, :]
    if style.gloss > 0:
        _gloss(
            img, cam, [(p, bases[len(flat) + i]) for i, p in enumerate(pieces)], light, style.gloss, r_light
        )
    hand_drawn = False
    if style.hand:
        from vision.synth.hands import draw_hand  # only photos with a hand need it

        light_2d = tuple(float(v) for v in _light_in_image(cam, S, light))
        mm_px = _density(cam, S)
        hand_drawn = (
            draw_hand(img, r_hand, keep_out=subject_hull, light_dir=light_2d, scale_px=85 * mm_px) is not None
        )

    # Optics: softness + depth of field (focused on the subject), then motion blur.
    focus_depth = float((cam.R @ np.array([S[0], S[1], 0.0]) + cam.t)[2])
    img = _blur_levels(img, _depth_blur_map(cam, style, focus_depth, scale))
    img = _motion_blur(img, style.motion_px * scale, style.motion_angle_deg)

    # Light and sensor noise, then the phone's processing: tone curve, saturation, sharpening (which
    # also sharpens the grain, as on a phone).
    img = _lighting(img, style, r_light)
    img = _add_noise(img, style, r_noise)
    img = cv2.LUT(img, _tone_lut(style))
    img = _saturate(img, style.saturation)
    img = _sharpen(img, style.sharpen, scale)

    def corners_of(piece: Piece, base: float) -> np.ndarray:
        xy = piece_corners_mm(piece)
        w, h = piece.size_mm
        lift = curl_lift(
            piece, np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        )
        z = -(base + piece.thickness_mm) - lift
        return cam.project(np.column_stack([xy, z])).astype(np.float32)

    n_flat = len(flat)
    corners = tuple(corners_of(p, bases[n_flat + i]) for i, p in enumerate(pieces))
    clutter_corners = tuple(corners_of(flat[j], bases[j]) for j in range(len(flat_from_caller)))
    edge_corners = tuple(corners_of(flat[j], bases[j]) for j in edge_placed)
    info = cam.to_dict()
    info.update(
        {
            "tilt_deg": float(math.degrees(math.acos(np.clip(cam.R[2, 2], -1, 1)))),
            "roll_deg": used["roll_deg"],
            "subject_fill": used["fill"],
            "subject_span": used["span"],
            "subject_mm": [float(v) for v in box],
            "focal_equiv_mm": float(style.focal_equiv_mm),
            "height_mm": height,
            "clutter": placed_info,
            "hand": hand_drawn,
            "style": {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(style).items()},
        }
    )
    return Shot(
        np.ascontiguousarray(img),
        corners,
        cam.homography() / cam.homography()[2, 2],
        info,
        clutter_corners,
        edge_corners,
    )


def encode_jpeg(image: np.ndarray, rng: np.random.Generator) -> bytes:
    """JPEG bytes at a quality drawn from 60..95 (phones and messengers re-compress)."""
    quality = int(rng.integers(60, 96))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()

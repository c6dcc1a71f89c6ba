"""One flat piece drawn into a photo: its outline (a rounded rectangle on the table, lifted where the
cardboard curls), its printed face warped into place with print jitter, surface sheen and its
cardboard edge, its soft shadow, and how much of the frame it covers. `vision.synth.photo` lays the
pieces out, lights and photographs the table, and calls these for each piece.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.camera import Camera
from vision.synth.optics import _GAUSS_LUT, SHIFT
from vision.synth.photo_style import PhotoStyle, Piece

_SHIFT = SHIFT  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


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

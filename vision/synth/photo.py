"""Photo simulator: flat components lying on a table -> a realistic phone photo, with exact corner truth.

Geometry. The table is the world plane Z = 0 in millimetres, x right and y down as seen by the player
(toward the player), Z pointing into the table (so "up" is -Z). A pinhole phone camera (focal length of a
26 mm-equivalent main camera, any in-plane rotation, tilt up to 40 degrees) looks at the subject box; a
piece's printed face lies at the height of its thickness (plus whatever it lies on). Corners are the
projections of the face's corners, pushed through the same radial lens model (OpenCV's k1, k2) that
warps the rendered image, so they are exact to well under a pixel. Pixel centres sit at integer
coordinates (OpenCV convention).

Rendering (each piece by `vision.synth.piece_drawing`). Everything is drawn straight into an
undistorted image (with a margin for the lens warp):
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
from vision.synth.piece_drawing import (
    _apply,
    _darken,
    _density,
    _draw_piece,
    _piece_to_table,
    _rounded_rect,
    curl_lift,
    piece_corners_mm,
    piece_footprint,
)
from vision.synth.tables import draw_table

MAX_LONG_SIDE = REFERENCE_LONG_SIDE  # 4000 x 3000 = 12 MP, a phone's main camera
_SHIFT = SHIFT  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


# ---------------------------------------------------------------------------------------------- geometry


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

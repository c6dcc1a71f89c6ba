"""The simulated phone camera: a pinhole with radial distortion looking down at the table, and how a
photo is framed (tilt, roll, distance, the subject's share of the frame). Table mm, x right, y down;
see `vision.synth.photo` for the rendering."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.geometry import quad_span

if TYPE_CHECKING:
    from vision.synth.photo_style import PhotoStyle

_FULL_FRAME_DIAGONAL_MM = 43.267  # 36 x 24 mm: what "equivalent focal length" refers to
MIN_DISTANCE_MM = 100.0  # a phone's main camera does not focus closer


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with radial distortion. World (table mm) -> camera: x_c = R @ X + t."""

    size: tuple[int, int]  # image (width, height), px
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    k1: float = 0.0
    k2: float = 0.0

    @property
    def center(self) -> np.ndarray:
        return -self.R.T @ self.t

    def projection(self) -> np.ndarray:
        """3x4 matrix: world mm (homogeneous) -> undistorted image px (homogeneous)."""
        return self.K @ np.column_stack([self.R, self.t])

    def homography(self, z_mm: float = 0.0) -> np.ndarray:
        """Plane Z = z_mm (x, y mm) -> undistorted image px."""
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z_mm + self.t])

    def project(self, xyz: np.ndarray, distort: bool = True) -> np.ndarray:
        """World points (N, 3) -> image px (N, 2), through the lens unless `distort` is False."""
        pts = np.asarray(xyz, np.float64).reshape(-1, 3)
        cam = pts @ self.R.T + self.t
        uv = (cam[:, :2] / cam[:, 2:3]) * [self.K[0, 0], self.K[1, 1]] + self.K[:2, 2]
        return self.distort(uv) if distort else uv

    def distort(self, uv: np.ndarray) -> np.ndarray:
        """Undistorted px -> distorted px."""
        if self.k1 == 0 and self.k2 == 0:
            return np.asarray(uv, np.float64)
        f, c = np.array([self.K[0, 0], self.K[1, 1]]), self.K[:2, 2]
        x = (np.asarray(uv, np.float64) - c) / f
        r2 = np.sum(x * x, axis=-1, keepdims=True)
        return x * (1 + self.k1 * r2 + self.k2 * r2 * r2) * f + c

    def undistort(self, uv: np.ndarray, iterations: int = 12) -> np.ndarray:
        """Distorted px -> undistorted px (fixed-point inversion; the distortion is small)."""
        if self.k1 == 0 and self.k2 == 0:
            return np.asarray(uv, np.float64)
        f, c = np.array([self.K[0, 0], self.K[1, 1]]), self.K[:2, 2]
        xd = (np.asarray(uv, np.float64) - c) / f
        x = xd.copy()
        for _ in range(iterations):
            r2 = np.sum(x * x, axis=-1, keepdims=True)
            x = xd / (1 + self.k1 * r2 + self.k2 * r2 * r2)
        return x * f + c

    def shifted(self, dx: float, dy: float) -> Camera:
        """The same camera drawing into a frame whose origin is moved by (-dx, -dy) (a margin)."""
        K = self.K.copy()
        K[0, 2] += dx
        K[1, 2] += dy
        return replace(self, K=K, size=(self.size[0] + 2 * int(dx), self.size[1] + 2 * int(dy)))

    def to_dict(self) -> dict:
        return {
            "model": "pinhole+radial (OpenCV k1, k2); x_cam = R @ X_mm + t; table plane Z = 0, up is -Z",
            "image_size": [int(self.size[0]), int(self.size[1])],
            "K": self.K.tolist(),
            "dist": [float(self.k1), float(self.k2)],
            "R": self.R.tolist(),
            "t": self.t.tolist(),
            "center_mm": self.center.tolist(),
            "homography": (self.homography() / self.homography()[2, 2]).tolist(),
        }


# ---------------------------------------------------------------------------------------------- camera


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def camera_rotation(tilt_deg: float, tilt_dir_deg: float, roll_deg: float) -> np.ndarray:
    """World -> camera rotation: straight down turned by `roll_deg` about the optical axis, then tilted by
    `tilt_deg` toward `tilt_dir_deg` (in the image; 0 tips the image top away)."""
    t, d, r = (math.radians(v) for v in (tilt_deg, tilt_dir_deg, roll_deg))
    return _rz(d) @ _rx(-t) @ _rz(-d) @ _rz(r)


def frame_size(long_side: int, portrait: bool) -> tuple[int, int]:
    short = int(round(long_side * 3 / 4))
    return (short, long_side) if portrait else (long_side, short)


def box_corners(box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])


def edge_points(box: tuple[float, float, float, float], n: int = 9) -> np.ndarray:
    c = box_corners(box)
    t = np.linspace(0, 1, n, endpoint=False)[:, None]
    return np.vstack([c[i] + t * (c[(i + 1) % 4] - c[i]) for i in range(4)])


def _polygon_area(pts: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(pts, np.float32)))


def _aim(base: Camera, S: np.ndarray, depth: float, u: np.ndarray) -> Camera:
    """The camera of `base`'s orientation that sees world point S at pixel u, `depth` mm away."""
    ray = np.linalg.solve(base.K, np.array([u[0], u[1], 1.0]))
    return replace(base, t=depth * ray - base.R @ S)


def _fill_of(cam: Camera, box: tuple[float, float, float, float]) -> float:
    corners = box_corners(box)
    z = (corners @ cam.R.T + cam.t)[:, 2]
    if np.any(z <= 1.0):
        return math.inf
    return _polygon_area(cam.project(corners, distort=False)) / (cam.size[0] * cam.size[1])


def _span_of(cam: Camera, box: tuple[float, float, float, float]) -> float:
    """The subject's longer side in the photo (mean of its two opposite sides) over the frame's shorter
    side: how big a player sees it, whatever the roll."""
    corners = box_corners(box)
    z = (corners @ cam.R.T + cam.t)[:, 2]
    if np.any(z <= 1.0):
        return math.inf
    return quad_span(cam.project(corners, distort=False), cam.size)


def _depth_for_fill(
    base: Camera, S: np.ndarray, u: np.ndarray, box: tuple, fill: float, measure: Callable = _fill_of
) -> float:
    """The camera distance along the ray through u at which `measure` (fill or span) is `fill`."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    want_fill = fill if measure is _fill_of else fill * fill * 0.75
    d0 = base.K[0, 0] * math.sqrt(area / (want_fill * base.size[0] * base.size[1]))
    lo, hi = math.log(d0 / 8), math.log(d0 * 8)
    for _ in range(26):  # fill falls as the camera backs away along the ray through u
        mid = 0.5 * (lo + hi)
        if measure(_aim(base, S, math.exp(mid), u), box) > fill:
            lo = mid
        else:
            hi = mid
    return max(math.exp(hi), MIN_DISTANCE_MM)


def _inside(cam: Camera, box: tuple, margin: float, top_mm: float = 0.0) -> tuple[bool, np.ndarray]:
    """Whether the subject box (its edges, on the table and at the pieces' top, through the lens) lies
    inside the frame by `margin` px."""
    edge = edge_points(box)
    lifted = edge - [0.0, 0.0, top_mm]
    pts = cam.project(np.vstack([edge, lifted]))
    w, h = cam.size
    ok = bool(
        np.all(pts >= margin) and np.all(pts[:, 0] <= w - 1 - margin) and np.all(pts[:, 1] <= h - 1 - margin)
    )
    return ok, pts


def frame_subject(
    style: PhotoStyle, size: tuple[int, int], box: tuple[float, float, float, float], top_mm: float = 0.0
) -> tuple[Camera, dict]:
    """Place the camera so that the subject box fills `style.fill` of the frame, wholly inside it, offset
    within the free space by `style.offset`. When that does not fit, the fill comes down (not below
    25%), then the roll turns toward the frame's axes; a subject too elongated for 25% of any frame
    gets less, as does one so small that the camera would come closer than MIN_DISTANCE_MM. `top_mm`
    is the height of the pieces' faces, which must be in the frame too. Returns the camera and the roll
    and fill used."""
    w, h = size
    f = style.focal_equiv_mm / _FULL_FRAME_DIAGONAL_MM * math.hypot(w, h)
    K = np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])
    S = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 0.0])
    margin = 0.02 * min(w, h)
    centre = K[:2, 2].copy()

    by_span = style.span > 0
    measure = _span_of if by_span else _fill_of
    lo_fill, hi_fill = (0.1, 0.95) if by_span else (0.25, 0.85)

    def attempt(roll: float, fill: float) -> tuple[Camera, Camera, np.ndarray, np.ndarray, bool]:
        R = camera_rotation(style.tilt_deg, style.tilt_dir_deg, roll)
        base = Camera(size, K, R, np.zeros(3), style.k1, style.k2)
        u = centre.copy()
        for _ in range(4):  # centre the subject's projected bounding box (perspective moves it)
            cam = _aim(base, S, _depth_for_fill(base, S, u, box, fill, measure), u)
            pts = cam.project(edge_points(box), distort=False)
            u -= 0.5 * (pts.min(0) + pts.max(0)) - centre
        cam = _aim(base, S, _depth_for_fill(base, S, u, box, fill, measure), u)
        ok, pts = _inside(cam, box, margin, top_mm)
        return cam, base, u, pts, ok

    def plans():
        fill = float(np.clip(style.span if by_span else style.fill, lo_fill, hi_fill))
        while fill > lo_fill + 0.01:
            yield style.roll_deg, fill
            fill = max(lo_fill + 0.005, fill * 0.93)
        for k in range(1, 31):  # turn toward the frame axes, alternately either way, up to 90 degrees
            for sign in (1, -1):
                yield style.roll_deg + sign * 3.0 * k, lo_fill + 0.005
        square = 90.0 * round(style.roll_deg / 90.0)  # last resort: axis-aligned, and smaller
        fill = lo_fill
        while fill > 1e-4:
            yield square, fill
            yield square + 90.0, fill
            fill *= 0.8

    for roll, fill in plans():
        cam, base, u, pts, ok = attempt(roll, fill)
        if ok:
            break
    # Move the subject within the free space, keeping its fill.
    lo, hi = pts.min(0), pts.max(0)
    slack = np.maximum(np.array([w - 1 - 2 * margin, h - 1 - 2 * margin]) - (hi - lo), 0) / 2
    want = np.clip(np.asarray(style.offset, np.float64), -1, 1) * slack * 0.95
    for _ in range(8):
        u2 = u + want
        cand = _aim(base, S, _depth_for_fill(base, S, u2, box, fill, measure), u2)
        if _inside(cand, box, margin, top_mm)[0]:
            cam = cand
            break
        want *= 0.6
    used = {"roll_deg": float(roll % 360), "fill": float(_fill_of(cam, box)), "span": _span_of(cam, box)}
    return cam, used

"""A Mondo grid's outline as a quad: the occupied region's hull cut down to 4 sides, corners put in
screen order (clockwise, upright), and the test that a quad can be a photographed island at all.
Plain geometry in image px; `vision.mondo.locate` finds the outlines."""

from __future__ import annotations

import cv2
import numpy as np


def _cross(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float, float]:
    # plain floats: np.cross costs more than the whole arithmetic for 3-vectors
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _line_through(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    return _cross((float(a[0]), float(a[1]), 1.0), (float(b[0]), float(b[1]), 1.0))


def _meet(l1: tuple[float, float, float], l2: tuple[float, float, float]) -> np.ndarray | None:
    x, y, w = _cross(l1, l2)
    return None if abs(w) < 1e-12 else np.array([x / w, y / w])


def hull_to_quad(hull: np.ndarray) -> np.ndarray | None:
    """Cut a convex polygon down to 4 sides, each time dropping the side whose removal (extending its
    two neighbours to meet) adds the least area: short cut corners and jagged bits go first."""
    poly = [np.asarray(p, np.float64) for p in hull]
    while len(poly) > 4:
        n = len(poly)
        best, best_cost, best_pt = -1, np.inf, None
        for i in range(n):
            a, b, c, d = poly[i - 1], poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
            p = _meet(_line_through(a, b), _line_through(c, d))
            # the meeting point must lie beyond b (along a->b) and before c (along d->c): outside
            if p is None or np.dot(p - b, b - a) < 0 or np.dot(p - c, c - d) < 0:
                continue
            cost = abs(float((b[0] - p[0]) * (c[1] - p[1]) - (c[0] - p[0]) * (b[1] - p[1]))) / 2
            if cost < best_cost:
                best, best_cost, best_pt = i, cost, p
        if best < 0:
            return None
        poly[best] = best_pt
        del poly[(best + 1) % n]
    return np.array(poly) if len(poly) == 4 else None


def outline_quad(outline: np.ndarray) -> np.ndarray | None:
    """A first guess at the grid's outline: the region's convex hull cut down to 4 sides (right when
    at most a corner cell is empty; the lattice fit checks it against the tile centres)."""
    if len(outline) < 8:
        return None
    hull = cv2.convexHull(outline.astype(np.float32))
    hull = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True)[:, 0, :].astype(np.float64)
    return hull_to_quad(hull) if len(hull) >= 4 else None


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The same quad, ordered clockwise on screen (y down)."""
    q = np.asarray(quad, np.float64)
    area = float(np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1]))
    return q if area > 0 else q[::-1].copy()


def upright(quad: np.ndarray) -> np.ndarray:
    """Start the clockwise quad at the corner that is top-left after the smallest rotation: the
    top and bottom sides then run closest to the image's x axis, left to right."""
    best, best_cos = quad, -2.0
    for k in range(4):
        q = np.roll(quad, -k, 0)
        d = (q[1] - q[0]) + (q[2] - q[3])
        c = d[0] / (np.hypot(*d) + 1e-12)
        if c > best_cos:
            best, best_cos = q, c
    return best


def sane_quad(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a grid outline can be a photographed island: finite, convex, not folded, and within a
    photo's size of the photo (a homography fitted to few points can throw a corner to infinity)."""
    if not np.all(np.isfinite(quad)):
        return False
    h, w = shape[:2]
    if np.any(quad < [-w, -h]) or np.any(quad > [2 * w, 2 * h]):
        return False
    return (
        bool(cv2.isContourConvex(quad.astype(np.float32)))
        and abs(cv2.contourArea(quad.astype(np.float32))) > 1
    )


def inside_any(point: np.ndarray, quads: list[np.ndarray]) -> bool:
    p = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(q.astype(np.float32), p, False) >= 0 for q in quads)

"""Plane lattice geometry for the island locator: homographies from picture px to lattice
coordinates (tile centres at integer points), fitted to tile centres and outline lines; lattice
guesses from a few centres; where a grid lies on its lattice; whether a lattice could be a square
grid seen by a phone camera. Arrays in, arrays out; `vision.mondo.locate` puts them to work.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import median

GRIDS = (3, 4)
LATTICE_TOL = 0.3  # a centre farther than this (cells) from its lattice point is not on it
MAX_SKEW = 0.25  # cos of the angle between the grid's axes on the table, at most (true grids: < 0.05)
MAX_ASPECT = 1.3  # ratio of the lengths of the grid's axes on the table, at most (true grids: < 1.05)


# ------------------------------------------------------------------------------------------ homographies


def homogeneous(pts: np.ndarray) -> np.ndarray:
    """(N, 2) points as (N, 3) float64 rows (x, y, 1): what np.column_stack with ones gives, without
    its checks (the lattice search makes thousands of these a photo)."""
    out = np.empty((len(pts), 3))
    out[:, :2] = pts
    out[:, 2] = 1.0
    return out


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = homogeneous(pts) @ h.T
    return p[:, :2] / p[:, 2:3]


def _normalizer(p: np.ndarray) -> np.ndarray:
    """Similarity that centres points and scales their mean distance to sqrt(2) (Hartley)."""
    c = p.mean(0)
    s = np.sqrt(2) / (np.mean(np.hypot(*(p - c).T)) + 1e-12)
    return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])


def to_lattice(
    pts: np.ndarray,
    lattice: np.ndarray,
    weights: np.ndarray,
    lines: np.ndarray | None = None,
    line_pts: np.ndarray | None = None,
    line_weights: np.ndarray | None = None,
) -> np.ndarray | None:
    """Weighted least-squares homography G from picture px to lattice coordinates, from point pairs
    (`pts` -> `lattice`) and, optionally, picture points that must lie on lattice lines (a, b, c:
    a X + b Y + c = 0). Both constraints are linear in G, so one SVD solves them together; each
    residual is a distance in lattice units (cells) times the point's projective depth."""
    ti = _normalizer(pts if line_pts is None else np.vstack([pts, line_pts]))
    tl = _normalizer(lattice)
    x = homogeneous(pts) @ ti.T
    u = homogeneous(lattice) @ tl.T
    z = np.zeros_like(x)
    w = np.sqrt(weights)[:, None]
    rows = [w * np.hstack([x, z, -u[:, :1] * x]), w * np.hstack([z, x, -u[:, 1:2] * x])]
    if lines is not None and len(lines):
        xl = homogeneous(line_pts) @ ti.T
        ln = lines @ np.linalg.inv(tl)  # lines transform with the inverse of the point map
        wl = np.sqrt(line_weights)[:, None]
        rows.append(wl * np.hstack([ln[:, :1] * xl, ln[:, 1:2] * xl, ln[:, 2:3] * xl]))
    a = np.vstack(rows)
    if len(a) < 8:
        return None
    # the 9x9 normal matrix, not an SVD of the tall one: outline points make thousands of rows
    vals, vecs = np.linalg.eigh(a.T @ a)
    if vals[1] < 1e-12 * vals[-1]:
        return None  # underdetermined: the points do not pin a homography down
    g = np.linalg.inv(tl) @ vecs[:, 0].reshape(3, 3) @ ti
    g = g / np.linalg.norm(g)
    return None if np.linalg.cond(g) > 1e10 else g


Fits = dict[tuple[bytes, bytes], "np.ndarray | None"]


def _fit_points(pts: np.ndarray, lattice: np.ndarray, fits: Fits | None) -> np.ndarray | None:
    """`to_lattice` from point pairs alone, remembered in `fits` (where given): the guesses of one
    lattice search mostly settle onto the same centres at the same points, and refit them."""
    if fits is None:
        return to_lattice(pts, lattice, np.ones(len(pts)))
    key = (pts.tobytes(), lattice.tobytes())
    if key not in fits:
        fits[key] = to_lattice(pts, lattice, np.ones(len(pts)))
    return fits[key]


def _affine_to_lattice(pts: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """Least-squares affine map picture -> lattice, as a 3x3 matrix."""
    a, *_ = np.linalg.lstsq(np.column_stack([pts, np.ones(len(pts))]), lattice, rcond=None)
    return np.vstack([a.T, [0.0, 0.0, 1.0]])


def assign(
    g: np.ndarray, pts: np.ndarray, tol: float = LATTICE_TOL
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lattice points nearest to the picture points under G: (integer coords, inlier mask, residuals)."""
    u = apply_h(g, pts)
    idx = np.round(u)
    r = np.hypot(*(u - idx).T)
    return idx.astype(int), r < tol, r


# ------------------------------------------------------------------------------------------ lattice


def _basis_hypotheses(pts: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(origin, a, b) affine lattice guesses: at the centres nearest the middle, the shortest step to
    a neighbour and the shortest step not parallel to it; reduced, so that a diagonal never wins;
    with half the long step as well where it is much longer."""
    mid = median(pts, 0)
    out = []
    for i in np.argsort(np.hypot(*(pts - mid).T))[:3]:
        d = pts - pts[i]
        dist = np.hypot(*d.T)
        order = [j for j in np.argsort(dist) if dist[j] > 1e-6][:8]
        if not order:
            continue
        a, b = d[order[0]], None
        for j in order[1:]:
            v = d[j]
            if abs(a[0] * v[1] - a[1] * v[0]) > 0.5 * np.hypot(*a) * np.hypot(*v):  # over 30 degrees apart
                b = v
                break
        if b is None:
            continue
        for _ in range(4):  # Gauss reduction: replace b by b - k a while that shortens it
            k = round(float(a @ b) / float(a @ a))
            if k == 0:
                break
            b = b - k * a
            if b @ b < a @ a:
                a, b = b, a
        out.append((pts[i], a, b))
        if b @ b > 2.5 * (a @ a):  # rows two apart (an empty row between): try the row between too
            out.append((pts[i], a, b / 2))
    return out


def _grow(g: np.ndarray, pts: np.ndarray, fits: Fits | None = None) -> np.ndarray:
    """Refine a local affine lattice guess (origin at lattice 0): centres near the origin first, where
    the affine guess holds, then all of them under a homography, which perspective needs."""
    for radius in (1.6, 2.6, np.inf, np.inf):
        idx, ok, _ = assign(g, pts)
        ok &= np.hypot(*idx.T) <= radius
        if ok.sum() < 3:
            break
        lattice = idx[ok].astype(float)
        g_new = (
            _fit_points(pts[ok], lattice, fits)
            if ok.sum() >= 6 and np.isinf(radius)
            else _affine_to_lattice(pts[ok], lattice)
        )
        if g_new is None:
            break
        g = g_new
    return g


def _settle(g: np.ndarray, pts: np.ndarray, tol: float = LATTICE_TOL, fits: Fits | None = None) -> np.ndarray:
    """Refine a global lattice guess by refitting to the centres it explains."""
    before = None
    for _ in range(3):
        idx, ok, _ = assign(g, pts, tol)
        if ok.sum() < 4:
            break
        now = (ok.tobytes(), idx[ok].tobytes())
        if now == before:
            break  # the same centres on the same points: the refit would give the same map again
        g_new = _fit_points(pts[ok], idx[ok].astype(float), fits)
        if g_new is None:
            break
        g, before = g_new, now
    return g


def lattice_guesses(
    pts: np.ndarray,
    quad0: np.ndarray | None,
    grid: int | None,
    blocks: bool = False,
    fits: Fits | None = None,
) -> list[np.ndarray]:
    """Candidate picture -> lattice maps: the outline quad read as a 3x3 or 4x4 grid (right unless
    empty cells cut more than a corner), and local bases at the tile centres (which need no outline).
    With `blocks`, only the outline quad read as any other block of 2 to 4 by 2 to 4 cells: what is
    left of a grid when empty cells take a whole row or column."""
    out = []
    if quad0 is not None:
        top = grid or max(GRIDS)
        sizes = [(c, r) for c in range(2, top + 1) for r in range(2, top + 1)]
        squares = [(g, g) for g in ((grid,) if grid else GRIDS)]
        for cols, rows in [s for s in sizes if s not in squares] if blocks else squares:
            block = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) - 0.5
            h = cv2.getPerspectiveTransform(quad0.astype(np.float32), block).astype(np.float64)
            out.append(_settle(h, pts, fits=fits))
    if blocks:
        return out
    for origin, a, b in _basis_hypotheses(pts):
        m = np.column_stack([a, b])
        if abs(np.linalg.det(m)) < 1e-9:
            continue
        g = np.eye(3)
        g[:2, :2] = np.linalg.inv(m)
        g[:2, 2] = -g[:2, :2] @ origin
        out.append(_grow(g, pts, fits))
    return out


def grid_extent(
    idx: np.ndarray, grid: int | None, region: np.ndarray | None = None
) -> tuple[int, int, int] | None:
    """(first column, first row, grid size) of the grid that holds the occupied lattice points.

    Where the tiles seen span fewer rows (or columns) than the grid (tiles the net missed, a row left
    empty), the grid could reach either way: it goes where it holds most of the `region` outline
    points (lattice coordinates), else it stays centred."""
    lo, hi = idx.min(0), idx.max(0)
    span = hi - lo + 1
    g = grid or (4 if span.max() >= 4 else 3)
    if span.max() > g:
        return None
    start = lo - (g - span) // 2
    if region is not None and len(region):
        for axis in (0, 1):
            options = range(int(hi[axis]) - g + 1, int(lo[axis]) + 1)
            inside = [np.sum(np.abs(region[:, axis] - (a + (g - 1) / 2)) < g / 2 + 0.15) for a in options]
            if len(options) > 1 and max(inside) > min(inside):
                start[axis] = options[int(np.argmax(inside))]
    return int(start[0]), int(start[1]), g


def other_extents(lattice: np.ndarray, extent: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The grid's other places (extents) that also hold every occupied lattice point."""
    i0, j0, g = extent
    lo, hi = lattice.min(0).astype(int), lattice.max(0).astype(int)
    starts = [range(int(hi[a]) - g + 1, int(lo[a]) + 1) for a in (0, 1)]
    return [(x, y, g) for x in starts[0] for y in starts[1] if (x, y) != (i0, j0)]


def camera_plausible(
    g: np.ndarray, camera: np.ndarray | None, max_skew: float = MAX_SKEW, max_aspect: float = MAX_ASPECT
) -> bool:
    """Whether the lattice could be a square grid on a table seen by `camera` (intrinsics for the
    points' frame): its axes orthogonal and equally long in the camera's normalized coordinates. A
    sheared labelling (basis a, a + b), which a homography fits as well from few centres, is not."""
    if camera is None:
        return True
    m = np.linalg.solve(camera, np.linalg.inv(g))
    n1, n2 = np.linalg.norm(m[:, 0]), np.linalg.norm(m[:, 1])
    return abs(m[:, 0] @ m[:, 1]) / (n1 * n2) < max_skew and max(n1, n2) / min(n1, n2) < max_aspect


def quad_corners(extent: tuple[int, int, int]) -> np.ndarray:
    """The grid's outer corners in lattice coordinates (tile centres at integers), clockwise."""
    i0, j0, g = extent
    x0, y0 = i0 - 0.5, j0 - 0.5
    return np.array([[x0, y0], [x0 + g, y0], [x0 + g, y0 + g], [x0, y0 + g]])

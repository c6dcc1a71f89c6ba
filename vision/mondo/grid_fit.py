"""The map from image px to a Mondo grid's lattice (tile centres at integer points), fitted to the
tile centres seen *and* the outline along the grid's 4 outer lines; then polished knowing the grid
is square on a table that a phone camera sees (`fit_on_camera`). `vision.mondo.locate` finds the
centres and the outline and calls these."""

from __future__ import annotations

import numpy as np

from vision.mondo.lattice import apply_h, to_lattice

SIDE_WEIGHT = 0.9  # the outline along one cell's side weighs as much as this many tile centres
LINE_BAND = 0.2  # outline points within this (cells) of an outer grid line are on it
FOCAL_RATIO = 25.5 / 43.27  # a phone's main camera: 23-28 mm equivalent over the 36x24 mm diagonal
CAMERA_PRIOR = 10.0  # weight of "square grid, seen by that camera" against the data (cells)
MAX_LINE_POINTS = 400  # outline points in the final fit, at most


def boundary_lines(extent: tuple[int, int, int]) -> np.ndarray:
    """The grid's 4 outer lines in lattice coordinates (tile centres at integers), a X + b Y + c = 0."""
    i0, j0, g = extent
    x0, x1, y0, y1 = i0 - 0.5, i0 - 0.5 + g, j0 - 0.5, j0 - 0.5 + g
    return np.array([[1.0, 0.0, -x0], [1.0, 0.0, -x1], [0.0, 1.0, -y0], [0.0, 1.0, -y1]])


def outline_on_lines(
    g_h: np.ndarray, outline: np.ndarray, extent: tuple[int, int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The outline points near one of the grid's outer lines (within LINE_BAND cells, away from the
    corners), which line, and their weights: SIDE_WEIGHT per cell of side they cover, however
    densely traced. The notch of an empty cell lies a whole cell inside and is left out; a side
    seen along one cell only weighs a third, so the tile centres hold its direction."""
    lines = boundary_lines(extent)
    u = apply_h(g_h, outline)
    dist = np.abs(u @ lines[:, :2].T + lines[:, 2])  # (N, 4): the lines have unit normals
    near = dist.argmin(1)
    along = np.where(near < 2, u[:, 1] - extent[1], u[:, 0] - extent[0]) + 0.5
    keep = (dist.min(1) < LINE_BAND) & (along > 0.1) & (along < extent[2] - 0.1)
    near, cell = near[keep], np.floor(along[keep]).astype(int)
    weights = np.zeros(len(near))
    for side in range(4):
        on = near == side
        if on.any():
            # distinct cells counted as a set: np.unique imports numpy.ma, 15 ms a photo
            weights[on] = SIDE_WEIGHT * len(set(cell[on].tolist())) / on.sum()
    return outline[keep], near, weights


def refine_homography(
    g_h: np.ndarray,
    centres: np.ndarray,
    lattice: np.ndarray,
    outline: np.ndarray,
    extent: tuple[int, int, int],
) -> np.ndarray:
    """One least-squares map from the tile centres at their lattice points and the outline points
    along the grid's outer lines (weighed by `outline_on_lines`). Twice: the points on the lines are chosen with the better map."""
    lines = boundary_lines(extent)
    for _ in range(2):
        pts, which, lw = outline_on_lines(g_h, outline, extent)
        g_new = to_lattice(centres, lattice, np.ones(len(centres)), lines[which], pts, lw)
        if g_new is None:
            break
        g_h = g_new
    return g_h


def nominal_camera(shape: tuple[int, ...]) -> np.ndarray:
    """Intrinsics of a phone's main camera for a photo of this shape: principal point in the middle,
    focal length FOCAL_RATIO of the diagonal."""
    h, w = shape[:2]
    f = FOCAL_RATIO * float(np.hypot(w, h))
    return np.array([[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]])


def fit_on_camera(
    g_h: np.ndarray,
    centres: np.ndarray,
    lattice: np.ndarray,
    outline: np.ndarray,
    extent: tuple[int, int, int],
    shape: tuple[int, ...],
    iterations: int = 6,
) -> np.ndarray | None:
    """The joint fit again, now knowing that the grid is *square on a table seen by a camera*: in
    the camera's normalized coordinates the lattice -> image map's first two columns are the table's
    axes, orthogonal and of equal length. A general homography has two more degrees of freedom, which
    only the data pin down; where a corner cell is empty, hand-placed tiles' jitter then tilts the
    grid. Soft constraints (the focal length is only nominal) with a few Levenberg-Marquardt steps."""
    k = nominal_camera(shape)
    k_inv = np.linalg.inv(k)
    pts, which, lw = outline_on_lines(g_h, outline, extent)
    lines = boundary_lines(extent)[which]
    if len(pts) > MAX_LINE_POINTS:  # every few points carry the same information: thin them
        step = int(np.ceil(len(pts) / MAX_LINE_POINTS))
        pts, lines, lw = pts[::step], lines[::step], lw[::step] * step
    xc, xl = apply_h(k_inv, centres), apply_h(k_inv, pts)
    sw = np.sqrt(lw)
    hn = k_inv @ np.linalg.inv(g_h)  # lattice -> normalized camera coordinates
    if abs(hn[2, 2]) < 1e-12:
        return None
    p = (hn / hn[2, 2]).ravel()[:8]

    def residuals(p: np.ndarray) -> np.ndarray:
        h = np.append(p, 1.0).reshape(3, 3)
        g = np.linalg.inv(h)
        rc = (apply_h(g, xc) - lattice).ravel()
        u = apply_h(g, xl)
        rl = sw * (np.sum(u * lines[:, :2], 1) + lines[:, 2])
        m1, m2 = h[:, 0], h[:, 1]
        n1, n2 = np.linalg.norm(m1), np.linalg.norm(m2)
        prior = CAMERA_PRIOR * np.array([m1 @ m2 / (n1 * n2), (n1 - n2) / (n1 + n2)])
        return np.concatenate([rc, rl, prior])

    r = residuals(p)
    damping = 1e-3
    for _ in range(iterations):
        jac = np.empty((len(r), 8))
        for i in range(8):
            dp = np.zeros(8)
            dp[i] = 1e-6 * max(1.0, abs(p[i]))
            jac[:, i] = (residuals(p + dp) - r) / dp[i]
        a = jac.T @ jac
        step = np.linalg.solve(a + damping * np.diag(np.diag(a) + 1e-12), -jac.T @ r)
        r_new = residuals(p + step)
        if r_new @ r_new < r @ r:
            p, r, damping = p + step, r_new, damping * 0.3
        else:
            damping *= 10
    h = np.append(p, 1.0).reshape(3, 3)
    g = np.linalg.inv(k @ h)
    return g / np.linalg.norm(g)

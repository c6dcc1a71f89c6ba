"""A square lattice seen in perspective, fitted to points that lie near its nodes.

Any game whose pieces lie on a square lattice on the table (Mediterráneo's cells; Mondo's tiles
use their own copy of these ideas in ``vision.mondo.lattice``) gives a detector's centre points in
picture px; ``fit_lattice`` finds the homography G from picture px to lattice coordinates under
which the points lie near integer nodes: local affine guesses from each point's nearest
neighbours, grown outwards (the affine guess holds near its seed, a homography is needed farther
off), the guess that puts most points on nodes wins. ``upright`` then picks, among the lattice's
eight symmetries, the labelling a person expects: x to the right and y down as the picture shows
it, never mirrored, the lowest node at (0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import median

TOLERANCE = 0.3  # cells: a point farther than this from its node is not on the lattice
SEEDS = 6  # points nearest the middle tried as seeds


@dataclass(frozen=True, eq=False)
class LatticeFit:
    g: np.ndarray  # 3x3 homography: picture px -> lattice coordinates (nodes at integers)
    nodes: np.ndarray  # (N, 2) int: each point's nearest node
    inliers: np.ndarray  # (N,) bool: points within TOLERANCE of their node
    residuals: np.ndarray  # (N,) distance to the node, cells

    @property
    def count(self) -> int:
        return int(self.inliers.sum())


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.column_stack([np.asarray(pts, np.float64).reshape(-1, 2), np.ones(len(pts))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def assign(g: np.ndarray, pts: np.ndarray, tol: float = TOLERANCE) -> LatticeFit:
    u = apply_h(g, pts)
    nodes = np.round(u)
    r = np.hypot(*(u - nodes).T)
    return LatticeFit(g, nodes.astype(int), r < tol, r)


def homography_to(pts: np.ndarray, lattice: np.ndarray) -> np.ndarray | None:
    """Least-squares picture -> lattice homography (affine below 6 points, too few to pin perspective);
    None when the points cannot pin one: fewer than 3, or all on one line of the picture or of the
    lattice (a fit onto one line of nodes maps the whole picture onto that line, and has no inverse)."""
    pts, lattice = np.asarray(pts, np.float64), np.asarray(lattice, np.float64)
    if len(pts) < 3:
        return None
    # the distinct nodes, in any order (`_off_a_line`'s answer does not depend on it); a set, as
    # np.unique over rows costs more than the fit it guards
    nodes = np.array(sorted(set(map(tuple, lattice.tolist()))), np.float64).reshape(-1, 2)
    off = _off_a_line(nodes)
    if off == 0:
        return None
    # perspective needs 4 nodes with no 3 on a line: not so when all nodes but one lie on one line
    if len(nodes) >= 6 and off >= 2:
        h, _ = cv2.findHomography(pts, lattice, 0)
        if h is not None and np.isfinite(h).all() and abs(np.linalg.det(h)) > 1e-12:
            return h
    a, _, rank, _ = np.linalg.lstsq(np.column_stack([pts, np.ones(len(pts))]), lattice, rcond=None)
    if rank < 3:
        return None
    return np.vstack([a.T, [0.0, 0.0, 1.0]])


def _off_a_line(nodes: np.ndarray) -> int:
    """How many of the distinct ``nodes`` lie off the line that holds most of them, exact when 0 or 1
    (2 or more otherwise): a line holding all but one of them holds two of the first three, so the
    lines through those are the only ones to try."""
    if len(nodes) < 3:
        return 0
    fewest = len(nodes)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        step, rest = nodes[j] - nodes[i], nodes - nodes[i]
        fewest = min(fewest, int((np.abs(step[0] * rest[:, 1] - step[1] * rest[:, 0]) > 1e-9).sum()))
    return fewest


def _bases(pts: np.ndarray, seed: int) -> list[np.ndarray]:
    """Affine guesses at point `seed`: its shortest step to a neighbour, and the shortest step at more
    than 30 degrees to it, Gauss-reduced so that a diagonal never wins."""
    d = pts - pts[seed]
    dist = np.hypot(*d.T)
    order = [j for j in np.argsort(dist) if dist[j] > 1e-6][:8]
    if len(order) < 2:
        return []
    a, b = d[order[0]], None
    for j in order[1:]:
        v = d[j]
        if abs(a[0] * v[1] - a[1] * v[0]) > 0.5 * np.hypot(*a) * np.hypot(*v):
            b = v
            break
    if b is None:
        return []
    for _ in range(4):
        k = round(float(a @ b) / float(a @ a))
        if k == 0:
            break
        b = b - k * a
        if b @ b < a @ a:
            a, b = b, a
    m = np.column_stack([a, b])
    if abs(np.linalg.det(m)) < 1e-9:
        return []
    g = np.eye(3)
    g[:2, :2] = np.linalg.inv(m)
    g[:2, 2] = -g[:2, :2] @ pts[seed]
    return [g]


Fits = dict[tuple[bytes, bytes], "np.ndarray | None"]


def _grow(g: np.ndarray, pts: np.ndarray, tol: float, fits: Fits | None = None) -> np.ndarray:
    """Refine an affine guess at its seed (lattice origin) outwards: the points near the origin
    first, then all of them. `fits` remembers each refit by the points and nodes it used: the
    guesses from different seeds mostly settle onto the same lattice, and refit the same points."""
    fits = {} if fits is None else fits
    for radius in (1.6, 2.6, 4.1, np.inf, np.inf):
        fit = assign(g, pts, tol)
        ok = fit.inliers & (np.hypot(*fit.nodes.T) <= radius)
        if ok.sum() < 3:
            break
        key = (ok.tobytes(), fit.nodes[ok].tobytes())
        if key not in fits:
            fits[key] = homography_to(pts[ok], fit.nodes[ok])
        g_new = fits[key]
        if g_new is None:
            break
        g = g_new
    return g


def fit_lattice(
    pts: np.ndarray, tol: float = TOLERANCE, start: np.ndarray | None = None
) -> LatticeFit | None:
    """The lattice that puts most of `pts` (N, 2 picture px) within `tol` of a node, or None when no
    three points agree on one. `start`: a known picture -> lattice map to refine instead of guessing."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    if len(pts) < 3:
        return None
    guesses = [start] if start is not None else []
    if start is None:
        middle = median(pts, 0)
        for seed in np.argsort(np.hypot(*(pts - middle).T))[:SEEDS]:
            guesses += _bases(pts, int(seed))
    best, best_key = None, None
    fits: Fits = {}
    for g in guesses:
        fit = assign(_grow(g, pts, tol, fits), pts, tol)
        if fit.count < 3:
            continue
        key = (support(fit), -float(fit.residuals[fit.inliers].mean()))
        if best_key is None or key > best_key:
            best, best_key = fit, key
    return best


def support(fit: LatticeFit) -> float:
    """Points on nodes, less a quarter for every empty node in their bounding box: a finer lattice
    (half steps, a sheared basis) puts stray points on nodes too, but leaves most of its nodes empty."""
    nodes = {tuple(n) for n in fit.nodes[fit.inliers].tolist()}
    lo, hi = fit.nodes[fit.inliers].min(0), fit.nodes[fit.inliers].max(0)
    box = float(np.prod(hi - lo + 1))
    return len(nodes) - 0.25 * (box - len(nodes))


def upright(g: np.ndarray, at: np.ndarray) -> np.ndarray:
    """G relabelled by one of the lattice's 8 symmetries so that, around picture point `at`, lattice x
    points as near the picture's right as it can and lattice y points down (not mirrored)."""
    at = np.asarray(at, np.float64)
    step = 1e-3 * (1.0 + np.abs(at).max())
    u0 = apply_h(g, at[None])[0]
    # picture directions of the lattice axes at `at` (columns of the inverse Jacobian)
    jac = np.column_stack([(apply_h(g, (at + d)[None])[0] - u0) / step for d in ((step, 0), (0, step))])
    inv = np.linalg.inv(jac)
    best, best_key = np.eye(3), -np.inf
    for mirror in (1, -1):
        for k in range(4):
            c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][k]
            t = np.array([[c, -s], [s, c]], np.float64) @ np.diag([mirror, 1.0])
            axes = inv @ np.linalg.inv(t)  # picture directions of the new lattice's x and y
            if np.linalg.det(axes) <= 0:
                continue  # mirrored: y would point up when x points right
            x_dir = axes[:, 0] / np.linalg.norm(axes[:, 0])
            if x_dir[0] > best_key:
                best_key = x_dir[0]
                best = np.eye(3)
                best[:2, :2] = t
    return best @ g


def reduced(g: np.ndarray, at: np.ndarray) -> np.ndarray:
    """G relabelled by the integer change of basis that makes the lattice's two steps at picture point
    `at` its shortest pair (Gauss reduction): the same nodes, but square cells where a fit settled on
    a step and a diagonal (every centre lies on a node of that basis too, so the fit alone cannot tell;
    its cells are then parallelograms across the cards)."""
    at = np.asarray(at, np.float64)
    step = 1e-3 * (1.0 + np.abs(at).max())
    u0 = apply_h(g, at[None])[0]
    jac = np.column_stack([(apply_h(g, (at + d)[None])[0] - u0) / step for d in ((step, 0), (0, step))])
    a, b = np.linalg.inv(jac).T  # the picture steps of lattice x and y
    ma, mb = np.array([1, 0]), np.array([0, 1])  # ... as integer combinations of the old steps
    sheared = False
    for _ in range(16):
        if b @ b < a @ a:
            a, b, ma, mb = b, a, mb, ma
        k = round(float(a @ b) / float(a @ a))
        if k == 0:
            break
        b, mb, sheared = b - k * a, mb - k * ma, True
    if not sheared:  # (a swap alone only relabels the axes: ``upright``'s job)
        return g
    m = np.column_stack([ma, mb]).astype(np.float64)  # new steps = old steps @ m
    t = np.eye(3)
    t[:2, :2] = np.round(np.linalg.inv(m))  # lattice coordinates: u_new = m^-1 u (integral, det +-1)
    return t @ g


def shifted(g: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """G with lattice coordinates moved by `offset` (nodes stay on integers when it is integral)."""
    t = np.eye(3)
    t[:2, 2] = offset
    return t @ g


def node_quads(g: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """(N, 4, 2) picture quads of the cells centred on `nodes` (NW, NE, SE, SW in lattice terms)."""
    ginv = np.linalg.inv(g)
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    nodes = np.asarray(nodes, np.float64).reshape(-1, 2)
    pts = (nodes[:, None, :] + corners[None]).reshape(-1, 2)
    return apply_h(ginv, pts).reshape(len(nodes), 4, 2)


def cell_size(g: np.ndarray, node: np.ndarray) -> float:
    """A cell's side in picture px at `node` (square root of its quad's area)."""
    quad = node_quads(g, np.asarray(node)[None])[0]
    return float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))

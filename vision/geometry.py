"""Plane geometry shared by the readers and the simulator's truth: quads, homographies, cell crops.

Quads are 4x2 float32 arrays of image xy in the order top-left, top-right, bottom-right, bottom-left
(the NW, NE, SE, SW corners of a cell in the rectified view).
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

# A cell crop shows this much of the neighbouring cells around the cell itself (fraction of a
# cell), so a reading survives a few pixels of grid error and sees both sides of every edge.
CROP_MARGIN = 0.12


def median(values: np.ndarray | list, axis: int = 0) -> np.ndarray:
    """`np.median` along `axis`, the same numbers, without it: numpy's median imports numpy.ma
    (some 15 ms), which a photo scored from the command line pays on every run."""
    values = np.asarray(values)
    ordered = np.sort(values if values.dtype.kind == "f" else values.astype(np.float64), axis=axis)
    n = ordered.shape[axis]
    if n == 0:
        raise ValueError("the median of nothing")
    upper = np.take(ordered, n // 2, axis=axis)
    return upper if n % 2 else (np.take(ordered, n // 2 - 1, axis=axis) + upper) / 2


def unit_square(margin: float = 0.0) -> np.ndarray:
    lo, hi = -margin, 1.0 + margin
    return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)


def grid_cell_quads(grid_quad: np.ndarray, grid: int) -> np.ndarray:
    """The (grid*grid, 4, 2) cell quads of a grid whose outer corners are ``grid_quad``.

    Cells are in reading order (row by row); the grid is projective, so perspective is kept.
    """
    h = cv2.getPerspectiveTransform(unit_square(), grid_quad.astype(np.float32))
    quads = []
    for row in range(grid):
        for col in range(grid):
            corners = (unit_square() + np.array([col, row], np.float32)) / grid
            quads.append(cv2.perspectiveTransform(corners[None], h)[0])
    return np.array(quads, np.float32)


def crop_quads(image: np.ndarray, quads: np.ndarray, size: int, margin: float = CROP_MARGIN) -> np.ndarray:
    """Each quad warped to a ``size`` x ``size`` upright crop, with ``margin`` of context around it.

    Bilinear sampling: the caller brings the image to roughly the crop's scale first (readers
    decode photos at reduced size), so no crop is shrunk by much more than 2.
    """
    out = np.empty((len(quads), size, size, 3), np.uint8)
    # the crop's own corners, placed so that the quad itself spans the middle of the crop
    inner = (unit_square() + margin) / (1.0 + 2.0 * margin) * size
    for i, quad in enumerate(quads):
        h = cv2.getPerspectiveTransform(quad.astype(np.float32), inner.astype(np.float32))
        out[i] = cv2.warpPerspective(
            image, h, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return out


def turned_quads(
    quad: np.ndarray, turns: tuple[float, ...], shifts: tuple[float, ...] = (0.0,)
) -> np.ndarray:
    """(len(turns) * len(shifts)**2, 4, 2) `quad` turned about its middle by each turn (degrees) and
    shifted by each (dx, dy) of `shifts` (in its own sides), on the plane it lies in: through the
    quad's own perspective, in image px."""
    unit = unit_square()
    to_image = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    out = []
    for turn, dx, dy in itertools.product(turns, shifts, shifts):
        t = np.radians(turn)
        rotation = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        square = (unit - 0.5) @ rotation.T + 0.5 + np.array([dx, dy])
        out.append(cv2.perspectiveTransform(square.astype(np.float32)[None], to_image)[0])
    return np.stack(out).astype(np.float32)


def quad_middle(quad: np.ndarray) -> np.ndarray:
    """Where a quad's diagonals cross: the image of its square's middle (perspective kept)."""
    p = np.asarray(quad, np.float64)
    a = np.cross(np.append(p[0], 1), np.append(p[2], 1))
    b = np.cross(np.append(p[1], 1), np.append(p[3], 1))
    x = np.cross(a, b)
    return x[:2] / x[2] if abs(x[2]) > 1e-9 else p.mean(0)


def quad_span(quad: np.ndarray, size: tuple[int, int]) -> float:
    """A quad's longer side (mean of two opposite sides) over the shorter side of a picture of `size`
    (w, h): how big a player sees a board in the photo, whatever its turn."""
    q = np.asarray(quad, np.float64)
    side = np.hypot(*(np.roll(q, -1, 0) - q).T)
    return float(max(side[0] + side[2], side[1] + side[3]) / 2 / min(size))

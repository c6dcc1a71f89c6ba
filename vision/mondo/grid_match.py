"""How well a located grid matches a simulated photo's truth: the "islands found" test of the
benchmarks and of `scorecam eval`.

An island is *found* when the grid size is right and every tile of the truth lies wholly inside the
crop the reader takes for its cell (the cell plus `CROP_MARGIN` of its neighbours): then every tile
is read whole, from its own cell. The clearance says by how much (cells; negative: a tile corner
sticks out of its crop).

The distance of the outline corners from the simulator's grid is reported beside it, but it is not
the test: the simulator lays tiles by hand into a grid whose pitch is a few mm larger than a tile,
so an outer tile's edge lies up to a tenth of a cell inside the grid's outline (`outer_tile_insets`;
`python -m vision.mondo.bench_locate` prints their range). Where a corner cell is empty, that corner
is extrapolated from one or two such tiles, and no photo shows where the simulator's line was to
better than that.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import CROP_MARGIN


@dataclass(frozen=True)
class GridMatch:
    grid_right: bool
    turns: int  # quarter turns clockwise that bring the read grid's cell (0, 0) onto the truth's
    corner_error: float  # worst outline corner's distance from the truth, in cells
    tile_clearance: float  # least distance of a tile corner inside its cell's crop, in cells

    @property
    def found(self) -> bool:
        return self.grid_right and self.tile_clearance >= 0.0

    def why_not(self, read_grid: int, truth_grid: int) -> str:
        if not self.grid_right:
            return f"grid read as {read_grid}x{read_grid}, truth {truth_grid}x{truth_grid}"
        return f"a tile sticks out of its crop by {-self.tile_clearance:.2f} cell"


def corner_errors(read_quad: np.ndarray, truth_quad: np.ndarray, grid: int) -> tuple[int, np.ndarray]:
    """(k, errors): the read quad's corners rolled by k line up best with the truth's (both
    clockwise, from any corner); each truth corner's distance from its match, in cell sides
    measured at that corner."""
    t = np.asarray(truth_quad, np.float64)
    q = np.asarray(read_quad, np.float64)
    cell = (np.hypot(*(t - np.roll(t, 1, 0)).T) + np.hypot(*(t - np.roll(t, -1, 0)).T)) / 2 / grid
    errors = [np.hypot(*(np.roll(q, -k, 0) - t).T) / cell for k in range(4)]
    k = int(np.argmin([e.max() for e in errors]))
    return k, errors[k]


def match_grid(
    read_quad: np.ndarray, read_grid: int, truth: dict, cell_quads: np.ndarray | None = None
) -> GridMatch:
    """Compare a read grid (outer quad in the truth photo's px, clockwise from any corner) with the
    simulator's truth (`island_quad`, `tiles` with `corners`, `scene.grid`). With the reader's own
    `cell_quads` (the same px; they follow tiles pushed out of line), each tile is measured in the
    crop of the cell it falls in; without them, in the grid's own cells."""
    grid = int(truth["scene"]["grid"])
    read = np.asarray(read_quad, np.float64)
    k, errors = corner_errors(read, truth["island_quad"], grid)
    corner_error = float(errors.max())
    if read_grid != grid:
        return GridMatch(False, (4 - k) % 4, corner_error, float("-inf"))
    # photo px -> the read grid's lattice, its corner k at the truth's (0, 0)
    lattice = np.array([[0, 0], [grid, 0], [grid, grid], [0, grid]], np.float32)
    to_lattice = cv2.getPerspectiveTransform(np.roll(read, -k, 0).astype(np.float32), lattice)
    clearance = float("inf")
    from_lattice = np.linalg.inv(to_lattice)
    if cell_quads is not None:
        cell_quads = np.asarray(cell_quads, np.float64)
        middles = cell_quads.mean(axis=1)
    for tile in truth["tiles"]:
        corners = np.asarray(tile["corners"], np.float32)[None]
        if cell_quads is None:
            u = cv2.perspectiveTransform(corners, to_lattice)[0]
            reach = np.abs(u - [tile["col"] + 0.5, tile["row"] + 0.5]).max()
        else:  # the read cell where the grid puts this tile's cell, in its own unit square
            where = cv2.perspectiveTransform(
                np.array([[[tile["col"] + 0.5, tile["row"] + 0.5]]], np.float64), from_lattice
            )[0, 0]
            cell = cell_quads[int(np.argmin(np.hypot(*(middles - where).T)))]
            unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            to_unit = cv2.getPerspectiveTransform(cell.astype(np.float32), unit)
            u = cv2.perspectiveTransform(corners, to_unit)[0]
            reach = np.abs(u - 0.5).max()
        clearance = min(clearance, 0.5 + CROP_MARGIN - float(reach))
    return GridMatch(True, (4 - k) % 4, corner_error, clearance)


def outer_tile_insets(truth: dict) -> np.ndarray:
    """How far (cells) each outer tile's outermost corner lies inside the truth grid's outline, one
    value per tile and outer side: the simulator's hand-placement slack, which no photo shows."""
    grid = int(truth["scene"]["grid"])
    lattice = np.array([[0, 0], [grid, 0], [grid, grid], [0, grid]], np.float32)
    to_lattice = cv2.getPerspectiveTransform(np.asarray(truth["island_quad"], np.float32), lattice)
    insets = []
    for tile in truth["tiles"]:
        u = cv2.perspectiveTransform(np.asarray(tile["corners"], np.float32)[None], to_lattice)[0]
        row, col = tile["row"], tile["col"]
        if col == 0:
            insets.append(u[:, 0].min())
        if col == grid - 1:
            insets.append(grid - u[:, 0].max())
        if row == 0:
            insets.append(u[:, 1].min())
        if row == grid - 1:
            insets.append(grid - u[:, 1].max())
    return np.array(insets, np.float64)

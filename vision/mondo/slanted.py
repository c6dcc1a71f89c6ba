"""A tile read in a space but lying turned far past what a hand-laid tile does: loose, not the island's.

A loose tile lying in an empty space at the island's edge fills that space's crop nearly as well as
a tile of the island would, and the tile model reads it as one (a back, one terrain all over, fits
any turn of a crop). What gives it away is its outline: hand-laid tiles lie within 10 degrees of the
grid, a loose tile at any angle. So each tile the island could have taken a loose one for is looked
at in the grid's own frame (its space and some table round it, rectified, so that the grid's lines
are the picture's axes), and the square of a tile's size whose sides the picture's edges follow best
is searched over turns and small shifts (a degree apart where it matters). A square found turned
12 to 20 degrees, past any hand-laid tile, or further and clearly better than any square near the
grid's own turn, is a loose tile.

Edges are scored as the gradient across each side less the gradient along it: a straight side
between a tile and the table (or a gap) scores high, a table's texture or a tile's printed details,
with no one direction, score about nothing. Pure geometry on the photo's pixels: no model.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.mondo.crops import Finer
from vision.spots import quarter_turn_apart

# px per cell of the rectified view; cells the photo shows larger are shrunk to it, smaller ones are
# taken from a finer decode where the photo has one
CELL_PX = 32
# table looked at round the space, in cells on each side (a tile pushed a third of a cell out of
# line still shows all four sides)
PAD = 0.6
# turns of the square tried (degrees; a square's turn repeats every 90), its shifts from the space's
# middle (cells) and its side (cells: a tile spans its space less the gaps around it)
TURNS = np.arange(-45.0, 45.0, 5.0)
SHIFTS = np.arange(-0.4, 0.401, 0.1)
SIDE = 0.93
POINTS_PER_SIDE = 16
# the gradients' products are smoothed over this many px of the view before they are sampled
BLUR_PX = 1.5
# Hand-laid tiles lie within 10 degrees of the grid (`vision.mondo.recentre`).
LAID = 10.0
# Where the best of TURNS lies within FINE_WHERE of the grid, the turns round it are tried FINE_STEP
# apart (and those round the best within LAID): in steps of 5 a tile lying 12 degrees off measures
# 10 or 15, in steps of 1 within a degree of its turn (stress development photos, seed 9517, the
# truth's grid: loose tiles lying 12.2 / 15.2 / 16.9 degrees off measure 12 / 14 / 16). A best turn
# of 5 is not looked at closer: a degree apart it would still lie under LOOSE.
FINE_WHERE = (10.0, 25.0)
FINE_STEP = 1.0
# A tile is called slanted where its best square lies LOOSE to SLANTED degrees off the grid (past
# any hand-laid tile, and too near the grid's turn for squares near it to score much worse), or
# SLANTED or more off, scoring SLANT_RATIO times the best square within LAID degrees; and its second
# weakest side scores at least FOUR_SIDES of its mean (`tile_turn`). On the stress development photos
# (seed 9517, the truth's grid, every tile at the island's edge measured in steps of 1 degree), the
# 4,541 hand-laid tiles measure within 10 degrees but for 12 measured 27 or more (other straight
# lines: a neighbour's edge, a table's pattern), and the loose tiles lying in an empty space 12 to 17
# degrees off score 1.01-1.16 times the best square within LAID. On 200 stress development photos
# (seed 9514, the truth's own grid) with SLANTED alone (15 degrees, steps of 5), 1 of 1,796 laid tiles
# at the island's edge measured so (a loose tile lying against it), and 5 of the 9 loose tiles lying
# 15 degrees or more off the grid in an empty space (the others 1.07-1.15).
LOOSE = 12.0
SLANTED = 20.0
SLANT_RATIO = 1.2
FOUR_SIDES = 0.5
# The squares are searched only in a view with at least this share of its edge energy in one band of
# turns OFF_GRID or more off the grid (`off_grid_share`): the search costs ~4 ms a space, this ~0.3 ms.
# On the photos of seed 9517 (as above) 33% of the laid tiles' views pass, and the loose tiles' lying
# 12-20 degrees off at 0.167-0.342 but one (0.158); at 0.18 (chosen for tiles 15 degrees or more off,
# seed 9514) 16% pass, and on the fresh stress photos of seed 9522 a loose tile lying 14.6 degrees
# off in an empty space at 0.17 did not (00164, its score wrong with nothing flagged).
OFF_GRID = 15.0
OFF_GRID_SHARE = 0.16


@functools.cache
def _squares(turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Sample points (cells, around the square's middle) of a square at each of `turns` (degrees),
    and each point's normal: (turns, points, 2) each."""
    t = (np.arange(POINTS_PER_SIDE) + 0.5) / POINTS_PER_SIDE * 0.8 - 0.4  # the middle 80% of a side
    points, normals = [], []
    for turn in turns:
        per_turn, per_normal = [], []
        for k in range(4):
            a = np.radians(turn + 90.0 * k)
            normal = np.array([np.cos(a), np.sin(a)])
            along = np.array([-normal[1], normal[0]])
            per_turn.append(normal * SIDE / 2 + along * (t[:, None] * SIDE))
            per_normal.append(np.repeat(normal[None], POINTS_PER_SIDE, axis=0))
        points.append(np.concatenate(per_turn))
        normals.append(np.concatenate(per_normal))
    return np.array(points), np.array(normals)


def rectified_space(picture: np.ndarray, grid_to_picture: np.ndarray, row: int, col: int) -> np.ndarray:
    """The space (row, col) with PAD cells round it, in the grid's frame at CELL_PX px per cell
    (float32, BGR). The picture is shrunk by whole factors first where it shows the cell much larger,
    so that its texture does not alias."""
    corners = np.float32([[[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]])
    quad = cv2.perspectiveTransform(corners, grid_to_picture)[0]
    px_per_cell = float(np.sqrt(abs(cv2.contourArea(quad))))
    factor = int(np.clip(round(px_per_cell / CELL_PX), 1, 4))
    size = int(round((1 + 2 * PAD) * CELL_PX))
    out_px = size * factor
    to_grid = np.array(
        [[1 / (CELL_PX * factor), 0, col - PAD], [0, 1 / (CELL_PX * factor), row - PAD], [0, 0, 1]]
    )
    view = cv2.warpPerspective(
        picture,
        grid_to_picture @ to_grid,
        (out_px, out_px),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if factor > 1:
        view = cv2.resize(view, (size, size), interpolation=cv2.INTER_AREA)
    return view.astype(np.float32)


def off_grid_share(view: np.ndarray) -> tuple[float, float]:
    """The share of a view's edge energy (squared gradient) whose edges run OFF_GRID degrees or
    more off the grid, in the strongest 15-degree band of such turns, and that band's middle turn: a
    slanted tile's straight sides make a peak there, a table's or a print's texture spreads over
    every band."""
    gx = cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)
    energy = (gx * gx + gy * gy).sum(axis=2) if gx.ndim == 3 else gx * gx + gy * gy
    gxs, gys = (g.sum(axis=2) if g.ndim == 3 else g for g in (gx, gy))
    turn = (np.degrees(np.arctan2(gys, gxs)) + 45.0) % 90.0 - 45.0
    bins = np.bincount(((turn + 45.0) // 5.0).astype(int).clip(0, 17).ravel(), energy.ravel(), 18)
    band = bins + np.roll(bins, 1) + np.roll(bins, -1)  # 15 degrees, round the turn's circle
    centres = np.arange(-45.0, 45.0, 5.0) + 2.5
    off = np.flatnonzero(np.abs(centres) >= OFF_GRID)
    peak = off[int(np.argmax(band[off]))]
    return float(band[peak] / max(float(bins.sum()), 1e-6)), float(centres[peak])


def _structure(view: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The view's structure tensor (jxx, jyy, jxy), smoothed a little so that a side a pixel or two
    off a sample point still counts, and its mean gradient."""
    gx = cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)
    if gx.ndim == 3:  # colour edges count too (a green tile on green felt): the strongest channel
        strongest = np.argmax(gx * gx + gy * gy, axis=2)[..., None]
        gx = np.take_along_axis(gx, strongest, axis=2)[..., 0]
        gy = np.take_along_axis(gy, strongest, axis=2)[..., 0]
    jxx = cv2.GaussianBlur(gx * gx, (0, 0), BLUR_PX)
    jyy = cv2.GaussianBlur(gy * gy, (0, 0), BLUR_PX)
    jxy = cv2.GaussianBlur(gx * gy, (0, 0), BLUR_PX)
    return jxx, jyy, jxy, float(np.sqrt(jxx + jyy).mean()) + 1e-6


def _scores(structure: tuple[np.ndarray, np.ndarray, np.ndarray, float], turns: np.ndarray) -> np.ndarray:
    """(turns, shifts, 4) how well each side of a tile-sized square at each of `turns` (degrees) and
    each shift (its middle moved by both SHIFTS, row-major) follows the edges of a `rectified_space`
    view, given its `_structure`, in units of the view's mean gradient (so a faint photo scores like
    a sharp one)."""
    *tensor, scale = structure
    points, normals = _squares(tuple(float(t) for t in turns))
    shifts = np.stack(np.meshgrid(SHIFTS, SHIFTS, indexing="ij"), axis=-1).reshape(-1, 2)[:, ::-1]
    at = (points[:, None] + shifts[None, :, None] + 0.5 + PAD) * CELL_PX - 0.5  # (turns, shifts, pts, 2)
    n_points = at.shape[2]
    map_x = np.ascontiguousarray(at[..., 0].reshape(-1, n_points), np.float32)
    map_y = np.ascontiguousarray(at[..., 1].reshape(-1, n_points), np.float32)
    sxx, syy, sxy = (cv2.remap(j, map_x, map_y, cv2.INTER_LINEAR).reshape(at.shape[:3]) for j in tensor)
    nx, ny = normals[:, None, :, 0], normals[:, None, :, 1]
    across = np.sqrt(np.maximum(nx * nx * sxx + 2 * nx * ny * sxy + ny * ny * syy, 0))
    along = np.sqrt(np.maximum(ny * ny * sxx - 2 * nx * ny * sxy + nx * nx * syy, 0))
    return (across - along).reshape(*at.shape[:2], 4, -1).mean(axis=3) / scale


def tile_turn(view: np.ndarray) -> tuple[float, float, float]:
    """(turn, ratio, second): the turn (degrees off the grid, -45 to 45) of the square a
    `rectified_space` view's edges follow best, how much better it scores than the best square
    within LAID degrees of the grid (1.0 where that is the best), and its second weakest side's
    score as a share of its mean."""
    turn, ratio, second, _ = _best_square(view)
    return turn, ratio, second


def _finer(turn: float) -> np.ndarray:
    """The turns FINE_STEP apart within a coarse step of `turn`, `turn` left out."""
    step = float(TURNS[1] - TURNS[0])
    fine = turn + np.arange(-step + FINE_STEP, step, FINE_STEP)
    return fine[np.abs(fine - turn) > 1e-6]


def _best_square(
    view: np.ndarray, around: float | None = None
) -> tuple[float, float, float, tuple[float, float]]:
    """`tile_turn`, and the best square's shift from the space's middle (dx, dy in cells). With
    `around` (a turn, degrees) only the turns within LAID of the grid or of it are tried. Where the
    best turn lies FINE_WHERE off the grid, the turns round it, and round the best within LAID, are
    tried finer (FINE_STEP)."""
    turns = TURNS
    if around is not None:
        turns = TURNS[(np.abs(TURNS) <= LAID) | (quarter_turn_apart(TURNS, around) <= LAID)]
    structure = _structure(view)
    sides = _scores(structure, turns)
    whole = sides.mean(axis=2)
    i = int(np.argmax(whole.max(axis=1)))
    if FINE_WHERE[0] <= abs(turns[i]) <= FINE_WHERE[1]:
        within = np.flatnonzero(np.abs(turns) <= LAID)
        j = within[int(np.argmax(whole[within].max(axis=1)))]
        # (a set, not np.unique: that loads numpy.ma, which scoring a photo has no other need of)
        fine = np.array(sorted({float(t) for t in (*_finer(turns[i]), *_finer(turns[j])) if abs(t) <= 45.0}))
        turns = np.concatenate([turns, fine])
        sides = np.concatenate([sides, _scores(structure, fine)])
        whole = sides.mean(axis=2)
    at = np.argmax(whole, axis=1)
    best = whole.max(axis=1)
    i = int(np.argmax(best))
    near = float(best[np.abs(turns) <= LAID].max())
    # the best square's second weakest side, as a share of its mean: a tile shows all four (one may
    # lie against a neighbour), where two straight lines of a table's pattern crossing make two
    second = float(np.sort(sides[i, at[i]])[1]) / max(float(best[i]), 1e-3)
    row, col = divmod(int(at[i]), len(SHIFTS))
    shift = (float(SHIFTS[col]), float(SHIFTS[row]))
    return float(turns[i]), float(best[i]) / max(near, 1e-3), second, shift


def is_slanted(turn: float, ratio: float, second: float) -> bool:
    """Whether a tile whose best square lies `turn` degrees off the grid, `ratio` times as good as
    the best within LAID, its second weakest side `second` of its mean, lies slanted (LOOSE,
    SLANTED, SLANT_RATIO, FOUR_SIDES)."""
    if second < FOUR_SIDES or abs(turn) < LOOSE:
        return False
    return abs(turn) < SLANTED or ratio >= SLANT_RATIO


def _grid_picture(
    image: np.ndarray, quad: np.ndarray, grid: int, finer: Finer | None
) -> tuple[np.ndarray, np.ndarray]:
    """The picture the spaces are looked at in, and the map of the grid's cells (col, row) into it:
    `image`, or where its cells are smaller than CELL_PX a finer decode of the photo (`finer`)."""
    corners = np.float32([[0, 0], [grid, 0], [grid, grid], [0, grid]])
    to_image = cv2.getPerspectiveTransform(corners, np.asarray(quad, np.float32))
    side = float(np.sqrt(abs(cv2.contourArea(np.asarray(quad, np.float32))))) / grid
    if finer is None or side >= CELL_PX:
        return image, to_image
    picture, k = finer(side / CELL_PX)  # k: px of `image` per px of `picture`
    r = 1.0 / k
    return picture, np.array([[r, 0, 0.5 * r - 0.5], [0, r, 0.5 * r - 0.5], [0, 0, 1]]) @ to_image


def slanted_tiles(
    image: np.ndarray,
    quad: np.ndarray,
    grid: int,
    cells: list[tuple[int, int]],
    finer: Finer | None = None,
) -> dict[tuple[int, int], Slant]:
    """The cells of `cells` (row, col) whose tile lies slanted (`is_slanted`), each with where it lies. `quad`: the grid's outer corners in px of `image`, in the grid's order
    ((0, 0), (grid, 0), (grid, grid), (0, grid) as (col, row)); `finer(scale)` gives a finer decode
    of the photo for a small island."""
    if not cells:
        return {}
    picture, to_picture = _grid_picture(image, quad, grid, finer)
    out = {}
    for row, col in cells:
        view = rectified_space(picture, to_picture, row, col)
        share, peak = off_grid_share(view)
        if share < OFF_GRID_SHARE:  # no straight edges off the grid to make one
            continue
        # the squares tried: those near the grid's turn, and those near the peak of edges off it
        turn, ratio, second, shift = _best_square(view, around=peak)
        if is_slanted(turn, ratio, second):
            out[(row, col)] = Slant(turn, shift)
    return out


def tile_turns(
    image: np.ndarray,
    quad: np.ndarray,
    grid: int,
    cells: list[tuple[int, int]],
    finer: Finer | None = None,
) -> dict[tuple[int, int], tuple[float, float, float]]:
    """`tile_turn` (turn, ratio, second) of the tile in each of `cells` (row, col), whatever its
    edges show (`slanted_tiles` takes the same arguments)."""
    if not cells:
        return {}
    picture, to_picture = _grid_picture(image, quad, grid, finer)
    return {(row, col): tile_turn(rectified_space(picture, to_picture, row, col)) for row, col in cells}


@dataclass(frozen=True)
class Slant:
    """Where a slanted tile lies: its turn off the grid (degrees) and its middle's shift from its
    space's middle (dx, dy, in cells of the grid)."""

    turn: float
    shift: tuple[float, float]

    def quads(self, row: int, col: int, grid_to_image: np.ndarray) -> np.ndarray:
        """(2, 4, 2) a cell-sized square where the tile lies, square to the grid and turned as the
        tile is, in px of the image `grid_to_image` maps the grid's cells (col, row) into."""
        middle = np.array([col + 0.5 + self.shift[0], row + 0.5 + self.shift[1]])
        unit = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
        out = []
        for turn in (0.0, self.turn):
            t = np.radians(turn)
            rotation = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
            out.append(unit @ rotation.T + middle)
        return cv2.perspectiveTransform(np.float32(out).reshape(1, -1, 2), grid_to_image).reshape(2, 4, 2)

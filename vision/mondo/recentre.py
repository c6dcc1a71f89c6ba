"""Recentre the crop of a cell whose tile the model cannot place: a tile pushed out of line.

Tiles are laid by hand, and one pushed a third of a cell out of line sticks out of a crop cut on its
cell when the locator did not see its centre (a faint peak on a busy table, a small island). The
tile model then reads part of a tile and part of the table, and no kit face fits it well. So a cell
that fits no kit face well is looked at again at a few shifted places around its crop (one turn
each, cheap), and the crop that shows a whole kit tile best replaces it, read in all four turns like
every other cell, when it shows a whole tile there. A cell whose first crop already holds a whole
tile is left alone.

A moved crop may find a tile that is not this cell's: a loose tile lying against the island at a
slant. Hand-laid tiles lie within 10 degrees of the grid, so a front that shows itself better to
crops turned 25-35 degrees lies loose (a back, one terrain all over, fits any turn: it says nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from vision.geometry import turned_quads
from vision.mondo.decode import PRESENT, PROB_FLOOR, CandidateTable

# A cell whose best kit face scores below this (log-likelihood of all heads together, with
# p(tile)) is looked at again; GOOD_TILE_LL of the reader is the same line.
RECENTRE_BELOW = -0.5
# Shifts tried, in cells along the crop's own sides: three rings of eight around the crop. The
# outer ring reaches a tile pushed a third of a cell out of line on a grid itself a little off
# (a small, steep island): such tiles lay 0.4-0.45 cell from their crop on the stress photos.
_EIGHT = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
INNER_SHIFTS: tuple[tuple[float, float], ...] = tuple(
    (r * dx, r * dy) for r in (0.15, 0.3) for dx, dy in _EIGHT
)
SHIFTS = INNER_SHIFTS + tuple((0.45 * dx, 0.45 * dy) for dx, dy in _EIGHT)
# The outer ring only on a grid whose own crops already show this many whole kit tiles: moving a
# crop that far refines an island seen, and on a grid laid over something else (a damaged photo's
# grey, a sea of cards) it finds "tiles" in anything (`vision.mondo.looks.MIN_TILES`).
OUTER_RING_AFTER = 3
# A shifted crop replaces the first one only when it fits a kit face by this much more (nats), and
# then fits it well: a whole tile, not a better half.
GAIN_NATS = 1.0
WHOLE_TILE = -1.0
# Hand-laid tiles lie within 10 degrees of the grid; a loose tile beside the island lies at any
# angle. A moved crop whose tile reads front up is turned on the table by these (degrees), and
# where a turned crop shows a whole kit tile better than the crop on the grid's lines by
# SLANT_NATS, the tile lies slanted: loose, not this cell's.
SLANT_TURNS = (-35.0, -25.0, 25.0, 35.0)
SLANT_NATS = 0.25

# (quads in image px) -> crops; (crops) -> probabilities per head, one look or four turns
Cropper = Callable[[np.ndarray], np.ndarray]
Reader = Callable[[np.ndarray], dict[str, np.ndarray]]


def kit_fit(probs: Mapping[str, np.ndarray], table: CandidateTable) -> np.ndarray:
    """(n,) how well each crop shows a whole kit tile: log p(tile) plus the log-likelihood of its
    likeliest kit face (any component, any turn), all heads together."""
    return np.max(candidate_fits(probs, table), axis=1)


def outer_ring(probs: Mapping[str, np.ndarray], table: CandidateTable) -> bool:
    """Whether a grid's crops (``probs`` of all its cells) show enough whole kit tiles for its
    cells to be searched with the outer ring of shifts too (`OUTER_RING_AFTER`)."""
    return bool(np.count_nonzero(kit_fit(probs, table) > WHOLE_TILE) >= OUTER_RING_AFTER)


def candidate_fits(probs: Mapping[str, np.ndarray], table: CandidateTable) -> np.ndarray:
    """(n, len(table)) `kit_fit` for every candidate face of the kit (its argmax: which face)."""
    tile = table.labels[PRESENT].index("tile")
    fit = np.log(np.maximum(np.asarray(probs[PRESENT], np.float64)[:, tile], PROB_FLOOR))
    ll = 0.0
    for head in table.heads:
        logp = np.log(np.maximum(np.asarray(probs[head], np.float64), PROB_FLOOR))
        ll = ll + logp[:, table.classes[head]]
    return fit[:, None] + ll


def shifted_quads(quad: np.ndarray, shifts: tuple[tuple[float, float], ...] = SHIFTS) -> np.ndarray:
    """(len(shifts), 4, 2) the quad moved by each shift, in cells along its own sides (x along its
    first side, y along its last)."""
    q = np.asarray(quad, np.float64)
    across, down = q[1] - q[0], q[3] - q[0]
    moves = np.array([dx * across + dy * down for dx, dy in shifts])
    return (q[None] + moves[:, None, :]).astype(np.float32)


def recentre_cells(
    probs: Mapping[str, np.ndarray],
    quads: np.ndarray,
    table: CandidateTable,
    crop: Cropper,
    look: Reader,
    read: Reader,
    outer: bool | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray, tuple[int, ...]]:
    """The probabilities and cell quads with each badly fitting cell's crop moved onto its tile.

    ``probs``: per head, (n, classes) for the n cells of ``quads`` (image px). ``look`` reads crops
    once (the search), ``read`` in all four turns (the cell's final reading). ``outer``: whether the
    outer ring of shifts is tried (`OUTER_RING_AFTER`; None: as these cells' crops say, the whole
    grid's where they are all of it). Each cell is moved or not on its own. Returns the new
    probabilities, the new quads, and which cells moved.
    """
    fit = kit_fit(probs, table)
    # an empty space is searched too: a tile pushed far enough leaves the table in its crop's middle
    doubtful = np.flatnonzero(fit < RECENTRE_BELOW)
    out = {head: np.array(p, copy=True) for head, p in probs.items()}
    new_quads = np.array(quads, np.float32, copy=True)
    if not len(doubtful):
        return out, new_quads, ()
    if outer is None:
        outer = outer_ring(probs, table)
    shifts = SHIFTS if outer else INNER_SHIFTS
    tries = np.concatenate([shifted_quads(quads[i], shifts) for i in doubtful])
    tried_fit = kit_fit(look(crop(tries)), table).reshape(len(doubtful), len(shifts))
    best = np.argmax(tried_fit, axis=1)
    top = tried_fit[np.arange(len(doubtful)), best]
    better = (top > fit[doubtful] + GAIN_NATS) & (top > WHOLE_TILE)
    moving = doubtful[better]
    if not len(moving):
        return out, new_quads, ()
    moved = np.stack([tries[k * len(shifts) + best[k]] for k in np.flatnonzero(better)])
    final = read(crop(moved))
    # keep a move only if the four-turn reading agrees that the tile is whole there, and the tile
    # does not lie slanted
    final_fit = kit_fit(final, table)
    keep = (final_fit > fit[moving] + GAIN_NATS) & (final_fit > WHOLE_TILE)
    # a back shows one terrain all over and fits turned crops as well as straight ones: only a
    # front says how it lies, so only the fronts about to be taken are turned
    front = np.asarray(final["face"])[:, table.labels["face"].index("front")] > 0.5
    tested = np.flatnonzero(keep & front)
    if len(tested):
        turned = np.concatenate([turned_quads(q, SLANT_TURNS) for q in moved[tested]])
        turned_fit = kit_fit(look(crop(turned)), table).reshape(len(tested), -1).max(axis=1)
        keep[tested] = turned_fit <= top[better][tested] + SLANT_NATS
    for j in np.flatnonzero(keep):
        i = int(moving[j])
        for head in out:
            out[head][i] = final[head][j]
        new_quads[i] = moved[j]
    return out, new_quads, tuple(int(i) for i in moving[keep])

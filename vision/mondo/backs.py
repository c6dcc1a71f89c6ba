"""The terrain of a tile lying back side up, read from the photo's fine detail.

A back shows one land terrain all over (forest, desert or plains, under a few clouds). The tile
model reads a cell at about 50 px, where overexposure clips desert and plains to one pale yellow and
only their marks still tell them apart: the desert's dune strokes and pebbles, the plains' grass
tufts, a pixel or two at that size. The back model reads the middle of a cell that looks like a back
at about 120 px a cell, from the photo's own pixels (`vision.mondo.crops.crop_source`), and what it
says is added to the catalog decoder's likelihood of each back candidate (`back_evidence`): a back
of the terrain it reads best loses nothing, a back of another terrain loses the log of its odds
against that one. Without the model file (an older models folder) the reader reads as before.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from scoring.mondo import Island
from scoring.sides import SIDES
from vision.catalogs import component_by_id
from vision.geometry import crop_quads
from vision.mondo.checks import BACK_TERRAIN, Check, island_score, settle, with_checks
from vision.mondo.crops import Finer, crop_source
from vision.mondo.decode import CandidateTable
from vision.mondo.empty_spaces import back_side_up
from vision.mondo.heads import LAND, turn_crops
from vision.onnx_model import OnnxModel, load_model, models_dir

if TYPE_CHECKING:  # the reader imports this module
    from vision.mondo.reader import IslandReading

BACK_MODEL = "mondo-backs.onnx"
BACK_TERRAINS = LAND  # the model's labels: every kit back shows one of them
HEAD = "terrain"
# A cell whose tile model reading gives its back face at least this, and its likeliest land terrain
# less than SURE_TERRAIN (the mean of its four edges), is read by the back model too. On the 928 backs
# of stress development seed 9517 (truth cells), the tile model's 8 wrong terrains all read under 0.86,
# and 12% of all backs under 0.98.
LOOKS_BACK = 0.2
SURE_TERRAIN = 0.98
# The most a back candidate loses (nats): the tile model's reading still counts against a model
# that is sure and wrong.
MOST_LOSS = 6.0
# ... and what the back model says counts this many times: the tile model's four edges of a back are
# one look at one colour, at the size where overexposure and faded print make desert and plains one
# pale yellow, yet each counts in the decoder's sum (stress 9541-00434: edges 0.78-0.79 desert, the
# back model 1.00 plains, read desert; the truth plains). Of the 890 backs the back model read in
# the first look at stress 9538-9541 (grid given; build/scratch/backdata.py, not committed), the
# decoder's choice of terrain was wrong on 20 backs of 12 photos counted once, 13 of 5 counted four
# times (each of 2, 3, 5, 6 and 8 times: 17-21, 14-15, 13, 14, 15); the back model alone 23, the tile
# model alone 39. End to end, stress 9541 (grid detected, development): exact 96.4 -> 96.8%, wrong and
# unflagged 0.4 -> 0.2%; fresh stress 9542 and everyday 9045: no score moved. 1: counted once, as before.
BACK_WEIGHT = 4.0
# A tile read back side up whose terrain the back model gives less than this is asked about: the
# tile model, sure of a wrong terrain, outvotes the back model (its four edges count four times), and
# the back model is not asked where the tile model is sure (stress 9523-00222: a plains back under a
# colour cast read desert at 0.99, the back model 0.99 plains; everyday 9026-00133: plains at 0.91
# against desert at 0.98; both scores wrong, nothing flagged).
BACK_DOUBT = 0.5
# ... among the backs whose terrain the tile model gives less than this (the mean of its four edges):
# the back model's crop often needs a finer decode of the whole photo (a third more time a photo
# where every back was read: `make bench-read` 111 -> 141-147 ms), and the tile model gives the
# terrain of 74% of stress backs (development 9517) and 95% of everyday ones (9031) 0.999 or more;
# 9523-00222's wrong one 0.989.
ASK_BELOW = 0.999


def back_terrain_of(catalog: dict, component_id: str) -> str:
    """The terrain the back of kit tile ``component_id`` shows (KeyError: no such tile)."""
    return str(component_by_id(catalog, component_id)["faces"]["back"]["edges"]["N"])


@functools.lru_cache(maxsize=4)
def _load(path: Path) -> OnnxModel | None:
    return load_model(path) if path.is_file() else None


def back_model() -> OnnxModel | None:
    """The shipped back model, or None where the models folder has none."""
    return _load(models_dir() / BACK_MODEL)


def read_backs(
    model: OnnxModel, image: np.ndarray, cell_quads: np.ndarray, finer: Finer | None
) -> np.ndarray:
    """(len(cell_quads), len(BACK_TERRAINS)) the model's terrain probabilities of each cell, averaged
    over its four quarter turns (px of ``image``; crops from a finer decode where the cells need it)."""
    size = model.input_size
    margin = float(model.metadata["input"]["crop_margin"])
    if list(model.heads[HEAD]) != list(BACK_TERRAINS):
        raise ValueError(
            f"{model.path.name}: head {HEAD!r} has labels {model.heads[HEAD]}, not {BACK_TERRAINS}"
        )
    source, to_source = crop_source(image, cell_quads, size, margin, finer)
    crops = crop_quads(source, to_source(np.asarray(cell_quads, np.float32)), size, margin)
    n = len(crops)
    out = model.run(np.concatenate([turn_crops(crops, k) for k in range(4)]))[HEAD]
    return out.reshape(4, n, -1).mean(axis=0)


def candidate_terrains(table: CandidateTable) -> np.ndarray:
    """(len(table),) index into BACK_TERRAINS of each back candidate's terrain, -1 for a front."""
    out = np.full(len(table), -1, np.intp)
    for k, tile in enumerate(table.tiles):
        if back_side_up(tile):
            out[k] = BACK_TERRAINS.index(tile.edge("N"))
    return out


def back_evidence(
    terrain_probs: np.ndarray, rows: np.ndarray, n_cells: int, table: CandidateTable
) -> np.ndarray:
    """(n_cells, len(table)) log-likelihood to add to each candidate of each cell: for the cells
    ``rows`` the back model read (``terrain_probs``, in that order), a back candidate's log odds of
    its terrain against the likeliest (at most MOST_LOSS down), BACK_WEIGHT times; 0 elsewhere and
    for fronts."""
    evidence = np.zeros((n_cells, len(table)))
    terrains = candidate_terrains(table)
    backs = terrains >= 0
    logp = np.log(np.maximum(terrain_probs, 1e-9))
    odds = np.maximum(logp - logp.max(axis=1, keepdims=True), -MOST_LOSS) * BACK_WEIGHT
    for row, cell_odds in zip(rows, odds, strict=True):
        evidence[row, backs] = cell_odds[terrains[backs]]
    return evidence


def back_cells(probs: Mapping[str, np.ndarray], heads: Mapping[str, Sequence[str]]) -> np.ndarray:
    """Indices of the cells the tile model reads as a tile that may lie back side up, and whose land
    terrain it is not sure of (its four edges' mean for the likeliest land terrain under SURE_TERRAIN):
    the back model's crop may need a finer decode of the photo, which is paid only where it may help."""
    p_back = probs["face"][:, list(heads["face"]).index("back")]
    p_tile = probs["present"][:, list(heads["present"]).index("tile")]
    terrain = land_terrains(probs, heads)
    return np.flatnonzero((p_back >= LOOKS_BACK) & (p_tile >= 0.5) & (terrain.max(axis=1) < SURE_TERRAIN))


def land_terrains(probs: Mapping[str, np.ndarray], heads: Mapping[str, Sequence[str]]) -> np.ndarray:
    """(n, len(BACK_TERRAINS)) the tile model's probability of each land terrain for each cell's
    back: the mean of its four edges'."""
    land = [list(heads["edge_N"]).index(terrain) for terrain in BACK_TERRAINS]
    return sum(probs[f"edge_{side}"][:, land] for side in SIDES) / len(SIDES)


def back_terrain_checks(
    island: Island, cells: Sequence[tuple[int, int]], terrain_probs: np.ndarray
) -> tuple[Check, ...]:
    """A check on each of ``cells`` (tiles of ``island`` read back side up) whose terrain the back
    model (``terrain_probs``, one row a cell) gives less than BACK_DOUBT, with the back model's
    likeliest terrain as the other reading, where that would change the score or whether the island
    keeps the water rule (a second model's doubt is worth a player's look only there); settled."""
    checks = []
    for (row, col), p in zip(cells, terrain_probs, strict=True):
        terrain = island.tile_at(row, col).edge("N")
        used = float(p[BACK_TERRAINS.index(terrain)])
        best = int(np.argmax(p))
        if used < BACK_DOUBT and BACK_TERRAINS[best] != terrain:
            checks.append(
                Check(row, col, BACK_TERRAIN, ((terrain, used), (BACK_TERRAINS[best], float(p[best]))))
            )
    valid = island_score(island)[1]
    return tuple(
        check
        for check in settle(island, checks)
        if check.change != 0 or check.valid_if_second != valid or check.not_possible
    )


def with_back_terrain_checks(
    image: np.ndarray,
    reading: IslandReading,
    probs: Mapping[str, np.ndarray],
    heads: Mapping[str, Sequence[str]],
    finer: Finer | None,
) -> IslandReading:
    """The reading with `back_terrain_checks` on its tiles read back side up whose terrain the tile
    model (``probs``, the reading's cells in reading order) gives less than ASK_BELOW, each read by
    the back model (the reading as it was without the model or such tiles)."""
    model = back_model()
    island = reading.island
    terrains = land_terrains(probs, heads)
    cells = [
        tile.cell
        for tile in island.tiles
        if back_side_up(tile)
        and terrains[tile.row * reading.grid + tile.col, BACK_TERRAINS.index(tile.edge("N"))] < ASK_BELOW
    ]
    if model is None or not cells:
        return reading
    rows = [row * reading.grid + col for row, col in cells]
    read = read_backs(model, image, np.asarray(reading.cell_quads)[rows], finer)
    asked = {(c.row, c.col) for c in reading.checks if c.head == BACK_TERRAIN}
    checks = tuple(c for c in back_terrain_checks(island, cells, read) if (c.row, c.col) not in asked)
    if not checks:
        return reading
    return with_checks(reading, checks)

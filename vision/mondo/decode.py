"""Decoding the tile model's output against the kit: the tiles on the table are catalog faces.

The model reads every cell head by head (edges, joins, counts, ...). Read alone, one wrong head
makes a tile no physical tile is. Here every catalog face in each of its four turns is scored by the
probabilities of all heads together, and the island takes the most likely assignment of physical
tiles to cells, each tile used at most once. A cell that fits no catalog face well (a foreign tile,
a misread crop) falls back to the head-by-head reading and is flagged. The catalog is a parameter:
any edition in the kit manifest format plugs in.

Doubtful heads become :class:`~vision.mondo.checks.Check` s (the label used and its probability,
then the runner-up), worded for a player with what the score would be with the runner-up:
``Row 3, tile 2: is the right edge forest or plains? (61% / 37%) — if plains: +2 points``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from scoring.mondo import Island, Tile
from scoring.mondo.island import FACES
from scoring.sides import SIDES
from vision.assignment import linear_sum_assignment  # SciPy's algorithm without its 300 ms import
from vision.catalogs import PlacedTile, tile_of
from vision.mondo.checks import NO_KIT_TILE, Check, settle
from vision.mondo.heads import tile_from_labels, tile_labels

PRESENT = "present"
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
# Probabilities are floored before the log so one head at 0 costs a bounded penalty, not -inf.
PROB_FLOOR = 1e-6
# A cell read as empty is still flagged while p(tile) reaches this: a missed tile changes the score.
EMPTY_DOUBT = 0.2

Confidence = tuple[tuple[str, float], ...]


@dataclass(frozen=True, eq=False)  # eq=False: numpy fields have no single truth value
class CandidateTable:
    """Every distinct (component, face, rotation) of a catalog, labelled for the model's heads.

    Candidates are grouped by component, in catalog order; ``starts[i]`` is the first candidate of
    component ``i``.
    """

    heads: tuple[str, ...]  # tile heads both the catalog labels and the model has, model order
    labels: Mapping[str, tuple[str, ...]]  # class labels of those heads (and "present"), model order
    classes: Mapping[str, np.ndarray]  # head -> (n_candidates,) class index of every candidate
    component: np.ndarray  # (n_candidates,) index into component_ids
    component_ids: tuple[str, ...]
    starts: np.ndarray  # (n_components,) first candidate of each component
    tiles: tuple[Tile, ...]  # every candidate's tile, placed at (0, 0), with its Component

    def __len__(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True)
class CellReading:
    """How one cell was read, for reports."""

    row: int
    col: int
    source: str  # "catalog", "heads" or "empty"
    # Log-likelihood of the reading used, summed over the tile heads (an empty cell: log p(empty)).
    log_likelihood: float
    confidence: Confidence  # (head, model's probability of the label used)


@dataclass(frozen=True)
class DecodedIsland:
    island: Island
    flags: tuple[str, ...]  # the checks' words, for the code that prints and counts them
    cells: tuple[CellReading, ...]  # sorted by (row, col)
    checks: tuple[Check, ...] = ()  # the doubtful readings, in (row, col) order, with their what-if


# --- the candidate table ------------------------------------------------------------------------


def candidate_table(catalog: dict, head_classes: Mapping[str, Sequence[str]]) -> CandidateTable:
    """Every catalog face in each distinct turn, with the class index of every head the model has.

    ``head_classes`` is the model's metadata: head name -> class labels in output order. Heads the
    catalog cannot label are ignored; a label the model lacks is a ValueError that names it.
    """
    model = {head: tuple(labels) for head, labels in head_classes.items()}
    _check_reading_heads(model)
    tiles: list[Tile] = []
    labelled: list[dict[str, str]] = []
    owner: list[int] = []
    ids: list[str] = []
    for component in catalog["components"]:
        turns = _distinct_turns(component, catalog)
        if turns:
            owner += [len(ids)] * len(turns)
            ids.append(str(component["id"]))
            tiles += [tile for tile, _ in turns]
            labelled += [labels for _, labels in turns]
    if not tiles:
        raise ValueError("the catalog has no component faces")
    heads = tuple(head for head in model if head != PRESENT and head in labelled[0])
    classes = {head: _class_indices(head, model[head], labelled, tiles) for head in heads}
    owner_array = np.asarray(owner, dtype=np.intp)
    return CandidateTable(
        heads=heads,
        labels={head: model[head] for head in (PRESENT, *heads)},
        classes=classes,
        component=owner_array,
        component_ids=tuple(ids),
        starts=np.searchsorted(owner_array, np.arange(len(ids))),
        tiles=tuple(tiles),
    )


def _check_reading_heads(model: Mapping[str, tuple[str, ...]]) -> None:
    """The heads without which no cell can be read at all."""
    if PRESENT not in model:
        raise ValueError(f"the model lacks the head {PRESENT!r}")
    for label in ("empty", "tile"):
        if label not in model[PRESENT]:
            raise ValueError(f"the model's head {PRESENT!r} lacks the label {label!r}")
    for side in SIDES:
        if f"edge_{side}" not in model:
            raise ValueError(f"the model lacks the head 'edge_{side}'")


def _distinct_turns(component: dict, catalog: dict) -> list[tuple[Tile, dict[str, str]]]:
    """The component's faces in each turn with their labels, a turn dropped when it labels like an
    earlier turn of the face."""
    tiles = []
    for face in FACES:
        if face not in component.get("faces", {}):
            continue
        seen: set[tuple[tuple[str, str], ...]] = set()
        for rotation in ROTATIONS:
            tile = tile_of(PlacedTile(str(component["id"]), face, rotation, 0, 0), catalog)
            labels = tile_labels(tile)
            key = tuple(sorted(labels.items()))
            if key not in seen:
                seen.add(key)
                tiles.append((tile, labels))
    return tiles


def _class_indices(
    head: str, labels: tuple[str, ...], labelled: list[dict[str, str]], tiles: list[Tile]
) -> np.ndarray:
    index = {label: i for i, label in enumerate(labels)}
    out = np.empty(len(labelled), dtype=np.intp)
    for k, (cell_labels, tile) in enumerate(zip(labelled, tiles, strict=True)):
        label = cell_labels[head]
        if label not in index:
            c = tile.component
            where = f"{c.id} {c.face} turned {c.rotation}" if c else "a catalog face"
            raise ValueError(f"the model's head {head!r} has no label {label!r} (needed by {where})")
        out[k] = index[label]
    return out


# --- decoding -----------------------------------------------------------------------------------


def decode_island(
    probs: Mapping[str, np.ndarray],
    head_classes: Mapping[str, Sequence[str]],
    cells: Sequence[tuple[int, int]],
    grid: int,
    table: CandidateTable,
    *,
    use_catalog: bool = True,
    flag_below: float = 0.8,
    misfit_nats: float = 6.0,
    evidence: np.ndarray | None = None,
) -> DecodedIsland:
    """The island the model's probabilities say, read against the catalog in ``table``.

    ``probs[head]`` is (len(cells), n_classes) softmax output, rows in ``cells`` order.
    ``use_catalog=False`` reads every tile head by head (the baseline the catalog is measured against).
    ``evidence`` (len(cells), len(table)): log-likelihood from elsewhere (the back model:
    `vision.mondo.backs.back_evidence`) added to each candidate of each cell.
    """
    cells = [(int(r), int(c)) for r, c in cells]
    _check_inputs(probs, head_classes, cells, table)
    # Work in (row, col) order so ties (identical backs, say) break the same whatever order came in.
    order = sorted(range(len(cells)), key=cells.__getitem__)
    cells = [cells[i] for i in order]
    probs = {head: np.asarray(probs[head], dtype=np.float64)[order] for head in table.labels}
    p_tile = probs[PRESENT][:, table.labels[PRESENT].index("tile")]
    tile_rows = np.flatnonzero(p_tile >= 0.5)
    logp = {h: np.log(np.maximum(probs[h][tile_rows], PROB_FLOOR)) for h in table.heads}
    heads_ll = sum((logp[h].max(axis=1) for h in table.heads), np.zeros(len(tile_rows)))
    if use_catalog:
        extra = None if evidence is None else np.asarray(evidence, np.float64)[order][tile_rows]
        choice, chosen_ll = _assign(logp, heads_ll, table, misfit_nats, extra)
    else:
        choice, chosen_ll = np.full(len(tile_rows), -1), heads_ll
    readings: list[tuple[Tile | None, CellReading, tuple[Check, ...]]] = []
    tile_position = {int(row): i for i, row in enumerate(tile_rows)}
    taken = {int(table.component[k]) for k in choice if k >= 0}
    new_tiles: dict[tuple[int, int], Tile] = {}  # what a doubtful empty cell would hold
    for row_index, cell in enumerate(cells):
        i = tile_position.get(row_index)
        if i is None:
            reading = _empty_cell(probs, table, row_index, cell)
            if reading[2]:
                new_tiles[cell] = _likeliest_tile(probs, table, row_index, cell, taken, use_catalog)
            readings.append(reading)
        else:
            k = int(choice[i])
            ll = float(chosen_ll[i]) if k >= 0 else float(heads_ll[i])
            readings.append(_tile_cell(probs, table, row_index, cell, k, ll, use_catalog, flag_below))
    island = Island(grid, tuple(tile for tile, _, _ in readings if tile is not None))
    checks = settle(island, [check for _, _, checks in readings for check in checks], new_tiles)
    return DecodedIsland(
        island=island,
        flags=tuple(check.text for check in checks),
        cells=tuple(reading for _, reading, _ in readings),
        checks=checks,
    )


def _check_inputs(
    probs: Mapping[str, np.ndarray],
    head_classes: Mapping[str, Sequence[str]],
    cells: list[tuple[int, int]],
    table: CandidateTable,
) -> None:
    if len(set(cells)) != len(cells):
        raise ValueError("a cell is listed twice")
    for head, labels in table.labels.items():
        if tuple(head_classes.get(head, ())) != labels:
            raise ValueError(f"head {head!r}: the candidate table was built for other class labels")
        shape = np.shape(probs[head]) if head in probs else None
        if shape != (len(cells), len(labels)):
            raise ValueError(
                f"head {head!r}: expected probabilities of shape {(len(cells), len(labels))}, got {shape}"
            )


def _assign(
    logp: Mapping[str, np.ndarray],
    heads_ll: np.ndarray,
    table: CandidateTable,
    misfit_nats: float,
    evidence: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each tile cell's candidate (-1: fits no kit tile) and its log-likelihood.

    Cells that fit no candidate even unconstrained are left out of the assignment first, so a
    foreign tile cannot take a physical tile another cell needs.
    """
    n = len(heads_ll)
    choice, chosen_ll = np.full(n, -1), np.full(n, -np.inf)
    if n == 0:
        return choice, chosen_ll
    # (cells, candidates): one gather per head, summed.
    ll = sum(logp[h][:, table.classes[h]] for h in table.heads)
    if evidence is not None:
        ll = ll + evidence
    floor = heads_ll - misfit_nats
    fitting = np.flatnonzero(ll.max(axis=1) >= floor)
    if len(fitting) == 0:
        return choice, chosen_ll
    per_component = np.maximum.reduceat(ll[fitting], table.starts, axis=1)
    rows, components = linear_sum_assignment(per_component, maximize=True)
    ends = np.append(table.starts[1:], len(table))
    for r, c in zip(rows, components, strict=True):
        i = fitting[r]
        k = int(table.starts[c] + np.argmax(ll[i, table.starts[c] : ends[c]]))
        if ll[i, k] >= floor[i]:
            choice[i], chosen_ll[i] = k, ll[i, k]
    return choice, chosen_ll


def _tile_cell(
    probs: Mapping[str, np.ndarray],
    table: CandidateTable,
    row_index: int,
    cell: tuple[int, int],
    candidate: int,
    log_likelihood: float,
    use_catalog: bool,
    flag_below: float,
) -> tuple[Tile, CellReading, tuple[Check, ...]]:
    row, col = cell
    used = {PRESENT: table.labels[PRESENT].index("tile")}
    for head in table.heads:
        p = probs[head][row_index]
        used[head] = int(table.classes[head][candidate]) if candidate >= 0 else int(np.argmax(p))
    confidence = _confidence(probs, row_index, used)
    if candidate >= 0:
        tile = replace(table.tiles[candidate], row=row, col=col, confidence=confidence)
        source = "catalog"
    else:
        labels = {head: table.labels[head][index] for head, index in used.items()}
        tile = replace(tile_from_labels(row, col, labels), confidence=confidence)
        source = "heads"
    misfit = use_catalog and candidate < 0
    checks = (Check(row, col, NO_KIT_TILE, ()),) if misfit else ()
    checks += _doubts(probs, table, row_index, cell, used, flag_below)
    return tile, CellReading(row, col, source, log_likelihood, confidence), checks


def _empty_cell(
    probs: Mapping[str, np.ndarray], table: CandidateTable, row_index: int, cell: tuple[int, int]
) -> tuple[None, CellReading, tuple[Check, ...]]:
    used = {PRESENT: table.labels[PRESENT].index("empty")}
    confidence = _confidence(probs, row_index, used)
    p_empty = confidence[0][1]
    checks = _doubts(probs, table, row_index, cell, used, 1.0 - EMPTY_DOUBT)
    reading = CellReading(cell[0], cell[1], "empty", float(np.log(max(p_empty, PROB_FLOOR))), confidence)
    return None, reading, checks


def _likeliest_tile(
    probs: Mapping[str, np.ndarray],
    table: CandidateTable,
    row_index: int,
    cell: tuple[int, int],
    taken: set[int],
    use_catalog: bool,
) -> Tile:
    """What a cell read as empty would most likely hold, were it a tile: the likeliest kit tile not
    placed elsewhere (head by head without the catalog, or when every kit tile is placed)."""
    logp = {h: np.log(np.maximum(probs[h][row_index], PROB_FLOOR)) for h in table.heads}
    free = np.flatnonzero(~np.isin(table.component, list(taken)))
    if use_catalog and len(free):
        ll = sum(logp[h][table.classes[h][free]] for h in table.heads)
        return replace(table.tiles[int(free[np.argmax(ll)])], row=cell[0], col=cell[1])
    labels = {h: table.labels[h][int(np.argmax(logp[h]))] for h in table.heads}
    return tile_from_labels(cell[0], cell[1], labels)


def _confidence(probs: Mapping[str, np.ndarray], row_index: int, used: Mapping[str, int]) -> Confidence:
    return tuple((head, float(probs[head][row_index, index])) for head, index in used.items())


def _doubts(
    probs: Mapping[str, np.ndarray],
    table: CandidateTable,
    row_index: int,
    cell: tuple[int, int],
    used: Mapping[str, int],
    flag_below: float,
) -> tuple[Check, ...]:
    """A check for every head whose label used is below ``flag_below``, with the runner-up."""
    checks = []
    for head, index in used.items():
        p = probs[head][row_index]
        if p[index] < flag_below:
            others = np.delete(np.arange(len(p)), index)
            runner_up = int(others[np.argmax(p[others])])
            labels = table.labels[head]
            readings = ((labels[index], float(p[index])), (labels[runner_up], float(p[runner_up])))
            checks.append(Check(cell[0], cell[1], head, readings))
    return tuple(checks)


def head_title(head: str) -> str:
    """A head's name as a person reads it: edge_E -> "edge E", join_NE -> "join N-E"."""
    if head == PRESENT:
        return "tile present"
    kind, _, rest = head.partition("_")
    if kind == "join" and len(rest) == 2:
        return f"join {rest[0]}-{rest[1]}"
    return f"{kind} {rest}" if rest else kind

"""Random Mondo islands built from a tile catalog, the way players build them at the table.

A :class:`PlacedTile` says which catalog face lies in which cell, turned how; :func:`island_of`
turns a layout into the scoring engine's :class:`~scoring.mondo.Island`, so the truth of every
simulated photo is the engine's own reading of the layout. The catalog is a parameter: any edition
in the kit manifest format works.
"""

from __future__ import annotations

import numpy as np

from scoring.sides import SIDES
from vision.catalogs import PlacedTile, component_by_id, island_of, tile_of, turned_face

__all__ = ["PlacedTile", "component_by_id", "island_of", "tile_of", "turned_face", "random_layout"]

# What kind of island a scene shows, and how often (the simulator's mix).
ISLAND_KINDS: dict[str, float] = {"complete": 0.45, "empty": 0.2, "misconnections": 0.25, "invalid": 0.1}


def _wanted(row: int, col: int, grid: int, side: str) -> str:
    """ "water" for an outer side, "land" for an inward one."""
    outer = {"N": row == 0, "S": row == grid - 1, "W": col == 0, "E": col == grid - 1}[side]
    return "water" if outer else "land"


def random_layout(catalog: dict, rng: np.random.Generator, grid: int, kind: str) -> list[PlacedTile]:
    """A layout of ``kind`` (see ISLAND_KINDS) using each physical tile at most once.

    Cells are filled in reading order; each takes a face and turn drawn with weights that favour
    water outside, land inside and terrains that match the neighbours already placed, as a player
    would. "misconnections" cares less about matching; "invalid" breaks the water rule once;
    "empty" leaves 1 to 3 cells free (the rulebook allows it when the timer runs out), never
    splitting the island: each tile is laid next to one already placed.
    """
    match_weight = {"misconnections": 0.6}.get(kind, 3.0)
    broken_cell = int(rng.integers(grid * grid)) if kind == "invalid" else -1
    used: set[str] = set()
    placed: dict[tuple[int, int], tuple[dict[str, str], PlacedTile]] = {}
    candidates = [
        (c["id"], face, rotation, turned_face(c["faces"][face], rotation)[0])
        for c in catalog["components"]
        for face in ("front", "back")
        for rotation in (0, 90, 180, 270)
    ]
    for row in range(grid):
        for col in range(grid):
            ids, weights, options = [], [], []
            for cid, face, rotation, edges in candidates:
                if cid in used:
                    continue
                fit = 0.0
                for side in SIDES:
                    want = _wanted(row, col, grid, side)
                    ok = (edges[side] == "water") == (want == "water")
                    fit += 8.0 if ok else 0.0
                fit -= 1.5 if face == "back" else 0.0  # backs are rarely useful
                for side, (dr, dc) in (("N", (-1, 0)), ("W", (0, -1))):
                    neighbour = placed.get((row + dr, col + dc))
                    if neighbour is not None:
                        opposite = "S" if side == "N" else "E"
                        fit += match_weight if neighbour[0][opposite] == edges[side] else 0.0
                if row * grid + col == broken_cell:
                    fit = -fit  # deliberately the worst fit
                ids.append(cid)
                weights.append(fit)
                options.append((face, rotation, edges))
            w = np.exp(np.array(weights) - max(weights))
            pick = int(rng.choice(len(ids), p=w / w.sum()))
            face, rotation, edges = options[pick]
            used.add(ids[pick])
            placed[(row, col)] = (edges, PlacedTile(ids[pick], face, rotation, row, col))
    layout = [p for _, p in placed.values()]
    if kind == "empty":
        for _ in range(int(rng.integers(1, 4))):
            # Every tile is laid next to one already there, so what stays is always connected.
            removable = [i for i in range(len(layout)) if _connected(layout[:i] + layout[i + 1 :])]
            layout.pop(removable[int(rng.integers(len(removable)))])
    return layout


def _connected(layout: list[PlacedTile]) -> bool:
    """Whether the tiles form one group through shared edges."""
    cells = {(p.row, p.col) for p in layout}
    seen, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]
    return seen == cells

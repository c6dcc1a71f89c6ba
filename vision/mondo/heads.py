"""What the Mondo tile model predicts for one grid cell, and how a tile maps to it and back.

The model's heads are recorded in its ONNX metadata (names and class labels, in order); this module
is the one place that says what each head *means*, so training (tile -> labels) and reading
(labels -> tile) cannot drift apart. Sides are those of the cell in the rectified island, not of
the printed face: a turned tile shows its edges on turned sides.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from scoring.mondo import TERRAINS, Area, Tile
from scoring.sides import SIDES, turned_clockwise

LAND = ("forest", "desert", "plains")
JOIN_PAIRS: tuple[tuple[str, str], ...] = (
    ("N", "E"),
    ("E", "S"),
    ("S", "W"),
    ("W", "N"),
    ("N", "S"),
    ("E", "W"),
)
COUNTS = ("0", "1", "2")

# head name -> class labels, in the order of the model's outputs
HEADS: dict[str, tuple[str, ...]] = {
    "present": ("empty", "tile"),
    "face": ("front", "back"),
    **{f"edge_{side}": TERRAINS for side in SIDES},
    "animals": COUNTS,
    "volcanoes": COUNTS,
    **{f"join_{a}{b}": ("no", "yes") for a, b in JOIN_PAIRS},
    **{f"patch_{terrain}": COUNTS for terrain in LAND},
}
# Heads that say nothing about an empty cell: their loss is masked there in training.
TILE_ONLY_HEADS = tuple(name for name in HEADS if name != "present")
HEAD_NAMES: tuple[str, ...] = tuple(HEADS)


def tile_labels(tile: Tile | None, face: str = "front") -> dict[str, str]:
    """The label of every head for a cell holding ``tile`` (None: an empty cell)."""
    if tile is None:
        return {"present": "empty"}
    labels = {"present": "tile", "face": tile.component.face if tile.component else face}
    for side in SIDES:
        labels[f"edge_{side}"] = tile.edge(side)
    labels["animals"] = str(min(tile.animals, 2))
    labels["volcanoes"] = str(min(tile.volcanoes, 2))
    for a, b in JOIN_PAIRS:
        labels[f"join_{a}{b}"] = "yes" if tile.area_index(a) == tile.area_index(b) else "no"
    for terrain in LAND:
        patches = sum(1 for area in tile.areas if area.interior and area.terrain == terrain)
        labels[f"patch_{terrain}"] = str(min(patches, 2))
    return labels


def tile_from_labels(row: int, col: int, labels: Mapping[str, str]) -> Tile:
    """A tile read head by head; its areas always agree with its edges.

    Sides are joined where the model says so and the two edges show the same terrain; joining is
    closed transitively (N-E and E-S joined puts N, E and S in one area).
    """
    edges = {side: labels[f"edge_{side}"] for side in SIDES}
    group = {side: side for side in SIDES}

    def root(side: str) -> str:
        while group[side] != side:
            side = group[side]
        return side

    for a, b in JOIN_PAIRS:
        if labels.get(f"join_{a}{b}") == "yes" and edges[a] == edges[b]:
            group[root(b)] = root(a)
    areas: dict[str, list[str]] = {}
    for side in SIDES:
        areas.setdefault(root(side), []).append(side)
    area_list = [Area(edges[sides[0]], tuple(sides)) for sides in areas.values()]
    for terrain in LAND:
        area_list += [Area(terrain, ())] * int(labels.get(f"patch_{terrain}", "0"))
    return Tile(
        row,
        col,
        tuple(edges[s] for s in SIDES),  # type: ignore[arg-type]
        tuple(area_list),
        int(labels.get("animals", "0")),
        int(labels.get("volcanoes", "0")),
    )


# --- quarter turns of a cell: training turns crops and labels together, reading averages the turns


def _join_head(a: str, b: str) -> str:
    name = f"join_{a}{b}"
    return name if name in HEADS else f"join_{b}{a}"


def turned_head(name: str, quarter_turns: int) -> str:
    """The head of a cell that head `name` reads on the crop turned clockwise by ``quarter_turns``.

    What showed on side s now shows on side turned_clockwise(s, k), so a side's new label comes from
    the side k quarter turns anticlockwise of it. Counts and face do not move.
    """
    back = -quarter_turns % 4
    if name.startswith("edge_"):
        return f"edge_{turned_clockwise(name[5:], back)}"
    if name.startswith("join_"):
        return _join_head(turned_clockwise(name[5], back), turned_clockwise(name[6], back))
    return name


def turned_head_sources(quarter_turns: int) -> list[int]:
    """For a crop turned clockwise by ``quarter_turns``: new label column j = old column result[j]."""
    return [HEAD_NAMES.index(turned_head(name, quarter_turns)) for name in HEADS]


def turn_labels(labels: Mapping[str, str], quarter_turns: int) -> dict[str, str]:
    """The labels of the crop turned clockwise by ``quarter_turns`` (np.rot90(crop, -k))."""
    sources = turned_head_sources(quarter_turns)
    return {
        name: labels[HEAD_NAMES[src]]
        for name, src in zip(HEAD_NAMES, sources, strict=True)
        if HEAD_NAMES[src] in labels
    }


def turn_crops(crops: np.ndarray, quarter_turns: int) -> np.ndarray:
    """NHWC crops turned clockwise by ``quarter_turns``."""
    return np.ascontiguousarray(np.rot90(crops, k=-quarter_turns, axes=(1, 2)))

"""The annotated picture: the photo with the grid, what each tile was read as, and why it scores.

Drawn in each cell's own perspective (a homography from the unit square to the cell's quad), so
marks lie on the tiles even in a tilted photo. Legend: coloured bars = edge terrains; red edge =
misconnection; magenta edge = breaks the water rule; coloured lines with "+2" = landscapes that
score; yellow disc = animals; red triangle = volcanoes; red cross = empty space; orange ? = check.
The score panel ends with the photo's verdict: green OK, or orange CHECK with how many readings.
"""

from __future__ import annotations

import re
from typing import Any

import cv2
import numpy as np

from scoring.mondo import Island, analyse_island
from scoring.sides import SIDES

TERRAIN_BGR = {
    "water": (214, 140, 40),
    "forest": (40, 110, 30),
    "desert": (60, 170, 230),
    "plains": (90, 220, 150),
}
RED, MAGENTA, ORANGE, WHITE, BLACK, YELLOW, GREEN = (
    (40, 40, 230),
    (200, 40, 200),
    (0, 140, 255),
    (255, 255, 255),
    (0, 0, 0),
    (0, 215, 255),
    (70, 200, 70),
)
# Side -> (start, end) of its bar in the unit cell, and its midpoint on the edge.
BAR = {"N": ((0.25, 0.07), (0.75, 0.07)), "E": ((0.93, 0.25), (0.93, 0.75)),
       "S": ((0.25, 0.93), (0.75, 0.93)), "W": ((0.07, 0.25), (0.07, 0.75))}  # fmt: skip
MID = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
CORNERS = {"N": (0, 1), "E": (1, 2), "S": (2, 3), "W": (3, 0)}  # quad corner indices of each side


class CellMap:
    """Unit-square points of each cell -> image px."""

    def __init__(self, cell_quads: np.ndarray, grid: int) -> None:
        self.grid = grid
        self.quads = cell_quads
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        self.h = [cv2.getPerspectiveTransform(unit, q.astype(np.float32)) for q in cell_quads]

    def quad(self, row: int, col: int) -> np.ndarray:
        return self.quads[row * self.grid + col]

    def point(self, row: int, col: int, uv: tuple[float, float]) -> tuple[int, int]:
        p = cv2.perspectiveTransform(np.array([[uv]], np.float32), self.h[row * self.grid + col])[0, 0]
        return int(round(p[0])), int(round(p[1]))

    def size(self) -> float:
        q = self.quads[0]
        return float(np.linalg.norm(q[1] - q[0]))


def _edge(cells: CellMap, row: int, col: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    q = cells.quad(row, col)
    a, b = CORNERS[side]
    return tuple(map(int, q[a])), tuple(map(int, q[b]))  # type: ignore[return-value]


def _text(image, text, at, scale, colour, thickness=2, box=None):
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    x, y = at[0] - w // 2, at[1] + h // 2
    if box is not None:
        cv2.rectangle(image, (x - 4, y - h - 4), (x + w + 4, y + base + 2), box, -1)
    cv2.putText(image, text, (x, y), font, scale, BLACK, thickness + 2, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), font, scale, colour, thickness, cv2.LINE_AA)


def annotate_island(
    image: np.ndarray,
    island: Island,
    cell_quads: np.ndarray,
    player: dict[str, Any],
    flags: list[str] | tuple[str, ...] = (),
) -> np.ndarray:
    """A copy of ``image`` with the island's reading and score drawn on it.

    ``cell_quads`` are in ``image`` px; ``player`` is the player's entry of the score report.
    """
    out = image.copy()
    cells = CellMap(np.asarray(cell_quads, np.float32), island.grid)
    unit = max(1, int(cells.size() / 40))  # line width that scales with the tiles
    analysis = analyse_island(island)

    for q in cells.quads:
        cv2.polylines(out, [q.astype(np.int32)], True, WHITE, max(1, unit // 2), cv2.LINE_AA)
    for row, col in island.empty_cells:
        q = cells.quad(row, col).astype(np.int32)
        cv2.line(out, tuple(q[0]), tuple(q[2]), RED, 2 * unit, cv2.LINE_AA)
        cv2.line(out, tuple(q[1]), tuple(q[3]), RED, 2 * unit, cv2.LINE_AA)
    for tile in island.tiles:
        for side in SIDES:
            a, b = (cells.point(tile.row, tile.col, uv) for uv in BAR[side])
            cv2.line(out, a, b, BLACK, 3 * unit + 2, cv2.LINE_AA)
            cv2.line(out, a, b, TERRAIN_BGR[tile.edge(side)], 3 * unit, cv2.LINE_AA)

    # Landscapes that score: a line from each area's middle to the edges it reaches, "+2" on it.
    for landscape in analysis.scoring_landscapes:
        colour = TERRAIN_BGR[landscape.terrain]
        anchors = []
        for row, col, index in landscape.areas:
            area = island.tile_at(row, col).areas[index]  # type: ignore[union-attr]
            if area.sides:
                u = float(np.mean([MID[s][0] for s in area.sides])) * 0.5 + 0.25
                v = float(np.mean([MID[s][1] for s in area.sides])) * 0.5 + 0.25
            else:  # an interior patch: below the animal and volcano marks
                u, v = 0.5, 0.7
            anchor = cells.point(row, col, (u, v))
            anchors.append(anchor)
            for side in area.sides:
                end = cells.point(row, col, MID[side])
                cv2.line(out, anchor, end, BLACK, 2 * unit + 2, cv2.LINE_AA)
                cv2.line(out, anchor, end, colour, 2 * unit, cv2.LINE_AA)
            cv2.circle(out, anchor, 2 * unit + 1, colour, -1, cv2.LINE_AA)
        label_at = anchors[len(anchors) // 2]
        _text(
            out, "+2", (label_at[0], label_at[1] - 4 * unit), 0.25 * unit + 0.3, WHITE, max(1, unit // 2 + 1)
        )

    for m in analysis.misconnections:
        a, b = _edge(cells, *m.a, m.side_a)
        cv2.line(out, a, b, RED, 3 * unit, cv2.LINE_AA)
    for e in analysis.invalid_edges:
        a, b = _edge(cells, e.row, e.col, e.side)
        cv2.line(out, a, b, MAGENTA, 3 * unit, cv2.LINE_AA)

    for tile in island.tiles:
        if tile.animals:
            at = cells.point(tile.row, tile.col, (0.25, 0.25))
            cv2.circle(out, at, 5 * unit, YELLOW, -1, cv2.LINE_AA)
            cv2.circle(out, at, 5 * unit, BLACK, max(1, unit // 2), cv2.LINE_AA)
            _text(out, str(tile.animals), at, 0.22 * unit + 0.2, BLACK, max(1, unit // 2))
        if tile.volcanoes:
            x, y = cells.point(tile.row, tile.col, (0.75, 0.25))
            r = 6 * unit
            tri = np.array([[x, y - r], [x + r, y + r * 0.7], [x - r, y + r * 0.7]], np.int32)
            cv2.fillPoly(out, [tri], RED, cv2.LINE_AA)
            cv2.polylines(out, [tri], True, BLACK, max(1, unit // 2), cv2.LINE_AA)
            _text(out, str(tile.volcanoes), (x, int(y + r * 0.2)), 0.2 * unit + 0.2, WHITE, max(1, unit // 2))

    for row, col in flagged_cells(flags):
        if row < island.grid and col < island.grid:
            q = cells.quad(row, col)
            inset = (q - q.mean(axis=0)) * 0.9 + q.mean(axis=0)
            cv2.polylines(out, [inset.astype(np.int32)], True, ORANGE, 2 * unit, cv2.LINE_AA)
            _text(out, "?", cells.point(row, col, (0.5, 0.5)), 0.5 * unit + 0.5, ORANGE, unit + 1)

    return score_panel(out, player, len(flags))


def flagged_cells(flags) -> list[tuple[int, int]]:
    cells = []
    for flag in flags:
        match = re.search(r"row (\d+) col (\d+)", flag)
        if match:
            cells.append((int(match.group(1)), int(match.group(2))))
    return sorted(set(cells))


def verdict_line(n_flags: int) -> tuple[str, tuple[int, int, int]]:
    """The report's ``status`` as the panel shows it: whether the score can be trusted as read."""
    if not n_flags:
        return "OK: nothing to check", GREEN
    return f"CHECK: {n_flags} reading{'' if n_flags == 1 else 's'} (?)", ORANGE


def score_panel(image: np.ndarray, player: dict[str, Any], n_flags: int) -> np.ndarray:
    """The score table in the top-left corner, on a dark translucent panel."""
    p = player["points"]
    lines = [
        (player["name"], WHITE),
        (f"Animals            {p['animals']:+d}", WHITE),
        (f"Landscapes         {p['landscapes']:+d}", WHITE),
        (f"Volcanoes          {p['volcanoes']:+d}", WHITE),
        (f"Empty/Misconnect.  {p['empty_spaces'] + p['misconnections']:+d}", WHITE),
        (f"Jumped out 1st     {p['first_out']:+d}", WHITE),
        (f"Sum                {player['total']:+d}", YELLOW),
    ]
    if not player["valid"]:
        lines.append(("INVALID: water rule broken", MAGENTA))
    lines.append(verdict_line(n_flags))
    scale = max(0.6, image.shape[1] / 1400)
    line_h = int(34 * scale)
    width = int(470 * scale)
    height = line_h * len(lines) + int(16 * scale)
    panel = image[:height, :width].astype(np.float32) * 0.35
    image[:height, :width] = panel.astype(np.uint8)
    for i, (text, colour) in enumerate(lines):
        y = int(12 * scale) + line_h * (i + 1) - int(8 * scale)
        cv2.putText(
            image,
            text,
            (int(12 * scale), y),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8 * scale,
            colour,
            max(1, int(2 * scale)),
            cv2.LINE_AA,
        )
    return image

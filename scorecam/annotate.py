"""The annotated picture: the photo with the grid, what each tile was read as, and why it scores.

The photo keeps every pixel away from the island: the score panel lies in a margin added to the
right of it (the picture grows), and only the grid and its marks are drawn on the photo. Marks are
drawn in each cell's own perspective (a homography from the unit square to the cell's quad), so they
lie on the tiles even in a tilted photo. Rows and tiles are numbered from 1 along the grid's sides,
as the checks count them; each check carries its number, the same as in the report's ``checks`` and
in the panel's list. Labels ("+2", check numbers, counts) are placed by a simple collision test so
none covers another. An invalid island shows nothing as scoring: no landscapes, no misconnections,
only the edges that break the water rule. Text is drawn with the bundled DejaVu Sans through Pillow.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scoring.mondo import Island, analyse_island
from scoring.sides import SIDES
from vision.geometry import median

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"

TERRAIN_BGR = {
    "water": (214, 140, 40),
    "forest": (40, 110, 30),
    "desert": (60, 170, 230),
    "plains": (90, 220, 150),
}
RED, MAGENTA, ORANGE, WHITE, BLACK, YELLOW, GREEN, GREY = (
    (40, 40, 230),
    (200, 40, 200),
    (0, 140, 255),
    (255, 255, 255),
    (0, 0, 0),
    (0, 215, 255),
    (70, 200, 70),
    (200, 200, 200),
)
PANEL_BGR = (38, 34, 32)
# Side -> (start, end) of its bar in the unit cell, and its midpoint on the edge.
BAR = {"N": ((0.25, 0.07), (0.75, 0.07)), "E": ((0.93, 0.25), (0.93, 0.75)),
       "S": ((0.25, 0.93), (0.75, 0.93)), "W": ((0.07, 0.25), (0.07, 0.75))}  # fmt: skip
MID = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
CORNERS = {"N": (0, 1), "E": (1, 2), "S": (2, 3), "W": (3, 0)}  # quad corner indices of each side
# Where in its cell a check's number goes: next to what it asks about.
NEAR_SIDE = {"N": (0.5, 0.22), "E": (0.78, 0.5), "S": (0.5, 0.78), "W": (0.22, 0.5)}
ANIMAL_AT, VOLCANO_AT = (0.25, 0.25), (0.75, 0.25)
# An island whose box (with its labels) spans less than this share of the photo's long side is also
# shown enlarged in the panel.
INSET_BELOW = 0.3
CHECK_LINE = re.compile(r"^Row (\d+), tile (\d+): ")

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 px
BGR = tuple[int, int, int]


@functools.lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_PATH), size)


def rgb(colour: BGR) -> tuple[int, int, int]:
    return colour[2], colour[1], colour[0]


class CellMap:
    """Unit-square points of each cell -> image px (points outside the unit square reach beyond it)."""

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
        return float(median([np.linalg.norm(q[1] - q[0]) for q in self.quads]))


@dataclass(frozen=True)
class Mark:
    """A check as the picture marks it: its number, its cell, and what it is about."""

    number: int
    row: int
    col: int
    head: str  # the model head ("" when only the cell is known)
    text: str


@dataclass(frozen=True)
class Label:
    """A text label placed on the photo."""

    kind: str  # "row", "tile", "landscape", "check", "animals", "volcanoes"
    text: str
    box: Box
    colour: BGR  # text
    fill: BGR  # background
    anchor: tuple[int, int]  # the point it is about (a leader line joins them when apart)


def check_marks(flags: Sequence[str], checks: Sequence[Any] | None) -> tuple[list[Mark], list[str]]:
    """Numbered marks of the checks (1.., in report order) and the notes about the whole island.

    ``checks`` are vision.mondo.checks.Check; without them the cells come from the flags' words.
    """
    if checks is not None:
        marks = [Mark(i, c.row, c.col, c.head, c.text) for i, c in enumerate(checks, 1)]
        texts = {c.text for c in checks}
        return marks, [f for f in flags if f not in texts]
    marks, notes = [], []
    for flag in flags:
        match = CHECK_LINE.match(flag)
        if match:
            marks.append(Mark(len(marks) + 1, int(match.group(1)) - 1, int(match.group(2)) - 1, "", flag))
        else:
            notes.append(flag)
    return marks, notes


def mark_spot(head: str) -> tuple[float, float]:
    """Where in its cell a check's number goes: by the edge, the join, the count it asks about."""
    if head.startswith("edge_"):
        return NEAR_SIDE[head[5:]]
    if head.startswith("join_"):
        (ua, va), (ub, vb) = NEAR_SIDE[head[5]], NEAR_SIDE[head[6]]
        return (ua + ub) / 2, (va + vb) / 2
    if head == "animals":
        return ANIMAL_AT[0], ANIMAL_AT[1] + 0.2
    if head == "volcanoes":
        return VOLCANO_AT[0], VOLCANO_AT[1] + 0.2
    if head.startswith("patch_"):
        return 0.5, 0.68
    return 0.5, 0.5


# --- placing labels without collisions ----------------------------------------------------------


def overlap(a: Box, b: Box) -> int:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


class Placer:
    """Boxes taken so far; a new label takes the first spot near its anchor that touches none."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.taken: list[Box] = []

    def block(self, box: Box) -> None:
        self.taken.append(box)

    def place(
        self, size: tuple[int, int], anchor: tuple[int, int], step: float, avoid: np.ndarray | None = None
    ) -> Box:
        """``avoid``: an outline (n x 2 px) the label should stay off too (the island, for its numbers)."""
        w, h = size
        best, best_cost = None, None
        for cx, cy in _ring_spots(anchor, step):
            box = (int(cx - w / 2), int(cy - h / 2), int(cx - w / 2) + w, int(cy - h / 2) + h)
            outside = box[0] < 0 or box[1] < 0 or box[2] > self.width or box[3] > self.height
            cost = sum(overlap(box, other) for other in self.taken) + (10**9 if outside else 0)
            if avoid is not None and _touches(box, avoid):
                cost += 10**6
            if cost == 0:
                best = box
                break
            if best_cost is None or cost < best_cost:
                best, best_cost = box, cost
        assert best is not None
        self.taken.append(best)
        return best


def _touches(box: Box, outline: np.ndarray) -> bool:
    """Whether a box reaches into a convex outline: one of its corners, edge middles or centre does."""
    x0, y0, x1, y1 = box
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    points = ((x, y) for x in (x0, xm, x1) for y in (y0, ym, y1))
    return any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) > 0 for x, y in points)


def _ring_spots(anchor: tuple[int, int], step: float):
    """The anchor, then rings of 8, then 16 spots around it, nearest first."""
    yield anchor
    for ring in range(1, 5):
        n = 8 * ring
        for k in range(n):
            angle = 2 * np.pi * k / n - np.pi / 2
            yield anchor[0] + ring * step * np.cos(angle), anchor[1] + ring * step * np.sin(angle)


def _text_size(text: str, size: int, pad: int) -> tuple[int, int]:
    left, top, right, bottom = font(size).getbbox(text)
    return right - left + 2 * pad, bottom - top + 2 * pad


# --- the picture --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the picture shows, before it is drawn (tests read it)."""

    labels: tuple[Label, ...]
    marks: tuple[Mark, ...]
    notes: tuple[str, ...]
    legend: tuple[str, ...]  # keys of LEGEND, the marks used
    valid: bool


def plan_annotation(
    island: Island,
    cells: CellMap,
    shape: tuple[int, ...],
    marks: Sequence[Mark],
    notes: Sequence[str],
) -> Plan:
    """Where every label goes (counts first, then row and tile numbers off the island, then the
    checks' numbers, then "+2" on the landscapes that score, none on an invalid island), and the
    legend of the marks used."""
    analysis = analyse_island(island)
    height, width = shape[:2]
    cell = cells.size()
    # big enough to read in the whole picture, small enough to sit on a tile
    size = max(12, min(int(cell * 0.3), max(int(cell * 0.17), round(max(height, width) / 120))))
    pad = max(2, size // 5)
    placer = Placer(width, height)
    labels: list[Label] = []

    outline = cv2.convexHull(cells.quads.reshape(-1, 2).astype(np.float32))

    def add(kind: str, text: str, anchor: tuple[int, int], colour: BGR, fill: BGR, off_island: bool = False):
        avoid = outline if off_island else None
        box = placer.place(_text_size(text, size, pad), anchor, max(4.0, cell * 0.12), avoid)
        labels.append(Label(kind, text, box, colour, fill, anchor))

    # the counts on the tiles: fixed spots, blocked first
    for tile in island.tiles:
        for count, at, kind, fill in (
            (tile.animals, ANIMAL_AT, "animals", YELLOW),
            (tile.volcanoes, VOLCANO_AT, "volcanoes", RED),
        ):
            if count:
                x, y = cells.point(tile.row, tile.col, at)
                r = int(cell * 0.09)
                placer.block((x - r, y - r, x + r, y + r))
                labels.append(
                    Label(
                        kind,
                        str(count),
                        (x - r, y - r, x + r, y + r),
                        BLACK if fill == YELLOW else WHITE,
                        fill,
                        (x, y),
                    )
                )
    # rows and tiles numbered along the grid's top and left sides, just outside it
    for i in range(island.grid):
        add("tile", f"tile {i + 1}", cells.point(0, i, (0.5, -0.3)), WHITE, BLACK, off_island=True)
        add("row", f"row {i + 1}", cells.point(i, 0, (-0.45, 0.5)), WHITE, BLACK, off_island=True)
    for mark in marks:
        if 0 <= mark.row < island.grid and 0 <= mark.col < island.grid:
            add(
                "check",
                str(mark.number),
                cells.point(mark.row, mark.col, mark_spot(mark.head)),
                BLACK,
                ORANGE,
            )
    if analysis.valid:
        for landscape in analysis.scoring_landscapes:
            anchors = [_area_anchor(island, cells, key) for key in landscape.areas]
            add("landscape", "+2", anchors[len(anchors) // 2], BLACK, TERRAIN_BGR[landscape.terrain])

    legend = ["edges", "numbers"]
    if analysis.valid and analysis.scoring_landscapes:
        legend.append("landscape")
    if analysis.valid and analysis.misconnections:
        legend.append("misconnection")
    if not analysis.valid:
        legend.append("water_rule")
    if any(t.animals for t in island.tiles):
        legend.append("animals")
    if any(t.volcanoes for t in island.tiles):
        legend.append("volcanoes")
    if island.empty_cells:
        legend.append("empty")
    if marks:
        legend.append("check")
    return Plan(tuple(labels), tuple(marks), tuple(notes), tuple(legend), analysis.valid)


def _area_anchor(island: Island, cells: CellMap, key: tuple[int, int, int]) -> tuple[int, int]:
    row, col, index = key
    area = island.tile_at(row, col).areas[index]  # type: ignore[union-attr]
    if area.sides:
        u = float(np.mean([MID[s][0] for s in area.sides])) * 0.5 + 0.25
        v = float(np.mean([MID[s][1] for s in area.sides])) * 0.5 + 0.25
    else:  # an interior patch: below the animal and volcano marks
        u, v = 0.5, 0.7
    return cells.point(row, col, (u, v))


def annotate_island(
    image: np.ndarray,
    island: Island,
    cell_quads: np.ndarray,
    player: dict[str, Any],
    flags: Sequence[str] = (),
    *,
    checks: Sequence[Any] | None = None,
) -> np.ndarray:
    """The photo with the island's reading drawn on it, and the score panel in a margin to its right.

    ``cell_quads`` are in ``image`` px; ``player`` is the player's entry of the score report;
    ``flags`` the report's flags; ``checks`` (vision.mondo.checks.Check, optional) number the marks
    as the report's ``checks`` do (without them, the flags' words give the cells).
    """
    cells = CellMap(np.asarray(cell_quads, np.float32), island.grid)
    marks, notes = check_marks(flags, checks)
    plan = plan_annotation(island, cells, image.shape, marks, notes)
    out = image.copy()
    draw_marks(out, island, cells, plan)
    out = draw_labels(out, plan)
    return add_panel(out, player, plan, inset=island_inset(out, cells))


def island_inset(picture: np.ndarray, cells: CellMap) -> np.ndarray | None:
    """The island cut from the annotated photo, with its labels, when it is small in the photo
    (the panel shows it enlarged); None when it is big enough as it is."""
    height, width = picture.shape[:2]
    corners = cells.quads.reshape(-1, 2)
    border = cells.size() * 0.9  # room for the row and tile numbers
    x0, y0 = np.maximum(corners.min(axis=0) - border, 0).astype(int)
    x1, y1 = np.minimum(corners.max(axis=0) + border, (width, height)).astype(int)
    if max(x1 - x0, y1 - y0) > INSET_BELOW * max(height, width) or x1 <= x0 or y1 <= y0:
        return None
    return picture[y0:y1, x0:x1]


def draw_marks(out: np.ndarray, island: Island, cells: CellMap, plan: Plan) -> None:
    """The geometry on the photo (cv2): grid, edge bars, landscapes, problems, counts' glyphs."""
    unit = max(1, int(cells.size() / 40))  # line width that scales with the tiles
    analysis = analyse_island(island)
    for q in cells.quads:
        cv2.polylines(out, [q.astype(np.int32)], True, WHITE, max(1, unit // 2), cv2.LINE_AA)
    for row, col in island.empty_cells:
        q = cells.quad(row, col)
        inset = ((q - q.mean(axis=0)) * 0.6 + q.mean(axis=0)).astype(np.int32)
        cv2.line(out, tuple(inset[0]), tuple(inset[2]), RED, 2 * unit, cv2.LINE_AA)
        cv2.line(out, tuple(inset[1]), tuple(inset[3]), RED, 2 * unit, cv2.LINE_AA)
    for tile in island.tiles:
        for side in SIDES:
            a, b = (cells.point(tile.row, tile.col, uv) for uv in BAR[side])
            cv2.line(out, a, b, BLACK, 3 * unit + 2, cv2.LINE_AA)
            cv2.line(out, a, b, TERRAIN_BGR[tile.edge(side)], 3 * unit, cv2.LINE_AA)
    if plan.valid:
        # landscapes that score: a line from each area's middle to the edges it reaches
        for landscape in analysis.scoring_landscapes:
            colour = TERRAIN_BGR[landscape.terrain]
            for key in landscape.areas:
                row, col, index = key
                anchor = _area_anchor(island, cells, key)
                for side in island.tile_at(row, col).areas[index].sides:  # type: ignore[union-attr]
                    end = cells.point(row, col, MID[side])
                    cv2.line(out, anchor, end, BLACK, 2 * unit + 2, cv2.LINE_AA)
                    cv2.line(out, anchor, end, colour, 2 * unit, cv2.LINE_AA)
                cv2.circle(out, anchor, 2 * unit + 1, colour, -1, cv2.LINE_AA)
        for m in analysis.misconnections:
            a, b = _edge(cells, *m.a, m.side_a)
            cv2.line(out, a, b, RED, 3 * unit, cv2.LINE_AA)
    for e in analysis.invalid_edges:
        a, b = _edge(cells, e.row, e.col, e.side)
        cv2.line(out, a, b, BLACK, 4 * unit + 2, cv2.LINE_AA)
        cv2.line(out, a, b, MAGENTA, 4 * unit, cv2.LINE_AA)
    for row, col in sorted({(m.row, m.col) for m in plan.marks}):
        if row < island.grid and col < island.grid:
            q = cells.quad(row, col)
            inset = (q - q.mean(axis=0)) * 0.9 + q.mean(axis=0)
            cv2.polylines(out, [inset.astype(np.int32)], True, ORANGE, max(1, unit), cv2.LINE_AA)
    for label in plan.labels:
        x0, y0, x1, y1 = label.box
        centre = ((x0 + x1) // 2, (y0 + y1) // 2)
        if label.kind == "volcanoes":
            r = (x1 - x0) // 2
            x, y = centre
            tri = np.array([[x, y - r], [x + r, y + int(r * 0.8)], [x - r, y + int(r * 0.8)]], np.int32)
            cv2.fillPoly(out, [tri], RED, cv2.LINE_AA)
            cv2.polylines(out, [tri], True, BLACK, max(1, unit // 2), cv2.LINE_AA)
        elif label.kind == "animals":
            cv2.circle(out, centre, (x1 - x0) // 2, YELLOW, -1, cv2.LINE_AA)
            cv2.circle(out, centre, (x1 - x0) // 2, BLACK, max(1, unit // 2), cv2.LINE_AA)
        elif label.kind in ("check", "landscape") and _apart(centre, label.anchor, y1 - y0):
            # moved off its spot to stay clear of another label: a leader line shows what it is about
            cv2.line(out, centre, label.anchor, BLACK, max(1, unit // 2) + 2, cv2.LINE_AA)
            cv2.line(out, centre, label.anchor, label.fill, max(1, unit // 2), cv2.LINE_AA)


def _apart(a: tuple[int, int], b: tuple[int, int], distance: int) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) > distance


def _edge(cells: CellMap, row: int, col: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    q = cells.quad(row, col)
    a, b = CORNERS[side]
    return tuple(map(int, q[a])), tuple(map(int, q[b]))  # type: ignore[return-value]


def draw_labels(out: np.ndarray, plan: Plan) -> np.ndarray:
    """The labels' text (Pillow, with the bundled font), in boxes, on the photo."""
    picture = Image.fromarray(cv2.cvtColor(out, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(picture)
    for label in plan.labels:
        x0, y0, x1, y1 = label.box
        size = max(9, int((y1 - y0) * 0.62))
        if label.kind not in ("animals", "volcanoes"):
            draw.rounded_rectangle(label.box, radius=(y1 - y0) // 4, fill=rgb(label.fill), outline=(0, 0, 0))
        else:
            size = max(9, int((y1 - y0) * 0.55))
            y0 += (y1 - y0) // 8 if label.kind == "volcanoes" else 0
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), label.text, font=font(size), fill=rgb(label.colour), anchor="mm"
        )
    return cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2BGR)


# --- the panel ----------------------------------------------------------------------------------


LEGEND = {
    "edges": "bars: the terrain read on each edge",
    "numbers": "rows and tiles, counted as the checks count",
    "landscape": "+2: a landscape that scores",
    "misconnection": "red edge: a misconnection, -1",
    "water_rule": "magenta edge: breaks the water rule",
    "animals": "yellow disc: animals",
    "volcanoes": "red triangle: volcanoes",
    "empty": "red cross: an empty space",
    "check": "orange number: a reading to check",
}


@dataclass(frozen=True)
class PanelLine:
    text: str
    colour: BGR
    kind: str = "text"  # "title", "text", "verdict" (on a coloured badge), "legend:<key>", "gap"


def verdict_line(n_flags: int) -> tuple[str, tuple[int, int, int]]:
    """The report's ``status`` as the panel shows it: whether the score can be trusted as read."""
    if not n_flags:
        return "OK: nothing to check", GREEN
    return f"CHECK: {n_flags} reading{'' if n_flags == 1 else 's'} to look at", ORANGE


def panel_lines(player: dict[str, Any], plan: Plan) -> list[PanelLine]:
    """Everything the panel says, top to bottom: the score (nothing as scoring on an invalid
    island), the verdict, the numbered checks, the notes and the legend of the marks used."""
    lines = [PanelLine(str(player["name"]), WHITE, "title")]
    if player["valid"]:
        p = player["points"]
        for name, value in (
            ("Animals", p["animals"]),
            ("Landscapes", p["landscapes"]),
            ("Volcanoes", p["volcanoes"]),
            ("Empty spaces", p["empty_spaces"]),
            ("Misconnections", p["misconnections"]),
            ("Jumped out first", p["first_out"]),
        ):
            lines.append(PanelLine(f"{name}\t{value:+d}", WHITE))
    else:
        lines.append(PanelLine("invalid: breaks the water rule", MAGENTA))
        lines.append(PanelLine("an invalid island scores 0 (edges marked in magenta)", MAGENTA))
    floored = player["valid"] and sum(player["points"].values()) < player["total"]
    lines.append(PanelLine(f"Total\t{player['total']}", YELLOW, "title"))
    if floored:
        lines.append(PanelLine("(a turn never scores below 0)", YELLOW))
    lines.append(PanelLine(*verdict_line(len(plan.marks) + len(plan.notes)), "verdict"))
    for note in plan.notes:
        lines.append(PanelLine(note, ORANGE))
    if plan.marks:
        lines.append(PanelLine("Check these readings:", WHITE))
        for mark in plan.marks:
            lines.append(PanelLine(f"{mark.number}. {mark.text}", WHITE, "check"))
    lines.append(PanelLine("", WHITE, "gap"))
    lines += [PanelLine(LEGEND[key], GREY, f"legend:{key}") for key in plan.legend]
    return lines


def _wrap(text: str, width: float, face: ImageFont.FreeTypeFont) -> list[str]:
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}".strip()
        if line and face.getlength(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line]


def margin_panel(
    canvas: Image.Image,
    lines: Sequence[tuple[str, BGR]],
    long_side: int,
    size: int,
    *,
    step: float = 1.3,
    gap: int = 0,
) -> np.ndarray:
    """The picture (RGB) with a margin added at its right holding `lines` of text, each wrapped to the
    margin in its colour, `step` sizes apart plus `gap` px after each line: a BGR array. The photo is
    never drawn over."""
    face = font(size)
    margin = max(380, int(0.36 * long_side))
    panel = Image.new("RGB", (canvas.width + margin, canvas.height), rgb(PANEL_BGR))
    panel.paste(canvas, (0, 0))
    draw = ImageDraw.Draw(panel)
    y = size
    for text, colour in lines:
        for part in _wrap(text, margin - 2 * size, face):
            draw.text((canvas.width + size, y), part, font=face, fill=rgb(colour))
            y += int(size * step)
        y += gap
    return cv2.cvtColor(np.asarray(panel), cv2.COLOR_RGB2BGR)


def add_panel(
    photo: np.ndarray, player: dict[str, Any], plan: Plan, inset: np.ndarray | None = None
) -> np.ndarray:
    """The photo, untouched, with the panel in a margin added to its right (taller if need be);
    ``inset`` (the island, small in the photo) is shown enlarged at the panel's top."""
    height, width = photo.shape[:2]
    long_side = max(height, width)
    margin = max(380, int(0.42 * long_side))
    pad = max(13, round(long_side / 64))
    top = pad
    if inset is not None:
        k = min((margin - 2 * pad) / inset.shape[1], 0.45 * height / inset.shape[0])
        inset = cv2.resize(inset, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
        top += inset.shape[0] + pad
    lines = panel_lines(player, plan)
    # the text shrinks (to 3/4 at most) where the panel would outgrow the photo ...
    for size in range(pad, max(13, pad * 3 // 4) - 1, -1):
        rows = _panel_rows(lines, margin - 2 * pad, size)
        if _rows_height(rows, size) + top <= height:
            break
    # ... and a long list of checks is cut (the markers number them all)
    listed = [i for i, line in enumerate(lines) if line.kind == "check"]
    while len(listed) > 5 and _rows_height(rows, size) + top > height:
        shown = listed[:-2]
        more = PanelLine(f"… and {len(plan.marks) - len(shown)} more: see the report", WHITE, "check")
        lines = [*lines[: listed[-2]], more, *lines[listed[-1] + 1 :]]
        listed = [*shown, listed[-2]]
        rows = _panel_rows(lines, margin - 2 * pad, size)
    canvas = Image.new("RGB", (width + margin, max(height, _rows_height(rows, size) + top)), rgb(PANEL_BGR))
    canvas.paste(Image.fromarray(cv2.cvtColor(photo, cv2.COLOR_BGR2RGB)), (0, 0))
    if inset is not None:
        canvas.paste(Image.fromarray(cv2.cvtColor(inset, cv2.COLOR_BGR2RGB)), (width + pad, pad))
    draw = ImageDraw.Draw(canvas)
    x, y = width + pad, top
    for line, wrapped in rows:
        for i, part in enumerate(wrapped):
            _draw_panel_line(draw, line, part, x, y, margin - 2 * pad, size, first=i == 0)
            y += int(size * 1.35)
        y += _gap(line, size)
    return cv2.cvtColor(np.asarray(canvas), cv2.COLOR_RGB2BGR)


def _panel_rows(lines: Sequence[PanelLine], width: int, size: int) -> list[tuple[PanelLine, list[str]]]:
    rows = []
    for line in lines:
        indent = 2.2 * size if line.kind.startswith("legend:") else 0
        rows.append((line, _wrap(line.text, width - indent, font(size)) if line.kind != "gap" else [""]))
    return rows


def _gap(line: PanelLine, size: int) -> int:
    return 3 if line.kind == "check" else size // 2


def _rows_height(rows: Sequence[tuple[PanelLine, list[str]]], size: int) -> int:
    return sum(len(wrapped) * int(size * 1.35) + _gap(line, size) for line, wrapped in rows)


def _draw_panel_line(
    draw: ImageDraw.ImageDraw, line: PanelLine, text: str, x: int, y: int, width: int, size: int, first: bool
) -> None:
    face = font(size)
    if line.kind == "verdict":
        draw.rectangle((x - 4, y - 2, x + face.getlength(text) + 8, y + size + 6), fill=rgb(line.colour))
        draw.text((x + 2, y), text, font=face, fill=(0, 0, 0))
        return
    if line.kind.startswith("legend:"):
        if first:
            _legend_glyph(draw, line.kind[7:], x, y, size)
        x += int(2.2 * size)
    left, _, right = text.partition("\t")
    draw.text((x, y), left, font=face, fill=rgb(line.colour))
    if right:
        draw.text((x + width, y), right, font=face, fill=rgb(line.colour), anchor="ra")


def _legend_glyph(draw: ImageDraw.ImageDraw, key: str, x: int, y: int, size: int) -> None:
    """A small copy of the mark the legend line explains."""
    cx, cy, r = x + size * 0.8, y + size * 0.6, size * 0.5
    if key == "edges":
        for i, terrain in enumerate(TERRAIN_BGR):
            draw.rectangle(
                (x + i * size * 0.42, cy - 3, x + (i + 1) * size * 0.42 - 1, cy + 3),
                fill=rgb(TERRAIN_BGR[terrain]),
            )
    elif key == "numbers":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=(0, 0, 0), outline=(255, 255, 255)
        )
        draw.text((cx, cy), "1", font=font(max(9, size * 2 // 3)), fill=(255, 255, 255), anchor="mm")
    elif key == "landscape":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=rgb(TERRAIN_BGR["forest"]), outline=(0, 0, 0)
        )
        draw.text((cx, cy), "+2", font=font(max(9, size * 2 // 3)), fill=(0, 0, 0), anchor="mm")
    elif key in ("misconnection", "water_rule"):
        colour = RED if key == "misconnection" else MAGENTA
        draw.line((x, cy, x + 1.6 * size, cy), fill=rgb(colour), width=max(3, size // 4))
    elif key == "animals":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=rgb(YELLOW), outline=(0, 0, 0))
    elif key == "volcanoes":
        draw.polygon(
            [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=rgb(RED), outline=(0, 0, 0)
        )
    elif key == "empty":
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=rgb(RED), width=max(2, size // 6))
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=rgb(RED), width=max(2, size // 6))
    elif key == "check":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=rgb(ORANGE), outline=(0, 0, 0)
        )
        draw.text((cx, cy), "1", font=font(max(9, size * 2 // 3)), fill=(0, 0, 0), anchor="mm")


def score_panel(image: np.ndarray, player: dict[str, Any], n_flags: int) -> np.ndarray:
    """The panel alone beside ``image`` (no island drawn): ``n_flags`` notes make the verdict."""
    plan = Plan((), (), tuple(f"reading {i + 1}" for i in range(n_flags)), (), bool(player["valid"]))
    return add_panel(image, player, plan)

"""The annotated picture of a Mediterráneo sea: every visible cell's reading on the photo, an arrow
from each octopus to the cell it touches, coloured as what it became, and a panel in a margin to the
right with both objectives, both totals, the round's verdict, what each octopus became (or why
nothing), the readings to check and a legend.

As for a Mondo island (scorecam.annotate, whose helpers this uses), the photo keeps every pixel away
from the sea: only cell outlines, labels and arrows are drawn on it, and the panel lies in a margin.
Labels are short words in the species' colours (a legend in the panel), placed by the same collision
test; lattice columns and rows are labelled just off the sea (``x=3``, ``y=-1``), so that the
report's ``(x, y)`` can be found on the picture. Flagged cells carry orange numbers, as the panel's
list numbers them. What an octopus became comes from the engine's report, never from rules here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw

from scorecam.annotate import (
    BLACK,
    GREY,
    MAGENTA,
    ORANGE,
    PANEL_BGR,
    RED,
    WHITE,
    YELLOW,
    Label,
    PanelLine,
    Placer,
    _draw_panel_line,
    _gap,
    _panel_rows,
    _rows_height,
    _text_size,
    draw_labels,
    font,
    rgb,
    verdict_line,
)
from scoring.mediterraneo import SPECIES
from scoring.sides import SIDES

BGR = tuple[int, int, int]
SPECIES_BGR: dict[str, BGR] = {
    "fish": (0, 150, 255),
    "ray": (190, 90, 150),
    "turtle": (60, 175, 60),
    "starfish": (70, 70, 225),
    "jellyfish": (215, 150, 255),
    "crab": (40, 200, 235),
}
SHORT = {"starfish": "star", "jellyfish": "jelly", "octopus": "oct", "seagull": "gull"}
GULL_BGR: BGR = (235, 235, 235)
NOTHING_BGR: BGR = (95, 95, 95)  # an octopus that became no species
# The reader's flags about one cell: by its lattice position, or (no card read there) by where it is.
FLAG_AT = re.compile(r"^Cell \((-?\d+), (-?\d+)\): ")
FLAG_NEAR = re.compile(r"^Cell near photo px \((-?\d+), (-?\d+)\): ")
# Side -> its corners in a quad (NW NE SE SW in lattice terms, as the reader gives them).
CORNERS = {"N": (0, 1), "E": (1, 2), "S": (2, 3), "W": (3, 0)}
ARROW_FROM, ARROW_TO = 0.62, 1.45  # in half cells from the octopus's centre: clear of both labels
LEGEND = {
    "species": "the animal read in each cell:",
    "octopus": "oct: an octopus, coloured as what it became (dark grey: nothing); "
    "its arrow points at the cell it touches",
    "gull": "gull: a seagull (no points)",
    "check": "orange number: a reading to check",
    "axes": "x= and y=: lattice columns and rows, the report's (x, y)",
}


@dataclass(frozen=True)
class Arrow:
    """An octopus's arrow: from its cell towards the cell it touches, and what it became."""

    x: int
    y: int
    points: str
    start: tuple[int, int]  # picture px
    end: tuple[int, int]
    becomes: str | None
    why: str


@dataclass(frozen=True)
class CellMark:
    """A flagged cell: its number (as in the panel's list), its reading's index and the flag."""

    number: int
    index: int
    text: str


@dataclass(frozen=True)
class SeaPlan:
    """What the picture shows, before it is drawn (tests read it)."""

    outlines: tuple[np.ndarray, ...]  # the visible cells' quads, picture px
    labels: tuple[Label, ...]
    arrows: tuple[Arrow, ...]
    marks: tuple[CellMark, ...]
    notes: tuple[str, ...]  # flags about the whole photo
    legend: tuple[str, ...]  # keys of LEGEND
    cell_px: float


def short_label(content: str) -> str:
    return SHORT.get(content, content)


def _text_on(fill: BGR) -> BGR:
    """Black or white text, whichever reads on ``fill``."""
    b, g, r = fill
    return BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


def _mid(quad: np.ndarray, side: str) -> np.ndarray:
    a, b = CORNERS[side]
    return (quad[a] + quad[b]) / 2


def flag_marks(flags: Sequence[str], readings: Sequence[Any]) -> tuple[list[CellMark], list[str]]:
    """Numbered marks of the flags about one cell (1.., in report order), and the other flags.
    ``readings``: the reader's CellReading (cell, quad in the reading's view px)."""
    at = {(r.cell.x, r.cell.y): i for i, r in enumerate(readings) if r.cell is not None}
    centres = [tuple(int(v) for v in np.round(np.asarray(r.quad).mean(0))) for r in readings]
    marks: list[CellMark] = []
    notes: list[str] = []
    for flag in flags:
        index = None
        if match := FLAG_AT.match(flag):
            index = at.get((int(match.group(1)), int(match.group(2))))
        elif match := FLAG_NEAR.match(flag):
            near = (int(match.group(1)), int(match.group(2)))
            index = centres.index(near) if near in centres else None
        if index is None:
            notes.append(flag)
        else:
            marks.append(CellMark(len(marks) + 1, index, flag))
    return marks, notes


def plan_sea_picture(
    readings: Sequence[Any], quads: np.ndarray, report: dict[str, Any], shape: tuple[int, ...]
) -> SeaPlan:
    """Where everything goes: the cells' labels first (on the cells), then the octopuses' arrows,
    the flagged cells' numbers, and the lattice's column and row labels off the sea.

    ``readings``: the reader's CellReading, ``quads`` their quads in the picture's px, ``report``
    the sea's score report (its ``octopuses`` say what each became; its ``flags`` what to check)."""
    quads = np.asarray(quads, np.float32)
    height, width = shape[:2]
    visible = [i for i, r in enumerate(readings) if r.cell is not None]
    cell = float(np.median([np.linalg.norm(quads[i][1] - quads[i][0]) for i in visible])) if visible else 40.0
    size = _label_size(cell)
    pad = max(2, size // 5)
    placer = Placer(width, height)
    labels: list[Label] = []
    octopuses = {(o["x"], o["y"]): o for o in report.get("octopuses", [])}

    def add(
        kind: str, text: str, anchor: tuple[int, int], fill: BGR, avoid: np.ndarray | None = None
    ) -> None:
        box = placer.place(_text_size(text, size, pad), anchor, max(3.0, cell * 0.1), avoid)
        labels.append(Label(kind, text, box, _text_on(fill), fill, anchor))

    for i in visible:
        c = readings[i].cell
        fill = SPECIES_BGR.get(c.content, GULL_BGR)
        if c.content == "octopus":
            becomes = octopuses.get((c.x, c.y), {}).get("becomes")
            fill = SPECIES_BGR.get(becomes, NOTHING_BGR) if becomes else NOTHING_BGR
        add(c.content, short_label(c.content), _point(quads[i].mean(0)), fill)
    arrows = []
    for i in visible:
        c = readings[i].cell
        if c.content != "octopus" or c.points not in SIDES:
            continue
        o = octopuses.get((c.x, c.y), {"becomes": None, "why": "not in the report"})
        centre, towards = quads[i].mean(0), _mid(quads[i], c.points) - quads[i].mean(0)
        start, end = _point(centre + ARROW_FROM * towards), _point(centre + ARROW_TO * towards)
        arrows.append(Arrow(c.x, c.y, c.points, start, end, o["becomes"], o["why"]))
    marks, notes = flag_marks(report.get("flags", []), readings)
    for mark in marks:
        q = quads[mark.index]
        add("check", str(mark.number), _point(q[0] * 0.7 + q[2] * 0.3), ORANGE)  # by its NW corner
    hull = cv2.convexHull(quads[visible].reshape(-1, 2)) if visible else None
    columns: dict[int, int] = {}
    rows: dict[int, int] = {}
    for i in visible:
        c = readings[i].cell
        if c.x not in columns or c.y < readings[columns[c.x]].cell.y:
            columns[c.x] = i
        if c.y not in rows or c.x < readings[rows[c.y]].cell.x:
            rows[c.y] = i
    for x, i in sorted(columns.items()):
        q = quads[i]
        add("axis", f"x={x}", _point(_mid(q, "N") + (_mid(q, "N") - q.mean(0)) * 0.7), BLACK, hull)
    for y, i in sorted(rows.items()):
        q = quads[i]
        add("axis", f"y={y}", _point(_mid(q, "W") + (_mid(q, "W") - q.mean(0)) * 0.9), BLACK, hull)
    contents = {readings[i].cell.content for i in visible}
    legend = ["species"]
    legend += ["octopus"] if "octopus" in contents else []
    legend += ["gull"] if "seagull" in contents else []
    legend += ["check"] if marks else []
    legend.append("axes")
    return SeaPlan(
        tuple(quads[i] for i in visible),
        tuple(labels),
        tuple(arrows),
        tuple(marks),
        tuple(notes),
        tuple(legend),
        cell,
    )


def _label_size(cell: float) -> int:
    """The largest text size at which the widest cell label fills at most about half a cell."""
    widest = max((short_label(s) for s in (*SPECIES, "octopus", "seagull")), key=len)
    size = max(10, int(cell * 0.3))
    while size > 10 and _text_size(widest, size, max(2, size // 5))[0] > 0.56 * cell:
        size -= 1
    return size


def _point(p: np.ndarray) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))


def annotate_sea(
    image: np.ndarray,
    readings: Sequence[Any],
    quads: np.ndarray,
    report: dict[str, Any],
    objective_cards: Sequence[tuple[str, np.ndarray, bool]] = (),
) -> np.ndarray:
    """The photo with the sea's reading drawn on it, and the panel in a margin to its right.
    ``quads``: each reading's quad in ``image`` px; ``report``: the photo's score report;
    ``objective_cards``: the objective cards read (what each says, its quad in ``image`` px, sure)."""
    plan = plan_sea_picture(readings, quads, report, image.shape)
    out = image.copy()
    unit = max(1, int(plan.cell_px / 40))
    for text, quad, sure in objective_cards:  # outlined as read: white when sure, orange to check
        _objective_card(out, np.asarray(quad, np.float32), text, WHITE if sure else ORANGE, unit)
    for q in plan.outlines:
        cv2.polylines(out, [q.astype(np.int32)], True, WHITE, max(1, unit // 2), cv2.LINE_AA)
    for mark in plan.marks:
        q = np.asarray(quads[mark.index], np.float32)
        inset = (q - q.mean(0)) * 0.9 + q.mean(0)
        cv2.polylines(out, [inset.astype(np.int32)], True, ORANGE, 2 * unit, cv2.LINE_AA)
    out = draw_labels(out, plan)  # type: ignore[arg-type]  # it reads only .labels
    for arrow in plan.arrows:  # over the labels: an arrow is never hidden
        colour = SPECIES_BGR.get(arrow.becomes or "", NOTHING_BGR)
        length = max(1.0, float(np.hypot(arrow.end[0] - arrow.start[0], arrow.end[1] - arrow.start[1])))
        tip = min(0.6, plan.cell_px * 0.16 / length)
        cv2.arrowedLine(out, arrow.start, arrow.end, BLACK, 2 * unit + 3, cv2.LINE_AA, tipLength=tip)
        cv2.arrowedLine(out, arrow.start, arrow.end, colour, 2 * unit + 1, cv2.LINE_AA, tipLength=tip)
        if arrow.becomes is None:  # nothing: a red cross where it points
            r = int(plan.cell_px * 0.09)
            x, y = arrow.end
            for a, b in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
                cv2.line(out, a, b, BLACK, 2 * unit + 3, cv2.LINE_AA)
                cv2.line(out, a, b, RED, 2 * unit + 1, cv2.LINE_AA)
    return add_sea_panel(out, sea_panel_lines(report, plan))


def _objective_card(out: np.ndarray, quad: np.ndarray, text: str, colour: BGR, unit: int) -> None:
    """A read objective card's outline and, along its top edge, what it was read as."""
    cv2.polylines(out, [quad.astype(np.int32)], True, BLACK, 2 * unit + 3, cv2.LINE_AA)
    cv2.polylines(out, [quad.astype(np.int32)], True, colour, 2 * unit + 1, cv2.LINE_AA)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    scale = max(0.35, side / 220)
    x, y = _point(quad[np.argmin(quad[:, 1])])
    thick = max(1, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x = min(max(0, x - w // 2), max(0, out.shape[1] - w))
    y = max(h + 4, y - 6)
    cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, BLACK, thick + 3, cv2.LINE_AA)
    cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


# --- the panel ----------------------------------------------------------------------------------


def sea_panel_lines(report: dict[str, Any], plan: SeaPlan) -> list[PanelLine]:
    """Everything the panel says, top to bottom: each player's objective and points (the first to
    choose first), the round's verdict, the reading's verdict, the checks, the octopuses, the counts
    and the legend."""
    counts = report.get("species", {})
    first = (report.get("board") or {}).get("first")
    lines = [PanelLine("Mediterráneo sea", WHITE, "title")]
    source = {"read": " (read from its card)", "given": " (given)"}.get(report.get("objectives_from", ""), "")
    for p in report["players"]:
        chose = " (chose first)" if p["name"] == first else ""
        if chose and report.get("first_from") == "assumed":
            chose = " (taken as first: not seen)"
        lines.append(PanelLine(f"{p['name']}{chose}: +2 {p['plus']}, -1 {p['minus']}{source}", WHITE))
        n_plus, n_minus = counts.get(p["plus"], 0), counts.get(p["minus"], 0)
        lines.append(PanelLine(f"  {n_plus} {p['plus']} x +2\t{p['points']['plus']:+d}", GREY))
        lines.append(PanelLine(f"  {n_minus} {p['minus']} x -1\t{p['points']['minus']:+d}", GREY))
        lines.append(PanelLine(f"Total {p['name']}\t{p['total']}", YELLOW, "title"))
    if not report.get("objectives_legal", True):
        lines.append(PanelLine(f"Objectives not allowed: {report.get('objectives_why', '')}", MAGENTA))
    lines.append(PanelLine(round_line(report), YELLOW))
    lines.append(PanelLine(*verdict_line(len(plan.marks) + len(plan.notes)), "verdict"))
    lines += [PanelLine(note, ORANGE) for note in plan.notes]
    if plan.marks:
        lines.append(PanelLine("Check these readings:", WHITE))
        lines += [PanelLine(f"{m.number}. {m.text}", WHITE, "check") for m in plan.marks]
    if report.get("octopuses"):
        lines.append(PanelLine("Octopuses:", WHITE))
        for o in report["octopuses"]:
            what = o["becomes"] or "nothing"
            lines.append(PanelLine(f"({o['x']}, {o['y']}) -> {what}: {o['why']}", GREY, "check"))
    seen = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no animals"
    lines.append(PanelLine(f"Animals that count: {seen}", GREY))
    lines.append(PanelLine("", WHITE, "gap"))
    lines += [PanelLine(LEGEND[key], GREY, f"legend:sea_{key}") for key in plan.legend]
    return lines


def round_line(report: dict[str, Any]) -> str:
    """Whether the round is over, why, and who leads (or won)."""
    leader = report.get("leader")
    if not report.get("round_over"):
        lead = f"{leader} leads" if leader else "the players are tied"
        return f"Round not over (no one has 10 points yet); {lead}"
    why = report.get("round_why", "")
    outcome = {
        "won": f"{leader} wins the round",
        "tie_play_on": "a tie: play goes on while cards remain",
        "replay": "a tie with no cards left: the round is replayed",
    }.get(report.get("round_outcome", ""), f"{leader} leads" if leader else "tied")
    return f"Round over ({why}): {outcome}"


def add_sea_panel(photo: np.ndarray, lines: list[PanelLine]) -> np.ndarray:
    """The photo, untouched, with the panel in a margin added to its right (taller if need be)."""
    height, width = photo.shape[:2]
    long_side = max(height, width)
    margin = max(380, int(0.42 * long_side))
    pad = max(13, round(long_side / 64))
    for size in range(pad, max(13, pad * 3 // 4) - 1, -1):  # smaller text where the panel outgrows the photo
        rows = _panel_rows(lines, margin - 2 * pad, size)
        if _rows_height(rows, size) + pad <= height:
            break
    canvas = Image.new(
        "RGB", (width + margin, max(height, _rows_height(rows, size) + 2 * pad)), rgb(PANEL_BGR)
    )
    canvas.paste(Image.fromarray(cv2.cvtColor(photo, cv2.COLOR_BGR2RGB)), (0, 0))
    draw = ImageDraw.Draw(canvas)
    x, y = width + pad, pad
    for line, wrapped in rows:
        for i, part in enumerate(wrapped):
            _draw_panel_line(draw, line, part, x, y, margin - 2 * pad, size, first=i == 0)
            if line.kind.startswith("legend:sea_") and i == 0:
                _sea_glyph(draw, line.kind[len("legend:sea_") :], x, y, size)
            y += int(size * 1.35)
        y += _gap(line, size)
        if line.kind == "legend:sea_species":
            y = _species_chips(draw, x + int(2.2 * size), y, margin - 2 * pad - int(2.2 * size), size)
    return cv2.cvtColor(np.asarray(canvas), cv2.COLOR_RGB2BGR)


def _species_chips(draw: ImageDraw.ImageDraw, x0: int, y: int, width: int, size: int) -> int:
    """The six species' labels as the photo shows them, in rows; the y below them."""
    face, x = font(size), x0
    for species in SPECIES:
        text = short_label(species)
        w = int(face.getlength(text)) + 10
        if x + w > x0 + width and x > x0:
            x, y = x0, y + int(size * 1.5)
        fill = SPECIES_BGR[species]
        draw.rounded_rectangle((x, y, x + w, y + size + 6), radius=4, fill=rgb(fill), outline=(0, 0, 0))
        draw.text((x + w / 2, y + (size + 6) / 2), text, font=face, fill=rgb(_text_on(fill)), anchor="mm")
        x += w + 6
    return y + int(size * 1.5) + size // 2


def _sea_glyph(draw: ImageDraw.ImageDraw, key: str, x: int, y: int, size: int) -> None:
    """A small copy of the mark a legend line explains."""
    cy, r = y + size * 0.6, size * 0.5
    if key == "octopus":
        colour = rgb(SPECIES_BGR["ray"])
        draw.line((x, cy, x + 1.5 * size, cy), fill=colour, width=max(3, size // 5))
        draw.polygon([(x + 1.9 * size, cy), (x + 1.3 * size, cy - r), (x + 1.3 * size, cy + r)], fill=colour)
    elif key == "gull":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=rgb(GULL_BGR), outline=(0, 0, 0)
        )
    elif key == "check":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=rgb(ORANGE), outline=(0, 0, 0)
        )
        draw.text((x + 0.8 * size, cy), "1", font=font(max(9, size * 2 // 3)), fill=(0, 0, 0), anchor="mm")
    elif key == "axes":
        draw.rounded_rectangle(
            (x, cy - r, x + 1.6 * size, cy + r), radius=3, fill=(0, 0, 0), outline=(255, 255, 255)
        )
        draw.text(
            (x + 0.8 * size, cy), "x", font=font(max(9, size * 2 // 3)), fill=(255, 255, 255), anchor="mm"
        )


# --- writing it -----------------------------------------------------------------------------------


def write_sea_annotation(
    output: Path, photo_path: Path, reading_scale: float, reading: Any, report: dict[str, Any]
) -> Path:
    """Draw the reading on the photo, decoded at a size a person looks at, and write it safely.
    ``reading_scale``: full-size px per px of the view the reader read (its quads are in that view)."""
    from scorecam.commands.annotated import write_picture
    from vision.photo_io import read_photo

    view = read_photo(photo_path, min_long_side=1600)
    k = reading_scale / view.scale  # the reading's view px -> the picture's px
    quads = np.array([np.asarray(r.quad, np.float32) * k for r in reading.readings], np.float32)
    cards = getattr(reading, "objectives", None)
    objective_cards = [
        (f"{c.player}: +2 {c.objective.plus} -1 {c.objective.minus}", np.asarray(c.quad) * k, c.sure)
        for c in (cards.cards if cards is not None else ())
    ]
    picture = annotate_sea(view.image, reading.readings, quads, report, objective_cards)
    return write_picture(picture, output)

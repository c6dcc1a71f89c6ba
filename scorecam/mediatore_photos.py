"""Scoring a photo of one side's won Mediatore cards: read every card whose corner shows
(``vision.mediatore``), count its points in thirds and floor them, and draw the annotated picture.

The report (``scorecam score photo.jpg --game mediatore``): ``cards`` (each card read, its points in
thirds and its confidence), ``thirds`` and ``exact`` (the cards' points as a player says them,
``5 2/3``), ``points`` (floored: what the side scores from its cards, before the last trick),
``cards_read``, ``unsure_corners`` (where a corner was found but not read surely enough to count:
full-size px of its centre, what the flag asks a person to look at), plus ``source``, ``board``
(the cards as a list of ids: the side file that `scorecam mediatore round --side bidder=FILE`
takes; fix a card and use it), ``flags``, ``status`` and ``timing_ms`` (DESIGN.md, "Score reports").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorecam.errors import printable_path

if TYPE_CHECKING:  # numpy is imported where a picture is drawn: `score` on a board file never needs it
    import numpy as np

# the corner indices of the figures, as the cards print them
INDEX = {"fante": "F", "cavallo": "C", "re": "R"}


def read_side_photo(path: Path) -> tuple[Any, Any, float]:
    """(cards, reading, decode ms) of a photo; an InputError with the reader's reason."""
    from scorecam.photos import read_photo_with
    from vision.mediatore import read_cards

    return read_photo_with(path, read_cards)


def side_report(cards: Any, reading: Any) -> dict[str, Any]:
    """The side's count: every card read with its points, the thirds and the floor."""
    from scoring.mediatore import thirds_of, thirds_text

    thirds = thirds_of(cards)
    return {
        "format": 1,
        "game": "mediatore",
        "cards_read": len(cards),
        "cards": [
            {
                "card": c.card.id,
                "thirds": c.card.thirds,
                "points": thirds_text(c.card.thirds) if c.card.thirds else "0",
                "confidence": round(c.confidence, 4),
                "corners": len(c.corners),
            }
            for c in reading.cards
        ],
        "thirds": thirds,
        "exact": thirds_text(thirds),
        "points": thirds // 3,
        "unsure_corners": [
            [round(s.x * reading.view_scale), round(s.y * reading.view_scale)] for s in reading.unsure
        ],
    }


def score_side_photo_file(path: Path) -> tuple[dict[str, Any], Any]:
    """The report of one photo of a side's won cards (and the reading, for the picture)."""
    cards, reading, decode_ms = read_side_photo(path)
    t = time.perf_counter()
    report = side_report(cards, reading)
    timing = {"decode": round(decode_ms, 1), **{k: round(v, 1) for k, v in reading.timing_ms.items()}}
    timing["score"] = round((time.perf_counter() - t) * 1000, 1)
    timing["total"] = round(sum(timing.values()), 1)
    return report | {
        "source": printable_path(path),
        "board": [c.id for c in cards],
        "flags": list(reading.flags),
        "status": reading.status,
        "timing_ms": timing,
    }, reading


def side_layout(report: dict[str, Any]) -> list:
    """The table of a side's count: a row per card with points, then the sum, the floor, the flags."""
    from scorecam.tables import Rows, check_lines

    rows = [["Card", "Points", "Sure"]]
    for c in report["cards"]:
        rows.append([c["card"], c["points"], f"{c['confidence']:.0%}"])
    rows.append(["Sum", report["exact"], ""])
    lines: list = [f"{report['cards_read']} cards read", "", Rows(rows), ""]
    lines.append(
        f"card points: {report['exact']} -> {report['points']} (thirds are floored at the round's end)"
    )
    lines += check_lines(report)
    lines.append(f"status: {report['status']}")
    t = report.get("timing_ms", {})
    if "total" in t:
        lines.append(
            f"read in {t['total']:.0f} ms (decode {t['decode']:.0f}, locate {t['locate']:.0f}, "
            f"corners {t['corners']:.0f})"
        )
    return lines


# ------------------------------------------------------------------------------- annotated picture


def _box(spot: Any, scale: float) -> np.ndarray:
    """A corner box's outline (13 x 27 mm) in the picture's px."""
    import math

    import numpy as np

    a = math.radians(spot.angle)
    u = np.array([math.cos(a), math.sin(a)]) * spot.long / 2
    v = np.array([-math.sin(a), math.cos(a)]) * spot.long * (13.0 / 27.0) / 2
    c = np.array([spot.x, spot.y])
    return (np.array([c - u - v, c - u + v, c + u + v, c + u - v]) * scale).astype(np.int32)


def _label_at(spot: Any, scale: float) -> tuple[int, int]:
    """Where a corner's label goes on the picture (``scale`` picture px per view px): above its box."""
    return int(spot.x * scale), int((spot.y - spot.long * 0.7) * scale)


def annotate_side(image: np.ndarray, image_scale: float, reading: Any, report: dict[str, Any]) -> np.ndarray:
    """The photo with every card's corner outlined and labelled with its reading and points, and a
    panel with the cards' points, the thirds and the floor, and the flags. ``image_scale``: full-size
    photo px per px of ``image``."""
    import cv2
    from PIL import Image, ImageDraw

    from scorecam.annotate import (
        GREEN,
        GREY,
        ORANGE,
        WHITE,
        YELLOW,
        font,
        margin_panel,
        rgb,
        verdict_line,
    )

    scale = reading.view_scale / image_scale
    out = image.copy()
    long_side = max(out.shape[:2])
    size = max(12, long_side // 90)
    labels = []
    for read in reading.cards:
        colour = (
            ORANGE if read.duplicate or read.confidence < 0.9 else (YELLOW if read.card.thirds else GREEN)
        )
        for spot in read.corners:
            cv2.polylines(out, [_box(spot, scale)], True, colour, max(2, size // 6), cv2.LINE_AA)
        spot = read.corners[0]
        points = report_points(read.card.thirds)
        text = f"{INDEX.get(read.card.rank, read.card.rank)} {read.card.suit}" + (
            f" {points}" if read.card.thirds else ""
        )
        labels.append((_label_at(spot, scale), text, colour))
    for spot in reading.unsure:  # a corner found but not read: the flag's "look here"
        cv2.polylines(out, [_box(spot, scale)], True, ORANGE, max(2, size // 6), cv2.LINE_AA)
        labels.append((_label_at(spot, scale), "?", ORANGE))
    canvas = Image.fromarray(cv2.cvtColor(out, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(canvas)
    face = font(size)
    for (x, y), text, colour in labels:
        w = face.getlength(text)
        x = int(min(max(x - w / 2, 2), canvas.width - w - 2))
        y = int(min(max(y - size, 2), canvas.height - size - 6))
        draw.rectangle((x - 3, y - 1, x + w + 3, y + size + 4), fill=(0, 0, 0), outline=rgb(colour))
        draw.text((x, y), text, font=face, fill=rgb(colour))
    panel_size = max(14, long_side // 70)
    aces = [c["card"] for c in report["cards"] if c["thirds"] == 3]
    thirds = [c["card"] for c in report["cards"] if c["thirds"] == 1]
    nothing = len(report["cards"]) - len(aces) - len(thirds)
    lines = [("Mediatore: one side's cards", WHITE), (f"{report['cards_read']} cards read", WHITE)]
    lines.append((f"aces, 1 each ({len(aces)}): {', '.join(aces) or '-'}", WHITE))
    lines.append((f"3, 2, Re, Cavallo, Fante, 1/3 each ({len(thirds)}): {', '.join(thirds) or '-'}", WHITE))
    lines.append((f"7, 6, 5, 4, nothing ({nothing})", GREY))
    lines.append((f"card points {report['exact']} -> {report['points']} (thirds floored)", YELLOW))
    text, colour = verdict_line(len(reading.flags))
    lines.append((text, colour))
    lines += [(f"{i + 1}. {flag}", ORANGE) for i, flag in enumerate(reading.flags[:8])]
    lines.append(("corners: yellow a card with points, green none, orange to check, ? not read", GREY))
    return margin_panel(canvas, lines, long_side, panel_size)


def report_points(thirds: int) -> str:
    from scoring.mediatore import thirds_text

    return thirds_text(thirds)


def write_side_annotation(output: Path, photo_path: Path, reading: Any, report: dict[str, Any]) -> Path:
    """Draw the reading on the photo, decoded at a size a person looks at, and write it safely."""
    from scorecam.commands.annotated import write_picture
    from vision.photo_io import read_photo

    view = read_photo(photo_path, min_long_side=1600)
    picture = annotate_side(view.image, view.scale, reading, report)
    return write_picture(picture, output)

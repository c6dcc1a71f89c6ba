"""Scoring a photo of a Snorkeling table at the end of a round: read every diver's top card
(``vision.snorkeling``), name the divers (``--players``), add the round to a running game
(``--totals``), score, and draw the annotated picture.

The report is the round's report plus ``source``, ``board`` (the round read: fix a card and score
the JSON again), ``flags`` (doubts that may change a score: ``status`` "check"), ``status``, ``notes``
(doubts that change no score: the central pile's top card) and ``timing_ms`` (DESIGN.md, "Score
reports").
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from scorecam.errors import printable_path


def read_round_photo(
    path: Path, mats: frozenset[int] | None = None, players: int | None = None
) -> tuple[Any, Any, float]:
    """(board, reading, decode ms) of a photo, its mats numbered among ``mats`` where the players
    named theirs, ``players`` the divers' count where told; an InputError with the reader's reason."""
    from functools import partial

    from scorecam.photos import read_photo_with
    from vision.snorkeling import read_round

    return read_photo_with(path, partial(read_round, mats=mats, players=players))


def score_round_photo_file(
    path: Path, names: Mapping[int, str] | None = None, running: Any = None
) -> tuple[dict[str, Any], Any]:
    """The report of one Snorkeling photo (and the reading, for the picture)."""
    from scorecam.commands.snorkeling import name_round
    from scorecam.inputs import score_board_data
    from scoring.snorkeling import round_to_json

    named = frozenset(names or ()) or None
    count = getattr(names, "count", None) or (len(named) if named else None)
    board, reading, decode_ms = read_round_photo(path, named, count)
    data = round_to_json(board)
    if names:
        # what the players said: a mat named (or counted) but not found is flagged, not refused as
        # in a board file, and the divers found are named
        from vision.snorkeling.players import with_players

        reading = with_players(reading, getattr(names, "count", None), dict(names))
        found = {d.mat for d in board.divers}
        if running is not None:
            _refuse_short_round(path, found, names, running.path)
        data = name_round(data, {m: n for m, n in names.items() if m in found}, path)
    if running is not None:
        data = running.prepare(data, path)
    t = time.perf_counter()
    report = score_board_data(data, path)
    timing = {"decode": round(decode_ms, 1), **{k: round(v, 1) for k, v in reading.timing_ms.items()}}
    timing["score"] = round((time.perf_counter() - t) * 1000, 1)
    timing["total"] = round(sum(timing.values()), 1)
    return report | {
        "source": printable_path(path),
        "board": data,
        "flags": list(reading.flags),
        "checks": [],
        "status": reading.status,
        "notes": list(getattr(reading, "notes", ())),
        "timing_ms": timing,
    }, reading


def _refuse_short_round(path: Path, found: set[int], names: Mapping[int, str], game: Path) -> None:
    """A round with a named (or counted) diver's mat not found is not added to the running game: it
    would score that diver nothing, or start the game without them."""
    from scorecam.errors import InputError

    missing = sorted(set(names) - found)
    count = getattr(names, "count", None)
    if missing:
        what = ", ".join(f"mat {m} ({names[m]})" for m in missing) + " not found in the photo"
    elif count is not None and count > len(found):
        what = f"{len(found)} mats found for {count} players"
    else:
        return
    raise InputError(
        str(path), f"{what}: not added to {game.name} (fix the round's --json board and score that)"
    )


# ------------------------------------------------------------------------------- annotated picture


def _box(spot, scale: float) -> np.ndarray:
    """The four corners of a spot (a mat, the central pile's card) in the picture's px."""
    import math

    a = math.radians(spot.angle)
    u = np.array([math.cos(a), math.sin(a)]) * spot.long / 2
    v = np.array([-math.sin(a), math.cos(a)]) * spot.long * 0.72 / 2  # the mat's width over its length
    c = np.array([spot.x, spot.y])
    return (np.array([c - u - v, c - u + v, c + u + v, c + u - v]) * scale).astype(np.int32)


def annotate_round(image: np.ndarray, image_scale: float, reading: Any, report: dict[str, Any]) -> np.ndarray:
    """The photo with each pile's player, top card and points on its mat, the Beach that ended the
    round marked, the central pile outlined, and a panel with the round's score and the flags.
    ``image_scale``: full-size photo px per px of ``image``."""
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

    scale = reading.view_scale / image_scale  # the reading's view px -> the picture's px
    out = image.copy()
    players = {p["mat"]: p for p in report["players"]}
    long_side = max(out.shape[:2])
    size = max(14, long_side // 70)
    labels = []
    for pile in reading.piles:
        player = players.get(pile.mat)
        beach = pile.top.card.value == 0
        colour = ORANGE if _to_check(pile, reading.flags) else (YELLOW if beach else GREEN)
        cv2.polylines(out, [_box(pile.spot, scale)], True, colour, max(2, size // 5), cv2.LINE_AA)
        card = (
            "Lanternfish" if pile.top.card.is_lanternfish else f"{pile.top.card.value} {pile.top.card.color}"
        )
        name = player["name"] if player else f"diver {pile.mat}"
        points = player["points"]["top"] if player else pile.top.card.value
        text = f"{name}: {card} = {points}" + ("  (Beach: round over)" if beach else "")
        labels.append(
            ((int(pile.spot.x * scale), int((pile.spot.y - pile.spot.long * 0.62) * scale)), text, colour)
        )
    if reading.centre_spot is not None:
        cv2.polylines(out, [_box(reading.centre_spot, scale)], True, WHITE, max(2, size // 6), cv2.LINE_AA)
        c = reading.centre
        text = f"centre: {c.card.value} {c.card.color}" if c else "centre"
        if c and c.confidence < 0.9:  # a doubt noted (it scores nobody), never flagged
            text += " (unsure: scores nobody)"
        labels.append(((int(reading.centre_spot.x * scale), int(reading.centre_spot.y * scale)), text, WHITE))
    missing = getattr(reading, "missing_at", None)
    if missing is not None and reading.piles:  # the gap round the table where a mat likely lies
        x, y = int(missing[0] * scale), int(missing[1] * scale)
        radius = int(float(np.median([p.spot.long for p in reading.piles])) * scale / 2)
        cv2.circle(out, (x, y), radius, ORANGE, max(2, size // 5), cv2.LINE_AA)
        labels.append(((x, y - radius // 3), "a mat near here, not found?", ORANGE))
    canvas = Image.fromarray(cv2.cvtColor(out, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(canvas)
    face = font(size)
    for (x, y), text, colour in labels:
        w = face.getlength(text)
        x = int(min(max(x - w / 2, 2), canvas.width - w - 2))
        y = int(min(max(y - size, 2), canvas.height - size - 6))
        draw.rectangle((x - 4, y - 2, x + w + 4, y + size + 6), fill=(0, 0, 0), outline=rgb(colour))
        draw.text((x, y), text, font=face, fill=rgb(colour))
    lines = [("Snorkeling round", WHITE)]
    for p in report["players"]:
        lines.append((f"{p['name']} (mat {p['mat']}): {p['points']['top']:+d}  total {p['total']}", WHITE))
    lines.append(
        (report.get("round_why") or ("round over" if report.get("round_over") else "round not over"), YELLOW)
    )
    if report.get("winners"):
        lines.append((f"winner: {', '.join(report['winners'])}", YELLOW))
    totals = report.get("totals")
    if totals and totals.get("winners"):
        lines.append((f"game won by {', '.join(totals['winners'])}", YELLOW))
    text, colour = verdict_line(len(reading.flags))
    lines.append((text, colour))
    lines += [(f"{i + 1}. {flag}", ORANGE) for i, flag in enumerate(reading.flags[:8])]
    lines += [(f"note: {note}", GREY) for note in getattr(reading, "notes", ())[:2]]
    lines.append(("boxes: green a pile read surely, yellow its Beach ended the round, orange to check", GREY))
    if missing is not None:
        lines.append(("orange circle: the gap round the table where a mat likely lies unseen", GREY))
    return margin_panel(canvas, lines, long_side, size, step=1.35, gap=size // 3)


def _to_check(pile: Any, flags: Sequence[str]) -> bool:
    """Whether a pile's box says "check": its top card read unsure, or a flag names its mat (a
    card or a number taken at a second look is sure there, but the round is to check)."""
    return pile.top.confidence < 0.9 or any(f.startswith(f"Mat {pile.mat}:") for f in flags)


def write_round_annotation(output: Path, photo_path: Path, reading: Any, report: dict[str, Any]) -> Path:
    """Draw the reading on the photo, decoded at a size a person looks at, and write it safely."""
    from scorecam.commands.annotated import write_picture
    from vision.photo_io import read_photo

    view = read_photo(photo_path, min_long_side=1600)
    picture = annotate_round(view.image, view.scale, reading, report)
    return write_picture(picture, output)

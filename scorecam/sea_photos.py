"""Scoring a photo of a Mediterráneo sea: read the visible cells and the players' objectives (the two
objective cards beside the sea, or as given on the command line: given ones override), score.

The report is the sea's report plus ``source``, ``board`` (the sea read, objectives included: fix a
cell and score the JSON again), ``objectives_from`` ("read" from the photo's cards, or "given"),
``objective_cards`` (the cards read: player, plus, minus, card, confidence, sure), ``flags`` (a
doubtful or cut-off objective card among them), ``status`` and ``timing_ms`` (DESIGN.md, "Score
reports").
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scorecam.errors import Exit, InputError, printable_path
from scoring.mediterraneo import SPECIES, Objective

PLAYERS = ("circle", "square")
OBJECTIVE = re.compile(r"^(circle|square)=([a-z]+)/([a-z]+)$")
OBJECTIVES_HELP = (
    "--objectives 'circle=PLUS/MINUS square=PLUS/MINUS' (e.g. circle=ray/fish square=turtle/ray)"
)


def parse_objectives(values: Iterable[str]) -> dict[str, Objective]:
    """`circle=ray/fish square=turtle/ray` (one value or several, split at spaces and commas) as player
    -> Objective, in the order given; ValueError with a reason a person understands."""
    out: dict[str, Objective] = {}
    for part in (p for value in values for p in re.split(r"[\s,]+", value) if p):
        m = OBJECTIVE.match(part.lower())
        if not m:
            raise ValueError(f"{part!r} is not PLAYER=PLUS/MINUS (players: circle, square)")
        player, plus, minus = m.groups()
        for species in (plus, minus):
            if species not in SPECIES:
                raise ValueError(f"unknown species {species!r} in {part!r} (species: {', '.join(SPECIES)})")
        if plus == minus:
            raise ValueError(f"{part!r}: plus and minus name the same species")
        if player in out:
            raise ValueError(f"{player} is given two objectives")
        out[player] = Objective(plus, minus)
    if out and len(out) != 2:
        raise ValueError("give both players' objectives: " + OBJECTIVES_HELP)
    return out


def score_sea_photo_file(
    path: Path,
    objectives: dict[str, Objective] | None,
    first: str | None,
    picture: Path | None = None,
    how_to_give: str = f"pass {OBJECTIVES_HELP}",
) -> dict[str, Any]:
    """The report of one sea photo; an InputError when there is no sea, or no objectives to score by
    (``how_to_give`` says how to give them). ``picture``: where to draw the annotated picture."""
    from scorecam.photos import EXIT_FOR
    from scoring.mediterraneo import Sea, score_sea, sea_report_to_json, sea_to_json, species_counts
    from vision.errors import PhotoError
    from vision.mediterraneo.reader import read_sea
    from vision.photo_io import read_photo

    start = time.perf_counter()
    try:
        photo = read_photo(path)
        decode_ms = (time.perf_counter() - start) * 1000
        order = dict(objectives or {})
        if order and first:
            order = {first: order[first], **{p: o for p, o in order.items() if p != first}}
        sea, reading = read_sea(photo, order or None, first or (next(iter(order)) if order else None))
    except PhotoError as error:
        raise InputError(str(path), error.reason, EXIT_FOR[error.kind]) from None
    if sea is None:
        # the counts do not depend on the objectives: any pair shows them
        counts = species_counts(
            Sea(reading.cells, {p: Objective("fish", "ray") for p in PLAYERS}, PLAYERS[0])
        )
        seen = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no animals"
        raise InputError(
            str(path),
            f"a sea of {len(reading.cells)} visible cells ({seen}), but no objectives to score it by "
            f"({_cards_missing(reading.objectives)}): {how_to_give}",
            Exit.USAGE,
        )
    t = time.perf_counter()
    report = sea_report_to_json(score_sea(sea))
    score_ms = (time.perf_counter() - t) * 1000
    timing = {"decode": round(decode_ms, 1), **{k: round(v, 1) for k, v in reading.timing_ms.items()}}
    timing["score"] = round(score_ms, 1)
    timing["total"] = round(sum(timing.values()), 1)
    report |= {
        "source": printable_path(path),
        "board": sea_to_json(sea),
        "objectives_from": reading.objectives_from,
        # who chose first cannot be seen: given (--first), else the order given, else taken as circle
        "first_from": "given" if first else ("order given" if order else "assumed"),
        "objective_cards": _cards_json(reading.objectives),
        "flags": list(reading.all_flags),
        "checks": [],
        "status": reading.status,
        "timing_ms": timing,
    }
    if picture is not None:
        from scorecam.sea_picture import write_sea_annotation

        report["annotated"] = str(write_sea_annotation(picture, path, photo.scale, reading, report))
    return report


def _cards_missing(objectives: Any) -> str:
    """Which objective cards the photo lacks, and what was read of the other, in words."""
    if objectives is None:
        return "none read"
    missing = " and ".join(objectives.missing())
    read = "; ".join(f"{c.player} read as {c.objective.plus}/{c.objective.minus}" for c in objectives.cards)
    cards = "card is" if len(objectives.missing()) == 1 else "cards are"
    return f"the {missing} objective {cards} not in the photo" + (f"; {read}" if read else "")


def _cards_json(objectives: Any) -> list[dict[str, Any]]:
    if objectives is None:
        return []
    return [
        {
            "player": c.player,
            "plus": c.objective.plus,
            "minus": c.objective.minus,
            "card": c.card,
            "confidence": round(c.confidence, 3),
            "sure": c.sure,
        }
        for c in objectives.cards
    ]

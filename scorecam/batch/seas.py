"""Mediterráneo seas in a batch: the objectives each sea photo is scored by, and its report.

The objectives come from an ``objectives.txt`` in the photo's folder, or else from ``batch
--objectives ... --first ...`` for the whole run, or else from the photo: the two objective cards
beside the sea are read (``objectives_from`` is then "read"; a doubtful card makes the row "check").
``objectives.txt`` holds what ``--objectives``
takes (``circle=ray/fish square=turtle/ray``, on one line or several) and, optionally, who chose
first (``first=circle``); ``#`` starts a comment. A folder with an ``objectives.txt`` holds seas: its
photos are scored one by one, never as a Mondo turn. A sea photo without objectives, or under a
broken ``objectives.txt``, is a failed row whose reason names what is missing (the photo is still
read: the reason gives its species counts); it is never skipped. Without objectives given, only a
photo whose objective cards are not both found is such a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorecam.batch.folder_text import folder_text
from scorecam.errors import InputError

OBJECTIVES_FILE = "objectives.txt"
MAX_OBJECTIVES_BYTES = 2000  # two objectives and a comment, not a document
FIRST = re.compile(r"^first=([a-z]+)$")
PLAYERS = ("circle", "square")
HOW_TO_GIVE = (
    f"put an {OBJECTIVES_FILE} beside the photo ('circle=PLUS/MINUS square=PLUS/MINUS', and "
    "'first=circle' or 'first=square') or pass batch --objectives"
)


@dataclass(frozen=True)
class SeaObjectives:
    """The objectives a batch scores sea photos by, and where they come from. ``problem``: why they
    cannot be used (a broken objectives.txt); every sea photo they are for fails with it."""

    objectives: tuple[tuple[str, str, str], ...] = ()  # (player, plus, minus), in the order given
    first: str | None = None
    origin: str = ""  # the objectives.txt, or "--objectives"
    problem: str = ""

    def options(self) -> dict[str, Any]:
        """As ``score_sea_photo_file``'s ``objectives`` and ``first``."""
        from scoring.mediterraneo import Objective

        return {
            "objectives": {player: Objective(plus, minus) for player, plus, minus in self.objectives} or None,
            "first": self.first,
        }


def parse_sea_objectives(words: list[str], origin: str) -> SeaObjectives:
    """``circle=ray/fish square=turtle/ray first=circle`` (words as given, split at spaces and commas)
    as SeaObjectives; a ValueError with a reason a person understands."""
    from scorecam.sea_photos import parse_objectives

    parts = [p for word in words for p in re.split(r"[\s,]+", word) if p]
    firsts = [m.group(1) for p in parts if (m := FIRST.match(p.lower()))]
    if len(firsts) > 1:
        raise ValueError("names who chose first more than once")
    first = firsts[0] if firsts else None
    if first is not None and first not in PLAYERS:
        raise ValueError(f"first={first}: the players are circle and square")
    parsed = parse_objectives([p for p in parts if not FIRST.match(p.lower())])
    if not parsed:
        raise ValueError("names no objectives (circle=PLUS/MINUS square=PLUS/MINUS)")
    objectives = tuple((player, o.plus, o.minus) for player, o in parsed.items())
    return SeaObjectives(objectives, first, origin)


def run_objectives(objectives: tuple[str, ...], first: str | None) -> SeaObjectives | None:
    """``batch --objectives ... --first ...`` for the whole run (None: not given); a ValueError for a
    usage error."""
    if not objectives:
        if first is not None:
            raise ValueError("--first needs --objectives (who chose first of which objectives?)")
        return None
    sea = parse_sea_objectives(list(objectives), "--objectives")
    if first is not None:
        if sea.first is not None and sea.first != first:
            raise ValueError(f"--first {first} and first={sea.first} disagree")
        sea = SeaObjectives(sea.objectives, first, sea.origin)
    return sea


def objectives_in(folder: Path) -> SeaObjectives | None:
    """The ``objectives.txt`` in ``folder`` (None when there is none); one that cannot be used gives
    SeaObjectives with its ``problem``, so each sea photo it is for fails with that reason."""
    found = folder_text(folder, OBJECTIVES_FILE, MAX_OBJECTIVES_BYTES, "two objectives")
    if found is None:
        return None
    if found.problem:
        return SeaObjectives(origin=found.origin, problem=found.problem)
    origin = found.origin
    try:
        return parse_sea_objectives(list(found.lines), origin)
    except ValueError as error:
        return SeaObjectives(origin=origin, problem=f"{OBJECTIVES_FILE}: {error}")


def score_sea_job(path: Path, sea: SeaObjectives | None) -> dict[str, Any]:
    """The report of a sea photo scored by ``sea``; an InputError naming what is missing or wrong."""
    from scorecam.sea_photos import score_sea_photo_file

    if sea is not None and sea.problem:
        raise InputError(str(path), f"this looks like a Mediterráneo sea, but {sea.problem}")
    options = sea.options() if sea is not None else {"objectives": None, "first": None}
    try:
        report = score_sea_photo_file(path, **options, how_to_give=HOW_TO_GIVE)
    except InputError as error:
        raise InputError(
            str(path), f"this looks like a Mediterráneo sea: {error.reason}", error.code
        ) from None
    if sea is not None:
        report["objectives_from"] = sea.origin
    return report

"""Scoring photos: read an island from a photo file and score it like a board file.

The report of a photo is the board's report plus ``source``, ``board`` (what was read: fix it and
score it again, or score the whole report again), ``flags`` (what to check, in words), ``checks``
(each doubtful cell reading: its two readings and the total with the second), ``status`` (``ok``,
or ``check`` when any reading is doubtful) and ``timing_ms`` (DESIGN.md, "Score reports").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scorecam.errors import Exit, InputError, printable_path
from scoring.mondo import Island, island_to_json
from vision.errors import PhotoError

BOARD_SUFFIXES = {".json"}
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
EXIT_FOR = {"unreadable": Exit.UNREADABLE, "no_board": Exit.NO_BOARD, "several_boards": Exit.NO_BOARD}


def read_photo_with(path: Path, reader: Callable[[Any], tuple[Any, Any]]) -> tuple[Any, Any, float]:
    """What a game's `reader` makes of the decoded photo (its two results: what was read, and how),
    and the decode's ms; the reader's PhotoError as an InputError with its exit code."""
    from vision.photo_io import read_photo

    start = time.perf_counter()
    try:
        photo = read_photo(path)
        decode_ms = (time.perf_counter() - start) * 1000
        read, reading = reader(photo)
    except PhotoError as error:
        raise InputError(str(path), error.reason, EXIT_FOR[error.kind]) from None
    return read, reading, decode_ms


def is_photo(path: Path) -> bool:
    """Photos by their suffix; a file with another suffix is a photo unless it starts like JSON."""
    suffix = path.suffix.lower()
    if suffix in PHOTO_SUFFIXES:
        return True
    if suffix in BOARD_SUFFIXES or not path.is_file():
        return False  # the board reader says what is wrong with a folder or a missing file
    try:
        with path.open("rb") as file:
            start = file.read(64).lstrip()
    except OSError:
        return False
    return not start.startswith((b"{", b"["))


@dataclass(frozen=True)
class PhotoIsland:
    """An island read from a photo, with what the report and the annotated picture need."""

    path: Path
    island: Island
    reading: Any  # vision.mondo.reader.IslandReading, in full-photo pixels
    timing_ms: dict[str, float]
    photo: Any = None  # the vision.photo_io.Photo it was read from (the web app draws on it: no decode again)


def read_island_photo(path: Path, *, grid: int | None = None, use_catalog: bool = True) -> PhotoIsland:
    # Imported here so that scoring board files never loads the vision stack (and its models).
    import numpy as np

    from vision.mondo.reader import read_island
    from vision.photo_io import read_photo
    from vision.sea_hint import sea_located

    start = time.perf_counter()
    photo = None
    try:
        photo = read_photo(path)
        decode_ms = (time.perf_counter() - start) * 1000
        reading = read_island(photo, grid=grid, use_catalog=use_catalog)
    except PhotoError as error:
        # a photo decoded through damage: what the decoder saw may be why nothing was found
        damage = f" ({'; '.join(photo.notes)})" if photo is not None and photo.notes else ""
        # a photo decoded through damage is not tried as a sea: garbage pixels read as a few cards
        if (
            error.kind in ("no_board", "several_boards")
            and photo is not None
            and not damage
            and _looks_like_sea(photo)
        ):
            raise SeaPhoto(str(path), SEA_REASON, Exit.NO_BOARD) from None
        raise InputError(str(path), error.reason + damage, EXIT_FOR[error.kind]) from None
    if reading.flags and not photo.notes and sea_located(photo):
        # an "island" read with doubts where the sea locator finds a sea: sea cards read as tiles
        raise SeaPhoto(str(path), SEA_REASON, Exit.NO_BOARD)
    scale = np.float32(photo.scale)
    # a photo decoded through damage is read, but its score is not trusted blindly: the damage is a flag
    damage = tuple(f"{note[:1].upper()}{note[1:]}: check every tile" for note in photo.notes)
    full = replace(
        reading,
        quad=reading.quad * scale,
        cell_quads=reading.cell_quads * scale,
        flags=(*damage, *reading.flags),
    )
    timing = {"decode": decode_ms, **reading.timing_ms}
    return PhotoIsland(path, reading.island, full, timing, photo)


SEA_REASON = (
    "this looks like a Mediterráneo sea, not a Mondo island: score it alone with "
    "scorecam score PHOTO --objectives 'circle=PLUS/MINUS square=PLUS/MINUS'"
)


class SeaPhoto(InputError):
    """A photo with no Mondo island that looks like a Mediterráneo sea: `score` reads it as a sea
    (scorecam.sea_photos); where a Mondo island was wanted (a turn), its reason says what the photo
    shows and how to score it."""


def _looks_like_sea(photo) -> bool:
    """A photo without one Mondo island may be a Mediterráneo sea: then the player is told so (or
    `score` reads the sea). The sea's colour says so cheaply; the sea locator where it does not (a
    colour cast, faded cards)."""
    from vision.sea_hint import looks_like_mediterraneo, sea_located

    return looks_like_mediterraneo(photo.image) or sea_located(photo)


def photo_status(flags) -> str:
    """The photo's verdict: a player trusts an ``ok`` score, and looks again at a ``check``."""
    return "check" if flags else "ok"


def photo_additions(photo: PhotoIsland, score_ms: float) -> dict[str, Any]:
    timing = {k: round(v, 1) for k, v in photo.timing_ms.items()}
    timing["score"] = round(score_ms, 1)
    timing["total"] = round(sum(photo.timing_ms.values()) + score_ms, 1)
    return {
        "source": printable_path(photo.path),
        "board": island_to_json(photo.island),
        "flags": list(photo.reading.flags),
        "checks": [check.to_json() for check in photo.reading.checks],
        "status": photo_status(photo.reading.flags),
        "timing_ms": timing,
    }


def score_photo_file(
    path: Path, *, grid: int | None = None, use_catalog: bool = True
) -> tuple[dict, PhotoIsland]:
    """The report of one island photo, scored alone as a turn of one player named after the file."""
    from scoring.mondo import score_turn, single_island_turn, turn_score_to_json

    photo = read_island_photo(path, grid=grid, use_catalog=use_catalog)
    start = time.perf_counter()
    report = turn_score_to_json(score_turn(single_island_turn(printable_path(path.stem), photo.island)))
    score_ms = (time.perf_counter() - start) * 1000
    return report | photo_additions(photo, score_ms), photo


def is_photo_report(data: Any) -> bool:
    """Whether JSON is scorecam's own report of one photo (`scorecam score PHOTO --json`)."""
    return isinstance(data, dict) and data.get("format") == 1 and "board" in data and "source" in data


def board_in_report(data: Any, path: Path) -> tuple[Any, str | None]:
    """The board to score in a board file: the ``board`` of a photo report, with the report's player
    (so a fixed report scores under the same name); any other JSON as it is, with no name (None)."""
    if isinstance(data, list) and data and all(is_photo_report(item) for item in data):
        raise InputError(
            str(path),
            f"holds the reports of {len(data)} photos; score one report at a time "
            "(save each with `scorecam score PHOTO --json > PHOTO.json`), or put the islands in a turn file",
        )
    if not is_photo_report(data):
        return data, None
    players = data.get("players")
    first = players[0] if isinstance(players, list) and players else None
    name = first.get("name") if isinstance(first, dict) else None
    return data["board"], name if isinstance(name, str) and name else None

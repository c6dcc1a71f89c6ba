"""Reading board files from disk, with every failure turned into an InputError.

A board file is a few kB of JSON written by a person or by scorecam. Whatever else a file holds
(megabytes, a 10,000-deep array, a number with 5,000 digits, NaN, a lone surrogate, a device or a
link to itself) ends in one line saying why, never in a traceback, a hang or unbounded memory.
"""

from __future__ import annotations

import json
import math
import stat
from pathlib import Path
from typing import Any

from scorecam.errors import InputError, printable_path
from scoring.boards import score_board
from scoring.errors import BoardFormatError, cut, printable

MAX_JSON_BYTES = 20_000_000  # a board is a few kB; anything this big is not one
MAX_DEPTH = 32  # the deepest board (a game's turn's player's island's tile's area's sides) nests 11
MAX_DIGITS = 30  # no count, coordinate or rotation needs more; Python refuses ints over 4,300 digits
MAX_TEXT_CHARS = 1000  # a name, terrain or card id; a longer string is not part of a board


class _Refused(ValueError):
    """A value the JSON parser met that no board holds (raised from its hooks)."""


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(f"a number with {digits:,} digits (a board needs at most {MAX_DIGITS})")
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {cut(text, 40)} is too large")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def read_bytes_checked(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; an InputError for anything else
    (a folder, a device or pipe that would never end, a link to itself, a missing file)."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(str(path), "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(str(path), "not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise InputError(str(path), f"too large for {what} ({info.st_size:,} bytes; at most {limit:,})")
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        reason = "a broken link (what it points to is missing)" if path.is_symlink() else "no such file"
        raise InputError(str(path), reason) from None
    except PermissionError:
        raise InputError(str(path), "permission denied") from None
    except OSError as error:  # a link to itself, a name too long, an I/O error
        raise InputError(str(path), (error.strerror or str(error)).lower()) from None
    if len(data) > limit:
        raise InputError(str(path), f"too large for {what} (more than {limit:,} bytes)")
    return data


def read_json(path: Path) -> Any:
    """The JSON value in ``path``, checked to be of the size and shape a board can have."""
    data = read_bytes_checked(path, MAX_JSON_BYTES, "a board file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(str(path), "not a text file (a board is UTF-8 JSON)") from None
    if not text.strip():
        raise InputError(str(path), "empty file")
    try:
        value = json.loads(text, parse_int=_whole_number, parse_float=_decimal, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InputError(
            str(path), f"broken JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except _Refused as error:
        raise InputError(str(path), f"not a board: {error}") from None
    except RecursionError:
        raise InputError(
            str(path), f"not a board: nested too deep (a board nests at most {MAX_DEPTH})"
        ) from None
    try:
        return checked_json(value)
    except _Refused as error:
        raise InputError(str(path), f"not a board: {error}") from None


def checked_json(value: Any) -> Any:
    """``value`` (parsed JSON) checked for depth and string length, without recursion, its strings
    made printable: a lone surrogate such as ``"Pe\\ud800ter"`` is kept as the escape ``Pe\\ud800ter``."""
    if isinstance(value, str):
        return _checked_text(value)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _Refused(f"nested too deep (a board nests at most {MAX_DEPTH})")
        if isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, str):
                    node[index] = _checked_text(item)
                elif isinstance(item, list | dict):
                    stack.append((item, depth + 1))
        elif isinstance(node, dict):
            if any(_checked_text(key) is not key for key in node):
                items = [(_checked_text(key), item) for key, item in node.items()]
                node.clear()
                node.update(items)
            for key, item in node.items():
                if isinstance(item, str):
                    node[key] = _checked_text(item)
                elif isinstance(item, list | dict):
                    stack.append((item, depth + 1))
    return value


def _checked_text(text: str) -> str:
    if len(text) > MAX_TEXT_CHARS:
        raise _Refused(
            f"a text of {len(text):,} characters (a board's texts have at most {MAX_TEXT_CHARS:,})"
        )
    return printable(text)


def score_board_file(path: Path) -> dict[str, Any]:
    """The score report of a board JSON file; a lone island's player is named after the file (the
    board of a photo report of scorecam's own: after the report's player)."""
    return score_board_data(read_json(path), path)


def score_board_data(data: Any, path: Path) -> dict[str, Any]:
    """`score_board_file` of the JSON value already read from ``path``."""
    from scorecam.photos import board_in_report

    data, player = board_in_report(data, path)
    try:
        if isinstance(data, dict) and data.get("game") == "snorkeling":
            from scoring.snorkeling import score_snorkeling  # loaded only for its own boards

            return score_snorkeling(data)
        if isinstance(data, dict) and data.get("game") == "mediatore":
            from scoring.mediatore import score_board as score_mediatore  # loaded only for its own files

            return score_mediatore(data)
        return score_board(data, name=player or printable_path(path.stem))
    except BoardFormatError as error:
        raise InputError(str(path), f"impossible board: {error}") from None
    except RecursionError:
        raise InputError(str(path), "not a board: nested too deep") from None
    except Exception as error:  # noqa: BLE001 - a value of a kind no check foresaw must not end in a traceback
        raise InputError(
            str(path), f"impossible board (unexpected {error.__class__.__name__}: {cut(str(error))})"
        ) from None


def simulator_truth_of(path: Path, data: Any = None) -> Path | None:
    """The photo a `scorecam synth` truth file belongs to, when ``path`` is one (it lies beside its
    photo and names it); None for anything else, a photo's report saved beside it included. ``data``:
    the file's JSON value when it has been read already."""
    from scorecam.photos import PHOTO_SUFFIXES

    if path.suffix.lower() != ".json":
        return None
    photos = {p.name for p in (path.with_suffix(s) for s in PHOTO_SUFFIXES) if p.is_file()}
    if not photos:
        return None
    if data is None:
        try:
            data = read_json(path)
        except InputError:
            return None  # the board reader says what is wrong with it
    if isinstance(data, dict) and "seed" in data and data.get("photo") in photos:
        return path.with_name(data["photo"])
    return None

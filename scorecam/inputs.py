"""Reading board files from disk, with every failure turned into an InputError."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scorecam.errors import InputError
from scoring.boards import score_board
from scoring.errors import BoardFormatError

MAX_JSON_BYTES = 20_000_000  # a board is a few kB; anything this big is not one


def read_json(path: Path) -> Any:
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise InputError(str(path), f"too large for a board file ({size:,} bytes)")
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "no such file") from None
    except IsADirectoryError:
        raise InputError(str(path), "is a folder, not a file") from None
    except PermissionError:
        raise InputError(str(path), "permission denied") from None
    except UnicodeDecodeError:
        raise InputError(str(path), "not a text file (a board is UTF-8 JSON)") from None
    if not text.strip():
        raise InputError(str(path), "empty file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            str(path), f"broken JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None


def score_board_file(path: Path) -> dict[str, Any]:
    """The score report of a board JSON file; a lone island's player is named after the file."""
    data = read_json(path)
    try:
        return score_board(data, name=path.stem)
    except BoardFormatError as error:
        raise InputError(str(path), f"impossible board: {error}") from None

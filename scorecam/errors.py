"""Exit codes and the one error type the application turns into a one-line message (DESIGN.md)."""

import os
from enum import IntEnum

from scoring.errors import MESSAGE_CHARS, cut, printable

PATH_CHARS = 300  # a path longer than this is shown cut (its end is where the name is)


class Exit(IntEnum):
    SCORED = 0
    SOME_FAILED = 1  # batch: some inputs failed, the rest were scored
    USAGE = 2
    UNREADABLE = 3  # not an image, truncated, broken JSON, impossible board
    NO_BOARD = 4  # a photo with no board in it
    INTERNAL = 70  # a bug in scorecam (BSD's EX_SOFTWARE): never one of the codes above by mistake


def printable_path(path: str | os.PathLike) -> str:
    """A path as reports, tables and CSV write it: the bytes of a name that is not UTF-8 escaped
    (``Anna-\\xe4.jpg``), so that it can always be encoded."""
    try:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    except (UnicodeError, TypeError):  # a lone surrogate that no file name decodes to
        return printable(str(path))


def shown_path(path: str | os.PathLike) -> str:
    """A path as a message shows it: printable, long ones cut (the end is where the name is)."""
    path = printable_path(path)
    return path if len(path) <= PATH_CHARS else "…" + path[-(PATH_CHARS - 1) :]


class InputError(Exception):
    """An input that cannot be scored: printed as ``scorecam: FILE: reason``, never as a traceback.

    ``path`` and ``reason`` are kept printable and short whatever the file holds: the reason is one
    line of at most MESSAGE_CHARS characters.
    """

    def __init__(self, path: str, reason: str, code: Exit = Exit.UNREADABLE) -> None:
        path = shown_path(path)
        reason = cut(printable(" ".join(str(reason).split())), MESSAGE_CHARS)
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.code = code

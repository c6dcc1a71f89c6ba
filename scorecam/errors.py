"""Exit codes and the one error type the application turns into a one-line message (DESIGN.md)."""

from enum import IntEnum


class Exit(IntEnum):
    SCORED = 0
    SOME_FAILED = 1  # batch: some inputs failed, the rest were scored
    USAGE = 2
    UNREADABLE = 3  # not an image, truncated, broken JSON, impossible board
    NO_BOARD = 4  # a photo with no board in it


class InputError(Exception):
    """An input that cannot be scored: printed as ``scorecam: FILE: reason``, never as a traceback."""

    def __init__(self, path: str, reason: str, code: Exit = Exit.UNREADABLE) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.code = code

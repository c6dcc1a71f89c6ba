"""The one error the rules engines raise for input that breaks a board format, and how it shows values.

A hostile file can put a megabyte string, a list of a million items or a lone surrogate where a
name goes; an error message must still be one short line that any terminal can print.
"""

from __future__ import annotations

import reprlib

VALUE_CHARS = 80  # a value quoted in a message: enough to recognise it
MESSAGE_CHARS = 400  # a whole message, whatever it quotes
ELLIPSIS = "…"


def printable(text: str) -> str:
    """``text`` with lone surrogates (from ``"\\ud800"`` in JSON, or a file name that is not UTF-8)
    written as escapes, so that it can be encoded, printed and written to any file."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def cut(text: str, limit: int = VALUE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


class _ShortRepr(reprlib.Repr):
    """reprlib's bounded repr: strings, lists and nesting cut, never recursing deep."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = VALUE_CHARS
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6


_SHORT = _ShortRepr()


def shown(value: object) -> str:
    """``repr(value)`` as a message quotes it: at most about VALUE_CHARS characters, printable."""
    return cut(printable(_SHORT.repr(value)).replace("...", ELLIPSIS), VALUE_CHARS)


class BoardFormatError(ValueError):
    """A board, turn or play sequence that breaks its JSON format or cannot exist.

    The message is one line a person can act on, e.g.
    ``tile (0, 2): side E is reached by two areas (forest, plains)``.
    The application prefixes the file name. However long the values it quotes, the message is cut
    to MESSAGE_CHARS (its start and its end kept) and made printable.
    """

    def __init__(self, message: str) -> None:
        message = printable(" ".join(str(message).split()))
        if len(message) > MESSAGE_CHARS:
            tail = MESSAGE_CHARS // 4
            message = message[: MESSAGE_CHARS - tail - 1] + ELLIPSIS + message[-tail:]
        super().__init__(message)

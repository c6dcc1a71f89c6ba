"""Text that every output file can hold: valid UTF-8, and error reasons on one short line."""

from __future__ import annotations

import re
from typing import Any

from scoring.errors import MESSAGE_CHARS, cut

ERROR_CHARS = MESSAGE_CHARS  # a reason longer than this is cut: a 1 MB bad value is not echoed whole

_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (os.fsdecode's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"  # a lone surrogate, e.g. from a board's "\ud800"


def escaped(text: str) -> str:
    """``text`` as valid UTF-8: the file name ``Anna-\\xe4.jpg`` (bytes that are not UTF-8) and a lone
    surrogate are written as backslash escapes instead of crashing the writer."""
    return _SURROGATE.sub(_escape_surrogate, text)


def escaped_all(value: Any) -> Any:
    """Every string in a report (keys too) escaped; the report's shape kept."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {escaped_all(k): escaped_all(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [escaped_all(v) for v in value]
    return value


def one_line(text: str, limit: int = ERROR_CHARS) -> str:
    """A reason on one line (control characters shown as escapes), cut to ``limit`` characters."""
    text = " ".join(escaped(text).split())
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return cut(text, limit)

"""What the board formats check of any JSON object alike: its keys, each unknown or missing one named."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scoring.errors import BoardFormatError, shown


def check_keys(obj: object, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> Mapping:
    """``obj`` as a mapping with all ``required`` keys and no key outside both lists: a typo must
    not pass silently."""
    required, optional = tuple(required), tuple(optional)
    if not isinstance(obj, Mapping):
        raise BoardFormatError(f"{where} must be a JSON object, got {type(obj).__name__}")
    unknown = [str(k) for k in obj if k not in required and k not in optional]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise BoardFormatError(f"{where}: unknown key{plural} {', '.join(map(shown, unknown))}")
    missing = [k for k in required if k not in obj]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise BoardFormatError(f"{where}: missing key{plural} {', '.join(map(shown, missing))}")
    return obj

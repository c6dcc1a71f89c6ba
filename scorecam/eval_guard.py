"""One photo's measurement in `scorecam eval`, guarded: a reading that raises is a bug, never the
photo's fault, so it is recorded (what it raised and where) and the evaluation goes on with the next
photo. A missing or broken model file still stops it (an installation problem, not one photo's).

Every game's evaluation measures its photos through ``measured`` and reports the readings that raised
with ``raised_figure`` and ``raised_lines``; a folder with no photos of the game is ``NoTruthPhotos``
(the one error `scorecam eval` turns into "no board", exit 4).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorecam.errors import Exit, InputError

Record = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent  # the repository: where a frame's file is named from
RAISED_LABEL = "readings that raised (bugs)"


class NoTruthPhotos(ValueError):
    """A folder that holds no photos of the game with their truth JSON beside them."""


def raised(error: BaseException) -> str:
    """An exception in one line, with the innermost frame of ours it came from (file:line in function)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "site-packages" not in f.filename]
    where = ""
    if frames:
        f = frames[-1]
        name = Path(f.filename).resolve()
        name = name.relative_to(ROOT) if name.is_relative_to(ROOT) else name
        where = f" at {name}:{f.lineno} in {f.name}"
    message = " ".join(str(error).split())
    return f"{type(error).__name__}{': ' + message if message else ''}{where}"


def measured(
    measure: Callable[..., Record],
    photo: Path,
    truth: dict[str, Any],
    not_read: Callable[[Path, dict[str, Any], str], Record],
    **context: Any,
) -> Record:
    """``measure(photo, truth, **context)``; when it raises, ``not_read(photo, truth, reason)`` (the
    game's record of a photo not read) with ``raised`` (what and where) and ``ms`` added. ``not_read``
    reads only the truth: when it raises too, the truth JSON is what is broken (`broken_truth`)."""
    from vision.errors import ModelFileError

    start = time.perf_counter()
    try:
        return measure(photo, truth, **context)
    except ModelFileError:
        raise
    except Exception as error:  # noqa: BLE001 - one photo's bug must not stop the evaluation
        what = raised(error)
        ms = (time.perf_counter() - start) * 1000
        try:
            record = not_read(photo, truth, f"the reader raised {what}")
        except Exception as broken:  # noqa: BLE001 - any error of the truth's is the truth file's
            raise broken_truth(photo, broken) from None
        return record | {"raised": what, "ms": ms}


def broken_truth(photo: Path, error: Exception) -> InputError:
    """The truth JSON beside ``photo`` holds no board the game reads: unreadable input (exit 3)."""
    reason = f"{type(error).__name__}: {error}" if isinstance(error, (KeyError, TypeError)) else str(error)
    return InputError(str(photo.with_suffix(".json")), f"not a usable truth file ({reason})", Exit.UNREADABLE)


def raised_figure(records: list[Record]) -> list[dict[str, str]]:
    """The photos whose reading raised, each with what it raised (each counted as not read)."""
    return [{"photo": r["photo"], "raised": r["raised"]} for r in records if r.get("raised")]


def raised_lines(result: dict[str, Any]) -> list[str]:
    """One line per photo whose reading raised, naming the error and where it came from."""
    return [f"  {r['photo']}: {r['raised']}" for r in result.get("raised", [])]

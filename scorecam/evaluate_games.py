"""What the evaluations of the other games' readers share (`scorecam eval DIR` on Mediterráneo seas and
Snorkeling rounds): finding the photos with truth, measuring each, shares and the figures table.

Each game's module keeps what is its own: how one photo is read and compared, and which figures it
reports. The Mondo evaluation (`scorecam.evaluate`) is older and keeps its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def truth_photos(folder: Path, game: str, keys: Iterable[str] = ("photo",)) -> list[Path]:
    """Photos under ``folder`` with a truth JSON of ``game`` beside them (holding every key of ``keys``)."""
    photos = []
    for truth in sorted(folder.rglob("*.json")):
        try:
            data = json.loads(truth.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("game") == game and all(k in data for k in keys):
            photo = truth.with_name(data["photo"])
            if photo.exists():
                photos.append(photo)
    return photos


def has_no_mondo_photos(folder: Path) -> bool:
    from scorecam.evaluate import truth_photos as mondo_photos

    return not mondo_photos(folder)


def measure_photos(
    photos: list[Path],
    measure: Callable[[Path, dict[str, Any]], dict[str, Any]],
    *,
    game: str,
    folder: Path,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """One record per photo, each measured against the truth JSON beside it (with a progress bar);
    ``measure`` records a reading that raises (`scorecam.eval_guard.measured`)."""
    from scorecam.eval_guard import NoTruthPhotos
    from scorecam.progress import Progress

    if not photos:
        raise NoTruthPhotos(f"no {game} photos with truth JSON under {folder}")
    bar = Progress("eval", len(photos), enabled=None if progress else False)
    records = []
    for i, photo in enumerate(photos):
        truth = json.loads(photo.with_suffix(".json").read_text())
        records.append(measure(photo, truth))
        bar(i + 1)
    bar.close()
    return records


def share(k: int, total: int) -> float:
    """k of total, to four places; 0.0 of nothing."""
    return round(k / total, 4) if total else 0.0


def pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def figures_table(rows: list[tuple[str, str]]) -> str:
    """Label and figure a line, the figures in one column."""
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)

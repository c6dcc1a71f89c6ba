"""What the evaluations of the other games' readers share (`scorecam eval DIR` on Mediterráneo seas and
Snorkeling rounds): finding the photos with truth, measuring each, shares and the figures table.

Each game's module keeps what is its own: how one photo is read and compared, and which figures it
reports. The Mondo evaluation (`scorecam.evaluate`) is older and keeps its own, but for the time
figures (`time_figures`, `time_rows`), which every game's share.
"""

from __future__ import annotations

import json
import statistics
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


def time_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """How long a photo takes to read, decoding included, from records with ``ms`` and ``photo``:
    the median, the 90th percentile and the longest photo (the tail a player waits through: a photo
    a reader doubts is looked at again)."""
    times = [r["ms"] for r in records]
    longest = max(records, key=lambda r: r["ms"])
    p90 = statistics.quantiles(times, n=10, method="inclusive")[-1] if len(times) > 1 else times[0]
    return {
        "median_ms_per_photo": round(statistics.median(times), 1),
        "p90_ms_per_photo": round(p90, 1),
        "longest_ms_per_photo": round(longest["ms"], 1),
        "longest_photo": longest["photo"],
    }


def time_rows(
    result: dict[str, Any], of_median: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """The figures table's rows of `time_figures` (the tail's where the result has them), with a
    game's own rows of what the median is made of (`of_median`) right under it."""
    median = f"{result['median_ms_per_photo']:.0f} ms (decoding included, one core)"
    rows = [("median time per photo", median), *(of_median or [])]
    if "longest_ms_per_photo" in result:
        rows += [
            ("  90th percentile", f"{result['p90_ms_per_photo']:.0f} ms"),
            ("  longest", f"{result['longest_ms_per_photo']:.0f} ms ({result['longest_photo']})"),
        ]
    return rows


def share(k: int, total: int) -> float:
    """k of total, to four places; 0.0 of nothing."""
    return round(k / total, 4) if total else 0.0


def pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def figures_table(rows: list[tuple[str, str]]) -> str:
    """Label and figure a line, the figures in one column."""
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)

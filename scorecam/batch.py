"""`scorecam batch`: score a whole folder of photos (and board files) into CSV and JSON lines.

Every photo or board directly under the folder is scored alone; a sub-folder with several photos
is one turn (players named after the files; a ``first.txt`` naming a player gives the first-out
bonus). A file that fails is recorded with its reason and the work goes on; nothing is lost.

The CSV's ``status``: ``ok`` or ``check`` for a player read from a photo (the report's verdict:
``check`` when any of that photo's readings is doubtful), ``scored`` for a board file, ``failed``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorecam.errors import InputError
from scorecam.inputs import score_board_file
from scorecam.photos import BOARD_SUFFIXES, PHOTO_SUFFIXES, photo_status, read_island_photo
from scorecam.progress import Progress
from scoring.mondo import PlayerIsland, Turn, score_turn, turn_score_to_json

CSV_FIELDS = [
    "source", "turn", "player", "status", "valid", "animals", "scoring_landscapes", "volcanoes",
    "empty_spaces", "misconnections", "first_out", "points_animals", "points_landscapes",
    "points_volcanoes", "points_empty_spaces", "points_misconnections", "points_first_out", "total",
    "flags", "error",
]  # fmt: skip


@dataclass(frozen=True)
class Job:
    """One unit of batch work: a lone file, or the photos of one turn."""

    turn: str  # "" for a lone file
    files: tuple[Path, ...]


def find_jobs(folder: Path) -> list[Job]:
    jobs = []
    wanted = PHOTO_SUFFIXES | BOARD_SUFFIXES
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in wanted and not _is_truth(path):
            jobs.append(Job("", (path,)))
        elif path.is_dir():
            photos = tuple(
                sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)
            )
            if len(photos) > 1:
                jobs.append(Job(path.name, photos))
            else:
                jobs += find_jobs(path)
    return jobs


def _is_truth(path: Path) -> bool:
    """A simulator's truth JSON beside its photo is not a board to score."""
    return path.suffix == ".json" and any(path.with_suffix(s).exists() for s in PHOTO_SUFFIXES)


def _rows(report: dict[str, Any], source: str, turn: str) -> Iterator[dict[str, Any]]:
    """CSV rows of any report: a row per player (Mondo turn, game, Mediterráneo sea), else one row."""
    base = {"source": source, "turn": turn, "status": "scored"}
    if report.get("game") == "mondo" and "players" in report:
        for p in report["players"]:
            row = base | {"player": p["name"]}
            for key in (
                "valid",
                "animals",
                "scoring_landscapes",
                "volcanoes",
                "empty_spaces",
                "misconnections",
                "first_out",
                "total",
            ):
                row[key] = p[key]
            for key, value in p["points"].items():
                row[f"points_{key}"] = value
            yield row
    elif "totals" in report:  # a Mondo game
        for name, total in report["totals"].items():
            yield base | {"player": name, "total": total}
    elif "species" in report:  # a Mediterráneo sea
        for p in report["players"]:
            yield base | {"player": p["name"], "total": p["total"]}
    else:  # a play sequence or a match: nothing per player to total
        yield base


def run_job(job: Job, grid: int | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(CSV rows, JSON lines) of one job; failures are rows too."""
    if not job.turn:
        path = job.files[0]
        try:
            if path.suffix.lower() in BOARD_SUFFIXES:
                report = score_board_file(path)
            else:
                from scorecam.photos import score_photo_file

                report, _ = score_photo_file(path, grid=grid)
        except InputError as error:
            return [_failure(str(path), "", error.reason)], [{"source": str(path), "error": error.reason}]
        rows = list(_rows(report, str(path), ""))
        for row in rows:
            row["flags"] = " | ".join(report.get("flags", []))
            row["status"] = report.get("status", "scored")  # a board file has no reading to doubt
        return rows, [{"source": str(path), "report": report}]

    first = _first_out(job.files[0].parent)
    players, rows, lines, flags = [], [], [], {}
    for path in job.files:
        try:
            photo = read_island_photo(path, grid=grid)
        except InputError as error:
            rows.append(_failure(str(path), job.turn, error.reason, player=path.stem))
            lines.append({"source": str(path), "turn": job.turn, "error": error.reason})
            continue
        players.append(PlayerIsland(path.stem, photo.island, path.stem == first))
        flags[path.stem] = photo.reading.flags
    if players:
        report = turn_score_to_json(score_turn(Turn(tuple(players))))
        report["flags"] = [f"{name}: {f}" for name, fs in flags.items() for f in fs]
        report["status"] = photo_status(report["flags"])
        for row in _rows(report, str(job.files[0].parent), job.turn):
            row["flags"] = " | ".join(flags.get(row["player"], ()))
            row["status"] = photo_status(flags.get(row["player"], ()))  # each player's own photo
            rows.append(row)
        lines.append({"source": str(job.files[0].parent), "turn": job.turn, "report": report})
    return rows, lines


def _first_out(folder: Path) -> str:
    marker = folder / "first.txt"
    return marker.read_text().strip() if marker.exists() else ""


def _failure(source: str, turn: str, reason: str, player: str = "") -> dict[str, Any]:
    return {"source": source, "turn": turn, "player": player, "status": "failed", "error": reason}


def run_batch(
    folder: Path, csv_path: Path, jsonl_path: Path | None, grid: int | None = None
) -> tuple[int, int]:
    """Score everything under ``folder``; returns (inputs scored, inputs failed)."""
    jobs = find_jobs(folder)
    bar = Progress("batch", len(jobs))
    scored = failed = 0
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    jsonl_path = jsonl_path or csv_path.with_suffix(".jsonl")
    with csv_path.open("w", newline="") as csv_file, jsonl_path.open("w") as json_file:
        writer = csv.DictWriter(csv_file, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for n, job in enumerate(jobs, start=1):
            try:
                rows, lines = run_job(job, grid)
            except Exception as error:  # noqa: BLE001 - one broken input must not end a club's batch
                reason = f"internal error ({error.__class__.__name__}: {error})"
                source = str(job.files[0] if not job.turn else job.files[0].parent)
                rows, lines = [_failure(source, job.turn, reason)], [{"source": source, "error": reason}]
            for row in rows:
                writer.writerow(row)
                failed += row["status"] == "failed"
                scored += row["status"] != "failed"
            for line in lines:
                json_file.write(json.dumps(line, ensure_ascii=False) + "\n")
            csv_file.flush()
            json_file.flush()
            bar(n)
    return scored, failed

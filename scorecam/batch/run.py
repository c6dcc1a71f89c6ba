"""``run_batch``: find the jobs, skip those already done (--resume), run the rest on the chosen
engine (one process, a pool of processes, Ray) and write every result as it comes, in job order."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorecam.batch.games import GAMES, table_path
from scorecam.batch.jobs import Job, find_jobs
from scorecam.batch.mediatore import MediatoreInfo
from scorecam.batch.output import Output, read_prior
from scorecam.batch.seas import SeaObjectives
from scorecam.batch.text import escaped
from scorecam.errors import Exit, InputError


@dataclass(frozen=True)
class BatchSummary:
    """What the output files hold (rows kept from before a --resume included).

    ``players_scored``: rows scored (``ok``, ``check``, ``scored``); ``players_to_check``: of those,
    the ``check`` ones; ``inputs_failed``: ``failed`` rows; ``turns_incomplete``: turns with a photo
    that failed; ``skipped``: inputs already in the output that --resume did not redo."""

    players_scored: int = 0
    players_to_check: int = 0
    inputs_failed: int = 0
    turns_incomplete: int = 0
    skipped: int = 0
    tables: tuple[Path, ...] = ()  # the per-game tables beside the CSV (Snorkeling, Mediatore) it left


class _Tally:
    def __init__(self) -> None:
        self.counts = {"players_scored": 0, "players_to_check": 0, "inputs_failed": 0, "turns_incomplete": 0}

    def add(self, rows: Iterable[dict[str, Any]], line: dict[str, Any]) -> None:
        for row in rows:
            status = row.get("status")
            self.counts["players_scored"] += status in ("ok", "check", "scored")
            self.counts["players_to_check"] += status == "check"
            self.counts["inputs_failed"] += status == "failed"
        self.counts["turns_incomplete"] += "failed" in line

    def summary(self, skipped: int, tables: tuple[Path, ...]) -> BatchSummary:
        return BatchSummary(**self.counts, skipped=skipped, tables=tables)


def run_batch(
    folder: Path,
    csv_path: Path,
    jsonl_path: Path | None,
    *,
    grid: int | None = None,
    jobs: int | None = None,
    resume: bool = False,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    sea: SeaObjectives | None = None,
    mediatore: MediatoreInfo | None = None,
) -> BatchSummary:
    """Score everything under ``folder`` into ``csv_path`` and ``jsonl_path`` (default: the CSV's name
    with .jsonl). ``jobs``: processes (None: every core; 1: this process). ``resume``: keep what the
    files already hold and do the rest. ``ray``: run on Ray ("auto", or a cluster's address).
    ``progress(done, total)`` is called as each job is written. ``sea``: the objectives of the run's
    Mediterráneo sea photos (``batch --objectives``; a folder's objectives.txt wins over them).
    ``mediatore``: the run's photos are Mediatore sides (``batch --game mediatore``, ``--round``)."""
    jsonl_path = jsonl_path or csv_path.with_suffix(".jsonl")
    if not folder.is_dir():
        raise InputError(str(folder), "not a folder", Exit.USAGE)
    if ray is not None:
        from scorecam.batch.ray_runner import check_ray

        check_ray()
    work = find_jobs(folder, sea, mediatore)
    _refuse_inputs_as_outputs(work, csv_path, jsonl_path)
    prior = read_prior(csv_path, jsonl_path) if resume else None
    done = prior.sources if prior else set()
    todo = [job for job in work if escaped(job.source) not in done]
    tally = _Tally()
    if prior:
        rows_of: dict[str, list[dict[str, str]]] = {}
        for row in prior.rows:
            rows_of.setdefault(row["source"], []).append(row)
        for line in prior.lines:
            tally.add(rows_of[line["source"]], line)
    if progress:
        progress(0, len(todo))
    with Output(csv_path, jsonl_path, prior) as output:
        for n, (rows, line) in enumerate(_results(todo, grid, jobs, ray), start=1):
            output.write(rows, line)
            tally.add(rows, line)
            if progress:
                progress(n, len(todo))
    return tally.summary(skipped=len(work) - len(todo), tables=output.tables.written())


def _results(todo: list[Job], grid: int | None, jobs: int | None, ray: str | None):
    if ray is not None:
        from scorecam.batch.ray_runner import results_on_ray

        return results_on_ray(todo, grid, ray, workers=jobs)
    from scorecam.batch.pool import results_in_pool, results_in_process

    workers = min(jobs or usable_cores(), len(todo))
    if workers <= 1:
        return results_in_process(todo, grid)
    return results_in_pool(todo, grid, workers)


def usable_cores() -> int:
    """The cores this process may run on (a container's or taskset's limit, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _refuse_inputs_as_outputs(work: list[Job], csv_path: Path, jsonl_path: Path) -> None:
    """Never write over an input: an output path that is one of the batch's files is a usage error."""
    if os.path.realpath(csv_path) == os.path.realpath(jsonl_path):
        raise InputError(str(csv_path), "the CSV and the JSON lines would be the same file", Exit.USAGE)
    inputs = {os.path.realpath(path) for job in work for path in job.files}  # realpath: loops do not raise
    for path in (csv_path, jsonl_path, *(table_path(csv_path, game) for game in GAMES)):
        if os.path.realpath(path) in inputs:
            raise InputError(str(path), "is an input of this batch; write the results elsewhere", Exit.USAGE)

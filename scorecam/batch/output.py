"""The batch's two files, written so that a run killed at any moment loses nothing it had written.

Each job's CSV rows are written and synced before its JSON line; a job is done when both files hold
it. Resuming keeps the jobs both files hold, drops whatever a kill tore (a last line cut short, rows
whose JSON line never came), and appends the rest. The per-game tables beside the CSV (Snorkeling,
Mediatore) are written before both and made again from the kept JSON lines on every start.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorecam.batch.games import FIELDS, GAMES, table_path, table_rows
from scorecam.batch.rows import CSV_FIELDS
from scorecam.errors import Exit, InputError


@dataclass
class Prior:
    """What an earlier run left in the output files: its complete jobs, in file order."""

    rows: list[dict[str, str]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    torn: bool = False  # the files hold more than these (a torn line, a job only half written)

    @property
    def sources(self) -> set[str]:
        return {line["source"] for line in self.lines}


def read_prior(csv_path: Path, jsonl_path: Path) -> Prior:
    """The complete jobs of an earlier run's files (none when they do not exist)."""
    lines, torn_lines = _read_lines(jsonl_path)
    rows, torn_rows = _read_rows(csv_path)
    done = {line["source"] for line in lines} & {row["source"] for row in rows}
    kept_lines = [line for line in lines if line["source"] in done]
    kept_rows = [row for row in rows if row["source"] in done]
    torn = torn_lines or torn_rows or len(kept_lines) < len(lines) or len(kept_rows) < len(rows)
    return Prior(kept_rows, kept_lines, torn)


def _read_lines(path: Path) -> tuple[list[dict[str, Any]], bool]:
    if not path.exists():
        return [], False
    data = path.read_bytes()
    lines, torn = [], not data.endswith(b"\n") and bool(data)
    for raw in data.split(b"\n")[:-1]:  # the piece after the last newline is torn (or empty)
        try:
            line = json.loads(raw)
        except ValueError:
            return lines, True  # a line cut short: it and anything after are redone
        if not isinstance(line, dict) or not isinstance(line.get("source"), str):
            raise InputError(
                str(path), "cannot resume: not a JSON lines file written by scorecam batch", Exit.USAGE
            )
        lines.append(line)
    return lines, torn


def _read_rows(path: Path) -> tuple[list[dict[str, str]], bool]:
    if not path.exists():
        return [], False
    data = path.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]  # a kill can only cut the last line short
    torn = len(whole) < len(data)
    records = csv.reader(io.StringIO(whole.decode("utf-8", errors="replace"), newline=""))
    try:
        header = next(records, None)
    except csv.Error:
        header = None
    if header is None:
        return [], True  # not even a header: written again from the start
    if header != CSV_FIELDS:
        raise InputError(
            str(path), "cannot resume: its columns are not those of this scorecam batch", Exit.USAGE
        )
    rows = []
    try:
        for record in records:
            if len(record) != len(CSV_FIELDS):
                return rows, True
            rows.append(dict(zip(CSV_FIELDS, record, strict=True)))
    except csv.Error:  # a quoted field cut short
        return rows, True
    return rows, torn


class GameTables:
    """The tables of the games with columns of their own (games.py), beside the CSV: made again from
    the kept jobs' JSON lines when a run starts (so a kill can leave nothing extra in them), then
    appended to as jobs come. A table an earlier run left that this run has no row for is removed."""

    def __init__(self, csv_path: Path, lines: list[dict[str, Any]]) -> None:
        self.paths = {game: table_path(csv_path, game) for game in GAMES}
        self.open: dict[str, tuple[Any, csv.DictWriter]] = {}
        kept: dict[str, list[dict[str, Any]]] = {game: [] for game in GAMES}
        for line in lines:
            if found := table_rows(line):
                kept[found[0]].extend(found[1])
        for game, rows in kept.items():
            path = self.paths[game]
            if rows:
                _replace(path, _csv_text(FIELDS[game], rows))
            elif path.is_file() or path.is_symlink():
                path.unlink()

    def write(self, line: dict[str, Any]) -> None:
        found = table_rows(line)
        if not found:
            return
        game, rows = found
        if game not in self.open:
            path = self.paths[game]
            new = not path.exists()
            file = path.open("a", newline="", encoding="utf-8")
            writer = csv.DictWriter(file, fieldnames=FIELDS[game], extrasaction="ignore")
            if new:
                writer.writeheader()
            self.open[game] = (file, writer)
        file, writer = self.open[game]
        writer.writerows(rows)
        _sync(file)

    def written(self) -> tuple[Path, ...]:
        return tuple(path for path in self.paths.values() if path.exists())

    def close(self) -> None:
        for file, _ in self.open.values():
            file.close()


class Output:
    """Appends each job's rows and line, synced to disk before the next job."""

    def __init__(self, csv_path: Path, jsonl_path: Path, prior: Prior | None) -> None:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        jsonl_path.parent.mkdir(parents=True, exist_ok=True)
        if prior is None or prior.torn or not csv_path.exists():
            _rewrite(csv_path, jsonl_path, prior or Prior())
        self.csv_file = csv_path.open("a", newline="", encoding="utf-8")
        self.json_file = jsonl_path.open("a", encoding="utf-8")
        self.writer = csv.DictWriter(self.csv_file, fieldnames=CSV_FIELDS, extrasaction="ignore")
        self.tables = GameTables(csv_path, prior.lines if prior else [])

    def write(self, rows: list[dict[str, Any]], line: dict[str, Any]) -> None:
        self.tables.write(line)
        self.writer.writerows(rows)
        _sync(self.csv_file)
        self.json_file.write(json.dumps(line, ensure_ascii=False) + "\n")
        _sync(self.json_file)

    def close(self) -> None:
        self.csv_file.close()
        self.json_file.close()
        self.tables.close()

    def __enter__(self) -> Output:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _sync(file) -> None:
    file.flush()
    os.fsync(file.fileno())


def _rewrite(csv_path: Path, jsonl_path: Path, prior: Prior) -> None:
    """Both files holding exactly ``prior`` (a header alone for a new run), each replaced at once."""
    _replace(csv_path, _csv_text(CSV_FIELDS, prior.rows))
    _replace(jsonl_path, "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in prior.lines))


def _csv_text(fields: list[str], rows: list[dict[str, Any]]) -> str:
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()


def _replace(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.partial")
    with temporary.open("w", newline="", encoding="utf-8") as file:
        file.write(text)
        _sync(file)
    os.replace(temporary, path)

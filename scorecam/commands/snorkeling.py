"""What ``scorecam score`` adds for Snorkeling rounds: ``--players 1=Anna 2=Ben`` (mat numbers to
names) or ``--players 3`` (how many divers play: a photo with fewer mats found is flagged), and
``--totals game.json`` (the running game the round is added to, written safely)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import click

from scorecam.commands.options import same_file
from scorecam.errors import InputError

MAT_NAME = re.compile(r"^([1-6])=(.+)$")
COUNT = re.compile(r"^[0-9]+$")


def players_option():
    return click.option(
        "--players",
        "-p",
        "players",
        multiple=True,
        metavar="N|MAT=NAME...",
        help="Snorkeling: how many divers play (2-6), or their names by mat number (1=Anna 2=Ben ...) "
        "where the board names nobody; a photo with a named mat not found, or fewer mats than divers, "
        "is flagged",
    )


def totals_option():
    return click.option(
        "--totals",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="GAME.json",
        help="Snorkeling: add each round to this running game file (made if missing) and print the totals",
    )


class Divers(Mapping[int, str]):
    """What ``--players`` says: the divers' names by mat number (a mapping, mat -> name) and, with
    ``--players N``, how many play. True when it says anything."""

    def __init__(self, names: Mapping[int, str] | None = None, count: int | None = None) -> None:
        self.names = dict(names or {})
        self.count = count

    def __getitem__(self, mat: int) -> str:
        return self.names[mat]

    def __iter__(self) -> Iterator[int]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __bool__(self) -> bool:
        return bool(self.names) or self.count is not None


def split_names(players: tuple[str, ...], files: tuple[Path, ...]) -> tuple[tuple[Path, ...], Divers]:
    """The divers of ``--players`` and the files left. ``--players 1=Anna 2=Ben`` puts 2=Ben among
    the arguments (an option takes one value), so a MAT=NAME argument that is no file is a name;
    ``--players 4`` is a count."""
    if not players:
        return files, Divers()
    words = list(players) + [str(f) for f in files if MAT_NAME.match(str(f)) and not f.exists()]
    names: dict[int, str] = {}
    count = None
    for word in words:
        if COUNT.match(word):
            if count is not None or not 2 <= int(word) <= 6:
                raise click.BadParameter(
                    f"{word!r}: one count of divers, 2 to 6 (or MAT=NAME words)", param_hint="--players"
                )
            count = int(word)
            continue
        match = MAT_NAME.match(word)
        if match is None:
            raise click.BadParameter(
                f"{word!r} is not N or MAT=NAME (a mat 1 to 6, e.g. 1=Anna)", param_hint="--players"
            )
        mat, name = int(match[1]), match[2].strip()
        if mat in names or name in names.values() or not name:
            raise click.BadParameter(f"{word!r}: each mat and each name once", param_hint="--players")
        names[mat] = name
    if count is not None and count < len(names):
        raise click.BadParameter(f"{count} divers but {len(names)} names", param_hint="--players")
    rest = tuple(f for f in files if not (MAT_NAME.match(str(f)) and not f.exists()))
    if not rest:
        raise click.UsageError("no FILE to score (only MAT=NAME words)")
    return rest, Divers(names, count)


def is_round(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and data.get("game") == "snorkeling"
        and not {"turns", "rounds"} & set(data)
        and "players" in data
    )


class RunningGame:
    """The game file of ``--totals``: read once (if it exists), each round added, written after each."""

    def __init__(self, path: Path, inputs: tuple[Path, ...]) -> None:
        for item in inputs:
            if same_file(path, item) or same_file(_part(path), item):
                raise click.UsageError(
                    f"--totals {path}: that is the input {item}; scorecam never writes over an input"
                )
        self.path = path
        self.game = None
        if path.exists():
            from scorecam.inputs import read_json
            from scoring.errors import BoardFormatError
            from scoring.snorkeling import game_from_json

            data = read_json(path)
            try:
                self.game = game_from_json(data)
            except BoardFormatError as error:
                raise InputError(str(path), f"not a Snorkeling game file: {error}") from None

    def prepare(self, data: dict[str, Any], source: Path) -> dict[str, Any]:
        """The round board with ``before`` (and, unless it names one, the target) taken from the game
        file; a ``before`` the board has must agree with the file, and starts no new file."""
        if self.game is None:
            before = data.get("before")
            if isinstance(before, Mapping) and any(before.values()):
                raise InputError(
                    str(source),
                    f"the round has points from before it, but {self.path.name} does not exist yet "
                    "(a game file starts from its first round)",
                )
            return data
        totals = self.game.totals
        players = data.get("players") if isinstance(data.get("players"), list) else []
        labels = [p.get("name") or f"diver {p.get('mat')}" for p in players if isinstance(p, dict)]
        if sorted(map(str, labels)) != sorted(self.game.players):
            raise InputError(
                str(source),
                f"the round's players ({', '.join(map(str, labels))}) are not those of {self.path.name} "
                f"({', '.join(self.game.players)}); --players 1=NAME ... names them",
            )
        before = data.get("before")
        if isinstance(before, Mapping) and before and dict(before) != totals:
            raise InputError(str(source), f"before {dict(before)} disagrees with {self.path.name} ({totals})")
        return {"target": self.game.target} | data | {"before": totals}

    def add(self, report: dict[str, Any], source: Path) -> dict[str, Any]:
        """Add a scored round to the game, write the file, and put the game's report in ``totals``."""
        from scoring.errors import BoardFormatError
        from scoring.snorkeling import Game, add_round, game_report_to_json, game_to_json

        where = self.path.name
        if report.get("game") != "snorkeling" or "round_over" not in report:
            raise InputError(
                str(source), f"--totals adds Snorkeling rounds; this is not one (not added to {where})"
            )
        if not report["round_over"]:
            raise InputError(str(source), f"{report['round_why']}: not added to {where}")
        points = {p["name"]: p["points"]["top"] for p in report["players"]}
        try:
            game = self.game or Game(tuple(points), report["target"])
            if sorted(game.players) != sorted(points):
                raise BoardFormatError(
                    f"the round's players ({', '.join(points)}) are not {where}'s ({', '.join(game.players)})"
                )
            if game.target != report["target"]:
                raise BoardFormatError(f"the round plays to {report['target']}, {where} to {game.target}")
            game = add_round(game, points)
        except BoardFormatError as error:
            raise InputError(str(source), f"not added to {where}: {error}") from None
        write_safely(self.path, json.dumps(game_to_json(game), indent=2, ensure_ascii=False) + "\n")
        self.game = game
        return report | {"totals": game_report_to_json(game) | {"file": str(self.path)}}


def _part(path: Path) -> Path:
    return path.with_name(path.name + ".part")


def write_safely(path: Path, text: str) -> None:
    """Write through ``PATH.part`` and an atomic rename: a crash leaves the old file or the new one."""
    part = _part(path)
    with part.open("w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(part, path)


def name_round(data: dict[str, Any], names: Mapping[int, str], source: Path) -> dict[str, Any]:
    """The round board with its unnamed divers named after their mats; with ``--players N`` a board
    of another number of divers is refused."""
    from scoring.errors import BoardFormatError
    from scoring.snorkeling import name_divers, round_from_json, round_to_json

    try:
        board = round_from_json(data)
        count = getattr(names, "count", None)
        if count is not None and count != len(board.divers):
            raise BoardFormatError(f"{len(board.divers)} divers on the board, --players says {count}")
        named = round_to_json(name_divers(board, names))
        return named if "target" in data else {k: v for k, v in named.items() if k != "target"}
    except BoardFormatError as error:
        raise InputError(str(source), f"impossible board: {error}") from None

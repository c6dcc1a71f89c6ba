"""What the sub-commands share: game names, the options that mean the same everywhere, and the
guard that keeps every output off the inputs."""

from __future__ import annotations

import difflib
import os
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

GAMES = ("mondo", "mediterraneo", "snorkeling", "mediatore")  # every game with a kit
SIMULATED_GAMES = ("mondo", "mediterraneo", "mediatore", "snorkeling")  # the games `synth` simulates so far
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")  # what the annotated pictures and contact sheets are written as


def folded(text: str) -> str:
    """``Mediterráneo``, ``MEDITERRANEO`` -> ``mediterraneo``: the name a player types, compared."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold().strip()


class GameName(click.ParamType):
    """A game name, case- and accent-insensitive; completes in the shell."""

    name = "game"

    def __init__(self, games: tuple[str, ...] = GAMES) -> None:
        self.games = games

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        key = folded(str(value))
        for game in self.games:
            if folded(game) == key:
                return game
        close = difflib.get_close_matches(key, self.games, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        known = (
            " or ".join(self.games)
            if len(self.games) < 3
            else ", ".join(self.games[:-1]) + f" or {self.games[-1]}"
        )
        self.fail(f"{value!r} is not a game this command knows ({known}).{hint}", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
        from click.shell_completion import CompletionItem

        return [CompletionItem(g) for g in self.games if g.startswith(folded(incomplete))]


GAME = GameName(SIMULATED_GAMES)
KIT_GAME = GameName(GAMES)


def json_switch(what: str):
    return click.option("--json", "as_json", is_flag=True, help=f"print {what} as JSON on stdout")


def grid_option(what: str = "the game's grid: 3 (the rulebook's), 4 (the two-player variant); else guessed"):
    return click.option("--grid", "-g", type=click.Choice(["3", "4"]), help=what, callback=_to_int)


def jobs_option(default_text: str, default: int | None):
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=default,
        metavar="N",
        help=f"processes to use (default: {default_text})",
    )


def _to_int(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    return None if value is None else int(value)


# ----------------------------------------------------------------------------- outputs vs inputs


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: by their resolved paths, and (both existing) by inode, so a
    hard link or a symlink to an input counts as the input."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError):  # a symlink loop: it cannot be written either
        return False


def refuse_inputs(option: str, output: Path, inputs: Iterable[Path]) -> None:
    """A usage error, before any work, when ``output`` is one of the inputs: scorecam never writes
    over an input."""
    for path in inputs:
        if same_file(output, path):
            raise click.UsageError(
                f"{option} {output}: that is the input {path}; scorecam never writes over an input"
            )


def refuse_folder_inputs(option: str, output: Path, folder: Path, suffixes: Iterable[str]) -> None:
    """``output`` may not be a photo or board that already lies under the input ``folder``."""
    try:
        inside = output.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return
    if inside and output.suffix.lower() in set(suffixes) and output.exists():
        raise click.UsageError(
            f"{option} {output}: that is an input under {folder}; scorecam never writes over an input"
        )

"""What each game brings to the page: its photo reader, and how a game of it is scored.

A game's ``read_photo`` takes the path of an uploaded photo (stored under a server-chosen name) and
the game's options (Mondo: ``grid``, 3, 4 or None to guess) and returns the board read and what the
page needs to correct it (``board``, ``reading``, ``view``), or raises the CLI's InputError. A game
without a reader has ``read_photo = None`` and says why in ``no_reader``. A Mondo game is three
turns summed (below); a Mediterráneo match is rounds to two wins (scorecam.web.mediterraneo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.mondo import Island


@dataclass(frozen=True)
class GameKind:
    name: str  # as boards and reports name it
    title: str  # as players name it
    turns: int  # a game's turns (Mondo); a match's rounds are as many as it takes
    players: tuple[int, int]  # fewest and most players
    read_photo: Callable[..., Any] | None
    no_reader: str = ""


def _read_mondo(path: Path, grid: int | None = None) -> Any:
    from scorecam.web.mondo import read_photo

    return read_photo(path, grid)


def _read_sea(path: Path) -> Any:
    from scorecam.web.mediterraneo import read_photo

    return read_photo(path)


GAMES: dict[str, GameKind] = {
    "mondo": GameKind("mondo", "Mondo", 3, (1, 8), _read_mondo),
    "mediterraneo": GameKind("mediterraneo", "Mediterráneo", 0, (2, 2), _read_sea),
}


def mondo_game_score(players: list[str], turns: list[dict[str, Any]]) -> dict[str, Any]:
    """A Mondo game as it stands. ``turns``: per turn, ``islands`` (player -> Island, those in so
    far) and ``first_out`` (a player or None).

    A turn counts once every player's island is in: the volcano majority and the first-out bonus
    need them all. The totals add the counted turns; the winners (ties share the win) are named when
    all three turns count, and the leaders before that.
    """
    from scoring.mondo import Game, PlayerIsland, Turn, score_game, score_turn, turn_score_to_json

    counted = []
    out_turns = []
    for number, turn in enumerate(turns, start=1):
        islands: dict[str, Island] = turn["islands"]
        missing = [p for p in players if p not in islands]
        entry: dict[str, Any] = {"turn": number, "first_out": turn["first_out"], "missing": missing}
        if not missing:
            scored = Turn(tuple(PlayerIsland(p, islands[p], p == turn["first_out"]) for p in players))
            counted.append(scored)
            report = turn_score_to_json(score_turn(scored))
            entry["totals"] = {p["name"]: p["total"] for p in report["players"]}
            entry["report"] = report
        out_turns.append(entry)
    totals = {p: 0 for p in players}
    winners: list[str] = []
    if counted:
        game = score_game(Game(tuple(counted)))
        totals.update(dict(game.totals))
        winners = list(game.winners)
    complete = len(counted) == len(turns)
    return {
        "turns": out_turns,
        "totals": totals,
        "complete": complete,
        "winners": winners if complete else [],
        "leaders": winners,
    }

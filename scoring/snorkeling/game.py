"""A Snorkeling game over rounds: running totals, the target, the winner, a tie at the top.

A game file (what ``scorecam score ROUND --totals game.json`` keeps up to date)::

    {"format": 1, "game": "snorkeling", "target": 12, "players": ["Anna", "Ben"],
     "rounds": [{"Anna": 5, "Ben": 0}, {"Anna": 3, "Ben": 4}]}

Each round lists the points every player scored in it (their top card's value, 0 to 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.snorkeling.cards import (
    BEACH,
    DEFAULT_TARGET,
    FORMAT,
    GAME,
    LANTERNFISH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_header,
    check_name,
    check_target,
    is_int,
)

MAX_ROUNDS = 1000  # a game to 12 lasts a handful of rounds; the bound keeps a hostile file small


def verdict(totals: Mapping[str, int], target: int) -> tuple[bool, list[str], str]:
    """(over, winners, why) after a finished round: the one player with the most points wins once
    that most reaches ``target``; a tie at the top at or above it plays another round."""
    if not totals:
        return False, [], ""
    best = max(totals.values())
    leaders = [name for name, points in totals.items() if points == best]
    if best < target:
        return (
            False,
            [],
            f"nobody has {target} points yet ({' and '.join(leaders)} lead{'s' * (len(leaders) == 1)} with {best})",
        )
    if len(leaders) > 1:
        return False, [], f"{' and '.join(leaders)} tie at {best}: another round is played"
    return True, leaders, f"{leaders[0]} reaches {best} of {target} points and wins"


@dataclass(frozen=True)
class Game:
    """Players in seating order, the target, and each finished round's points per player."""

    players: tuple[str, ...]
    target: int = DEFAULT_TARGET
    rounds: tuple[tuple[tuple[str, int], ...], ...] = ()

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise BoardFormatError(
                f"Snorkeling has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}"
            )
        for name in players:
            check_name(name, "players")
        if len(set(players)) != len(players):
            raise BoardFormatError(f"a player appears twice in {shown(list(players))}")
        check_target(self.target)
        if len(self.rounds) > MAX_ROUNDS:
            raise BoardFormatError(f"{len(self.rounds):,} rounds; a game file holds at most {MAX_ROUNDS}")
        rounds = tuple(tuple(r.items()) if isinstance(r, Mapping) else tuple(r) for r in self.rounds)
        object.__setattr__(self, "rounds", rounds)
        running = dict.fromkeys(players, 0)
        for number, points in enumerate(rounds, start=1):
            where = f"round {number}"
            if verdict(running, self.target)[0]:
                raise BoardFormatError(
                    f"{where}: the game was already won by {verdict(running, self.target)[1][0]}"
                )
            named = [name for name, _ in points]
            if sorted(named) != sorted(players):
                raise BoardFormatError(
                    f"{where} names {', '.join(map(str, named)) or 'nobody'}; expected {', '.join(players)}"
                )
            for name, value in points:
                if not is_int(value) or not BEACH <= value <= LANTERNFISH:
                    raise BoardFormatError(
                        f"{where}: {name} scored {shown(value)} (a top card is worth 0 to 5)"
                    )
                running[name] += value

    def totals_after(self, rounds: int) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for points in self.rounds[:rounds]:
            for name, value in points:
                totals[name] += value
        return totals

    @property
    def totals(self) -> dict[str, int]:
        return self.totals_after(len(self.rounds))

    @property
    def verdict(self) -> tuple[bool, list[str], str]:
        if not self.rounds:
            return False, [], "no round played yet"
        return verdict(self.totals, self.target)


def add_round(game: Game, points: Mapping[str, int]) -> Game:
    """The game after one more finished round; raises when the game is already won or the players differ."""
    return Game(game.players, game.target, (*game.rounds, tuple(points.items())))


def game_from_json(data: object) -> Game:
    check_header(data, "game")
    check_keys(data, "game", ("format", "game", "players", "rounds"), ("target",))
    assert isinstance(data, Mapping)
    players, rounds = data["players"], data["rounds"]
    if not isinstance(players, list):
        raise BoardFormatError(f"players must be a list of names, got {type(players).__name__}")
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
        raise BoardFormatError("rounds must be a list of objects of player: points")
    if len(rounds) > MAX_ROUNDS:
        raise BoardFormatError(f"{len(rounds):,} rounds; a game file holds at most {MAX_ROUNDS}")
    return Game(tuple(players), data.get("target", DEFAULT_TARGET), tuple(tuple(r.items()) for r in rounds))


def game_to_json(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": GAME,
        "target": game.target,
        "players": list(game.players),
        "rounds": [dict(points) for points in game.rounds],
    }


def game_report_to_json(game: Game) -> dict[str, Any]:
    """Round by round points, the totals and the verdict."""
    over, winners, why = game.verdict
    return game_to_json(game) | {
        "totals": game.totals,
        "game_over": over,
        "winners": winners,
        "game_why": why,
    }

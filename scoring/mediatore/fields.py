"""Checks shared by the Mediatore JSON formats: header, keys, player names.

Every check raises :class:`BoardFormatError` with one line naming what is wrong and where.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scoring.errors import BoardFormatError, shown

GAME = "mediatore"
FORMAT = 1
PLAYERS = 4


def check_header(data: object, what: str) -> Mapping:
    """``data`` as a mapping whose "format" and "game" are Mediatore's (checked first, so that
    another game's file is named as such rather than as unknown keys)."""
    if not isinstance(data, Mapping):
        raise BoardFormatError(f"a Mediatore {what} must be a JSON object, got {type(data).__name__}")
    if "format" not in data:
        raise BoardFormatError(f'missing "format" (expected {FORMAT})')
    if type(data["format"]) is not int or data["format"] != FORMAT:
        raise BoardFormatError(f'unsupported "format" {shown(data["format"])} (expected {FORMAT})')
    if data.get("game") != GAME:
        raise BoardFormatError(f'"game" is {shown(data.get("game"))}, not "{GAME}"')
    return data


def check_players(players: object) -> tuple[str, ...]:
    """Four distinct names, listed in playing order (each next one sits to the right)."""
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise BoardFormatError(f"players must be a list of {PLAYERS} names, got {shown(players)}")
    names = tuple(players) if not isinstance(players, Mapping) else ()
    if len(names) != PLAYERS or not all(isinstance(p, str) and p.strip() for p in names):
        raise BoardFormatError(f"Mediatore has {PLAYERS} players with names, got {shown(players)}")
    if len(set(names)) != PLAYERS:
        raise BoardFormatError(f"players must have different names, got {shown(list(names))}")
    return names


def check_player(name: object, players: tuple[str, ...], what: str) -> str:
    if name not in players:
        raise BoardFormatError(f"{what} {shown(name)} is not a player ({', '.join(players)})")
    assert isinstance(name, str)
    return name


def next_player(players: tuple[str, ...], player: str) -> str:
    """The player to ``player``'s right: the next in playing order (deal, bidding and play all
    go to the right, and so does the deal from one round to the next)."""
    return players[(players.index(player) + 1) % len(players)]

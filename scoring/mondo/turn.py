"""Turns and games of Mondo: who built which island, who jumped out first.

A turn file: ``{"format": 1, "game": "mondo", "players": [{"name": "Kathrin", "island": {...},
"first_out": true}, ...]}``. A game file: ``{"format": 1, "game": "mondo", "turns": [turn, ...]}``
with up to three turns (the rulebook's game), each turn without its own header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.mondo.island import Island, _expect_keys, check_header, island_from_json, island_to_json

TURNS_PER_GAME = 3
# A Mondo table seats a handful of players; the limit keeps a turn's report (each player's volcano
# comparison names every valid island) bounded: 8,000 "players" once made 1.4 GB of JSON.
MAX_PLAYERS = 50


@dataclass(frozen=True)
class PlayerIsland:
    name: str
    island: Island
    first_out: bool = False


@dataclass(frozen=True)
class Turn:
    players: tuple[PlayerIsland, ...]

    def __post_init__(self) -> None:
        if not self.players:
            raise BoardFormatError("a turn needs at least one player")
        _check_player_count(len(self.players))
        names = [p.name for p in self.players]
        doubles = sorted({n for n in names if names.count(n) > 1})
        if doubles:
            raise BoardFormatError(f"player {shown(doubles[0])} appears twice in one turn")
        first = [p.name for p in self.players if p.first_out]
        if len(first) > 1:
            raise BoardFormatError(f"only one player can jump out first, not {', '.join(first)}")


@dataclass(frozen=True)
class Game:
    turns: tuple[Turn, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.turns) <= TURNS_PER_GAME:
            raise BoardFormatError(f"a game has 1 to {TURNS_PER_GAME} turns, not {len(self.turns)}")


def _check_player_count(count: int) -> None:
    if count > MAX_PLAYERS:
        raise BoardFormatError(f"{count:,} players in one turn; a turn has at most {MAX_PLAYERS} players")


def single_island_turn(name: str, island: Island) -> Turn:
    """An island scored alone: a turn of one player named after its file (DESIGN.md)."""
    return Turn((PlayerIsland(name, island, False),))


def _turn_body_from_json(data: Any, where: str) -> Turn:
    data = _expect_keys(data, where, {"players"}, {"format", "game"})
    if not isinstance(data["players"], list):
        raise BoardFormatError(f"{where}: 'players' must be a list")
    _check_player_count(len(data["players"]))  # before reading thousands of islands
    players = []
    for i, entry in enumerate(data["players"]):
        entry = _expect_keys(entry, f"{where}: player #{i + 1}", {"name", "island"}, {"first_out"})
        name = entry["name"]
        if not isinstance(name, str) or not name.strip():
            raise BoardFormatError(f"{where}: player #{i + 1} needs a name")
        first_out = entry.get("first_out", False)
        if not isinstance(first_out, bool):
            raise BoardFormatError(f"{where}: {name}'s first_out must be true or false")
        try:
            island = island_from_json(entry["island"], header_required=False)
        except BoardFormatError as error:
            raise BoardFormatError(f"{name}'s island: {error}") from None
        players.append(PlayerIsland(name, island, first_out))
    return Turn(tuple(players))


def turn_from_json(data: Any) -> Turn:
    if not isinstance(data, dict):
        raise BoardFormatError("a turn must be a JSON object")
    check_header(data, "mondo")
    return _turn_body_from_json(data, "the turn")


def game_from_json(data: Any) -> Game:
    data = _expect_keys(data, "the game", {"format", "game", "turns"}, set())
    check_header(data, "mondo")
    if not isinstance(data["turns"], list):
        raise BoardFormatError("'turns' must be a list")
    if not 1 <= len(data["turns"]) <= TURNS_PER_GAME:
        raise BoardFormatError(f"a game has 1 to {TURNS_PER_GAME} turns, not {len(data['turns']):,}")
    return Game(tuple(_turn_body_from_json(t, f"turn {i + 1}") for i, t in enumerate(data["turns"])))


def _turn_body_to_json(turn: Turn) -> dict[str, Any]:
    players = []
    for p in turn.players:
        island = island_to_json(p.island)
        del island["format"], island["game"]
        players.append({"name": p.name, "island": island, "first_out": p.first_out})
    return {"players": players}


def turn_to_json(turn: Turn) -> dict[str, Any]:
    return {"format": 1, "game": "mondo", **_turn_body_to_json(turn)}


def game_to_json(game: Game) -> dict[str, Any]:
    return {"format": 1, "game": "mondo", "turns": [_turn_body_to_json(t) for t in game.turns]}

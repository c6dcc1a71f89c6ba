"""Read any board JSON of any game and score it: the one entry point the application needs.

The kind of file is told by its keys, so a user never has to say what they are scoring:

=====================  ===========================================================
``game`` + keys        kind
=====================  ===========================================================
mondo + ``grid``       one island, scored alone as a turn of one player
mondo + ``players``    a turn: volcano majority and first-out bonus across players
mondo + ``turns``      a game of up to three turns, with its winners
mediterraneo + cells   a sea with both objectives
mediterraneo + plays   a sequence of card plays, checked against the placement rules
mediterraneo + match   a match record over rounds
=====================  ===========================================================
"""

from __future__ import annotations

from typing import Any

from scoring import mondo
from scoring.errors import BoardFormatError, shown

GAMES = ("mondo", "mediterraneo")


def board_kind(data: Any) -> str:
    """``mondo-island``, ``mondo-turn``, ``mondo-game``, ``mediterraneo-sea``, ``-plays`` or ``-match``."""
    if not isinstance(data, dict):
        raise BoardFormatError(f"a board must be a JSON object, not {type(data).__name__}")
    game = data.get("game")
    if game not in GAMES:
        raise BoardFormatError(f"'game' must be one of {', '.join(GAMES)}, not {shown(game)}")
    kinds = {
        "mondo": {"grid": "island", "players": "turn", "turns": "game"},
        "mediterraneo": {"cells": "sea", "plays": "plays", "match": "match"},
    }[game]
    found = [kind for key, kind in kinds.items() if key in data]
    if len(found) != 1:
        keys = ", ".join(shown(k) for k in kinds)
        raise BoardFormatError(f"a {game} board needs exactly one of {keys}")
    return f"{game}-{found[0]}"


def score_board(data: Any, name: str = "island") -> dict[str, Any]:
    """The score report (DESIGN.md format) of any board JSON; ``name`` names a lone island's player."""
    kind = board_kind(data)
    if kind == "mondo-island":
        island = mondo.island_from_json(data)
        return mondo.turn_score_to_json(mondo.score_turn(mondo.single_island_turn(name, island)))
    if kind == "mondo-turn":
        return mondo.turn_score_to_json(mondo.score_turn(mondo.turn_from_json(data)))
    if kind == "mondo-game":
        return mondo.game_score_to_json(mondo.score_game(mondo.game_from_json(data)))
    # imported here: a Mondo photo or board (the start-up that counts) never loads this engine
    from scoring import mediterraneo

    if kind == "mediterraneo-sea":
        return mediterraneo.sea_report_to_json(mediterraneo.score_sea(mediterraneo.sea_from_json(data)))
    if kind == "mediterraneo-plays":
        return _plays_report(data)
    return mediterraneo.match_report_to_json(mediterraneo.match_from_json(data))


def _plays_report(data: Any) -> dict[str, Any]:
    """A play sequence that keeps the placement rule, and the cells it leaves visible.

    An illegal play raises BoardFormatError naming the play and the rule it breaks.
    """
    from scoring import mediterraneo
    from scoring.mediterraneo.sea import cell_to_json

    table = mediterraneo.check_plays(mediterraneo.plays_from_json(data))
    cells = sorted(table.visible.values(), key=lambda hit: (hit[0].y, hit[0].x))
    return {
        "format": 1,
        "game": "mediterraneo",
        "plays": len(table.plays),
        "legal": True,
        "visible_cells": [cell_to_json(cell) for cell, _ in cells],
    }

"""Snorkeling (shared/rules/snorkeling.txt): the end of a round from the top cards, games over rounds,
the play checker and a legal random player.

- cards (:mod:`.cards`): ``Card``, ``COLORS``, ``VALUES``, ``NAMES``, ``deck``, ``one_higher``
- round (:mod:`.round`): ``Diver``, ``RoundBoard``, ``score_round``, ``name_divers``, JSON in and out
- game (:mod:`.game`): ``Game``, ``add_round``, ``verdict``, JSON in and out
- plays (:mod:`.plays`): ``Turn``, ``PlaySequence``, ``TableState``, ``check_plays``, ``PlayError``
- random play (:mod:`.random_play`): ``random_round``, ``Style``, ``PlayedRound``
"""

from scoring.snorkeling.cards import (
    BEACH,
    COLORS,
    COPIES,
    DEFAULT_TARGET,
    LANTERNFISH,
    LANTERNFISH_CARD,
    MATS,
    NAMES,
    RAY,
    VALUES,
    Card,
    card_from_text,
    card_to_json,
    deck,
    one_higher,
)
from scoring.snorkeling.game import (
    Game,
    add_round,
    game_from_json,
    game_report_to_json,
    game_to_json,
    verdict,
)
from scoring.snorkeling.plays import (
    VARIANTS,
    PlayError,
    PlaySequence,
    TableState,
    Turn,
    apply_turn,
    check_plays,
    deal_state,
    plays_from_json,
    plays_to_json,
)
from scoring.snorkeling.random_play import PlayedRound, Style, random_round
from scoring.snorkeling.round import (
    Diver,
    RoundBoard,
    RoundReport,
    name_divers,
    round_from_json,
    round_report_to_json,
    round_to_json,
    score_round,
)
from scoring.snorkeling.score import board_kind, plays_report_to_json, score_snorkeling

__all__ = [
    "BEACH",
    "COLORS",
    "COPIES",
    "DEFAULT_TARGET",
    "LANTERNFISH",
    "LANTERNFISH_CARD",
    "MATS",
    "NAMES",
    "RAY",
    "VALUES",
    "VARIANTS",
    "Card",
    "Diver",
    "Game",
    "PlayError",
    "PlaySequence",
    "PlayedRound",
    "RoundBoard",
    "RoundReport",
    "Style",
    "TableState",
    "Turn",
    "add_round",
    "apply_turn",
    "board_kind",
    "card_from_text",
    "card_to_json",
    "check_plays",
    "deal_state",
    "deck",
    "game_from_json",
    "game_report_to_json",
    "game_to_json",
    "name_divers",
    "one_higher",
    "plays_from_json",
    "plays_report_to_json",
    "plays_to_json",
    "random_round",
    "round_from_json",
    "round_report_to_json",
    "round_to_json",
    "score_round",
    "score_snorkeling",
    "verdict",
]

"""Mediterráneo: the sea, its score, card placement and the match over rounds.

Public API:

- model (:mod:`.sea`): ``SPECIES``, ``Cell``, ``Objective``, ``Sea``, ``sea_from_json``, ``sea_to_json``
- scoring (:mod:`.score`): ``OctopusResolution``, ``PlayerScore``, ``SeaReport``, ``resolve_octopuses``,
  ``species_counts``, ``objective_choice_problem``, ``score_sea``, ``sea_report_to_json``
- placement (:mod:`.placement`): ``CardFace``, ``card_face_from_rows``, ``Play``, ``Table``, ``play_cells``,
  ``play_problem``, ``place``, ``check_plays``, ``visible_sea``, ``plays_from_json``, ``plays_to_json``
- match (:mod:`.match`): ``RoundRecord``, ``RemovedCard``, ``Match``, ``start_match``, ``record_round``,
  ``rounds_won``, ``winner``, ``first_player_next_round``, ``match_from_json``, ``match_to_json``,
  ``match_report_to_json``
"""

from scoring.mediterraneo.match import (
    Match,
    RemovedCard,
    RoundRecord,
    first_player_next_round,
    match_from_json,
    match_report_to_json,
    match_to_json,
    record_round,
    rounds_won,
    start_match,
    winner,
)
from scoring.mediterraneo.placement import (
    CardFace,
    Play,
    Table,
    card_face_from_rows,
    check_plays,
    place,
    play_cells,
    play_problem,
    plays_from_json,
    plays_to_json,
    visible_sea,
)
from scoring.mediterraneo.score import (
    OctopusResolution,
    PlayerScore,
    SeaReport,
    objective_choice_problem,
    resolve_octopuses,
    score_sea,
    sea_report_to_json,
    species_counts,
)
from scoring.mediterraneo.sea import SPECIES, Cell, Objective, Sea, sea_from_json, sea_to_json

__all__ = [
    "SPECIES",
    "CardFace",
    "Cell",
    "Match",
    "Objective",
    "OctopusResolution",
    "Play",
    "PlayerScore",
    "RemovedCard",
    "RoundRecord",
    "Sea",
    "SeaReport",
    "Table",
    "card_face_from_rows",
    "check_plays",
    "first_player_next_round",
    "match_from_json",
    "match_report_to_json",
    "match_to_json",
    "objective_choice_problem",
    "place",
    "play_cells",
    "play_problem",
    "plays_from_json",
    "plays_to_json",
    "record_round",
    "resolve_octopuses",
    "rounds_won",
    "score_sea",
    "sea_from_json",
    "sea_report_to_json",
    "sea_to_json",
    "species_counts",
    "start_match",
    "visible_sea",
    "winner",
]

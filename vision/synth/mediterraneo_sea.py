"""Random Mediterráneo seas built by legal play sequences, the way two players build them.

Both players choose objectives (the second one legally), then play their cards in turn; every play
is a random position and turn that the engine's placement checker accepts. The truth of a simulated
photo is therefore a sea that could really happen at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.mediterraneo import (
    CardFace,
    Objective,
    Play,
    Sea,
    Table,
    card_face_from_rows,
    objective_choice_problem,
    play_problem,
    visible_sea,
)

PLAYERS = ("circle", "square")
TRIES_PER_CARD = 120


@dataclass(frozen=True)
class SeaScene:
    plays: tuple[Play, ...]
    objective_cards: tuple[tuple[str, str], ...]  # (player, card id) shown objective side up
    objectives: tuple[tuple[str, Objective], ...]
    first: str

    @property
    def sea(self) -> Sea:
        return visible_sea(Table(self.plays), self.objectives, self.first)


def card_face(component: dict, face: str) -> CardFace:
    cells = component["faces"][face]["cells"]
    return card_face_from_rows(component["id"], component["set"], component["faces"][face]["kind"], cells)


def _choose_objectives(by_set: dict[str, list[dict]], first: str, rng: np.random.Generator):
    second = PLAYERS[1 - PLAYERS.index(first)]
    chosen: dict[str, tuple[dict, Objective]] = {}
    for player in (first, second):
        options = [c for c in by_set[player] if c["faces"]["back"]["kind"] == "objective"]
        rng.shuffle(options)
        for card in options:
            back = card["faces"]["back"]
            objective = Objective(back["plus"], back["minus"])
            if player == second and objective_choice_problem(chosen[first][1], objective):
                continue
            chosen[player] = (card, objective)
            break
    return chosen


def _candidate(table: Table, face: CardFace, rng: np.random.Generator) -> Play:
    rotation = int(rng.choice([0, 90, 180, 270]))
    if not table.plays:
        return Play(face, 0, 0, rotation)
    w, h = (2, 3) if rotation in (0, 180) else (3, 2)
    cells = list(table.visible)
    cx, cy = cells[int(rng.integers(len(cells)))]
    return Play(face, cx - int(rng.integers(w)), cy - int(rng.integers(h)), rotation)


def random_sea(catalog: dict, rng: np.random.Generator, n_cards: int | None = None) -> SeaScene:
    """A sea of ``n_cards`` sea-table cards (3 to 16 when not given) from a legal play sequence."""
    by_set = {p: [c for c in catalog["components"] if c["set"] == p] for p in PLAYERS}
    first = PLAYERS[int(rng.integers(2))]
    chosen = _choose_objectives(by_set, first, rng)
    hands = {p: [c for c in by_set[p] if c["id"] != chosen[p][0]["id"]] for p in PLAYERS}
    for hand in hands.values():
        rng.shuffle(hand)
    target = int(n_cards if n_cards is not None else rng.integers(3, 17))
    order = [first, PLAYERS[1 - PLAYERS.index(first)]]
    table = Table()
    turn = 0
    stuck = 0
    while len(table.plays) < target and any(hands.values()) and stuck < 2:
        player = order[turn % 2]
        turn += 1
        placed = False
        for card in list(hands[player]):
            seagull_side = card["faces"]["back"]["kind"] == "seagull" and table.plays and rng.random() < 0.35
            face = card_face(card, "back" if seagull_side else "front")
            for _ in range(TRIES_PER_CARD):
                play = _candidate(table, face, rng)
                if not play_problem(table, play):
                    table = Table((*table.plays, play))
                    hands[player].remove(card)
                    placed = True
                    break
            if placed:
                break
        stuck = 0 if placed else stuck + 1
    return SeaScene(
        table.plays,
        tuple((p, chosen[p][0]["id"]) for p in order),
        tuple((p, chosen[p][1]) for p in order),
        first,
    )

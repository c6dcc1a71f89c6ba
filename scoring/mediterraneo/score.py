"""Scoring a Mediterráneo sea: octopus camouflage, species counts, objective legality and round end.

Rules as interpreted in DESIGN.md ("Rules interpretations", Mediterráneo).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.mediterraneo.sea import FORMAT, GAME, SPECIES, Cell, Objective, Sea, position
from scoring.sides import STEP

ROUND_END_POINTS = 10
ROUND_OUTCOMES: tuple[str, ...] = ("in_play", "won", "tie_play_on", "replay")


@dataclass(frozen=True)
class OctopusResolution:
    """What the octopus at (x, y) counts as (None: no species) and a sentence saying why."""

    x: int
    y: int
    becomes: str | None
    why: str


@dataclass(frozen=True)
class PlayerScore:
    name: str
    plus: str
    minus: str
    plus_points: int
    minus_points: int

    @property
    def total(self) -> int:
        return self.plus_points + self.minus_points


@dataclass(frozen=True)
class SeaReport:
    """The score of one sea. `species` holds only non-zero counts, in SPECIES order; players first-first."""

    species: tuple[tuple[str, int], ...]
    octopuses: tuple[OctopusResolution, ...]
    players: tuple[PlayerScore, ...]
    objectives_legal: bool
    objectives_why: str
    round_over: bool
    leader: str | None
    round_outcome: str
    round_why: str


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def resolve_octopuses(sea: Sea) -> tuple[OctopusResolution, ...]:
    """Resolve every octopus, sorted by (y, x) so the result never depends on the order of the cells.

    Octopuses form a functional graph (each points at one cell). Walking it from each octopus ends
    on a non-octopus cell, on an octopus already resolved, or back on the walk itself (a cycle);
    everything on the walk then resolves backwards from that end.
    """
    at: dict[tuple[int, int], Cell] = {(c.x, c.y): c for c in sea.cells}

    def target(pos: tuple[int, int]) -> tuple[int, int]:
        dx, dy = STEP[at[pos].points or "N"]
        return pos[0] + dx, pos[1] + dy

    done: dict[tuple[int, int], tuple[str | None, str]] = {}
    for start in sorted((pos for pos, c in at.items() if c.content == "octopus"), key=lambda p: (p[1], p[0])):
        walk: list[tuple[int, int]] = []
        on_walk: dict[tuple[int, int], int] = {}
        pos = start
        while pos not in done and pos not in on_walk and pos in at and at[pos].content == "octopus":
            on_walk[pos] = len(walk)
            walk.append(pos)
            pos = target(pos)
        if pos in on_walk:
            cycle = walk[on_walk[pos] :]
            for i, member in enumerate(cycle):
                if len(cycle) == 2:
                    other = cycle[1 - i]
                    why = f"two octopuses touch each other: {position(*member)} and {position(*other)}"
                else:
                    loop = cycle[i:] + cycle[: i + 1]
                    why = "part of a cycle of octopuses: " + " -> ".join(position(*p) for p in loop)
                done[member] = (None, why)
            walk = walk[: on_walk[pos]]
        elif pos not in done:
            # The walk ended on a cell that is not an octopus: the last octopus touches it directly.
            last = walk.pop()
            cell = at.get(pos)
            if cell is None:
                done[last] = (None, "touches nothing")
            elif cell.content == "seagull":
                done[last] = (None, f"touches a seagull at {position(*pos)}")
            else:
                done[last] = (
                    cell.content,
                    f"touches {_article(cell.content)} {cell.content} at {position(*pos)}",
                )
        for octopus in reversed(walk):
            touched = target(octopus)
            becomes = done[touched][0]
            state = f"that became {becomes}" if becomes else "that is no species"
            done[octopus] = (becomes, f"touches an octopus at {position(*touched)} {state}")
    return tuple(
        OctopusResolution(x, y, *done[(x, y)]) for (x, y) in sorted(done, key=lambda p: (p[1], p[0]))
    )


def _counts(sea: Sea, octopuses: tuple[OctopusResolution, ...]) -> dict[str, int]:
    counts = dict.fromkeys(SPECIES, 0)
    for cell in sea.cells:
        if cell.content in counts:
            counts[cell.content] += 1
    for octopus in octopuses:
        if octopus.becomes is not None:
            counts[octopus.becomes] += 1
    return counts


def species_counts(sea: Sea) -> dict[str, int]:
    """Visible animals per species (all six, SPECIES order), octopuses counted as what they became."""
    return _counts(sea, resolve_octopuses(sea))


def objective_choice_problem(first: Objective, second: Objective) -> str:
    """Why the second player may not take `second` after `first` was chosen ("" when legal).

    The second objective must differ, and its plus may not be the first player's minus (scoring
    for yourself what costs your opponent) unless the two objectives mirror each other.
    """
    if second == first:
        return f"the second objective repeats the first (plus {first.plus}, minus {first.minus})"
    mirror = second.plus == first.minus and second.minus == first.plus
    if second.plus == first.minus and not mirror:
        return (
            f"the second player's plus ({second.plus}) is the first player's minus; "
            f"allowed only as the mirror objective (plus {first.minus}, minus {first.plus})"
        )
    return ""


def _round_state(sea: Sea, players: tuple[PlayerScore, ...], leader: str | None) -> tuple[bool, str, str]:
    reasons = [f"{p.name} has {p.total} points" for p in players if p.total >= ROUND_END_POINTS]
    next_cards = None if sea.next is None else sea.cards_left(sea.next)
    if next_cards == 0:
        reasons.append(f"{sea.next} has no cards left")
    if not reasons:
        return False, "in_play", ""
    # On a tie play goes on while the next player can still play; unknown hands count as cards left.
    tie_outcome = "replay" if next_cards == 0 else "tie_play_on"
    outcome = "won" if leader is not None else tie_outcome
    return True, outcome, "; ".join(reasons)


def score_sea(sea: Sea) -> SeaReport:
    """Score both players on the visible sea and say whether (and how) the round ends."""
    octopuses = resolve_octopuses(sea)
    counts = _counts(sea, octopuses)
    order = (sea.first, sea.second)
    players = tuple(
        PlayerScore(p, o.plus, o.minus, 2 * counts[o.plus], -counts[o.minus])
        for p, o in ((p, sea.objective(p)) for p in order)
    )
    a, b = players
    leader = None if a.total == b.total else (a.name if a.total > b.total else b.name)
    why = objective_choice_problem(sea.objective(sea.first), sea.objective(sea.second))
    round_over, outcome, round_why = _round_state(sea, players, leader)
    return SeaReport(
        species=tuple((s, n) for s, n in counts.items() if n),
        octopuses=octopuses,
        players=players,
        objectives_legal=not why,
        objectives_why=why,
        round_over=round_over,
        leader=leader,
        round_outcome=outcome,
        round_why=round_why,
    )


def sea_report_to_json(report: SeaReport) -> dict[str, Any]:
    """The DESIGN.md report, plus "round_outcome" and "round_why"."""
    return {
        "format": FORMAT,
        "game": GAME,
        "species": dict(report.species),
        "octopuses": [{"x": o.x, "y": o.y, "becomes": o.becomes, "why": o.why} for o in report.octopuses],
        "players": [
            {
                "name": p.name,
                "plus": p.plus,
                "minus": p.minus,
                "points": {"plus": p.plus_points, "minus": p.minus_points},
                "total": p.total,
            }
            for p in report.players
        ],
        "objectives_legal": report.objectives_legal,
        "objectives_why": report.objectives_why,
        "round_over": report.round_over,
        "leader": report.leader,
        "round_outcome": report.round_outcome,
        "round_why": report.round_why,
    }

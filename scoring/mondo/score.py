"""Scoring Mondo islands, turns and games by the rulebook (DESIGN.md, "Rules interpretations").

:func:`analyse_island` finds what the rules look at (edges that break validity, misconnections,
landscapes); :func:`score_turn` turns that into points, with the volcano majority across the
valid islands of the turn; :func:`score_game` adds up to three turns. Every number in a report is
traceable in its ``details``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.mondo.island import LAND, Island, Tile
from scoring.mondo.turn import TURNS_PER_GAME, Game, Turn, single_island_turn
from scoring.sides import OPPOSITE, SIDES, STEP

FIRST_OUT_BONUS = 4
POINTS_PER_LANDSCAPE = 2

Cell = tuple[int, int]
AreaKey = tuple[int, int, int]  # row, col, index into the tile's areas


@dataclass(frozen=True)
class EdgeProblem:
    """An edge that makes the island invalid."""

    row: int
    col: int
    side: str
    terrain: str
    why: str


@dataclass(frozen=True)
class Misconnection:
    """Two facing edges of placed tiles with different terrains: one misconnection per pair."""

    a: Cell
    side_a: str
    terrain_a: str
    b: Cell
    side_b: str
    terrain_b: str


@dataclass(frozen=True)
class Landscape:
    """A maximal set of same-terrain areas joined through matching facing edges."""

    terrain: str
    areas: tuple[AreaKey, ...]
    scores: bool
    why_not: str  # empty when it scores

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(sorted({(r, c) for r, c, _ in self.areas}))


@dataclass(frozen=True)
class IslandAnalysis:
    invalid_edges: tuple[EdgeProblem, ...]
    misconnections: tuple[Misconnection, ...]
    landscapes: tuple[Landscape, ...]

    @property
    def valid(self) -> bool:
        return not self.invalid_edges

    @property
    def scoring_landscapes(self) -> tuple[Landscape, ...]:
        return tuple(ls for ls in self.landscapes if ls.scores)


def neighbour(island: Island, row: int, col: int, side: str) -> tuple[str, Tile | None]:
    """What a side faces: ("outside", None), ("empty", None) or ("tile", the facing tile)."""
    dx, dy = STEP[side]
    r, c = row + dy, col + dx
    if not (0 <= r < island.grid and 0 <= c < island.grid):
        return "outside", None
    tile = island.tile_at(r, c)
    return ("tile", tile) if tile is not None else ("empty", None)


def analyse_island(island: Island) -> IslandAnalysis:
    invalid: list[EdgeProblem] = []
    misconnections: list[Misconnection] = []
    facing_empty: set[tuple[int, int, str]] = set()
    outer_land: set[tuple[int, int, str]] = set()
    misconnected: dict[tuple[int, int, str], Misconnection] = {}
    parent: dict[AreaKey, AreaKey] = {}

    def find(key: AreaKey) -> AreaKey:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for tile in island.tiles:
        for index in range(len(tile.areas)):
            parent[(tile.row, tile.col, index)] = (tile.row, tile.col, index)

    for tile in island.tiles:
        for side in SIDES:
            terrain = tile.edge(side)
            kind, other = neighbour(island, tile.row, tile.col, side)
            if kind == "outside":
                if terrain != "water":
                    invalid.append(
                        EdgeProblem(
                            tile.row, tile.col, side, terrain, f"outer edge shows {terrain}, not water"
                        )
                    )
                    outer_land.add((tile.row, tile.col, side))
                continue
            if terrain == "water":
                invalid.append(EdgeProblem(tile.row, tile.col, side, terrain, "inward edge shows water"))
            if kind == "empty":
                facing_empty.add((tile.row, tile.col, side))
                continue
            assert other is not None
            if side not in ("E", "S"):  # each facing pair once
                continue
            other_side = OPPOSITE[side]
            other_terrain = other.edge(other_side)
            if other_terrain != terrain:
                pair = Misconnection(tile.cell, side, terrain, other.cell, other_side, other_terrain)
                misconnections.append(pair)
                misconnected[(tile.row, tile.col, side)] = pair
                misconnected[(other.row, other.col, other_side)] = pair
            else:
                a = find((tile.row, tile.col, tile.area_index(side)))
                b = find((other.row, other.col, other.area_index(other_side)))
                if a != b:
                    parent[max(a, b)] = min(a, b)

    groups: dict[AreaKey, list[AreaKey]] = {}
    for key in parent:
        groups.setdefault(find(key), []).append(key)

    landscapes = []
    for keys in groups.values():
        keys.sort()
        first = keys[0]
        terrain = island.tile_at(first[0], first[1]).areas[first[2]].terrain  # type: ignore[union-attr]
        reasons = _why_landscape_fails(island, keys, terrain, facing_empty, outer_land, misconnected)
        landscapes.append(Landscape(terrain, tuple(keys), not reasons, "; ".join(reasons)))
    landscapes.sort(key=lambda ls: ls.areas[0])
    return IslandAnalysis(tuple(invalid), tuple(misconnections), tuple(landscapes))


def _why_landscape_fails(island, keys, terrain, facing_empty, outer_land, misconnected) -> list[str]:
    if terrain not in LAND:
        return ["water scores nothing"]
    reasons = []
    for row, col, index in keys:
        tile = island.tile_at(row, col)
        for side in tile.areas[index].sides:
            edge = (row, col, side)
            if edge in facing_empty:
                dx, dy = STEP[side]
                reasons.append(f"faces the empty space at ({row + dy}, {col + dx})")
            elif edge in outer_land:
                reasons.append(f"reaches the outer edge at ({row}, {col}) {side}")
            elif edge in misconnected:
                pair = misconnected[edge]
                reasons.append(f"misconnection {_pair_text(pair)}")
    return list(dict.fromkeys(reasons))  # each reason once, in order


def _pair_text(pair: Misconnection) -> str:
    return (
        f"({pair.a[0]}, {pair.a[1]}) {pair.side_a} {pair.terrain_a} / "
        f"({pair.b[0]}, {pair.b[1]}) {pair.side_b} {pair.terrain_b}"
    )


# --- points -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Points:
    animals: int = 0
    landscapes: int = 0
    volcanoes: int = 0
    empty_spaces: int = 0
    misconnections: int = 0
    first_out: int = 0

    @property
    def sum(self) -> int:
        return (
            self.animals
            + self.landscapes
            + self.volcanoes
            + self.empty_spaces
            + self.misconnections
            + self.first_out
        )


@dataclass(frozen=True)
class PlayerScore:
    name: str
    island: Island
    analysis: IslandAnalysis
    first_out: bool
    volcano_majority: bool  # tied for the most volcanoes among the turn's valid islands
    points: Points
    total: int  # never below 0

    @property
    def valid(self) -> bool:
        return self.analysis.valid

    @property
    def animals(self) -> int:
        return sum(tile.animals for tile in self.island.tiles)

    @property
    def volcanoes(self) -> int:
        return sum(tile.volcanoes for tile in self.island.tiles)


@dataclass(frozen=True)
class TurnScore:
    players: tuple[PlayerScore, ...]
    most_volcanoes: int  # among the valid islands; 0 when none has a volcano
    volcano_contenders: tuple[str, ...]  # the valid islands compared

    def player(self, name: str) -> PlayerScore:
        return next(p for p in self.players if p.name == name)


@dataclass(frozen=True)
class GameScore:
    turns: tuple[TurnScore, ...]
    totals: tuple[tuple[str, int], ...]  # per player, in order of first appearance
    winners: tuple[str, ...]  # all tied for most share the win

    @property
    def complete(self) -> bool:
        return len(self.turns) == TURNS_PER_GAME


def score_turn(turn: Turn) -> TurnScore:
    analyses = [analyse_island(p.island) for p in turn.players]
    volcanoes = [sum(t.volcanoes for t in p.island.tiles) for p in turn.players]
    contenders = [i for i, a in enumerate(analyses) if a.valid]
    most = max((volcanoes[i] for i in contenders), default=0)
    players = []
    for i, (player, analysis) in enumerate(zip(turn.players, analyses, strict=True)):
        in_majority = i in contenders and most >= 1 and volcanoes[i] == most
        if analysis.valid:
            points = Points(
                animals=sum(t.animals for t in player.island.tiles),
                landscapes=POINTS_PER_LANDSCAPE * len(analysis.scoring_landscapes),
                volcanoes=-volcanoes[i] if in_majority else 0,
                empty_spaces=-len(player.island.empty_cells),
                misconnections=-len(analysis.misconnections),
                first_out=FIRST_OUT_BONUS if player.first_out else 0,
            )
        else:  # an invalid island scores 0 and takes no further part
            points = Points()
        players.append(
            PlayerScore(
                player.name,
                player.island,
                analysis,
                player.first_out,
                in_majority,
                points,
                max(0, points.sum),
            )
        )
    return TurnScore(tuple(players), most, tuple(turn.players[i].name for i in contenders))


def score_island(island: Island, name: str = "island") -> PlayerScore:
    """One island scored alone: it is the only participant in the volcano comparison."""
    return score_turn(single_island_turn(name, island)).players[0]


def score_game(game: Game) -> GameScore:
    turns = tuple(score_turn(turn) for turn in game.turns)
    totals: dict[str, int] = {}
    for turn in turns:
        for player in turn.players:
            totals[player.name] = totals.get(player.name, 0) + player.total
    best = max(totals.values())
    winners = tuple(name for name, total in totals.items() if total == best)
    return GameScore(turns, tuple(totals.items()), winners)


# --- reports as JSON (DESIGN.md, "Score reports") -----------------------------------------------


def _cell(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def player_score_to_json(score: PlayerScore, turn: TurnScore) -> dict[str, Any]:
    a = score.analysis
    by_terrain = {t: sum(1 for ls in a.scoring_landscapes if ls.terrain == t) for t in LAND}
    return {
        "name": score.name,
        "valid": score.valid,
        "animals": score.animals,
        "scoring_landscapes": len(a.scoring_landscapes),
        "volcanoes": score.volcanoes,
        "empty_spaces": len(score.island.empty_cells),
        "misconnections": len(a.misconnections),
        "first_out": score.first_out,
        "points": {
            "animals": score.points.animals,
            "landscapes": score.points.landscapes,
            "volcanoes": score.points.volcanoes,
            "empty_spaces": score.points.empty_spaces,
            "misconnections": score.points.misconnections,
            "first_out": score.points.first_out,
        },
        "total": score.total,
        "details": {
            "invalid_edges": [
                {"row": e.row, "col": e.col, "side": e.side, "terrain": e.terrain, "why": e.why}
                for e in a.invalid_edges
            ],
            "misconnection_pairs": [
                {
                    "a": _cell(m.a),
                    "side_a": m.side_a,
                    "terrain_a": m.terrain_a,
                    "b": _cell(m.b),
                    "side_b": m.side_b,
                    "terrain_b": m.terrain_b,
                }
                for m in a.misconnections
            ],
            "landscapes": [
                {
                    "terrain": ls.terrain,
                    "cells": [_cell(c) for c in ls.cells],
                    "areas": [list(k) for k in ls.areas],
                    "scores": ls.scores,
                    "why_not": ls.why_not,
                }
                for ls in a.landscapes
            ],
            "scoring_landscapes_by_terrain": by_terrain,
            "empty_cells": [_cell(c) for c in score.island.empty_cells],
            "animal_tiles": [
                {"row": t.row, "col": t.col, "animals": t.animals} for t in score.island.tiles if t.animals
            ],
            "volcano_tiles": [
                {"row": t.row, "col": t.col, "volcanoes": t.volcanoes}
                for t in score.island.tiles
                if t.volcanoes
            ],
            "volcano_majority": {
                "most": turn.most_volcanoes,
                "among": list(turn.volcano_contenders),
                "in_majority": score.volcano_majority,
            },
            "sum_before_floor": score.points.sum,
        },
    }


def turn_score_to_json(turn: TurnScore) -> dict[str, Any]:
    return {
        "format": 1,
        "game": "mondo",
        "players": [player_score_to_json(p, turn) for p in turn.players],
    }


def game_score_to_json(game: GameScore) -> dict[str, Any]:
    turns = []
    for turn in game.turns:
        body = turn_score_to_json(turn)
        del body["format"], body["game"]
        turns.append(body)
    return {
        "format": 1,
        "game": "mondo",
        "turns": turns,
        "totals": dict(game.totals),
        "winners": list(game.winners),
        "complete": game.complete,
    }

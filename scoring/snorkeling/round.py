"""The end of a Snorkeling round, read from the top card of each diver's pile (DESIGN.md "Snorkeling round").

A round is over when a Beach (0) lies on a personal pile; every diver then scores the value of
their top card (the Lanternfish 5). A board whose piles show no Beach is scored all the same, with
``round_over`` false and why, so a photo taken too early still says where everyone stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.snorkeling.cards import (
    BEACH,
    DEFAULT_TARGET,
    FORMAT,
    GAME,
    LANTERNFISH,
    MATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    card_from_json,
    card_to_json,
    check_header,
    check_name,
    check_target,
    is_int,
    or_list,
)
from scoring.snorkeling.game import verdict


@dataclass(frozen=True)
class Diver:
    """One player at the end of a round: the diver mat their pile lies on and the pile's top card."""

    mat: int
    top: Card
    name: str | None = None

    def __post_init__(self) -> None:
        if not is_int(self.mat) or self.mat not in MATS:
            raise BoardFormatError(f"a diver mat is numbered {or_list(MATS)}, got {shown(self.mat)}")
        if not isinstance(self.top, Card):
            raise BoardFormatError(f"mat {self.mat}: top must be a Card, got {type(self.top).__name__}")
        if self.name is not None:
            check_name(self.name, f"mat {self.mat}")

    @property
    def label(self) -> str:
        """The player's name, or ``diver N`` after the mat when the board names nobody."""
        return self.name or f"diver {self.mat}"


@dataclass(frozen=True)
class RoundBoard:
    """Every diver's top card, the centre's top card (if seen), the totals before this round, the target."""

    divers: tuple[Diver, ...]
    centre: Card | None = None
    before: tuple[tuple[str, int], ...] = ()
    target: int = DEFAULT_TARGET

    def __post_init__(self) -> None:
        divers = tuple(self.divers)
        object.__setattr__(self, "divers", divers)
        if not MIN_PLAYERS <= len(divers) <= MAX_PLAYERS:
            raise BoardFormatError(
                f"Snorkeling has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(divers)}"
            )
        mats = [d.mat for d in divers]
        doubles = sorted({m for m in mats if mats.count(m) > 1})
        if doubles:
            raise BoardFormatError(f"mat {doubles[0]} appears twice")
        labels = [d.label for d in divers]
        doubles_named = sorted({n for n in labels if labels.count(n) > 1})
        if doubles_named:
            raise BoardFormatError(f"player {shown(doubles_named[0])} appears twice")
        if self.centre is not None and self.centre.value == LANTERNFISH:
            raise BoardFormatError("the centre cannot show a Lanternfish: it never leaves its diver's pile")
        before = tuple(self.before.items()) if isinstance(self.before, Mapping) else tuple(self.before)
        object.__setattr__(self, "before", before)
        for name, points in before:
            if name not in labels:
                raise BoardFormatError(
                    f"before names {shown(name)}, who is not a player ({', '.join(labels)})"
                )
            if not is_int(points) or not 0 <= points <= 100_000:
                raise BoardFormatError(
                    f"before: {name} has {shown(points)} points (a whole number, 0 or more)"
                )
        check_target(self.target)

    def points_before(self, label: str) -> int:
        return dict(self.before).get(label, 0)


def name_divers(board: RoundBoard, names: Mapping[int, str]) -> RoundBoard:
    """The board with the divers that have no name named after their mat (``{1: "Anna"}``); a mat
    named but not on the board raises, so a typo never leaves a player unnamed in silence."""
    mats = {d.mat for d in board.divers}
    missing = sorted(set(names) - mats)
    if missing:
        raise BoardFormatError(
            f"no pile lies on mat {missing[0]} (mats: {', '.join(map(str, sorted(mats)))})"
        )
    divers = tuple(replace(d, name=d.name or names.get(d.mat)) for d in board.divers)
    before = board.before  # keyed by label: a renamed diver keeps the points written under "diver N"
    renamed = {f"diver {d.mat}": d.label for d in divers}
    return replace(board, divers=divers, before=tuple((renamed.get(n, n), p) for n, p in before))


@dataclass(frozen=True)
class DiverScore:
    name: str
    mat: int
    top: Card
    before: int
    points: int

    @property
    def total(self) -> int:
        return self.before + self.points


@dataclass(frozen=True)
class RoundReport:
    board: RoundBoard
    divers: tuple[DiverScore, ...]
    beaches: tuple[str, ...]  # who has a Beach on top: the round ended on their pile

    @property
    def round_over(self) -> bool:
        return bool(self.beaches)

    @property
    def round_why(self) -> str:
        if not self.beaches:
            return "no Beach (0) on any pile: the round is not over yet"
        piles = " and ".join(f"{d.name}'s pile (mat {d.mat})" for d in self.divers if d.name in self.beaches)
        return f"a Beach lies on {piles}"

    @property
    def totals(self) -> dict[str, int]:
        return {d.name: d.total for d in self.divers}


def score_round(board: RoundBoard) -> RoundReport:
    """Round points = the top card's value; totals = before + round points."""
    divers = tuple(
        DiverScore(d.label, d.mat, d.top, board.points_before(d.label), d.top.value) for d in board.divers
    )
    beaches = tuple(d.label for d in board.divers if d.top.value == BEACH)
    return RoundReport(board, divers, beaches)


def round_from_json(data: object) -> RoundBoard:
    check_header(data, "round")
    check_keys(data, "round", ("format", "game", "players"), ("target", "centre", "before"))
    assert isinstance(data, Mapping)
    players = data["players"]
    if not isinstance(players, list):
        raise BoardFormatError(f"players must be a list, got {type(players).__name__}")
    if len(players) > MAX_PLAYERS:
        raise BoardFormatError(f"Snorkeling has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
    divers = []
    for number, player in enumerate(players, start=1):
        where = f"player {number}"
        check_keys(player, where, ("mat", "top"), ("name",))
        try:
            divers.append(Diver(player["mat"], card_from_json(player["top"], "top"), player.get("name")))
        except BoardFormatError as error:
            raise BoardFormatError(f"{where}: {error}") from None
    centre = data.get("centre")
    before = data.get("before", {})
    if not isinstance(before, Mapping):
        raise BoardFormatError("before must be an object of player: points")
    return RoundBoard(
        tuple(divers),
        None if centre is None else card_from_json(centre, "centre"),
        tuple(before.items()),
        data.get("target", DEFAULT_TARGET),
    )


def round_to_json(board: RoundBoard) -> dict[str, Any]:
    players = []
    for d in board.divers:
        entry: dict[str, Any] = {"name": d.name} if d.name else {}
        players.append(entry | {"mat": d.mat, "top": card_to_json(d.top)})
    out: dict[str, Any] = {"format": FORMAT, "game": GAME, "target": board.target, "players": players}
    if board.centre is not None:
        out["centre"] = card_to_json(board.centre)
    if board.before:
        out["before"] = dict(board.before)
    return out


def round_report_to_json(report: RoundReport) -> dict[str, Any]:
    """DESIGN.md's Snorkeling report: each diver's top card, round points and total, and the verdicts.

    The game verdict (``game_over``, ``winners``) is given only once the round is over: a round still
    being played decides nothing."""
    board = report.board
    over, winners, why = verdict(report.totals, board.target) if report.round_over else (False, [], "")
    return {
        "format": FORMAT,
        "game": GAME,
        "target": board.target,
        "players": [
            {
                "name": d.name,
                "mat": d.mat,
                "top": card_to_json(d.top) | {"card": d.top.name},
                "points": {"top": d.points},
                "before": d.before,
                "total": d.total,
            }
            for d in report.divers
        ],
        "centre": None if board.centre is None else card_to_json(board.centre),
        "round_over": report.round_over,
        "round_why": report.round_why,
        "beaches": list(report.beaches),
        "game_over": over,
        "winners": winners,
        "game_why": why,
    }

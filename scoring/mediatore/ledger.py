"""The running balances of a game of Mediatore over its rounds.

The deal passes to the right after every round, so each round's dealer is the player to the right
of the last one's. Every round's payments sum to zero, and so do the balances. The game ends when
the players stop; whoever has the highest balance then wins (shared/rules/mediatore.txt, "End of Game").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import BoardFormatError
from scoring.json_objects import check_keys
from scoring.mediatore.fields import FORMAT, GAME, check_header, check_players, next_player
from scoring.mediatore.round import (
    ROUND_KEYS,
    Round,
    RoundReport,
    bid_to_json,
    round_fields_from_json,
    score_round,
)

MAX_ROUNDS = 1000  # an evening is a few dozen rounds


@dataclass(frozen=True)
class Ledger:
    """The players (in playing order) and the rounds scored so far, each with its dealer.
    ``reports`` (each round scored) are derived on construction, which checks the dealers."""

    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    reports: tuple[RoundReport, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        players = check_players(self.players)
        object.__setattr__(self, "players", players)
        rounds = tuple(self.rounds)
        if len(rounds) > MAX_ROUNDS:
            raise BoardFormatError(f"{len(rounds):,} rounds; a ledger holds at most {MAX_ROUNDS}")
        object.__setattr__(self, "rounds", rounds)
        for number, rnd in enumerate(rounds, start=1):
            if rnd.players != players:
                raise BoardFormatError(
                    f"round {number}: players {', '.join(rnd.players)} are not the ledger's"
                )
            if rnd.dealer is None:
                raise BoardFormatError(f"round {number}: the dealer is missing")
            if number > 1:
                expected = next_player(players, rounds[number - 2].dealer)  # type: ignore[arg-type]
                if rnd.dealer != expected:
                    raise BoardFormatError(
                        f"round {number}: {rnd.dealer} deals, but the deal passes to the right, to {expected}"
                    )
        object.__setattr__(self, "reports", tuple(score_round(r) for r in rounds))

    def balances(self, upto: int | None = None) -> dict[str, int]:
        """Each player's balance after the first ``upto`` rounds (all of them by default)."""
        totals = dict.fromkeys(self.players, 0)
        for report in self.reports[:upto]:
            for player, amount in report.payments:
                totals[player] += amount
        return totals

    def next_dealer(self) -> str | None:
        """Who deals the next round; None before the first, which is dealt by a player chosen at random."""
        if not self.rounds:
            return None
        return next_player(self.players, self.rounds[-1].dealer)  # type: ignore[arg-type]


def record_round(ledger: Ledger, rnd: Round) -> Ledger:
    """The ledger with one more round; a round without a dealer is dealt by the next dealer (the
    first round of a ledger needs its dealer named)."""
    if rnd.dealer is None:
        dealer = ledger.next_dealer()
        if dealer is None:
            raise BoardFormatError("the first round of a ledger needs its dealer")
        rnd = Round(rnd.players, rnd.bid, rnd.bidder_side, rnd.last_trick, rnd.others_side, dealer)
    return Ledger(ledger.players, (*ledger.rounds, rnd))


def ledger_from_json(data: object) -> Ledger:
    """Read a ledger (DESIGN.md, "Mediatore ledger")."""
    data = check_header(data, "ledger")
    check_keys(data, "ledger", ("format", "game", "players", "rounds"))
    players = check_players(data["players"])
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise BoardFormatError(f"rounds must be a list, got {type(rounds).__name__}")
    if len(rounds) > MAX_ROUNDS:
        raise BoardFormatError(f"{len(rounds):,} rounds; a ledger holds at most {MAX_ROUNDS}")
    read = []
    for number, item in enumerate(rounds, start=1):
        try:
            check_keys(
                item, "a round", ("dealer", *(k for k in ROUND_KEYS if k != "players")), ("others_side",)
            )
            assert isinstance(item, Mapping)
            read.append(round_fields_from_json(item, players))
        except BoardFormatError as error:
            raise BoardFormatError(f"round {number}: {error}") from None
    return Ledger(players, tuple(read))


def ledger_to_json(ledger: Ledger) -> dict[str, Any]:
    """The ledger format read by `ledger_from_json`: each round's dealer, bid and the bidder side's
    cards (the others' are the rest of the deck)."""
    return {
        "format": FORMAT,
        "game": GAME,
        "players": list(ledger.players),
        "rounds": [
            {
                "dealer": r.dealer,
                "bid": bid_to_json(r.bid),
                "bidder_side": [str(c) for c in r.bidder_side],
                "last_trick": r.last_trick,
            }
            for r in ledger.rounds
        ],
    }


def ledger_report_to_json(ledger: Ledger) -> dict[str, Any]:
    """Every round's winner and payments with the running balances, the balances, the leaders and
    the next dealer."""
    rounds = []
    for number, (rnd, report) in enumerate(zip(ledger.rounds, ledger.reports, strict=True), start=1):
        bidder = report.sides[0]
        rounds.append(
            {
                "round": number,
                "dealer": rnd.dealer,
                "bid": bid_to_json(rnd.bid),
                "bidder_thirds": bidder.thirds,
                "winner": report.winner,
                "capot": report.capot,
                "payments": dict(report.payments),
                "balances": ledger.balances(number),
            }
        )
    balances = ledger.balances()
    top = max(balances.values())
    return {
        "format": FORMAT,
        "game": GAME,
        "players": [{"name": p, "total": balances[p]} for p in ledger.players],
        "rounds": rounds,
        "balances": balances,
        "leaders": [p for p in ledger.players if balances[p] == top] if ledger.rounds else [],
        "next_dealer": ledger.next_dealer(),
    }

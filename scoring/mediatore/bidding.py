"""The bidding round (shared/rules/mediatore.txt, "Bidding"), checked call by call.

The player to the dealer's right calls first, then each next player to the right. A call is
``pass`` or a bid, and a bid must rank above every bid before it (chiamo < mediatore < solo <
solissimo < arcisolissimo). Once a bid is made, three passes in a row end the bidding; four passes
with no bid mean the cards are redealt. The rulebook does not make a pass final, so a player who
passed may bid again while the bidding goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.errors import BoardFormatError, shown
from scoring.mediatore.fields import next_player
from scoring.mediatore.settlement import BIDS

PASS = "pass"
CALLS: tuple[str, ...] = (PASS, *BIDS)
MAX_CALLS = 200  # bids only rise, so a real bidding round is short; this bounds a hostile file
RULE_RISE = "every bid must rank above the bid before it"
RULE_END = "the bidding ends after three passes following a bid"
RULE_REDEAL = "when all four pass with no bid the cards are redealt"


class BiddingError(BoardFormatError):
    """A call that breaks a bidding rule; the message names the call, the player and the rule."""


@dataclass(frozen=True)
class Bidding:
    """A finished bidding round: the calls in order with who made them, and its outcome: the
    winning ``kind`` and ``bidder``, or both None when all passed and the cards are redealt."""

    calls: tuple[tuple[str, str], ...]  # (player, call)
    kind: str | None
    bidder: str | None

    @property
    def redeal(self) -> bool:
        return self.kind is None


def check_bidding(players: tuple[str, ...], dealer: str, calls: Iterable[object]) -> Bidding:
    """Check a whole bidding round; raises BiddingError at the first call that breaks a rule, or
    when the calls stop before the bidding has ended."""
    if isinstance(calls, str | Mapping) or not isinstance(calls, Iterable):
        raise BiddingError(f"bidding must be a list of calls (pass or a bid), got {shown(calls)}")
    calls = list(calls)
    if len(calls) > MAX_CALLS:
        raise BiddingError(f"{len(calls):,} calls; bids only rise, a bidding round has far fewer")
    player = next_player(players, dealer)
    best: str | None = None
    bidder: str | None = None
    passes = 0
    done = False
    made: list[tuple[str, str]] = []
    for number, call in enumerate(calls, start=1):
        where = f"call {number} ({player})"
        if call not in CALLS:
            raise BiddingError(f"{where}: {shown(call)} is not a call (pass, {', '.join(BIDS)})")
        if done:
            rule = RULE_END if best else RULE_REDEAL
            raise BiddingError(f"{where}: the bidding was already over ({rule})")
        if call == PASS:
            passes += 1
        else:
            if best is not None and BIDS.index(call) <= BIDS.index(best):
                raise BiddingError(f"{where}: {call} does not rise above {best} ({RULE_RISE})")
            best, bidder, passes = call, player, 0
        made.append((player, call))  # type: ignore[arg-type]
        done = passes == 3 if best else passes == 4
        player = next_player(players, player)
    if not done:
        wanted = "three passes after the last bid" if best else "a bid, or four passes for a redeal"
        raise BiddingError(
            f"the bidding stops after {len(made)} calls before it has ended (it needs {wanted})"
        )
    return Bidding(tuple(made), best, bidder)

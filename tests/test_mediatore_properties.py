"""Properties of the Mediatore engine over random rounds (hypothesis): the points of the two sides,
the payments and balances, random legal rounds played card by card that the checker accepts, and
broken files that fail with one line."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.errors import BoardFormatError
from scoring.mediatore import (
    BIDS,
    DECK,
    Bid,
    Ledger,
    PlayedRound,
    PlayError,
    Round,
    check_bidding,
    check_play,
    deal,
    record_round,
    score_board,
    score_round,
)
from scoring.mediatore.bidding import PASS
from scoring.mediatore.fields import next_player

PLAYERS = ("Anna", "Ben", "Cleo", "Dino")
CALLED = tuple(DECK)


@st.composite
def bids(draw) -> Bid:
    kind = draw(st.sampled_from(BIDS))
    bidder = draw(st.sampled_from(PLAYERS))
    others = [p for p in PLAYERS if p != bidder]
    if kind == "chiamo":
        return Bid(kind, bidder, draw(st.sampled_from(CALLED)), draw(st.sampled_from([None, *others])))
    if kind == "mediatore":
        return Bid(kind, bidder, draw(st.sampled_from(CALLED)), giver=draw(st.sampled_from([None, *others])))
    return Bid(kind, bidder)


@st.composite
def rounds(draw, dealer: str | None = "Dino") -> Round:
    """A random split of the deck that tricks can make: 4 cards a trick, the monte with the last."""
    deck = draw(st.permutations(DECK))
    last = draw(st.sampled_from(("bidder", "others")))
    tricks = draw(st.integers(1, 9) if last == "bidder" else st.integers(0, 8))
    size = 4 * tricks + (4 if last == "bidder" else 0)
    return Round(PLAYERS, draw(bids()), tuple(deck[:size]), last, None, dealer)


@settings(max_examples=120, deadline=None)
@given(rounds())
def test_the_two_sides_always_make_eleven_and_two_thirds_and_exactly_one_wins(rnd):
    report = score_round(rnd)
    bidder, others = report.sides
    assert bidder.thirds + others.thirds == 35  # 11 2/3 before flooring
    assert bidder.points + others.points in (10, 11)  # flooring loses at most 2/3 on each side
    assert bidder.won != others.won
    assert report.winner == ("bidder" if bidder.thirds >= 18 else "others")
    payments = dict(report.payments)
    assert sum(payments.values()) == 0
    # the bidder's side gains exactly when it wins; every player pays or receives something
    assert (payments[rnd.bid.bidder] > 0) == bidder.won and all(payments.values())


@settings(max_examples=40, deadline=None)
@given(st.lists(rounds(dealer=None), min_size=1, max_size=8), st.sampled_from(PLAYERS))
def test_ledger_balances_always_sum_to_zero_and_the_deal_goes_round(played, first_dealer):
    ledger = Ledger(PLAYERS)
    for number, rnd in enumerate(played):
        if number == 0:
            rnd = Round(rnd.players, rnd.bid, rnd.bidder_side, rnd.last_trick, None, first_dealer)
        ledger = record_round(ledger, rnd)
        assert sum(ledger.balances().values()) == 0
    dealers = [r.dealer for r in ledger.rounds]
    start = PLAYERS.index(first_dealer)
    assert dealers == [PLAYERS[(start + n) % 4] for n in range(len(played))]
    assert ledger.balances() == {p: sum(dict(r.payments)[p] for r in ledger.reports) for p in PLAYERS}


# ----------------------------------------------------------------------- random legal rounds


@st.composite
def legal_rounds(draw) -> PlayedRound:
    """A whole round as players could play it: shuffle, deal, bid, take the monte, then every card
    a legal one (following suit when the hand can), each trick led by the last one's winner."""
    dealer = draw(st.sampled_from(PLAYERS))
    hands, monte = deal(draw(st.permutations(DECK)), PLAYERS, dealer)
    hands = {p: list(h) for p, h in hands.items()}
    first = next_player(PLAYERS, dealer)
    bidder = draw(st.sampled_from(PLAYERS))
    kind = draw(st.sampled_from(BIDS))
    # the calls: passes until the bidder's turn comes, the bid, three passes
    calls = [PASS] * ((PLAYERS.index(bidder) - PLAYERS.index(first)) % 4) + [kind] + [PASS] * 3
    giver = None
    called = draw(st.sampled_from(CALLED)) if kind in ("chiamo", "mediatore") else None
    if kind == "mediatore":
        giver = next((p for p, h in hands.items() if called in h and p != bidder), None)
        if giver is not None:  # the named card for a face-down card of the bidder's choosing
            hands[giver].remove(called)
            back = draw(st.sampled_from(hands[bidder]))
            hands[bidder].remove(back)
            hands[bidder].append(called)
            hands[giver].append(back)
    if kind in ("chiamo", "mediatore", "solo"):  # the monte taken, four cards laid back
        pool = hands[bidder] + list(monte)
        monte = tuple(draw(st.permutations(pool))[:4])
        hands[bidder] = [c for c in pool if c not in monte]
    start = {p: tuple(h) for p, h in hands.items()}
    tricks = []
    leader = first
    for _ in range(9):
        order = [leader]
        while len(order) < 4:
            order.append(next_player(PLAYERS, order[-1]))
        trick = []
        for player in order:
            hand = hands[player]
            legal = [c for c in hand if trick and c.suit == trick[0].suit] or hand
            chosen = draw(st.sampled_from(sorted(legal)))
            hand.remove(chosen)
            trick.append(chosen)
        led = [c for c in trick if c.suit == trick[0].suit]
        leader = order[trick.index(max(led, key=lambda c: c.strength))]
        tricks.append((tuple(trick), None, leader))
    return PlayedRound(
        PLAYERS,
        dealer,
        Bid(kind, bidder, called, giver=giver),
        tuple(start.items()),
        monte,
        tuple(tricks),
        tuple(calls),
    )


@settings(max_examples=60, deadline=None)
@given(legal_rounds())
def test_the_checker_accepts_every_legal_round_and_scores_it(played):
    rnd, tricks, bidding = check_play(played)
    assert (bidding.kind, bidding.bidder) == (played.bid.kind, played.bid.bidder)
    assert check_bidding(PLAYERS, played.dealer, played.bidding) == bidding
    # every card of the deck ends in one pile: the tricks' 36 and the monte with the last trick
    assert len(rnd.bidder_side) + len(rnd.others_side) == 40
    assert sorted(rnd.bidder_side + rnd.others_side) == sorted(DECK)
    report = score_round(rnd)
    assert sum(s.thirds for s in report.sides) == 35 and sum(dict(report.payments).values()) == 0


@settings(max_examples=60, deadline=None)
@given(legal_rounds(), st.data())
def test_a_card_played_off_suit_while_holding_the_suit_led_is_refused(played, data):
    """Swap a follower's card for an off-suit card still in that player's hand at that moment."""
    hands = {p: list(h) for p, h in played.hands}
    tricks = [list(t) for t in played.tricks]
    leader = next_player(PLAYERS, played.dealer)
    for number, (trick_cards, _, winner) in enumerate(played.tricks):
        order = [leader]
        while len(order) < 4:
            order.append(next_player(PLAYERS, order[-1]))
        for position, (player, played_card) in enumerate(zip(order, trick_cards, strict=True)):
            led = trick_cards[0].suit
            off = [c for c in hands[player] if c.suit != led]
            if position and played_card.suit == led and off:
                swapped = list(trick_cards)
                swapped[position] = data.draw(st.sampled_from(sorted(off)))
                tricks[number] = [tuple(swapped), None, None]
                broken = PlayedRound(**(played.__dict__ | {"tricks": tuple(map(tuple, tricks))}))
                with pytest.raises(
                    PlayError, match=rf"trick {number + 1}: {player} plays .* \(follow the suit led"
                ):
                    check_play(broken)
                return
            hands[player].remove(played_card)
        leader = winner
    assume(False)  # nobody could have played off suit in this round: nothing to break


# ------------------------------------------------------------------------- broken files


JUNK = [
    None,
    0,
    -1,
    True,
    1.5,
    "",
    "x",
    "3-coppe",
    "pass",
    "bidder",
    [],
    {},
    [None],
    ["3-coppe"],
    {"kind": "solo"},
]


def _paths(value, prefix=()):
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*prefix, key))


def _samples():
    boards = Path(__file__).parents[1] / "samples/boards"
    return [json.loads(p.read_text()) for p in sorted(boards.glob("mediatore-*.json"))]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_broken_mediatore_file_is_refused_with_a_board_format_error(data):
    """A sample file with one value replaced by junk (or removed) scores, or fails with the one error
    the application turns into a line: never with another exception."""
    board = copy.deepcopy(data.draw(st.sampled_from(_samples())))
    path = data.draw(st.sampled_from([p for p in _paths(board) if p]))
    parent = board
    for key in path[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[path[-1]] = data.draw(st.sampled_from(JUNK))
    elif isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent.pop(path[-1])
    try:
        score_board(board)
    except BoardFormatError as error:
        assert "\n" not in str(error) and str(error)

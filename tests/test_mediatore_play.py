"""Mediatore's deal, bidding and trick rules, a full hand-made round from the deal to the ledger,
and the ledger's dealers and balances (shared/rules/mediatore.txt)."""

import json

import pytest

from scoring.errors import BoardFormatError
from scoring.mediatore import (
    Bid,
    Ledger,
    PlayedRound,
    PlayError,
    card,
    check_bidding,
    check_play,
    deal,
    ledger_from_json,
    ledger_report_to_json,
    ledger_to_json,
    played_round_from_json,
    record_round,
    round_from_json,
    score_board,
    score_round,
    trick_winner,
)
from scoring.mediatore.bidding import BiddingError

PLAYERS = ("Anna", "Ben", "Cleo", "Dino")  # in playing order: each next one sits to the right


def ids(text: str) -> tuple:
    return tuple(card(i) for i in text.split())


# ------------------------------------------------------------------------------------- tricks


def test_the_highest_card_of_the_suit_led_wins_in_the_rulebook_order():
    # 3 2 1 Re Cavallo Fante 7 6 5 4: the 3 beats the ace and the king; off-suit cards never win
    assert trick_winner(ids("re-coppe 3-coppe 1-coppe 2-spade")) == 1
    assert trick_winner(ids("4-denari 3-coppe 1-spade re-bastoni")) == 0
    assert trick_winner(ids("fante-spade 7-spade cavallo-spade 5-spade")) == 2
    assert trick_winner(ids("2-bastoni 1-bastoni 3-coppe 3-spade")) == 0


# ------------------------------------------------------------------------------------ bidding


def test_bidding_starts_right_of_the_dealer_and_ends_after_three_passes():
    result = check_bidding(PLAYERS, "Dino", ["pass", "chiamo", "pass", "solo", "pass", "pass", "pass"])
    assert result.calls[0] == ("Anna", "pass") and result.calls[3] == ("Dino", "solo")
    assert (result.kind, result.bidder, result.redeal) == ("solo", "Dino", False)
    # a player who passed may bid again while the bidding goes on (the rulebook does not forbid it)
    result = check_bidding(PLAYERS, "Ben", ["pass", "chiamo", "pass", "mediatore", "pass", "pass", "pass"])
    assert (result.kind, result.bidder) == ("mediatore", "Ben")


def test_four_passes_with_no_bid_mean_a_redeal():
    result = check_bidding(PLAYERS, "Anna", ["pass"] * 4)
    assert result.redeal and result.bidder is None
    # three passes before the first bid do not end it: the fourth player may still bid
    assert check_bidding(PLAYERS, "Anna", ["pass"] * 3 + ["arcisolissimo"] + ["pass"] * 3).bidder == "Anna"


@pytest.mark.parametrize(
    ("calls", "reason"),
    [
        (
            ["chiamo", "chiamo"],
            r"call 2 \(Ben\): chiamo does not rise above chiamo \(every bid must rank above",
        ),
        (["solo", "mediatore"], "mediatore does not rise above solo"),
        (
            ["chiamo", "pass", "pass", "pass", "solo"],
            r"call 5 \(Anna\): the bidding was already over \(the bidding ends",
        ),
        (["pass"] * 5, "all four pass with no bid the cards are redealt"),
        (["chiamo", "pass", "pass"], "stops after 3 calls before it has ended"),
        (["pass", "double"], "'double' is not a call"),
    ],
)
def test_a_bidding_that_breaks_a_rule_names_the_call_and_the_rule(calls, reason):
    with pytest.raises(BiddingError, match=reason):
        check_bidding(PLAYERS, "Dino", calls)


# --------------------------------------------------------------------- a full hand-made round

# Dealt by Dino to his right, three cards at a time: Anna, Ben, Cleo, Dino, three times; then the monte.
DECK_ORDER = ids(
    "3-coppe 2-coppe 1-coppe  3-denari 2-denari 1-denari  3-spade 2-spade 1-spade  3-bastoni 2-bastoni 1-bastoni "
    "re-coppe cavallo-coppe fante-coppe  re-denari cavallo-denari fante-denari  re-spade cavallo-spade fante-spade "
    "re-bastoni cavallo-bastoni fante-bastoni "
    "7-coppe 6-coppe 5-coppe  7-denari 6-denari 5-denari  7-spade 6-spade 5-spade  7-bastoni 6-bastoni 5-bastoni "
    "4-coppe 4-denari 4-spade 4-bastoni"
)


def test_a_full_round_from_the_deal_to_the_ledger(root):
    hands, monte = deal(DECK_ORDER, PLAYERS, "Dino")
    assert hands["Anna"] == ids(
        "3-coppe 2-coppe 1-coppe re-coppe cavallo-coppe fante-coppe 7-coppe 6-coppe 5-coppe"
    )
    assert hands["Dino"][:3] == ids("3-bastoni 2-bastoni 1-bastoni") and monte == ids(
        "4-coppe 4-denari 4-spade 4-bastoni"
    )
    bidding = check_bidding(PLAYERS, "Dino", ["chiamo", "pass", "pass", "pass"])
    assert (bidding.kind, bidding.bidder) == ("chiamo", "Anna")
    # Anna calls the 3 of denari (Ben has it), takes the monte and lays four cards back as the new monte
    laid_back = ids("5-coppe 6-coppe 7-coppe 4-spade")
    anna = tuple(c for c in hands["Anna"] + monte if c not in laid_back)
    start = dict(hands) | {"Anna": anna}
    played = played_round_from_json(
        json.loads((root / "samples/boards/mediatore-played-round.json").read_text())
    )
    assert dict(played.hands) == start and set(played.monte) == set(laid_back)
    rnd, tricks, _ = check_play(played)
    # Anna leads coppe seven times and nobody else holds one; then she leads bastoni to Dino
    assert [t.winner for t in tricks] == ["Anna"] * 7 + ["Dino", "Dino"]
    assert [t.thirds for t in tricks] == [1, 1, 3, 4, 4, 4, 9, 3, 3]
    assert rnd.bid.partner == "Ben" and rnd.last_trick == "others"
    report = score_round(rnd)
    bidder, others = report.sides
    # 26 thirds (8 2/3) against 6 thirds of cards + the last trick (the monte holds no points) = 3
    assert (bidder.thirds, bidder.points, others.thirds, others.points) == (26, 8, 9, 3)
    assert dict(report.payments) == {"Anna": 5, "Ben": 3, "Cleo": -4, "Dino": -4}
    # the ledger: the deal passes to the right, to Anna; Cleo's solissimo is lost (13 thirds = 4)
    ledger = record_round(Ledger(PLAYERS), rnd)
    second = round_from_json(
        {
            "format": 1,
            "game": "mediatore",
            "players": list(PLAYERS),
            "bid": {"kind": "solissimo", "bidder": "Cleo"},
            "bidder_side": [
                str(c) for c in ids("1-coppe 2-coppe 3-coppe 4-coppe 1-denari 2-denari 3-denari 4-denari")
            ],
            "last_trick": "bidder",
        }
    )
    ledger = record_round(ledger, second)
    assert [r.dealer for r in ledger.rounds] == ["Dino", "Anna"] and ledger.next_dealer() == "Ben"
    assert ledger.balances() == {"Anna": 21, "Ben": 19, "Cleo": -52, "Dino": 12}
    # the committed sample ledger holds the same two rounds; it reads back to the same ledger
    sample = json.loads((root / "samples/boards/mediatore-ledger.json").read_text())
    assert ledger_from_json(sample) == ledger and ledger_from_json(ledger_to_json(ledger)) == ledger
    report = ledger_report_to_json(ledger)
    assert report["leaders"] == ["Anna"] and report["rounds"][0]["balances"] == {
        "Anna": 5,
        "Ben": 3,
        "Cleo": -4,
        "Dino": -4,
    }


def test_a_played_round_board_scores_with_its_tricks(root):
    report = score_board(json.loads((root / "samples/boards/mediatore-played-round.json").read_text()))
    assert report["legal"] and report["winners"] == ["Anna", "Ben"] and report["payments"]["Anna"] == 5
    assert report["tricks"][8] == {
        "trick": 9,
        "leader": "Dino",
        "cards": {"Dino": "3-bastoni", "Anna": "4-denari", "Ben": "3-denari", "Cleo": "3-spade"},
        "winner": "Dino",
        "thirds": 3,
    }
    assert report["round"]["bid"]["partner"] == "Ben"


def played(**changes):
    base = PlayedRound(
        PLAYERS,
        "Dino",
        Bid("solissimo", "Anna"),
        tuple(deal(DECK_ORDER, PLAYERS, "Dino")[0].items()),
        ids("4-coppe 4-denari 4-spade 4-bastoni"),
        (),
    )
    return PlayedRound(**(base.__dict__ | changes))


def _suits_round() -> list:
    """Each holds one suit of nine (as dealt above): each leads it in turn, nobody can follow."""
    order = ["3", "2", "1", "re", "cavallo", "fante", "7", "6", "5"]
    return [(ids(f"{r}-coppe {r}-denari {r}-spade {r}-bastoni"), None, None) for r in order]


def test_a_legal_play_is_accepted_and_an_illegal_one_names_the_rule():
    rnd, tricks, _ = check_play(played(tricks=tuple(_suits_round())))
    assert all(t.winner == "Anna" for t in tricks) and rnd.last_trick == "bidder"
    assert score_round(rnd).capot  # Anna took every trick: the monte too
    with pytest.raises(PlayError, match=r"trick 1: Ben plays 3-coppe, which is not in Ben's hand"):
        check_play(played(tricks=((ids("2-coppe 3-coppe 3-spade 3-bastoni"), None, None),) * 9))
    with pytest.raises(
        PlayError, match=r"trick 1: 'Ben' leads, but Anna should \(the player to the dealer's right"
    ):
        check_play(played(tricks=((ids("3-denari 3-spade 3-bastoni 3-coppe"), "Ben", None),) * 9))
    with pytest.raises(PlayError, match=r"won by 'Cleo', but Anna's 3-coppe takes it \(the highest card"):
        check_play(played(tricks=((ids("3-coppe 3-denari 3-spade 3-bastoni"), None, "Cleo"),) * 9))
    with pytest.raises(PlayError, match="a round has 9 tricks, not 8"):
        check_play(played(tricks=tuple(_suits_round()[:8])))


def test_following_suit_is_checked_against_what_the_player_still_holds():
    # Ben holds coppe after a swap of two cards: playing a denari on a coppe lead breaks the rule
    hands = dict(played().hands)
    hands["Anna"] = ids("3-coppe 2-coppe 1-coppe re-coppe cavallo-coppe fante-coppe 7-coppe 6-coppe 5-denari")
    hands["Ben"] = ids(
        "3-denari 2-denari 1-denari re-denari cavallo-denari fante-denari 7-denari 6-denari 5-coppe"
    )
    bad = ((ids("3-coppe 3-denari 3-spade 3-bastoni"), None, None),) * 9
    with pytest.raises(
        PlayError, match=r"Ben plays 3-denari on a coppe lead while holding 5-coppe \(follow the suit"
    ):
        check_play(played(hands=tuple(hands.items()), tricks=bad))


def test_the_winner_leads_the_next_trick():
    tricks = _suits_round()
    tricks[1] = (tricks[1][0], "Cleo", None)
    with pytest.raises(
        PlayError, match=r"trick 2: 'Cleo' leads, but Anna should \(the winner of a trick leads"
    ):
        check_play(played(tricks=tuple(tricks)))


def test_a_played_round_checks_its_bidding_against_its_bid():
    with pytest.raises(PlayError, match="won by Anna with chiamo, but the bid is solissimo"):
        check_play(played(tricks=tuple(_suits_round()), bidding=("chiamo", "pass", "pass", "pass")))
    with pytest.raises(PlayError, match="redealt"):
        check_play(played(tricks=tuple(_suits_round()), bidding=("pass",) * 4))


# ------------------------------------------------------------------------------------- ledger


def test_the_deal_passes_to_the_right_in_the_ledger(root):
    sample = json.loads((root / "samples/boards/mediatore-ledger.json").read_text())
    sample["rounds"][1]["dealer"] = "Cleo"
    with pytest.raises(
        BoardFormatError, match="round 2: Cleo deals, but the deal passes to the right, to Anna"
    ):
        ledger_from_json(sample)
    with pytest.raises(BoardFormatError, match="first round of a ledger needs its dealer"):
        record_round(
            Ledger(PLAYERS),
            round_from_json(
                json.loads((root / "samples/boards/mediatore-round.json").read_text()) | {"dealer": None}
            ),
        )

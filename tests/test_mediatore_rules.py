"""Mediatore card points, sides, winner and payments (shared/rules/mediatore.txt, "Card Ranking and
Values" and "Scoring"; DESIGN.md, "Rules interpretations")."""

import pytest

from scoring.errors import BoardFormatError
from scoring.mediatore import (
    DECK,
    Bid,
    Round,
    card,
    cards,
    round_from_json,
    round_report_to_json,
    score_round,
    settle,
    thirds_of,
    thirds_text,
)

PLAYERS = ("Anna", "Ben", "Cleo", "Dino")


def pile(*ids: str) -> tuple:
    return tuple(card(i) for i in ids)


def test_card_points_in_thirds_follow_the_rulebook():
    assert [card(f"{rank}-coppe").thirds for rank in ("1", "3", "2", "re", "cavallo", "fante")] == [
        3,
        1,
        1,
        1,
        1,
        1,
    ]
    assert [card(f"{rank}-spade").thirds for rank in ("7", "6", "5", "4")] == [0, 0, 0, 0]
    # 4 aces and 20 cards of a third: 10 2/3 in the deck, 11 2/3 with the last trick
    assert thirds_of(DECK) == 32 and len(DECK) == 40


def test_card_ids_accept_the_corner_indices_and_refuse_unknown_cards():
    assert card("R-Spade") == card("re-spade") and card("A-denari") == card("1-denari")
    assert card("c-bastoni").rank == "cavallo" and card("F-coppe").rank == "fante"
    for bad in ("8-coppe", "re-cuori", "re", 3, None):
        with pytest.raises(BoardFormatError, match="card"):
            card(bad)
    with pytest.raises(BoardFormatError, match="listed twice"):
        cards(["1-coppe", "A-coppe"], "bidder_side")


def test_thirds_are_said_as_players_say_them():
    assert [thirds_text(t) for t in (0, 1, 2, 3, 17, 18, 35)] == [
        "0",
        "1/3",
        "2/3",
        "1",
        "5 2/3",
        "6",
        "11 2/3",
    ]


def chiamo(partner="Ben", bidder="Anna"):
    return Bid("chiamo", bidder, card("3-denari"), partner)


def round_with(bidder_cards, last="bidder", bid=None) -> Round:
    return Round(PLAYERS, bid or chiamo(), pile(*bidder_cards), last, None, "Dino")


# piles are built from these: aces, cards of a third, cards of nothing
ACES = ["1-coppe", "1-denari", "1-spade", "1-bastoni"]  # 12 thirds
THIRDS_8 = [
    "3-coppe",
    "2-coppe",
    "re-coppe",
    "cavallo-coppe",
    "3-denari",
    "2-denari",
    "re-denari",
    "cavallo-denari",
]
BLANKS = ["4-coppe", "5-coppe", "6-coppe", "7-coppe", "4-denari", "5-denari", "6-denari", "7-denari"]


def test_five_and_two_thirds_loses_to_six_floored_only_at_the_end():
    # 12 + 2 + 3 (last trick) = 17 thirds = 5 2/3: floored to 5, the others have 18 = 6 and win
    rnd = round_with(ACES + THIRDS_8[:2] + BLANKS[:6], last="bidder")
    bidder, others = score_round(rnd).sides
    assert (bidder.thirds, bidder.points, bidder.won) == (17, 5, False)
    assert (others.thirds, others.points, others.won) == (18, 6, True)
    # one third more for the bidder: exactly 6 against 5 2/3, and the bidder's side wins
    rnd = round_with(ACES + THIRDS_8[:3] + BLANKS[:5], last="bidder")
    bidder, others = score_round(rnd).sides
    assert (bidder.thirds, bidder.points, bidder.won, others.thirds, others.points) == (18, 6, True, 17, 5)
    assert score_round(rnd).winner == "bidder"


def test_the_last_trick_is_worth_a_point_and_the_two_sides_make_eleven_and_two_thirds():
    rnd = round_with(ACES + THIRDS_8, last="others")
    bidder, others = score_round(rnd).sides
    assert (bidder.card_thirds, bidder.thirds, bidder.last_trick) == (20, 20, False)
    assert (others.card_thirds, others.thirds, others.last_trick) == (12, 15, True)
    assert bidder.thirds + others.thirds == 35


def test_a_pile_that_no_tricks_can_make_is_refused():
    with pytest.raises(BoardFormatError, match="4 cards a trick"):
        round_with(ACES + ["2-coppe"])
    with pytest.raises(BoardFormatError, match="8 or more"):
        round_with(ACES, last="bidder")  # the last trick and the monte are 8 cards at least
    with pytest.raises(BoardFormatError, match="both sides"):
        Round(PLAYERS, chiamo(), pile(*ACES), "others", pile(*ACES, *THIRDS_8), "Dino")
    with pytest.raises(BoardFormatError, match="not the deck's 40"):
        Round(PLAYERS, chiamo(), pile(*ACES), "others", pile(*THIRDS_8), "Dino")


# ----------------------------------------------------------------------------------- payments

WON_BY_BIDDER = ACES + THIRDS_8 + BLANKS[:4]  # 20 + 3 = 23 thirds with the last trick
WON_BY_OTHERS = BLANKS  # 0 + 3 thirds


def payments(bid, bidder_cards, last="bidder"):
    report = score_round(Round(PLAYERS, bid, pile(*bidder_cards), last, None, "Dino"))
    return dict(report.payments)


@pytest.mark.parametrize(
    ("bid", "won", "lost"),
    [
        # Chiamo: losers pay 4 each; the bidder receives 5, the partner 3
        (chiamo("Cleo"), [5, -4, 3, -4], [-5, 4, -3, 4]),
        # Chiamo with the called card in the monte: the bidder alone takes all
        (chiamo(None), [12, -4, -4, -4], [-12, 4, 4, 4]),
        # Mediatore: 8 from each loser, 6 from the giver: 22; 24 with no giver
        (Bid("mediatore", "Anna", card("3-spade"), giver="Dino"), [22, -8, -8, -6], [-22, 8, 8, 6]),
        (Bid("mediatore", "Anna", card("3-spade")), [24, -8, -8, -8], [-24, 8, 8, 8]),
        (Bid("solo", "Anna"), [36, -12, -12, -12], [-36, 12, 12, 12]),
        (Bid("solissimo", "Anna"), [48, -16, -16, -16], [-48, 16, 16, 16]),
        (Bid("arcisolissimo", "Anna"), [54, -18, -18, -18], [-54, 18, 18, 18]),
    ],
    ids=["chiamo", "chiamo-alone", "mediatore", "mediatore-no-giver", "solo", "solissimo", "arcisolissimo"],
)
def test_each_bid_won_and_lost(bid, won, lost):
    assert list(payments(bid, WON_BY_BIDDER).values()) == won
    assert list(payments(bid, WON_BY_OTHERS, last="others").values()) == lost


@pytest.mark.parametrize(
    ("bid", "capot_won", "capot_lost"),
    [
        (chiamo("Cleo"), [7, -6, 5, -6], [-7, 6, -5, 6]),
        (chiamo(None), [18, -6, -6, -6], [-18, 6, 6, 6]),
        (Bid("mediatore", "Anna", card("3-spade"), giver="Dino"), [28, -10, -10, -8], [-28, 10, 10, 8]),
        (Bid("solo", "Anna"), [42, -14, -14, -14], [-42, 14, 14, 14]),
        (Bid("arcisolissimo", "Anna"), [60, -20, -20, -20], [-60, 20, 20, 20]),
    ],
    ids=["chiamo", "chiamo-alone", "mediatore", "solo", "arcisolissimo"],
)
def test_a_side_that_takes_every_trick_gets_two_more_on_every_payment(bid, capot_won, capot_lost):
    everything = [str(c) for c in DECK]
    report = score_round(Round(PLAYERS, bid, pile(*everything), "bidder", None, "Dino"))
    assert report.capot and report.sides[0].all_tricks and report.sides[0].thirds == 35
    assert list(dict(report.payments).values()) == capot_won
    report = score_round(Round(PLAYERS, bid, (), "others", None, "Dino"))
    assert report.capot and report.sides[1].all_tricks and report.winner == "others"
    assert list(dict(report.payments).values()) == capot_lost


def test_a_bid_that_breaks_its_own_shape_is_refused():
    with pytest.raises(BoardFormatError, match="names the called card"):
        Bid("chiamo", "Anna")
    with pytest.raises(BoardFormatError, match="only a chiamo bid has a partner"):
        Bid("solo", "Anna", partner="Ben")
    with pytest.raises(BoardFormatError, match="cannot also be the partner"):
        Bid("chiamo", "Anna", card("3-coppe"), "Anna")
    with pytest.raises(BoardFormatError, match="unknown bid"):
        Bid("slam", "Anna")
    with pytest.raises(BoardFormatError, match="not a player"):
        settle(PLAYERS, Bid("solo", "Zoe"), True, False)


# ----------------------------------------------------------------------------------------- JSON


def board(**changes):
    data = {
        "format": 1,
        "game": "mediatore",
        "players": list(PLAYERS),
        "dealer": "Dino",
        "bid": {"kind": "chiamo", "bidder": "Anna", "called": "3-denari", "partner": "Cleo"},
        "bidder_side": WON_BY_BIDDER,
        "others_side": None,
        "last_trick": "bidder",
    }
    return data | changes


def test_a_round_board_scores_to_the_report_format():
    report = round_report_to_json(score_round(round_from_json(board())))
    assert (
        report["game"] == "mediatore"
        and report["winner"] == "bidder"
        and report["winners"] == ["Anna", "Cleo"]
    )
    assert report["sides"]["bidder"] | {"players": None} == {
        "players": None,
        "cards": 16,
        "card_thirds": 20,
        "last_trick": True,
        "thirds": 23,
        "exact": "7 2/3",
        "points": 7,
        "won": True,
        "all_tricks": False,
    }
    assert report["sides"]["others"]["thirds"] == 12 and report["sides"]["others"]["points"] == 4
    assert [(p["name"], p["role"], p["payment"]) for p in report["players"]] == [
        ("Anna", "bidder", 5),
        ("Ben", "opponent", -4),
        ("Cleo", "partner", 3),
        ("Dino", "opponent", -4),
    ]
    assert sum(report["payments"].values()) == 0


def test_both_sides_may_be_listed_and_all_tricks_is_checked_against_the_cards():
    others = [str(c) for c in DECK if str(c) not in WON_BY_BIDDER]
    assert score_round(round_from_json(board(others_side=others))).winner == "bidder"
    with pytest.raises(BoardFormatError, match="took every trick"):
        round_from_json(board(all_tricks="bidder"))
    everything = [str(c) for c in DECK]
    assert score_round(round_from_json(board(bidder_side=everything, all_tricks="bidder"))).capot


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"players": ["Anna", "Ben", "Cleo"]}, "4 players"),
        ({"players": ["Anna", "Anna", "Cleo", "Dino"]}, "different names"),
        ({"dealer": "Zoe"}, "dealer 'Zoe' is not a player"),
        ({"last_trick": "Anna"}, "last_trick is 'bidder' or 'others'"),
        ({"bid": {"kind": "solo", "bidder": "Anna", "partner": "Ben"}}, "unknown key 'partner'"),
        ({"bid": {"kind": "chiamo", "bidder": "Anna", "called": "3-denari"}}, "missing key 'partner'"),
        (
            {"bid": {"kind": "mediatore", "bidder": "Anna", "called": "3-denari", "giver": "Anna"}},
            "cannot also be",
        ),
        ({"bidder_side": ["1-coppe"] * 8}, "listed twice"),
        ({"bidder_side": "1-coppe"}, "must be a list of cards"),
        ({"game": "mondo"}, '"game" is'),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_a_broken_round_board_is_refused_with_the_reason(changes, reason):
    with pytest.raises(BoardFormatError, match=reason):
        round_from_json(board(**changes))

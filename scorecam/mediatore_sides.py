"""A Mediatore round settled from what each side's won cards are known by: a photo of them (read by
``vision.mediatore``: a count is at most what the side has, since a card whose corner is hidden is
not seen) or a checked list of card ids (the whole pile). `scorecam mediatore round` and `batch`
both settle here, so a round comes out the same from either.

One side decides the count and the other holds the rest of the deck: a list when one is given (it
is the whole pile), else the bidder's photo, else the others'. What the two sides say against each
other is flagged (a card on both, a winner the cards neither photo shows could still change), with
the flags of the photos it is counted from: a settlement that rests on a doubtful reading has the
status ``check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SIDES = ("bidder", "others")
DECK_THIRDS = 35  # the 40 cards' points in thirds (11 2/3)
WIN_THIRDS = 18  # 6 full points


def read_side(path: Path, side: str) -> tuple[dict[str, Any], Any]:
    """(report, reading) of one photo of a side's won cards: ``score --game mediatore``'s report
    with the side it shows; an InputError with the reader's reason and exit code."""
    from scorecam.mediatore_photos import score_side_photo_file

    report, reading = score_side_photo_file(path)
    return report | {"side": side}, reading


def counted_side(photos: dict[str, Any], lists: dict[str, Any]) -> str:
    """The side whose cards the round is counted from (the other holds the rest of the deck)."""
    for known in (lists, photos):
        for side in SIDES:
            if side in known:
                return side
    raise ValueError("a round needs the cards of one side at least")


def settle_round(
    board: dict[str, Any],
    photos: dict[str, dict[str, Any]],
    failed: dict[str, str],
    lists: dict[str, tuple[str, list[str]]] | None = None,
) -> dict[str, Any]:
    """The round's report (the shape of a round board's report) settled from the sides' cards.

    ``board``: the round without its sides (players, dealer, bid, last_trick); ``photos``: side ->
    the report of its photo (``board``: the cards read, ``flags``, ``source``); ``failed``: photos
    that could not be read, with why; ``lists``: side -> (file, card ids) of a checked list."""
    from scoring.mediatore import SideScore, settle
    from scoring.mediatore.round import bid_from_json, bid_to_json

    lists = lists or {}
    players = tuple(board["players"])
    bid = bid_from_json(board["bid"], players)
    counted = counted_side(photos, lists)
    source, pile = (
        lists[counted] if counted in lists else (photos[counted]["source"], photos[counted]["board"])
    )
    cards = {counted: len(pile)}
    thirds = {counted: _thirds(pile)}
    other = "others" if counted == "bidder" else "bidder"
    cards[other], thirds[other] = 40 - cards[counted], DECK_THIRDS - thirds[counted]
    scores = {
        side: SideScore(
            side,
            tuple(p for p in players if (p in bid.team) == (side == "bidder")),
            cards[side],
            thirds[side],
            board["last_trick"] == side,
        )
        for side in SIDES
    }
    capot = any(s.all_tricks for s in scores.values())
    payments = settle(players, bid, scores["bidder"].won, capot)
    winner = "bidder" if scores["bidder"].won else "others"
    roles = {bid.bidder: "bidder", bid.partner: "partner", bid.giver: "giver"}
    # the count rests on the photos unless a list decides; then a photo can only contradict the list
    flags = [] if lists else [f"{p['side']}: {f}" for p in photos.values() for f in p.get("flags", [])]
    flags += [f"{file} could not be read ({why})" for file, why in failed.items()]
    flags += _disagreements(photos, lists, board["last_trick"])
    return {
        "format": 1,
        "game": "mediatore",
        "dealer": board["dealer"],
        "bid": bid_to_json(bid),
        "players": [
            {
                "name": p,
                "side": "bidder" if p in bid.team else "others",
                "role": roles.get(p, "opponent"),
                "payment": payments[p],
                "total": payments[p],
            }
            for p in players
        ],  # fmt: skip
        "sides": {
            s.side: {
                "players": list(s.players),
                "cards": s.cards,
                "card_thirds": s.card_thirds,
                "last_trick": s.last_trick,
                "thirds": s.thirds,
                "exact": _text(s.thirds),
                "points": s.points,
                "won": s.won,
                "all_tricks": s.all_tricks,
                "from": source if s.side == counted else "the rest of the deck",
            }
            for s in scores.values()
        },  # fmt: skip
        "winner": winner,
        "winners": list(scores[winner].players),
        "capot": capot,
        "payments": payments,
        "round_over": True,
        "photos": list(photos.values()),
        "flags": flags,
        "status": "check" if flags else "ok",
    }


def counted_board(
    board: dict[str, Any], photos: dict[str, dict[str, Any]], lists: dict[str, tuple[str, list[str]]]
) -> dict[str, Any]:
    """The round board that ``settle_round`` counts (the counted side's cards, the other side the
    rest of the deck): what a ledger records of a round settled from photos."""
    from scoring.mediatore import DECK

    counted = counted_side(photos, lists)
    pile = list(lists[counted][1] if counted in lists else photos[counted]["board"])
    if counted == "others":
        rest = [str(c) for c in DECK if str(c) not in set(pile)]
        return board | {"bidder_side": rest, "others_side": None}
    return board | {"bidder_side": pile, "others_side": None}


def _thirds(ids: list[str]) -> int:
    from scoring.mediatore import card, thirds_of

    return thirds_of(card(c) for c in ids)


def _text(thirds: int) -> str:
    from scoring.mediatore import thirds_text

    return thirds_text(thirds)


def _disagreements(
    photos: dict[str, dict[str, Any]], lists: dict[str, tuple[str, list[str]]], last_trick: str
) -> list[str]:
    """What the two sides say against each other: a card on both, or cards in neither photo that
    could still change the winner (a count is at most what a side has, so a side is sure to win
    only when its own count reaches 6; a list is the whole pile, so the rest is the other side's).
    None with one side given: the other is the rest."""
    if len(photos) + len(lists) < 2:
        return []
    if lists:  # a list and a photo: the list decides, the photo can only contradict it
        ((side, (file, listed)),) = lists.items()
        photo = next(iter(photos.values()))
        both = sorted(set(listed) & set(photo["board"]))
        if not both:
            return []
        return [
            f"{', '.join(both)} listed for the {side} in {file} and read in {photo['source']} for the "
            f"{photo['side']}: the list or the reading is wrong"
        ]
    piles = {side: set(report["board"]) for side, report in photos.items()}
    both = sorted(piles["bidder"] & piles["others"])
    flags = [f"{', '.join(both)} read in both photos: one of them is misread"] if both else []
    shown = len(piles["bidder"] | piles["others"])
    sure = any(
        _thirds(list(pile)) + (3 if last_trick == side else 0) >= WIN_THIRDS for side, pile in piles.items()
    )
    if shown < 40 and not sure:
        flags.append(
            f"the photos show {shown} of the 40 cards and neither side's own count reaches 6: "
            "the cards they do not show decide the round"
        )
    return flags

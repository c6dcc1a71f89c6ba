"""Photo in, one side's won Mediatore cards out: find every card corner whose index shows, read each
corner's rank and suit with the corner model in one batch, and make the corners into cards.

    cards, reading = read_cards(photo)      # a Photo, a path, or a BGR image
    cards                                   # the cards read (scoring.mediatore.Card), each once
    reading.cards                           # CardRead per card: confidence, where its corners lie
    reading.flags                           # doubtful readings in words; reading.status "ok" or "check"

A grainy photo (dim light: ``grain``) is read from finer views softened by about a full-size px,
where far cards' indices are found and read more often than through the grain.

Each of the 40 cards is read at most once: the two corners of one card (the top-left and the
bottom-right, a card's diagonal apart and parallel) that read the same card are one card; two
corners elsewhere that read the same card are a duplicate, kept once and flagged (one of them is a
misread). A corner the model reads as "none" (not a corner, or too covered to read) is dropped: a
card whose corners are hidden is not seen, never guessed, and so is a corner whose likeliest card
is under READ_MIN (flagged). Each corner's axis is first turned onto the straight edges round it
(``refine``: the locator's is rough); it is cut along that axis and across it, each crop read as it
is and turned half round (a corner box's axis has no way up), averaged, the surer of the two kept.
A corner not read surely (under SURE) is read once more at the long side of the surely read
corners near it (the locator's size is rough, the cards of a photo one size), and on the locator's
own axis where the edges turned it far (their mean is off on a tilted card), the surer kept; a card
still read under SURE, or a corner still read as no card surely, is read on seven crops round its
spot, a little larger, smaller and moved, their probabilities averaged (``_averaged``): a partly
covered index read as a neighbouring rank on one crop seldom is on all, and the average then reads
no card rather than the wrong one. Last, as the deck holds each card once, such a corner is read
again without the cards read surely elsewhere (``_deck_once``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from scoring.mediatore import DECK, Card
from vision.errors import PhotoError
from vision.mediatore.crops import PAIR_ANGLE, PAIR_DISTANCE, Spot, crop_corner
from vision.mediatore.grain import softened
from vision.mediatore.locate import Corner, Found, LocatorModel, locate_corners
from vision.mediatore.refine import local_long, refine_axes, typical_long
from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo, as_photo
from vision.spots import decoded_crops, half_turn_average, moved, quarter_turn_apart

CORNER_MODEL = "mediatore-corners.onnx"
SURE = 0.9  # a card read below this probability is flagged
NOT_A_CORNER = 0.5  # a corner read "none" with this probability is dropped
READ_MIN = 0.6  # a corner whose likeliest card is below this is not read (counted unreadable, never guessed)
SAME_SPOT = 0.5  # two corners closer than this (box long sides) are one corner found twice
# a card's two corners lie PAIR_DISTANCE box long sides apart, within this range of it: wide, as the
# boxes' long sides read are rough (on the development photos, seeds 9660 and 9661, a card's two
# corners read lie 0.63 to 1.57 of it apart, most of them; other cards' corners anywhere) ...
PAIR_RANGE = (0.6, 1.6)
PAIR_TURN = 25.0  # ... parallel, to this many degrees ...
# ... and one lies from the other at PAIR_ANGLE to their axis (the card's diagonal between the boxes'
# centres), to this many degrees: the corners read of one card lie 24 to 64 degrees off the axis
# (most 28-45), which the distance alone does not see (other cards' corners lying 0-20 or 80-90 off)
PAIR_ANGLE_TOLERANCE = 25.0
TRICK = 4
# a grainy photo (dim light) is read from finer views softened by about a full-size px (``grain``):
# far cards' indices are then found and read more often
SOFTEN_GRAIN = True
LOOKS = ((1.0, 0.0), (1.0, 90.0))  # (size, turn) of each crop of a corner
# a corner still unsure after that is read at these times its size (on the development photos, seed
# 9660, missed cards 19 -> 10; a wider set, 0.7-1.45, read more duplicates); a card read only so is flagged
UNSURE_SIZES = (0.8, 1.25)
# a card read under SURE is read once more on these crops round its spot (size, shift along its axis,
# across it, in box long sides), their probabilities averaged: a partly covered index, or a crop a
# little off, reads as a neighbouring rank on one crop and not on the others ...
JITTER = ((1.0, 0.0, 0.0), (0.9, 0.0, 0.0), (1.1, 0.0, 0.0), (1.0, 0.08, 0.0), (1.0, -0.08, 0.0), (1.0, 0.0, 0.08),
          (1.0, 0.0, -0.08))  # fmt: skip
# ... and the average counts from this probability (an average of several crops is less peaked than
# one: at READ_MIN it dropped 20 right cards of 10,372 on the development photos, seed 9670, for 14
# misreads fewer; at this, 5 for 10, duplicates 61 -> 36, sides' points right 96.0 -> 96.8%)
READ_MIN_AVERAGED = 0.5
# a corner read but no card surely enough to count (``unsure``) is read on those crops too, counted
# from READ_MIN as a single crop is: most such corners then read as no corner or as a card read there
# surely, and the flag "N corners found but not read surely" asks less often (on the development photos,
# seeds 9670, 9671, 9684 and 9685: right but flagged 26.7 -> 24.0%, 25.6 -> 23.1%, 26.7 -> 23.4%,
# 41.2 -> 36.5%; 7 cards more read, none misread, no side's count changed; fresh, 9686 and 9687:
# 27.1 -> 21.9%, 38.4 -> 32.6%, nothing else changed but 3 cards more read)
AVERAGE_UNSURE = True
# a card read under SURE, or a corner read as no card surely whose likeliest card is read surely
# elsewhere, is read again without the cards read surely elsewhere (``_deck_once``): on the spent fresh
# sets 9684-9689 and the development photos 9670 / 9671 (2,450 photos), 16 more legible cards read
# right (31 fewer missed), 1 more misread, sides right 2,284 (2,283), 22 fewer right readings flagged
DECK_ONCE = True
RESIZE_MIN = 0.05  # a corner is read again at its neighbours' size when that is this much different
# a corner not read surely whose axis the edges round it turned more than this (degrees) from the
# locator's is read again on the locator's axis: on a tilted photo the card's edges in a corner are
# not square, and their mean turns the axis wrongly (on the development photos, seed 9670, the turned
# axis is 8 degrees or more further off than the locator's for 1.3% of the corners, 00478: a 5 of
# bastoni in a row read under 0.6 at the turned axis, at 0.99 on the locator's) ...
AXIS_APART = 5.0
# ... and that reading counts only from SURE: from READ_MIN it made 4 misreads of 10,372 cards for 11
# more read right (seed 9670), from SURE 7 more right and none misread
RAW_AXIS_MIN = SURE
NO_CARDS = "no Mediatore cards found: no card corner whose index shows"


@dataclass(frozen=True)
class CornerRead:
    """One corner found and read: where (view px), the likeliest card and its probability, the next."""

    spot: Spot
    card: Card | None  # None: read "not a corner", or no card surely enough (``unsure``)
    confidence: float
    second: Card
    second_confidence: float
    unsure: bool = False  # a corner, but no card read from it surely enough to count
    resized: bool = False  # read only once looked at smaller or larger than found (UNSURE_SIZES)
    # each card of DECK's probability (rank x suit), for reading the corner again given the cards
    # read surely elsewhere (``_deck_once``)
    probs: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CardRead:
    card: Card
    confidence: float
    second: Card  # the likeliest other reading of its surest corner
    second_confidence: float
    corners: tuple[Spot, ...]  # its corners read (view px): one, or both
    duplicate: bool  # read at more than one place that cannot be its two corners


@dataclass(frozen=True)
class CardsReading:
    cards: tuple[CardRead, ...]  # in deck order
    corners_found: int  # corners the locator found, read or not
    flags: tuple[str, ...]
    view_scale: float  # full-size px per px of the reduced view the spots are in
    timing_ms: dict[str, float]
    # where a corner was found but no card read from it surely enough to count (view px, once each,
    # none on a card read): what the flag "N corners found but not read surely" asks a person to look at
    unsure: tuple[Spot, ...] = ()

    @property
    def status(self) -> str:
        return "check" if self.flags else "ok"


def load_corner_model(path: str | None = None) -> OnnxModel:
    return load_model(path or models_dir() / CORNER_MODEL)


def _crops(photo: Photo, spots: list[Spot], model: OnnxModel, long: float | None = None) -> np.ndarray:
    """Each spot's crop, cut from a decode of the photo fine enough for the model (``crop_k``) at boxes
    ``long`` view px long (the photo's corners' ``typical_long``, so that all its crops come from one
    decode; by default the spots')."""
    span = float(model.metadata["input"]["crop_span"])
    k_range = tuple(float(v) for v in model.metadata["input"]["crop_k"])
    long = typical_long(spots) if long is None else long
    return decoded_crops(photo, spots, crop_corner, model.input_size, span, k_range, long)


def _run(model: OnnxModel, crops: np.ndarray) -> dict[str, np.ndarray]:
    """Probabilities per head, each crop averaged with itself turned half round."""
    return half_turn_average(model.run, crops)


def _corner(
    model: OnnxModel, spot: Spot, rank: np.ndarray, suit: np.ndarray, read_min: float | None = None
) -> CornerRead:
    ranks, suits = model.heads["rank"], model.heads["suit"]
    p = np.array([rank[ranks.index(c.rank)] * suit[suits.index(c.suit)] for c in DECK])
    order = np.argsort(p)[::-1]
    corner = float(rank[ranks.index("none")]) < NOT_A_CORNER
    sure = corner and float(p[order[0]]) >= (READ_MIN if read_min is None else read_min)
    best = DECK[order[0]] if sure else None
    return CornerRead(
        spot, best, float(p[order[0]]), DECK[order[1]], float(p[order[1]]), corner and not sure, probs=p
    )


def _read_looks(
    photo: Photo, model: OnnxModel, spots: list[Spot], long: float | None = None
) -> list[CornerRead]:
    """Each spot read along its axis and across it (LOOKS) in one batch, the surer reading kept."""
    if not spots:
        return []
    looks = [[replace(s, long=s.long * k, angle=s.angle + turn) for k, turn in LOOKS] for s in spots]
    probs = _run(model, _crops(photo, [look for group in looks for look in group], model, long))
    reads = []
    for i, group in enumerate(looks):
        j = i * len(LOOKS)
        candidates = [
            _corner(model, look, probs["rank"][j + k], probs["suit"][j + k]) for k, look in enumerate(group)
        ]
        reads.append(max(candidates, key=_sureness))
    return reads


def _sureness(r: CornerRead) -> tuple[bool, float]:
    return (r.card is not None, r.confidence)


def _read_corners(photo: Photo, model: OnnxModel, spots: list[Spot]) -> list[CornerRead]:
    """Every corner found, read: its axis turned onto the edges round it (``refine``), read; a corner
    not read surely is read again at the long side of the corners near it that were (a region's size
    is rough, cards in a photo are one size), and on the locator's own axis where the edges turned it
    away (AXIS_APART; counted only when sure), the surer reading kept; then at two sizes where still
    no card was read (UNSURE_SIZES); a card still read under SURE is read on several crops round it,
    averaged (``_averaged``)."""
    decode_long = typical_long(spots)  # every crop of the photo from one decode
    reads = _read_looks(photo, model, refine_axes(photo, spots), decode_long)
    sure = [r.spot for r in reads if r.card is not None and r.confidence >= SURE]
    spots_again, which, on_raw_axis = [], [], []
    for i, r in enumerate(reads):
        if r.card is not None and r.confidence >= SURE:
            continue
        long = local_long(r.spot, sure)
        if long is not None and abs(long / r.spot.long - 1.0) > RESIZE_MIN:
            spots_again.append(replace(r.spot, long=long))
            which.append(i)
            on_raw_axis.append(False)
        if quarter_turn_apart(spots[i].angle, r.spot.angle) > AXIS_APART:  # (both ways are read)
            spots_again.append(replace(spots[i], long=long or spots[i].long))
            which.append(i)
            on_raw_axis.append(True)
    again = _read_looks(photo, model, spots_again, decode_long)
    for i, raw, r in zip(which, on_raw_axis, again, strict=True):
        if raw and r.confidence < RAW_AXIS_MIN:
            continue
        if _sureness(r) > _sureness(reads[i]):
            reads[i] = r
    # still a corner but no card read from it: its size may be off both ways (a row's boxes run
    # together, a box split), so read it a little smaller and larger, the surest reading kept
    unsure = [i for i, r in enumerate(reads) if r.unsure]
    sized = [replace(reads[i].spot, long=reads[i].spot.long * k) for i in unsure for k in UNSURE_SIZES]
    again = _read_looks(photo, model, sized, decode_long)
    for n, i in enumerate(unsure):
        best = max(again[n * len(UNSURE_SIZES) : (n + 1) * len(UNSURE_SIZES)], key=_sureness)
        if _sureness(best) > _sureness(reads[i]):
            reads[i] = replace(best, resized=True)
    return _averaged(photo, model, reads, decode_long)


def _averaged(
    photo: Photo, model: OnnxModel, reads: list[CornerRead], long: float | None
) -> list[CornerRead]:
    """Each card read under SURE, and each corner read as no card surely (AVERAGE_UNSURE), read again on
    the JITTER crops round its spot, their probabilities averaged: the average's reading (from
    READ_MIN_AVERAGED, READ_MIN for an unsure corner; a card, an unsure corner, or none) replaces it."""
    doubtful = [
        i
        for i, r in enumerate(reads)
        if (r.card is not None and r.confidence < SURE) or (r.unsure and AVERAGE_UNSURE)
    ]
    if not doubtful:
        return reads
    looks = [
        replace(moved(s, along, across, s.angle), long=s.long * size)
        for s in (reads[i].spot for i in doubtful)
        for size, along, across in JITTER
    ]
    probs = _run(model, _crops(photo, looks, model, long))
    n, out = len(JITTER), list(reads)
    for j, i in enumerate(doubtful):
        rank, suit = probs["rank"][j * n : (j + 1) * n].mean(0), probs["suit"][j * n : (j + 1) * n].mean(0)
        read_min = READ_MIN_AVERAGED if reads[i].card is not None else READ_MIN
        again = _corner(model, reads[i].spot, rank, suit, read_min)
        out[i] = replace(again, resized=reads[i].resized)
    return out


def _deck_once(reads: list[CornerRead]) -> list[CornerRead]:
    """Each card read under SURE, and each corner read as no card surely whose likeliest card is read
    surely elsewhere, read again knowing that the deck holds each card once: the cards read surely at
    places that cannot be this corner (neither the same spot nor the card's other corner) are struck
    from its probabilities, the rest renormalised, and the likeliest card counted from READ_MIN. A dim
    or glared index whose rank the model hesitates over (1, 2, 3 or 5; fante or re) is often read as
    the neighbouring ranks, read surely elsewhere (spent fresh 9684-00385, a 1 of spade in the dark:
    5-spade 37%, 1-spade 31%, 3-spade 19%, 2-spade 6%, the three others read surely; 1-spade 90% once
    they are struck)."""
    sure: dict[Card, list[Spot]] = {}
    for r in reads:
        if r.card is not None and r.confidence >= SURE:
            sure.setdefault(r.card, []).append(r.spot)
    # a card read surely at places that cannot all be its corners is a duplicate: one of them is
    # another card and which is not known, so it is struck from no corner
    sure = {c: places for c, places in sure.items() if _one_card(_distinct(places))}
    out = list(reads)
    for i, r in enumerate(reads):
        if r.probs is None or not (r.unsure or (r.card is not None and r.confidence < SURE)):
            continue
        elsewhere = [
            DECK.index(c)
            for c, spots in sure.items()
            if not any(_same_spot(r.spot, s) or _pair(r.spot, s) for s in spots)
        ]
        struck = float(r.probs[elsewhere].sum())  # (0 where none is)
        if struck <= 0.0:
            continue
        if r.unsure and int(np.argmax(r.probs)) not in elsewhere:
            # its likeliest card is read nowhere else: striking others out only lifts it, and cards so
            # lifted to READ_MIN were often cards outside the pile (on the spent sets, 10 misread more)
            continue
        p = r.probs.copy()
        p[elsewhere] = 0.0
        p /= max(1e-9, 1.0 - struck)
        order = np.argsort(p)[::-1]
        if p[order[0]] < READ_MIN:  # (from READ_MIN, "none", 1 - the cards' sum, stays under 0.5)
            continue
        out[i] = replace(
            r,
            card=DECK[order[0]],
            confidence=float(p[order[0]]),
            second=DECK[order[1]],
            second_confidence=float(p[order[1]]),
            unsure=False,
            probs=p,
        )
    return out


def _trusted(corners: tuple[Corner, ...], reads: list[CornerRead]) -> list[CornerRead]:
    """The readings of ``corners``, those of corners only an earlier, coarser look found (``carried``:
    boxes too large for the zoomed look) dropped unless read surely: such a look also finds regions
    on large cards' faces (on the development photos, seed 9670, 00400: a court card's picture read
    as re-denari at 78%)."""
    return [
        replace(r, card=None, unsure=False) if c.carried and r.confidence < SURE else r
        for c, r in zip(corners, reads, strict=True)
    ]


def _pair(a: Spot, b: Spot) -> bool:
    """Whether two corner boxes can be the two corners of one card: a card's diagonal apart (within
    PAIR_RANGE), parallel (PAIR_TURN), and one from the other along the diagonal (PAIR_ANGLE)."""
    long = (a.long + b.long) / 2
    d = float(np.hypot(a.x - b.x, a.y - b.y)) / long / PAIR_DISTANCE
    turn = abs((a.angle - b.angle + 90.0) % 180.0 - 90.0)
    towards = float(np.degrees(np.arctan2(b.y - a.y, b.x - a.x)))
    off_axis = abs((towards - a.angle + 90.0) % 180.0 - 90.0)  # 0 to 90: the axis has no way up
    return (
        PAIR_RANGE[0] <= d <= PAIR_RANGE[1]
        and turn <= PAIR_TURN
        and abs(off_axis - PAIR_ANGLE) <= PAIR_ANGLE_TOLERANCE
    )


def _same_spot(a: Spot, b: Spot) -> bool:
    """Whether two spots are one corner found twice: closer than SAME_SPOT of their long sides."""
    return bool(np.hypot(a.x - b.x, a.y - b.y) <= SAME_SPOT * (a.long + b.long) / 2)


def _distinct(spots: list[Spot]) -> list[Spot]:
    """One spot per place: a corner found twice (two looks, a region split) counts once."""
    out: list[Spot] = []
    for s in spots:
        if not any(_same_spot(s, o) for o in out):
            out.append(s)
    return out


def _one_card(places: list[Spot]) -> bool:
    """Whether a card read at ``places`` (``_distinct``) can be one card: one place, or its two corners."""
    return len(places) == 1 or (len(places) == 2 and _pair(*places))


def _cards(reads: list[CornerRead]) -> tuple[list[CardRead], list[str]]:
    by_card: dict[Card, list[CornerRead]] = {}
    for r in reads:
        if r.card is not None:
            by_card.setdefault(r.card, []).append(r)
    cards, flags = [], []
    for card in sorted(by_card, key=DECK.index):
        group = sorted(by_card[card], key=lambda r: -r.confidence)
        places = _distinct([r.spot for r in group])
        duplicate = not _one_card(places)
        best = group[0]
        cards.append(
            CardRead(card, best.confidence, best.second, best.second_confidence, tuple(places), duplicate)
        )
        if duplicate:
            flags.append(
                f"{card.id}: read at {len(places)} places (the deck has one): one of them is another card"
            )
        elif best.confidence < SURE:
            flags.append(
                f"{card.id}: read at {best.confidence:.0%}, perhaps {best.second.id} ({best.second_confidence:.0%})"
            )
        elif all(r.resized for r in group):
            # the surest of several looks is surer than one look would be: a card seen only so is
            # never counted without a check
            flags.append(f"{card.id}: read only when its corner was looked at smaller or larger than found")
    return cards, flags


def _unsure_apart(reads: list[CornerRead], cards: list[CardRead]) -> list[Spot]:
    """The places of the corners found but not read surely (``unsure``), once each, leaving out those
    on a corner read as a card: one box found twice, one region read and the other not, is that card
    (on the development photos, seed 9670, 66 of 834 unsure corners lay so, none on a card missed;
    in 13 photos counted right they were the only flag)."""
    read = [s for c in cards for s in c.corners]
    return [
        u for u in _distinct([r.spot for r in reads if r.unsure]) if not any(_same_spot(u, s) for s in read)
    ]


def read_cards(
    image: Photo | np.ndarray | str | Path,
    *,
    locator: LocatorModel | None = None,
    corners: OnnxModel | None = None,
) -> tuple[tuple[Card, ...], CardsReading]:
    """The cards whose corner shows in ``image`` and how they were read; a PhotoError when none is found."""
    t0 = time.perf_counter()
    photo = softened(as_photo(image)) if SOFTEN_GRAIN else as_photo(image)
    found = locate_corners(photo, locator)
    t1 = time.perf_counter()
    if not found.corners:
        raise PhotoError(NO_CARDS, kind="no_board")
    model = corners or load_corner_model()

    def read(found: Found) -> list[CornerRead]:
        reads = _trusted(found.corners, _read_corners(photo, model, [c.spot for c in found.corners]))
        return _deck_once(reads) if DECK_ONCE else reads

    reads = read(found)
    if not any(r.card for r in reads):
        # no corner found reads as a card: a few large regions (the edge of a patch of sunlight, a
        # print) can hold every zoomed look back (``locate._zoom``'s BOX_MAX) from small cards that
        # the first look saw only weakly (fresh 9686-00042: 28 cards in a shadow, refused); look
        # again as though the first look had found nothing surely
        found = locate_corners(photo, locator, as_if_none=True)
        reads = read(found)
    t2 = time.perf_counter()
    if not any(r.card for r in reads):
        raise PhotoError(NO_CARDS, kind="no_board")
    cards, flags = _cards(reads)
    unsure = _unsure_apart(reads, cards)
    if unsure:
        n = len(unsure)
        flags.append(f"{n} corner{'s' if n > 1 else ''} found but not read surely enough to count")
    if len(cards) % TRICK:
        flags.append(
            f"{len(cards)} cards read: a side wins whole tricks of {TRICK}, so some corners may be hidden "
            "(spread the cards so that every corner shows)"
        )
    flags = [f"{n[:1].upper()}{n[1:]}: check every card" for n in photo.notes] + flags
    reading = CardsReading(
        cards=tuple(cards),
        corners_found=len(found.corners),
        flags=tuple(flags),
        view_scale=photo.scale,
        timing_ms={"locate": (t1 - t0) * 1000, "corners": (t2 - t1) * 1000},
        unsure=tuple(unsure),
    )
    return tuple(c.card for c in cards), reading


__all__ = ["CardRead", "CardsReading", "Corner", "CornerRead", "read_cards"]

"""Photo in, Snorkeling round out: find the diver mats and the central pile, read every mat's number
and the top card of the pile on it, and the central pile's top card, with the card model in one batch.

    board, reading = read_round(photo)      # a Photo, a path, or a BGR image
    board.divers                            # Diver(mat, top card), one per mat found, by mat number
    reading.flags                           # doubtful readings in words; reading.status "ok" or "check"
    reading.notes                           # doubts that change no score (the central pile's card)

Constrained by the deck: a card read is one of the kit's (a value 0-4 in one of the five colours, or
the Lanternfish), and a mat one of the six. Each crop is read as it is and turned half round (a card
lies either way up on its mat), the two readings averaged.

Constrained by the table too (``layout``): the mats lie round the central pile, so a spot far off
their ring is left out and a gap in it, where a mat was not found, is flagged; and by what the
players say (``mats``: the mat numbers in play). A region the locator is sure is a mat but that
reads as none is looked at closer (``closer_look``), and so is the place where a mat is likely
missing (a gap round the table, or one mat alone: ``closer_look.look_where_missing``); each pile
is read again as a smaller mat, and where its top card reads unsure at spots round its own
(``pile_looks``). Where a mat may still be missing (a gap, a region like a mat read as none, no
Beach), the locator looks at the photo darkened too (``darkened``: an overexposed mat, or one a
coloured light turns towards the table's colour) and the round is read again with what it adds.
Every reading those looks give is flagged. A round never shows two Beaches (``deck_rules``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np

from scoring.snorkeling import BEACH, LANTERNFISH_CARD, Card, Diver, RoundBoard, deck
from vision.errors import PhotoError
from vision.locator_net import darkened as darkened_tones
from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo, as_photo
from vision.snorkeling.candidates import MIN_APART, NOT_A_MAT, Candidate, candidates, choose, near_the_others
from vision.snorkeling.card_readings import DECK_CARDS, CardReading, deck_probs, reading_of, words
from vision.snorkeling.closer_look import AROUND_SCORE, in_the_middle, look_around, look_where_missing
from vision.snorkeling.crops import CARD_PER_MAT, Spot, card_crops, half_turn_average
from vision.snorkeling.headers import header_evidence, load_header_model, with_headers
from vision.snorkeling.layout import layout_gap, off_the_ring, table_middle
from vision.snorkeling.locate import Found, LocatorModel, locate_table, mats_long
from vision.snorkeling.pile_looks import look_round_piles, smaller_look
from vision.snorkeling.sizes import fit_sizes

CARD_MODEL = "snorkeling-cards.onnx"
# a reading below these probabilities is flagged (chosen on dev photos: as few right rounds flagged
# as can be without more wrong ones left unflagged)
SURE = 0.9  # the central pile's top card (a note: it scores nobody)
SURE_MAT = 0.8  # a mat's number
SURE_CARD = 0.8  # a pile's top card
BEACH_LEAST = 0.05  # a pile read as a Beach this likely may be the round's one Beach (``deck_rules``)
CENTRE_OFF_MAT = 0.45  # the central pile lies at least this far (in mat lengths) from every mat's centre
SIZE_SURE = 0.9  # a region read this surely as a mat at its own size shows the mats' size there (``sizes``)
OTHER_SPOT_SURE = 0.5  # a mat read off a region's own centre and axis (or on a weak one) needs this
HEADER_LOOK = 0.05  # a spot read as a mat with this probability has its header read too
LOOK_AGAIN = 0.1  # a region read "not a mat" with this probability is read again at its other spots
SECOND_LOOK = 0.05  # with fewer mats than players, a spot this likely a mat may be taken at a second look
NEAR_GAP = 1.0  # mat lengths: how near where the gap says a mat is missing a second look takes one
# a region the locator is sure of (``AROUND_SCORE``) that reads as no mat at every look is flagged
# (``_unread_regions``) where it is a mat's size and lies on the ring of the piles
UNREAD_LONG = (0.6, 1.6)  # its long side, of the mats' size
UNREAD_RING = 1.5  # no farther from the middle than this times the ring of piles' radius
NAMED_ELSEWHERE = 0.95  # a mat numbered among those named that reads this surely as another is flagged
# where a mat may be missing, the locator looks at the photo darkened too (``darkened``): its tones
# raised to this power (fresh stress seed 9675: of 8 rounds whose missed mats had no region at all,
# 6 got one on the photo so darkened, 3-4 with contrast-limited equalisation or a grey-world balance)
DARKER_GAMMA = 2.0
UNLIKELY_NUMBER = 0.05  # a region left only a mat number this unlikely (its own taken) is left out
NO_TABLE = "no Snorkeling table found: no diver mat in this photo"


@dataclass(frozen=True)
class PileReading:
    mat: int
    mat_confidence: float
    top: CardReading
    spot: Spot  # the mat in the photo's reduced view (px)
    at_edge: bool
    deck: tuple[float, ...] = field(default=(), compare=False)  # P of each card of DECK_CARDS on top


@dataclass(frozen=True)
class RoundReading:
    piles: tuple[PileReading, ...]  # by mat number
    centre: CardReading | None
    centre_spot: Spot | None
    flags: tuple[str, ...]
    view_scale: float  # full-size px per px of the reduced view the spots are in
    timing_ms: dict[str, float]
    missing_at: tuple[float, float] | None = None  # where a mat not found likely lies (view px)
    # doubts that change no diver's points (the central pile's top card, or the pile not found): said,
    # never a reason to check the round
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """Whether to check the round: "check" when a flag (a doubt that may change a score) is
        raised; notes never make it "check"."""
        return "check" if self.flags else "ok"


def load_card_model(path: str | None = None) -> OnnxModel:
    return load_model(path or models_dir() / CARD_MODEL)


def _run(model: OnnxModel, crops: np.ndarray) -> dict[str, np.ndarray]:
    """Probabilities per head, each crop averaged with itself turned half round."""
    return half_turn_average(model.run, crops)


def _read_spots(
    model: OnnxModel, photo: Photo, spots: list[Spot], looks: list[Candidate], mat_long: float
) -> dict[str, np.ndarray]:
    """The card model's reading of every spot: first each region as found (and the central pile),
    then the other spots of the regions that did not read surely as a mat there (a spot not read
    is "not a mat"), which keeps a plain table's photo as fast as one look per region."""
    first = [i for i in range(len(spots)) if i >= len(looks) or looks[i].own]
    probs = _run(model, card_crops(photo, [spots[i] for i in first], model, mat_long))
    none = model.heads["mat"].index("none")
    unsure = {
        looks[i].region
        for i, p in zip(first, probs["mat"], strict=True)
        if i < len(looks) and p[none] > LOOK_AGAIN
    }
    again = [i for i, c in enumerate(looks) if not c.own and c.region in unsure]
    out = {name: np.zeros((len(spots), p.shape[1]), p.dtype) for name, p in probs.items()}
    out["mat"][:, none] = 1.0
    for rows, got in (
        (first, probs),
        (again, _run(model, card_crops(photo, [spots[i] for i in again], model, mat_long))),
    ):
        for name, p in got.items():
            out[name][rows] = p
    return out


def deck_rules(p: np.ndarray, one_beach: bool = True) -> list[int]:
    """The top cards of the piles (rows of ``p``: each pile's probability of each card of
    ``DECK_CARDS``) as the deck and the rules allow them, the likeliest such set: no card shows on
    more piles than the deck has copies of it, and at most one pile shows a Beach (a round ends the
    moment one lands on a pile). With ``one_beach`` (the piles are known to be the players': the
    mats were named) exactly one does, where one reads as a Beach at ``BEACH_LEAST`` at least (else
    none is made one: the Beach may lie on a mat not found). Each pile's likeliest card where those
    hold already."""
    n = len(p)
    cards = [int(k) for k in np.argmax(p, 1)]
    if not n:
        return cards
    beach = np.array([c.value == BEACH for c in DECK_CARDS])
    logp = np.log(np.maximum(p, 1e-12))
    read = sum(bool(beach[k]) for k in cards)
    if read > 1 or (one_beach and read != 1):
        # the Beach on one pile (only one read as a Beach, where more were), every other pile's
        # likeliest card that is no Beach
        options = []
        for j in range(n):
            if p[j, beach].sum() < BEACH_LEAST or (read > 1 and not beach[cards[j]]):
                continue
            pick = [int(np.argmax(np.where(beach == (i == j), logp[i], -np.inf))) for i in range(n)]
            options.append((float(sum(logp[i, k] for i, k in enumerate(pick))), pick))
        if options:
            cards = max(options, key=lambda o: o[0])[1]
    copies = {**deck(), LANTERNFISH_CARD: 6}  # six divers, a Lanternfish each
    for _ in range(n):
        counts: dict[int, list[int]] = {}
        for i, k in enumerate(cards):
            counts.setdefault(k, []).append(i)
        over = [(k, rows) for k, rows in counts.items() if len(rows) > copies[DECK_CARDS[k]]]
        if not over:
            break
        k, rows = over[0]
        i = min(rows, key=lambda r: p[r, k])  # the least sure of them takes its next card
        full = {c for c, r in counts.items() if len(r) >= copies[DECK_CARDS[c]]}
        allowed = [c for c in range(len(DECK_CARDS)) if c not in full and bool(beach[c]) == bool(beach[k])]
        cards[i] = max(allowed, key=lambda c: p[i, c])
    return cards


def read_round(
    image: Photo | np.ndarray | str | Path,
    *,
    locator: LocatorModel | None = None,
    cards: OnnxModel | None = None,
    mats: Collection[int] | None = None,
    players: int | None = None,
    headers: OnnxModel | None | Literal[False] = None,
) -> tuple[RoundBoard, RoundReading]:
    """The round on the table in ``image`` and how it was read; a PhotoError when no table is in it.
    ``mats``: the mat numbers in play where the players said so (``score --players 1=Anna ...``):
    every mat read is numbered one of them (look-alike colours, orange 1 / yellow 4, sky 2 / blue 5,
    are told apart by what the players know), and a region beyond them is left out, flagged.
    ``players``: how many divers play (``score --players N``): with fewer mats found, the spot likeliest
    a mat where the gap round the table says one is missing is taken at a second look, flagged.
    ``headers``: the header model (``headers.py``; None: the shipped one, False: the card model's
    mat numbers alone)."""
    allowed = None if mats is None else frozenset(int(m) for m in mats)
    if allowed is not None and not (allowed and allowed <= set(range(1, 7))):
        raise ValueError(f"the mats in play are some of 1 to 6, not {sorted(allowed)}")
    if players is not None and not 2 <= players <= 6:
        raise ValueError(f"a round has 2 to 6 divers, not {players}")
    t0 = time.perf_counter()
    photo = as_photo(image)
    found = locate_table(photo, locator)
    t1 = time.perf_counter()
    model = cards or load_card_model()

    def read(mats_found: Found):
        """`_read_found` of these regions, or the "no table" refusal it raised (other errors rise)."""
        try:
            return _read_found(photo, mats_found, model, allowed, players, headers, t0, t1), None
        except PhotoError as error:
            if error.kind != "no_board":
                raise
            return None, error

    got, refused = read(found)
    if got is None or got[2]:  # a mat may be missing: the locator's look at the photo darkened too
        darker = with_regions_of(found, locate_table(replace(photo, image=darkened(photo.image)), locator))
        if darker is not found:
            again, _ = read(darker)
            if again is not None and (got is None or len(again[0].divers) > len(got[0].divers)):
                got = again[0], _flag_darker_mats(again[1], found), again[2]
    if got is None:
        assert refused is not None
        raise refused
    return got[0], got[1]


def darkened(image: np.ndarray) -> np.ndarray:
    """``image`` with its tones squared (``DARKER_GAMMA``): an overexposed mat, or one a coloured
    light turns towards the table's colour, stands out from the table again for the locator."""
    return darkened_tones(image, DARKER_GAMMA)


def with_regions_of(found: Found, other: Found) -> Found:
    """``found`` with the mats' regions of ``other`` that lie off every one of its own (``found``
    itself where there are none)."""
    if not found.mats:
        return other if other.mats else found
    new = [r for r in other.mats if _off_every_region(r.spot, found)]
    if not new:
        return found
    return replace(found, mats=(*found.mats, *new), centre=found.centre or other.centre)


def _off_every_region(spot: Spot, found: Found) -> bool:
    """Whether ``spot`` lies a mat's width (``MIN_APART``) or more from every region ``found``."""
    mat_long = mats_long(found.strong or found.mats)
    return all(math.hypot(spot.x - r.spot.x, spot.y - r.spot.y) >= MIN_APART * mat_long for r in found.mats)


def _flag_darker_mats(reading: RoundReading, found: Found) -> RoundReading:
    """``reading`` with a flag on each pile that lies off every region ``found`` first (found only
    on the darkened photo)."""
    flags = [
        f"Mat {p.mat}: found only on the photo darkened (overexposed, or a coloured light): check it"
        for p in reading.piles
        if not found.mats or _off_every_region(p.spot, found)
    ]
    return replace(reading, flags=(*reading.flags, *flags)) if flags else reading


def _read_found(
    photo: Photo,
    found: Found,
    model: OnnxModel,
    allowed: frozenset[int] | None,
    players: int | None,
    headers: OnnxModel | None | Literal[False],
    t0: float,
    t1: float,
) -> tuple[RoundBoard, RoundReading, bool]:
    """The round read from the mats ``found`` in ``photo`` (``read_round``'s arguments), and whether
    a mat may be missing (a gap round the table, a region like a mat read as none, no Beach read)."""
    if not found.mats:
        raise PhotoError(NO_TABLE, kind="no_board")
    mat_long = mats_long(found.strong or found.mats)
    # every region is read at its own size where that is one mat's, else at the mats' common size
    # (``candidates.OWN_SIZE``): the mats map also lights up the central pile (cards like those on a
    # mat), which the card model then reads as "not a mat", as it learnt (each region at a few
    # spots: its outline may turn its axis or move its centre off the mat; ``closer_look.look_around`` looks
    # closer at a region the locator is sure of where none of them reads as a mat)
    looks = candidates([m.spot for m in found.mats], mat_long, [m.weak for m in found.mats])
    spots = [c.spot for c in looks]
    plain = [i for i, c in enumerate(looks) if c.own]  # the regions as found: where the centre may be
    if found.centre is not None:  # read at the mats' scale, as the model learnt it
        plain.append(len(spots))
        spots.append(Spot(found.centre.spot.x, found.centre.spot.y, mat_long, found.centre.spot.angle))
    probs = _read_spots(model, photo, spots, looks, mat_long)
    none = model.heads["mat"].index("none")
    sure = 1.0 - probs["mat"][: len(looks), none]
    sizes = fit_sizes(
        [c.spot for c, p in zip(looks, sure, strict=True) if c.plain and c.own_size and p >= SIZE_SURE],
        mat_long,
    )
    more, more_probs = look_around(model, photo, found, looks, sure, mat_long, sizes)
    if more:  # before the central pile's row, so that a candidate's row is its spot's
        n = len(looks)
        looks = [*looks, *more]
        spots = [*spots[:n], *(c.spot for c in more), *spots[n:]]
        plain = [i if i < n else i + len(more) for i in plain]
        probs = {k: np.concatenate([p[:n], more_probs[k], p[n:]]) for k, p in probs.items()}
    if headers is not False:  # the mats' numbers read again from their headers' numerals
        probs["mat"] = _numbers_from_headers(
            photo, probs["mat"], spots, len(looks), tuple(model.heads["mat"]), headers
        )
    t2 = time.perf_counter()
    sure = 1.0 - probs["mat"][: len(looks), none]
    rows = choose(sure, looks, mat_long, 1.0 - NOT_A_MAT, OTHER_SPOT_SURE)
    rows = near_the_others(rows, looks, mat_long)
    rows, far = _on_the_ring(rows, spots, found, mat_long)
    edges = [found.mats[looks[i].region].at_edge for i in range(len(looks))]
    piles, flags = _piles(model, probs, rows, spots, edges, allowed)
    gap_spot, gap_why = None, ""
    if piles:  # a mat likely missing (a gap round the table, or one mat alone), looked for closer
        where = _centre_index(model, probs, spots, piles, mat_long, plain)
        mats = [(p.mat, p.spot) for p in piles]
        got = look_where_missing(model, photo, found, mats, None if where is None else spots[where], mat_long)
        if got is not None:
            gap_spot, row, gap_why = got
            if headers is not False:
                labels = tuple(model.heads["mat"])
                row["mat"] = _numbers_from_headers(photo, row["mat"], [gap_spot], 1, labels, headers)
            rows = [*rows, len(spots)]
            spots = [*spots, gap_spot]
            probs = {k: np.concatenate([p, row[k]]) for k, p in probs.items()}
            edges = [*edges, *([False] * (len(spots) - len(edges)))]
            piles, flags = _piles(model, probs, rows, spots, edges, allowed)
    second = None
    if players is not None and 2 <= len(piles) < players:
        second = _second_look(model, probs, sure, looks, spots, rows, piles, plain, mat_long)
        if second is not None:
            piles, flags = _piles(model, probs, [*rows, second], spots, edges, allowed)
            flags += [
                f"Mat {p.mat}: found at a second look ({sure[second]:.0%} a mat), as {players} divers play"
                for p in piles
                if p.spot is spots[second]
            ]
    flags += [
        f"Mat {p.mat}: found only at a closer look {gap_why}: check it" for p in piles if p.spot is gap_spot
    ]
    closer = {id(c.spot) for c in more}
    flags += [
        f"Mat {p.mat}: found only at a closer look round a region that read as no mat: check it"
        for p in piles
        if id(p.spot) in closer
    ]
    if far:  # flagged: a left-out region may have hidden another doubt (on the dev photos it did once)
        flags.append(
            f"{far} {'region' if far == 1 else 'regions'} read as a mat far off the ring of the other mats "
            "(a card or a thing at the table's edge?) left out: check that no mat is missing"
        )
    if len(piles) < 2:
        reason = NO_TABLE if not piles else "only one diver mat found (a round has 2 to 6 divers)"
        raise PhotoError(reason, kind="no_board")
    piles, smaller = smaller_look(model, photo, piles, mat_long)
    flags += smaller
    piles, flags = look_round_piles(model, photo, piles, flags, mat_long, SURE_CARD)
    no_beach = not any(p.top.card.value == BEACH for p in piles)
    if no_beach:
        # a round ends on a Beach: none read means a pile missed or misread, or a round not over
        flags.append("No Beach read on any pile: a round ends on one; check for a mat not found")
    where = _centre_index(model, probs, spots, piles, mat_long, plain)
    # a mat not found leaves nothing to flag on the mats read: the gap it leaves round the table does
    gap = layout_gap([(p.mat, p.spot) for p in piles], None if where is None else spots[where])
    if gap:
        flags.append(gap.text)
    centre, notes = centre_reading(
        model,
        None if where is None else probs["value"][where],
        None if where is None else probs["color"][where],
        [p.top.card for p in piles],
    )
    unread = _unread_regions(found, piles, None if where is None else spots[where], mat_long)
    if unread:
        flags.append(
            f"{unread} {'region' if unread == 1 else 'regions'} of the table that look like a mat read as no "
            "mat at every look: check for a mat not found (a pile of the Lanternfish alone, in shadow)"
        )
    flags = [f"{n[:1].upper()}{n[1:]}: check every card" for n in photo.notes] + flags
    board = RoundBoard(tuple(Diver(p.mat, p.top.card) for p in piles), centre.card if centre else None)
    reading = RoundReading(
        piles=tuple(piles),
        centre=centre,
        centre_spot=None if where is None else replace(spots[where], long=mat_long * CARD_PER_MAT),
        flags=tuple(flags),
        view_scale=photo.scale,
        timing_ms={"locate": (t1 - t0) * 1000, "cards": (t2 - t1) * 1000},
        missing_at=gap.where if gap else None,
        notes=tuple(notes),
    )
    return board, reading, bool(gap or unread or no_beach)


def _numbers_from_headers(
    photo: Photo,
    mat_probs: np.ndarray,
    spots: list[Spot],
    n_looks: int,
    labels: tuple[str, ...],
    model: OnnxModel | None,
) -> np.ndarray:
    """The card model's mat probabilities with each spot's header read into its numbers (the spots
    that may be a mat: HEADER_LOOK or more; not the central pile's spot, rows past ``n_looks``)."""
    model = model or load_header_model()
    none = labels.index("none")
    rows = [i for i in range(n_looks) if 1.0 - mat_probs[i, none] >= HEADER_LOOK]
    if model is None or not rows:
        return mat_probs
    out = mat_probs.copy()
    evidence = header_evidence(photo, [spots[i] for i in rows], model, labels, mat_probs[rows])
    out[rows] = with_headers(mat_probs[rows], evidence, none)
    return out


def centre_reading(
    model: OnnxModel, value: np.ndarray | None, color: np.ndarray | None, shown: Collection[Card] = ()
) -> tuple[CardReading | None, list[str]]:
    """The central pile's top card from its value and colour probabilities (``None``: the pile not
    found) and the notes it gives; never the Lanternfish (each lies in front of its diver), nor a
    card whose every copy is on the piles (``shown``: their top cards). It scores nobody, so a doubt
    about it is a note, never a flag (a flag says "check": something that may change a diver's points)."""
    if value is None or color is None:
        return None, ["Central pile not found (it scores nobody)"]
    p = deck_probs(model, value, color)
    full = deck()
    for k, card in enumerate(DECK_CARDS):
        if card.is_lanternfish or sum(1 for c in shown if c == card) >= full[card]:
            p[k] = 0.0
    centre = reading_of(p / max(float(p.sum()), 1e-12))
    if centre.confidence >= SURE:
        return centre, []
    return centre, [
        f"Central pile: top card read as {words(centre.card)} ({centre.confidence:.0%}), "
        f"perhaps {words(centre.second)} ({centre.second_confidence:.0%}); it scores nobody"
    ]


def _unread_regions(found: Found, piles: list[PileReading], centre: Spot | None, mat_long: float) -> int:
    """How many regions the locator is sure are mats (``AROUND_SCORE``), a mat's size, lie off every
    pile read and the central pile, on the ring of the piles (not in its middle, nor farther than
    ``UNREAD_RING`` times its radius): a mat the card model read as none at every look (a
    Lanternfish pile alone on its mat is the commonest), which leaves nothing else to doubt."""
    mats = [p.spot for p in piles]
    if len(mats) < 2:
        return 0
    taken = mats + ([centre] if centre is not None else [])
    mx, my = float(np.mean([m.x for m in mats])), float(np.mean([m.y for m in mats]))
    ring = float(np.median([math.hypot(m.x - mx, m.y - my) for m in mats]))
    count = 0
    for region in found.mats:
        s = region.spot
        if (region.weak and not region.joined) or region.score < AROUND_SCORE:
            continue
        if not UNREAD_LONG[0] * mat_long <= s.long <= UNREAD_LONG[1] * mat_long:
            continue
        if any(math.hypot(s.x - t.x, s.y - t.y) < MIN_APART * mat_long for t in taken):
            continue
        if in_the_middle(s, mats) or math.hypot(s.x - mx, s.y - my) > UNREAD_RING * ring:
            continue
        count += 1
    return count


def _second_look(
    model: OnnxModel,
    probs: dict[str, np.ndarray],
    sure: np.ndarray,
    looks: list[Candidate],
    spots: list[Spot],
    rows: list[int],
    piles: list[PileReading],
    plain: list[int],
    mat_long: float,
) -> int | None:
    """With fewer mats read than the players said play: the spot left out likeliest a mat (at least
    ``SECOND_LOOK``) where the gap round the table says one is missing (else anywhere on the ring
    of mats), a mat's length from the mats read and the central pile; none if no spot is."""
    where = _centre_index(model, probs, spots, piles, mat_long, plain)
    centre = None if where is None else spots[where]
    gap = layout_gap([(p.mat, p.spot) for p in piles], centre)
    taken = [p.spot for p in piles] + ([centre] if centre is not None else [])
    middle = table_middle([p.spot for p in piles], centre)
    best = None
    for i, look in enumerate(looks):
        s = look.spot
        if i in rows or sure[i] < SECOND_LOOK or (best is not None and sure[i] <= sure[best]):
            continue
        if any(math.hypot(s.x - t.x, s.y - t.y) < mat_long for t in taken):
            continue
        if gap is not None:
            if math.hypot(s.x - gap.where[0], s.y - gap.where[1]) > NEAR_GAP * mat_long:
                continue
        elif len(piles) in off_the_ring([*(p.spot for p in piles), s], middle):
            continue  # off the ring of mats: a card or a thing at the table's edge
        best = i
    return best


def _on_the_ring(rows: list[int], spots: list[Spot], found: Found, mat_long: float) -> tuple[list[int], int]:
    """``rows`` less the spots far off the ring the others form round the table's middle (the
    locator's central pile unless it lies on one of them, else where their axes meet), and how many
    were left out."""
    kept = [spots[i] for i in rows]
    centre = found.centre.spot if found.centre is not None else None
    if centre is not None and any(
        math.hypot(centre.x - s.x, centre.y - s.y) < CENTRE_OFF_MAT * mat_long for s in kept
    ):
        centre = None  # the locator's central pile on a mat: a pile the net took for the centre's
    far = set(off_the_ring(kept, table_middle(kept, centre)))
    return [i for k, i in enumerate(rows) if k not in far], len(far)


def _centre_index(
    model: OnnxModel,
    probs: dict[str, np.ndarray],
    spots: list[Spot],
    piles: list[PileReading],
    mat_long: float,
    rows: list[int],
) -> int | None:
    """Which crop shows the central pile. The mats map lights it up too (cards like a pile's), and the
    card model reads it "not a mat": of those, the one nearest the middle of the divers' mats (the
    pile lies between them); else the locator's own central-pile region, unless that lies on a mat."""
    none = model.heads["mat"].index("none")
    middle = np.mean([[p.spot.x, p.spot.y] for p in piles], 0)
    ring = max(float(np.hypot(p.spot.x - middle[0], p.spot.y - middle[1])) for p in piles)
    on_mat = [(p.spot.x, p.spot.y) for p in piles]

    def apart(s: Spot) -> bool:
        return all(np.hypot(s.x - x, s.y - y) > CENTRE_OFF_MAT * mat_long for x, y in on_mat)

    candidates = [
        (float(np.hypot(s.x - middle[0], s.y - middle[1])), i)
        for i, s in ((i, spots[i]) for i in rows)
        if probs["mat"][i][none] >= NOT_A_MAT and apart(s)
    ]
    near = [c for c in candidates if c[0] < ring]
    if near:
        return min(near)[1]
    return None


def _piles(
    model: OnnxModel,
    probs: dict[str, np.ndarray],
    keep: list[int],
    spots: list[Spot],
    edges: list[bool],
    allowed: frozenset[int] | None = None,
) -> tuple[list[PileReading], list[str]]:
    """Each spot read as a mat (``keep``: rows of ``probs``), numbered: every mat is a different one
    of the six (or of the ``allowed`` ones), so the numbers are assigned together (the likeliest set
    of different numbers), not one by one."""
    from vision.assignment import linear_sum_assignment

    labels = model.heads["mat"]
    none = labels.index("none")
    numbers = [j for j in range(len(labels)) if j != none and (allowed is None or int(labels[j]) in allowed)]
    flags: list[str] = []
    if not keep:
        return [], flags
    p = probs["mat"][keep][:, numbers]
    p = p / np.maximum(p.sum(1, keepdims=True), 1e-12)  # given that it is a mat: which one
    cost = -np.log(np.maximum(p, 1e-9))
    beyond = len(keep) - len(numbers)
    if allowed is not None and beyond > 0:
        # more regions than the mats in play: each is one of them or no mat at all, as likely as the
        # card model reads it (a hand, a card), so the least mat-like are left out, not the look-alikes
        raw = np.maximum(probs["mat"][keep], 1e-9)
        cost = np.hstack([-np.log(raw[:, numbers]), np.repeat(-np.log(raw[:, [none]]), beyond, axis=1)])
    rows, cols = linear_sum_assignment(cost)
    piles = []
    left_out = 0
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        if c >= len(numbers):
            left_out += 1
            continue
        i, mat = keep[r], int(labels[numbers[c]])
        alone = int(labels[numbers[int(np.argmax(p[r]))]])
        if alone != mat and p[r, c] < UNLIKELY_NUMBER:
            # a region that looks like a mat another region is more surely, and like no other: the
            # table or a hand in a mat's colours (or a mat seen twice), left out rather than numbered
            flags.append(f"A region read as mat {alone} left out: another is more surely mat {alone}")
            continue
        cards = deck_probs(model, probs["value"][i], probs["color"][i])
        piles.append(PileReading(mat, float(p[r, c]), reading_of(cards), spots[i], edges[i], tuple(cards)))
        if alone != mat:
            flags.append(f"Mat {mat}: read as mat {alone} too, which another mat is more surely")
        if allowed is not None:
            flags += _named_elsewhere(model, probs["mat"][i], mat, allowed)
    if left_out:
        flags.append(
            f"{len(keep)} regions read as mats, more than the {len(numbers)} mats in play: "
            f"{left_out} left out, check that each mat read is the right one"
        )
    elif len(keep) > len(rows):
        flags.append(f"{len(keep)} mats found, more than the six of the game: some are not mats")
    if piles:
        # the deck: no card more often than it has it; and a round ends on exactly one Beach. Where
        # more than one read as a Beach, the likelier keeps it; a Beach is made of a pile read as
        # another card only where the players named their mats (else a pile read where there is no
        # mat, a hand or junk, is often read as a Beach: on the dev photos choosing among all the
        # piles read turned 2 right piles wrong and no round right). Either way flagged
        ruled = deck_rules(np.array([q.deck for q in piles]), one_beach=allowed is not None)
        for j, (pile, k) in enumerate(zip(list(piles), ruled, strict=True)):
            if DECK_CARDS[k] != pile.top.card:
                deck_p = np.array(pile.deck)
                if (DECK_CARDS[k].value == BEACH) != (pile.top.card.value == BEACH):
                    # the rule says whether it is a Beach: the pile's card given that (a prior for
                    # the look round an unsure pile, ``look_round_piles``)
                    alike = np.array(
                        [(c.value == BEACH) == (DECK_CARDS[k].value == BEACH) for c in DECK_CARDS]
                    )
                    deck_p = np.where(alike, deck_p, 0.0) / max(float(deck_p[alike].sum()), 1e-12)
                piles[j] = replace(pile, top=reading_of(deck_p, k), deck=tuple(deck_p))
                flags.append(
                    f"Mat {pile.mat}: top card taken as {words(DECK_CARDS[k])}, not {words(pile.top.card)} "
                    "as read: a round ends on exactly one Beach, and the deck has 3 of each card"
                )
    for pile in sorted(piles, key=lambda q: q.mat):
        mat = pile.mat
        if pile.mat_confidence < SURE_MAT:
            flags.append(f"Mat {mat}: is this mat {mat}? ({pile.mat_confidence:.0%})")
        if pile.top.confidence < SURE_CARD:
            flags.append(
                f"Mat {mat}: top card read as {words(pile.top.card)} ({pile.top.confidence:.0%}), "
                f"perhaps {words(pile.top.second)} ({pile.top.second_confidence:.0%})"
            )
        if pile.at_edge:
            flags.append(f"Mat {mat} reaches the photo's edge: check that no other mat is cut off")
    return sorted(piles, key=lambda q: q.mat), flags


def _named_elsewhere(model: OnnxModel, p: np.ndarray, mat: int, allowed: frozenset[int]) -> list[str]:
    """A flag when a mat numbered among the mats in play reads, among all six, surely as one nobody
    named: a look-alike colour, or a name given to the wrong mat number."""
    labels = model.heads["mat"]
    numbers = [j for j in range(len(labels)) if labels[j] != "none"]
    q = p[numbers] / max(float(p[numbers].sum()), 1e-12)
    best = int(labels[numbers[int(np.argmax(q))]])
    if best in allowed or float(q.max()) < NAMED_ELSEWHERE:
        return []
    return [f"Mat {mat}: reads as mat {best} ({float(q.max()):.0%}), which no player named"]

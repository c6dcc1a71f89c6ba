"""Second looks at the piles read: each pile's top card read again where its first reading may be
off. The pile's spot is a region's rectangle, which a slant, a hand of cards or the central pile
moves, turns and sizes off the mat, and the card model then reads a card unsure, or surely as a
near look-alike (a 3 as a 4). Every reading these looks take is flagged ("check").

- ``smaller_look``: every pile read again as a mat 0.75 its size (a mat seen at a slant along its
  length, or whose region a hand joins, is read at the mats' common size: too small in the crop);
- ``look_round_piles``: a pile whose top card reads unsure read again at spots round its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from scoring.snorkeling import BEACH, Card
from vision.onnx_model import OnnxModel
from vision.photo_io import Photo
from vision.snorkeling.candidates import edge_axis
from vision.snorkeling.card_readings import DECK_CARDS, deck_probs, reading_of, words
from vision.snorkeling.closer_look import AXIS_RADIUS, cross_shifts, spots_round
from vision.snorkeling.crops import card_crops, half_turn_average

if TYPE_CHECKING:  # the reader's result type; the reader imports this module
    from vision.snorkeling.reader import PileReading

# each pile is read again as a mat this much smaller than its spot: a mat seen at a slant along its
# length, or whose region a hand of cards joins, is read at the mats' common size, so the crop shows
# it smaller than the card model learnt it and a 3 can read surely as a 4 (fresh seed 9664: 2 of 300
# rounds wrong and unflagged so). A reading of another card at least SMALLER_SURE likely is flagged,
# and taken where it is the surer of the two. On the dev photos (seeds 9642, 9644: 400 piles read
# right) 3 right piles read otherwise at 0.75, 57 at 0.6; on seeds 9643 (150) and 9644 (100, stress)
# the right piles that read otherwise did at 51-97% (5 of 9 under 60%; the two at 90% or more read
# surer still at the mats' size), and the 2 wrong piles that read otherwise surely (84% and 94% at
# the mats' size, 97% and 99% smaller) read right so: 9644 rounds scored exactly 90 -> 92%, none wrong
# and unflagged (1 without the look)
SMALLER_LOOK = 0.75
SMALLER_SURE = 0.9
# a pile whose top card reads unsure is read again round its spot (``look_round_piles``): on dev
# stress seeds 9644 + 9645 (400 photos) rounds scored exactly 380 -> 383, everyday 9643 146 -> 146
ROUND_SIZES = (0.65, 0.8, 1.0, 1.2)  # of the pile's spot's long side
ROUND_SHIFTS = cross_shifts(0.1)  # (along, across), in the spot's long sides
ROUND_AXIS_OFF = 5.0  # degrees: the edges' axis read too where it lies this far off the spot's
ROUND_MAT = 0.9  # a spot round the pile must read as a mat this surely
ROUND_SURE = 0.9  # and its top card this surely to be taken
ROUND_PRIOR = 0.05  # a card read there is taken only where the pile's own spot read it this likely


def second_beach(piles: list[PileReading], pile: PileReading, card: Card) -> bool:
    """Whether ``card`` on ``pile`` would be a second Beach among ``piles``: a round ends the moment
    one lands, so a second look never takes one where another pile shows a Beach (fresh seed 9675:
    a 4 read surely as a 4 at the mats' size, taken as a Beach as a smaller mat beside the round's
    Beach)."""
    return card.value == BEACH and any(q.top.card.value == BEACH for q in piles if q.mat != pile.mat)


def smaller_look(
    model: OnnxModel, photo: Photo, piles: list[PileReading], mat_long: float
) -> tuple[list[PileReading], list[str]]:
    """Each pile read again as a smaller mat (``SMALLER_LOOK``): a flag for each whose top card then
    reads as another card; where that reading is the surer, it is taken."""
    spots = [replace(p.spot, long=p.spot.long * SMALLER_LOOK) for p in piles]
    probs = half_turn_average(model.run, card_crops(photo, spots, model, mat_long))
    flags, out = [], []
    for pile, value, color in zip(piles, probs["value"], probs["color"], strict=True):
        cards = deck_probs(model, value, color)
        other = reading_of(cards)
        if other.card != pile.top.card and other.confidence >= SMALLER_SURE:
            if other.confidence > pile.top.confidence and not second_beach(
                [*out, *piles[len(out) :]], pile, other.card
            ):
                flags.append(
                    f"Mat {pile.mat}: top card taken as {words(other.card)} ({other.confidence:.0%}) as a "
                    f"smaller mat (one seen at a slant), read as {words(pile.top.card)} "
                    f"({pile.top.confidence:.0%}) at the mats' size: check it"
                )
                pile = replace(pile, top=other, deck=tuple(cards))
            else:
                flags.append(
                    f"Mat {pile.mat}: top card read as {words(pile.top.card)}, but as {words(other.card)} "
                    f"({other.confidence:.0%}) taken as a smaller mat (one seen at a slant): check it"
                )
        out.append(pile)
    return out, flags


def look_round_piles(
    model: OnnxModel,
    photo: Photo,
    piles: list[PileReading],
    flags: list[str],
    mat_long: float,
    unsure_below: float,
) -> tuple[list[PileReading], list[str]]:
    """Each pile whose top card reads unsure (under ``unsure_below``) read again at spots round its
    own (``ROUND_SIZES`` x ``ROUND_SHIFTS``, on its axis and on the axis of the straight edges round
    it, ``candidates.edge_axis``). Where a spot that reads surely as a mat (``ROUND_MAT``) reads
    surely (``ROUND_SURE``) a card the pile's own spot gave some chance (``ROUND_PRIOR``), the
    surest is taken, and the pile's flag says so: a sure reading round a pile is no proof (dev
    stress seeds 9644 + 9645: 6 of 31 such were wrong), so the round stays "check".
    ``flags``: those raised so far, the unsure pile's own replaced."""
    unsure = [j for j, p in enumerate(piles) if p.top.confidence < unsure_below]
    if not unsure:
        return piles, flags
    grid = []
    for j in unsure:
        s = piles[j].spot
        axis = edge_axis(photo.image, s.x, s.y, AXIS_RADIUS * mat_long)
        on_edges = [
            a for a in (axis, axis + 90.0) if abs((a - s.angle + 90.0) % 180.0 - 90.0) > ROUND_AXIS_OFF
        ]
        grid += [
            (j, g) for g in spots_round(s.x, s.y, s.long, [s.angle, *on_edges], ROUND_SIZES, ROUND_SHIFTS)
        ]
    got = half_turn_average(model.run, card_crops(photo, [g for _, g in grid], model, mat_long))
    none = model.heads["mat"].index("none")
    out, flags = list(piles), list(flags)
    for j in unsure:
        pile = piles[j]
        decks = [
            deck_probs(model, got["value"][k], got["color"][k])
            for k, (r, _) in enumerate(grid)
            if r == j and 1.0 - got["mat"][k, none] >= ROUND_MAT
        ]
        readings = [(reading_of(d), d) for d in decks]
        # only a card the pile's own spot gave some chance: a spot moved off it can take in the
        # Lanternfish lying in front of its diver, or a neighbour's pile
        readings = [(c, d) for c, d in readings if pile.deck[DECK_CARDS.index(c.card)] >= ROUND_PRIOR]
        readings = [(c, d) for c, d in readings if not second_beach(out, pile, c.card)]
        if not readings:
            continue
        best, deck = max(readings, key=lambda t: t[0].confidence)
        if best.confidence < ROUND_SURE:
            continue
        own = f"Mat {pile.mat}: top card read as "
        flags = [f for f in flags if not f.startswith(own)]
        flags.append(
            f"Mat {pile.mat}: top card taken as {words(best.card)} ({best.confidence:.0%}) at a spot round "
            f"the mat, read as {words(pile.top.card)} ({pile.top.confidence:.0%}) where it was found: check it"
        )
        out[j] = replace(pile, top=best, deck=tuple(deck))
    return out, flags

"""The deck's cards as the card model reads them: each card's probability from the value and colour
heads (``deck_probs``), the likeliest card and the next (``reading_of``), and a card in words for
the flags (``words``). Shared by the reader and its second looks at the piles (``pile_looks``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.snorkeling import COLORS, LANTERNFISH_CARD, VALUES, Card
from vision.onnx_model import OnnxModel

DECK_CARDS = tuple(Card(v, c) for v in VALUES for c in COLORS) + (LANTERNFISH_CARD,)


@dataclass(frozen=True)
class CardReading:
    card: Card
    confidence: float
    second: Card
    second_confidence: float


def deck_probs(model: OnnxModel, value: np.ndarray, color: np.ndarray) -> np.ndarray:
    """The probability of each card of the deck (``DECK_CARDS``): value and colour read apart,
    multiplied, renormalised."""
    values, colors = model.heads["value"], model.heads["color"]
    p = np.array(
        [value[values.index(str(c.value))] * color[colors.index(c.color or "none")] for c in DECK_CARDS]
    )
    return p / max(float(p.sum()), 1e-12)


def reading_of(p: np.ndarray, card: int | None = None) -> CardReading:
    """The card ``card`` of the deck (the likeliest where none is given) and the likeliest other
    (``p``: each card's probability, as ``deck_probs`` gives them)."""
    order = [int(k) for k in np.argsort(p)[::-1]]
    first = order[0] if card is None else card
    second = next(k for k in order if k != first)
    return CardReading(DECK_CARDS[first], float(p[first]), DECK_CARDS[second], float(p[second]))


def likeliest_card(model: OnnxModel, value: np.ndarray, color: np.ndarray) -> CardReading:
    """The likeliest card of the deck (value and colour read apart, multiplied, renormalised)."""
    return reading_of(deck_probs(model, value, color))


def words(card: Card) -> str:
    return "the Lanternfish" if card.is_lanternfish else f"a {card.value} {card.color} ({card.name})"

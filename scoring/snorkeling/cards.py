"""Snorkeling cards: values, colours, our edition's deck, and the JSON checks every Snorkeling file shares.

A card is a value 0 (Beach) to 4 (Ray) in one of the colours, or the Lanternfish (value 5, no colour:
it never leaves its diver's pile). Boards write a card as ``{"value": 3, "color": "red"}``; play
sequences, where many cards are listed, as the text ``"3-red"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys

GAME = "snorkeling"
FORMAT = 1
BEACH, RAY, LANTERNFISH = 0, 4, 5
VALUES: tuple[int, ...] = (0, 1, 2, 3, 4)  # the values of the deck's coloured cards
# What each value shows (our edition's pictures; the rulebook names the Beach, Ray and Lanternfish).
NAMES: dict[int, str] = {0: "beach", 1: "coral", 2: "seahorse", 3: "turtle", 4: "ray", 5: "lanternfish"}
# The rulebook gives no counts; our edition: 5 colours x 5 values x 3 copies = 75 cards, which deals
# 6 hands of 5 and the centre card with 44 left to draw, plus one Lanternfish per diver.
COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
COPIES = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MATS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
HAND_SIZE = 5
DEFAULT_TARGET = 12  # the English summary; the Portuguese one plays to 6 (the short game)


def is_int(value: object) -> bool:
    """A JSON integer; bools are ints to Python but never values."""
    return type(value) is int


def or_list(items: object) -> str:
    words = [str(i) for i in items]  # type: ignore[attr-defined]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@dataclass(frozen=True, order=True)
class Card:
    """A printed card: ``value`` 0-4 with a ``color``, or the Lanternfish (5, colour None)."""

    value: int
    color: str | None = None

    def __post_init__(self) -> None:
        if not is_int(self.value) or not BEACH <= self.value <= LANTERNFISH:
            raise BoardFormatError(f"a card's value is 0 to 5, got {shown(self.value)}")
        if self.value == LANTERNFISH:
            if self.color is not None:
                raise BoardFormatError(f"the Lanternfish (5) has no colour, got {shown(self.color)}")
        elif self.color not in COLORS:
            raise BoardFormatError(
                f"a card of value {self.value} needs a colour ({or_list(COLORS)}), got {shown(self.color)}"
            )

    @property
    def name(self) -> str:
        return NAMES[self.value]

    @property
    def is_lanternfish(self) -> bool:
        return self.value == LANTERNFISH

    def text(self) -> str:
        """``3-red``; the Lanternfish is ``5``."""
        return str(self.value) if self.color is None else f"{self.value}-{self.color}"

    def __str__(self) -> str:
        return self.text()


LANTERNFISH_CARD = Card(LANTERNFISH)


def card_from_text(text: object) -> Card:
    """``"3-red"`` -> Card(3, "red"); ``"5"`` -> the Lanternfish."""
    if not isinstance(text, str):
        raise BoardFormatError(f"a card is written like '3-red', got {shown(text)}")
    value, _, color = text.partition("-")
    if not value.isdigit() or len(value) != 1:
        raise BoardFormatError(f"a card is written like '3-red' (value-colour), got {shown(text)}")
    return Card(int(value), color or None)


def card_from_json(data: object, where: str) -> Card:
    """``{"value": 3, "color": "red"}`` (the Lanternfish: ``{"value": 5}``)."""
    check_keys(data, where, ("value",), ("color",))
    assert isinstance(data, Mapping)
    try:
        return Card(data["value"], data.get("color"))
    except BoardFormatError as error:
        raise BoardFormatError(f"{where}: {error}") from None


def card_to_json(card: Card) -> dict[str, object]:
    return {"value": card.value} if card.color is None else {"value": card.value, "color": card.color}


def deck() -> Counter[Card]:
    """Our edition's coloured cards (the draw deck before the deal), as copies per card."""
    return Counter({Card(v, c): COPIES for c in COLORS for v in VALUES})


def one_higher(card: Card, top: Card) -> bool:
    """Whether ``card`` is exactly one higher than ``top``; a Beach (0) follows a Ray (4)."""
    return card.value == (top.value + 1 if top.value < RAY else BEACH if top.value == RAY else -1)


def check_header(data: object, what: str) -> None:
    """Check ``format`` and ``game`` first, so another game's file is named as such."""
    if not isinstance(data, Mapping):
        raise BoardFormatError(f"a Snorkeling {what} must be a JSON object, got {type(data).__name__}")
    if not is_int(data.get("format")) or data.get("format") != FORMAT:
        raise BoardFormatError(f'"format" must be {FORMAT}, got {shown(data.get("format"))}')
    if data.get("game") != GAME:
        raise BoardFormatError(f'"game" is {shown(data.get("game"))}, not "{GAME}"')


def check_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BoardFormatError(f"{where}: a player's name is a non-empty text, got {shown(name)}")
    return name


def check_target(target: object) -> int:
    if not is_int(target) or not 1 <= target <= 1000:
        raise BoardFormatError(
            f"target must be a whole number of points, 1 to 1000 (12, or 6), got {shown(target)}"
        )
    return target  # type: ignore[return-value]

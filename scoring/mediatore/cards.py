"""The Italian 40-card deck of Mediatore: card ids, trick ranking and card points in thirds.

A card is written ``RANK-SUIT`` (``1-coppe``, ``re-spade``): ranks ``1..7, fante, cavallo, re``,
suits ``coppe denari spade bastoni``. Points are kept as whole thirds of a point, so that sums are
exact and only the end of a round floors them (shared/rules/mediatore.txt, "Card Ranking and Values").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.errors import BoardFormatError, shown

SUITS: tuple[str, ...] = ("coppe", "denari", "spade", "bastoni")
RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")
# Trick order, high to low: 3, 2, 1, Re, Cavallo, Fante, 7, 6, 5, 4 (there is no trump suit).
TRICK_ORDER: tuple[str, ...] = ("3", "2", "1", "re", "cavallo", "fante", "7", "6", "5", "4")
# Ace 1 point, 3 2 Re Cavallo Fante 1/3 each, 7 6 5 4 nothing: in thirds.
RANK_THIRDS: dict[str, int] = {"1": 3, "3": 1, "2": 1, "re": 1, "cavallo": 1, "fante": 1}
LAST_TRICK_THIRDS = 3  # the last trick is worth 1 point
ROUND_THIRDS = 35  # 10 2/3 in the cards + 1 for the last trick = 11 2/3
WINNING_POINTS = 6  # full points a side needs to win the round
DECK_SIZE = 40
HAND_SIZE = 9
MONTE_SIZE = 4


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise BoardFormatError(f"no such card {shown(f'{self.rank}-{self.suit}')}")

    @property
    def id(self) -> str:
        return f"{self.rank}-{self.suit}"

    @property
    def thirds(self) -> int:
        return RANK_THIRDS.get(self.rank, 0)

    @property
    def strength(self) -> int:
        """Higher wins a trick among cards of the suit led."""
        return len(TRICK_ORDER) - TRICK_ORDER.index(self.rank)

    def __str__(self) -> str:
        return self.id


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
_BY_ID: dict[str, Card] = {card.id: card for card in DECK}
# What a person may type besides the ids: any case, and the corner indices of the kit's cards
# (F, C, R) or A / asso for the ace.
_RANK_ALIASES: dict[str, str] = {"f": "fante", "c": "cavallo", "r": "re", "asso": "1", "a": "1"}


def card(text: object) -> Card:
    """The card a ``RANK-SUIT`` id names (case-insensitive; ``F``, ``C``, ``R``, ``A`` for the ranks)."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise BoardFormatError(f"a card is a RANK-SUIT string such as '3-denari', got {shown(text)}")
    found = _BY_ID.get(text)
    if found is not None:
        return found
    rank, _, suit = text.strip().lower().partition("-")
    found = _BY_ID.get(f"{_RANK_ALIASES.get(rank, rank)}-{suit}")
    if found is None:
        raise BoardFormatError(
            f"no such card {shown(text)} (cards are RANK-SUIT: ranks 1-7, fante, cavallo, re; "
            "suits coppe, denari, spade, bastoni)"
        )
    return found


def cards(items: object, where: str) -> tuple[Card, ...]:
    """A list of card ids as distinct cards; a duplicate or a non-list is named with ``where``."""
    if isinstance(items, str | Mapping) or not isinstance(items, Iterable):
        raise BoardFormatError(f"{where} must be a list of cards such as '3-denari', got {shown(items)}")
    items = list(items)
    if len(items) > DECK_SIZE:
        raise BoardFormatError(f"{where} lists {len(items):,} cards; the deck has {DECK_SIZE}")
    out: list[Card] = []
    seen: set[Card] = set()
    for item in items:
        one = card(item)
        if one in seen:
            raise BoardFormatError(f"{where}: {one} is listed twice")
        seen.add(one)
        out.append(one)
    return tuple(out)


def thirds_of(pile: Iterable[Card]) -> int:
    """The card points of a pile, in thirds."""
    return sum(c.thirds for c in pile)


def thirds_text(thirds: int) -> str:
    """17 -> '5 2/3', 18 -> '6', 1 -> '1/3': thirds as a player says them."""
    whole, rest = divmod(thirds, 3)
    if not rest:
        return str(whole)
    return f"{whole} {rest}/3" if whole else f"{rest}/3"


def rest_of_deck(pile: Iterable[Card]) -> tuple[Card, ...]:
    taken = set(pile)
    return tuple(c for c in DECK if c not in taken)

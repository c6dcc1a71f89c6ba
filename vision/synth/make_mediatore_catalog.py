"""Writes vision/catalogs/mediatore.json: the 40 cards of scorecam's own Italian deck.

Run ``python -m vision.synth.make_mediatore_catalog``; the file depends on nothing but the deck and
the art's corner layout, so re-running it rewrites the same file. Each card's front names its rank,
suit, corner index and points (in thirds, as the engine counts them); every back is the same. The
top level records where the corner index and suit symbol lie on a card (mm from its top-left
corner, upright; the same box turned half round lies at the bottom right), which a reader crops.
"""

from __future__ import annotations

import json
from pathlib import Path

from scoring.mediatore import DECK
from vision.synth.mediatore_art import CARD_MM, CORNER_MM, INDEX, INDEX_AT, INDEX_MM, SYMBOL_AT, SYMBOL_MM

CATALOG_PATH = Path(__file__).resolve().parents[1] / "catalogs" / "mediatore.json"


def catalog() -> dict:
    return {
        "format": 1,
        "game": "mediatore",
        "card_mm": list(CARD_MM),
        "corner_mm": {
            "box": [0.0, 0.0, *CORNER_MM],
            "index_centre": list(INDEX_AT),
            "index_height": INDEX_MM,
            "suit_centre": list(SYMBOL_AT),
            "suit_height": SYMBOL_MM,
        },
        "components": [
            {
                "id": card.id,
                "faces": {
                    "front": {
                        "kind": "card",
                        "rank": card.rank,
                        "suit": card.suit,
                        "index": INDEX[card.rank],
                        "thirds": card.thirds,
                    },
                    "back": {"kind": "back"},
                },
            }
            for card in DECK
        ],
    }


def main() -> None:
    CATALOG_PATH.write_text(json.dumps(catalog(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {CATALOG_PATH}")


if __name__ == "__main__":
    main()

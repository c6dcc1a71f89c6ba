"""Write the catalog of scorecam's print-and-play Snorkeling edition: 81 cards and 6 diver mats.

Run ``python -m vision.synth.make_snorkeling_catalog`` to rewrite ``vision/catalogs/snorkeling.json``.
The content follows the engine's deck (scoring.snorkeling: 5 colours x values 0-4 x 3 copies, one
Lanternfish per diver), so the reader, the simulator and the rules agree on what a card can be.

Colours are the Okabe-Ito palette (told apart with every common colour-vision deficiency), and each
colour has its own pattern on the card's frame and its own corner symbol as well, so a card's colour
can be told without seeing hue at all.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from scoring.snorkeling import COLORS, COPIES, MATS, NAMES, VALUES, Card, deck

CATALOG_PATH = Path(__file__).resolve().parents[1] / "catalogs" / "snorkeling.json"
CARD_MM = (59, 86)  # nine to an A4 sheet within its margins and gutters
MAT_MM = (90, 125)  # a card with its pile fits on the mat, the mat's number stays in sight above it

# Card colours: Okabe-Ito hex, the frame's pattern, and the corner symbol.
CARD_COLORS: dict[str, dict[str, str]] = {
    "red": {"hex": "#D55E00", "pattern": "stripes", "symbol": "triangle"},
    "yellow": {"hex": "#F0E442", "pattern": "dots", "symbol": "circle"},
    "green": {"hex": "#009E73", "pattern": "waves", "symbol": "square"},
    "blue": {"hex": "#0072B2", "pattern": "checks", "symbol": "diamond"},
    "purple": {"hex": "#CC79A7", "pattern": "zigzag", "symbol": "star"},
}
LANTERNFISH_LOOK = {"hex": "#1B2A49", "pattern": "sparks", "symbol": "lantern"}
# Diver mats: each its own colour (Okabe-Ito again) and pattern; the number is what identifies a mat.
MAT_COLORS: dict[int, dict[str, str]] = {
    1: {"name": "orange", "hex": "#E69F00", "pattern": "stripes"},
    2: {"name": "sky", "hex": "#56B4E9", "pattern": "dots"},
    3: {"name": "green", "hex": "#009E73", "pattern": "waves"},
    4: {"name": "yellow", "hex": "#F0E442", "pattern": "checks"},
    5: {"name": "blue", "hex": "#0072B2", "pattern": "zigzag"},
    6: {"name": "purple", "hex": "#CC79A7", "pattern": "sparks"},
}
CARD_BACK = {"kind": "card-back"}


def card_component(card: Card, copy: int) -> dict:
    look = CARD_COLORS[card.color] if card.color else LANTERNFISH_LOOK
    front = {
        "kind": "card",
        "value": card.value,
        "color": card.color,
        "animal": NAMES[card.value],
        "pattern": look["pattern"],
        "symbol": look["symbol"],
    }
    ident = f"{card.color}-{card.value}-{copy}" if card.color else f"lanternfish-{copy}"
    return {
        "id": ident,
        "kind": "card",
        "mm": list(CARD_MM),
        "faces": {"front": front, "back": dict(CARD_BACK)},
    }


def mat_component(mat: int) -> dict:
    look = MAT_COLORS[mat]
    front = {"kind": "mat", "mat": mat, "color": look["name"], "pattern": look["pattern"]}
    back = {"kind": "mat-back", "mat": mat, "color": look["name"], "pattern": look["pattern"]}
    return {"id": f"mat-{mat}", "kind": "mat", "mm": list(MAT_MM), "faces": {"front": front, "back": back}}


def build_catalog() -> dict:
    cards = [card_component(Card(v, c), n) for c in COLORS for v in VALUES for n in range(1, COPIES + 1)]
    cards += [card_component(Card(5), n) for n in MATS]
    return {
        "format": 1,
        "game": "snorkeling",
        "card_mm": list(CARD_MM),
        "mat_mm": list(MAT_MM),
        "colors": {
            name: {"hex": look["hex"], "pattern": look["pattern"], "symbol": look["symbol"]}
            for name, look in CARD_COLORS.items()
        },
        "lanternfish": dict(LANTERNFISH_LOOK),
        "mats": {str(m): dict(look) for m, look in MAT_COLORS.items()},
        "components": cards + [mat_component(m) for m in MATS],
    }


def check_catalog(catalog: dict) -> None:
    """Raise ValueError when the catalog and the engine's deck disagree."""
    fronts = [c["faces"]["front"] for c in catalog["components"] if c["kind"] == "card"]
    counts = Counter(Card(f["value"], f["color"]) for f in fronts if f["value"] != 5)
    if counts != deck():
        raise ValueError("the catalog's coloured cards are not the engine's deck")
    if sum(f["value"] == 5 for f in fronts) != len(MATS):
        raise ValueError("one Lanternfish per diver")
    mats = sorted(c["faces"]["front"]["mat"] for c in catalog["components"] if c["kind"] == "mat")
    if mats != list(MATS):
        raise ValueError(f"mats must be numbered {list(MATS)}")
    for table in (catalog["colors"], catalog["mats"]):
        for key in ("hex", "pattern"):
            values = [look[key] for look in table.values()]
            if len(set(values)) != len(values):
                raise ValueError(f"each colour needs its own {key}")
    ids = [c["id"] for c in catalog["components"]]
    if len(set(ids)) != len(ids):
        raise ValueError("component ids must be unique")


def catalog_text(catalog: dict) -> str:
    """JSON with one line per component, so that a diff of the catalog reads card by card."""
    header = {k: v for k, v in catalog.items() if k != "components"}
    head = json.dumps(header, ensure_ascii=False)[:-1]
    lines = [f"  {json.dumps(c, ensure_ascii=False)}" for c in catalog["components"]]
    return head + ', "components": [\n' + ",\n".join(lines) + "\n]}\n"


def main() -> None:
    catalog = build_catalog()
    check_catalog(catalog)
    text = catalog_text(catalog)
    assert json.loads(text) == catalog
    CATALOG_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {CATALOG_PATH} ({len(catalog['components'])} components)")


if __name__ == "__main__":
    main()

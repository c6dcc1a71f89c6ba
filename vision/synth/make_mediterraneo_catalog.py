"""Write the catalog of scorecam's print-and-play Mediterráneo edition: 18 double-sided cards.

Run ``python -m vision.synth.make_mediterraneo_catalog`` to rewrite ``vision/catalogs/mediterraneo.json``.
The content is fixed data below (no randomness), checked before it is written, so the output is
the same on every run.

Both sets have the same cards (rulebook: "Both sets have the same cards"); only the frame differs.
Per set: 9 sea sides of 2 x 3 cells (54 cells: 6 octopuses + 8 of each of the six species),
8 objective backs and 1 seagull back.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

CATALOG_PATH = Path(__file__).resolve().parents[1] / "catalogs" / "mediterraneo.json"
SPECIES: tuple[str, ...] = ("fish", "ray", "turtle", "starfish", "jellyfish", "crab")
SETS: dict[str, str] = {"circle": "C", "square": "S"}

# Sea sides, rows top to bottom, card upright; "octopus:X" points in card coordinates.
# Cards 1-6 carry one octopus each and leave out a different species (so every species ends up
# 8 times); cards 7-9 show all six species. Three octopuses point inside their card (they
# camouflage as a neighbour on the same card), three point off it (they need another card).
SEA_SIDES: tuple[tuple[tuple[str, str], ...], ...] = (
    (("fish", "octopus:E"), ("ray", "turtle"), ("starfish", "jellyfish")),  # off-card E; no crab
    (("crab", "starfish"), ("octopus:E", "fish"), ("jellyfish", "turtle")),  # touches fish; no ray
    (("turtle", "jellyfish"), ("crab", "starfish"), ("ray", "octopus:N")),  # touches starfish; no fish
    (("octopus:N", "crab"), ("jellyfish", "fish"), ("turtle", "ray")),  # off-card N; no starfish
    (("jellyfish", "ray"), ("crab", "octopus:W"), ("fish", "starfish")),  # touches crab; no turtle
    (("ray", "fish"), ("turtle", "starfish"), ("octopus:S", "crab")),  # off-card S; no jellyfish
    (("starfish", "turtle"), ("crab", "ray"), ("fish", "jellyfish")),
    (("jellyfish", "crab"), ("fish", "starfish"), ("ray", "turtle")),
    (("crab", "fish"), ("ray", "jellyfish"), ("turtle", "starfish")),
)

# Objective backs of cards 1-8 (card 9 has the seagulls): three mirrored pairs, so the second
# player always has a legal answer to them, and every species is "plus" at least once.
OBJECTIVES: tuple[tuple[str, str], ...] = (
    ("ray", "fish"),
    ("fish", "ray"),
    ("turtle", "crab"),
    ("crab", "turtle"),
    ("starfish", "jellyfish"),
    ("jellyfish", "starfish"),
    ("turtle", "ray"),
    ("crab", "jellyfish"),
)

SEAGULL_CELLS: list[list[str]] = [["seagull", "seagull"] for _ in range(3)]


def card_faces(index: int) -> dict:
    """Both faces of card ``index`` (0-8), the same in either set."""
    front = {"kind": "sea", "cells": [list(row) for row in SEA_SIDES[index]]}
    if index < len(OBJECTIVES):
        plus, minus = OBJECTIVES[index]
        back = {"kind": "objective", "plus": plus, "minus": minus}
    else:
        back = {"kind": "seagull", "cells": [list(row) for row in SEAGULL_CELLS]}
    return {"front": front, "back": back}


def build_catalog() -> dict:
    """The catalog as a JSON-ready dict: the circle set C1-C9, then the square set S1-S9."""
    components = [
        {"id": f"{prefix}{i + 1}", "set": set_name, "faces": card_faces(i)}
        for set_name, prefix in SETS.items()
        for i in range(len(SEA_SIDES))
    ]
    return {
        "format": 1,
        "game": "mediterraneo",
        "card_mm": [60, 90],
        "cells": [2, 3],
        "components": components,
    }


def check_catalog(catalog: dict) -> None:
    """Raise ValueError when the catalog breaks the edition's balance rules."""
    for set_name in SETS:
        cards = [c for c in catalog["components"] if c["set"] == set_name]
        seas = [cell for c in cards for row in c["faces"]["front"]["cells"] for cell in row]
        counts = Counter(cell.split(":")[0] for cell in seas)
        if counts["octopus"] != 6 or any(counts[s] != 8 for s in SPECIES) or len(seas) != 54:
            raise ValueError(f"{set_name}: unbalanced sea sides {dict(counts)}")
        objectives = [
            (c["faces"]["back"]["plus"], c["faces"]["back"]["minus"])
            for c in cards
            if c["faces"]["back"]["kind"] == "objective"
        ]
        if len(objectives) != 8 or any(p == m for p, m in objectives):
            raise ValueError(f"{set_name}: objectives must be 8, each with plus != minus")
        if {p for p, _ in objectives} != set(SPECIES):
            raise ValueError(f"{set_name}: every species must be plus at least once")
        if not any((m, p) in objectives for p, m in objectives):
            raise ValueError(f"{set_name}: no mirrored pair of objectives")


def catalog_text(catalog: dict) -> str:
    """JSON with one line per face, so that a diff of the catalog reads card by card."""
    header = {k: v for k, v in catalog.items() if k != "components"}
    head = json.dumps(header, ensure_ascii=False)[:-1]
    comps = []
    for c in catalog["components"]:
        faces = ",\n".join(f'    "{name}": {json.dumps(face)}' for name, face in c["faces"].items())
        comps.append(f'  {{"id": "{c["id"]}", "set": "{c["set"]}", "faces": {{\n{faces}}}}}')
    return head + ', "components": [\n' + ",\n".join(comps) + "\n]}\n"


def main() -> None:
    catalog = build_catalog()
    check_catalog(catalog)
    text = catalog_text(catalog)
    assert json.loads(text) == catalog  # the hand-made layout must stay plain JSON
    CATALOG_PATH.parent.mkdir(parents=True, exist_ok=True)
    CATALOG_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {CATALOG_PATH} ({len(catalog['components'])} cards)")


if __name__ == "__main__":
    main()

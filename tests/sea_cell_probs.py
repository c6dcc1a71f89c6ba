"""Hand-built Mediterráneo cell-model outputs for the sea decoder's tests: kit faces, the visible cells
of plays, and what a good cell model says about each of them."""

from __future__ import annotations

import numpy as np

from scoring.mediterraneo import Cell, Play, Table, card_face_from_rows
from vision.catalogs import component_by_id, load_catalog
from vision.mediterraneo.cells import HEADS

CATALOG = load_catalog("mediterraneo")
SURE_P = 0.97  # what the model gives a clear cell; the rest is spread over the other labels


def face(card_id: str, side: str = "front"):
    """A kit card's sea face (front) or seagull face (back)."""
    component = component_by_id(CATALOG, card_id)
    kind = "seagull" if side == "back" else "sea"
    return card_face_from_rows(card_id, component["set"], kind, component["faces"][side]["cells"])


def one_hot(label: str, labels: tuple[str, ...], p: float = SURE_P) -> np.ndarray:
    row = np.full(len(labels), (1 - p) / (len(labels) - 1))
    row[labels.index(label)] = p
    return row


def cell_probs(cells: list[Cell]) -> dict[str, np.ndarray]:
    """What a good cell model says about each visible cell."""
    return {
        "content": np.array([one_hot(c.content, HEADS["content"]) for c in cells]),
        "points": np.array([one_hot(c.points or "N", HEADS["points"], 0.25 if c.points is None else SURE_P) for c in cells]),
        "frame": np.array([one_hot(c.frame or "none", HEADS["frame"]) for c in cells]),
    }  # fmt: skip


def visible_cells(*plays: Play) -> list[Cell]:
    return [cell for _, (cell, _) in sorted(Table(plays).visible.items())]

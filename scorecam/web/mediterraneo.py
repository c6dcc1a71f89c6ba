"""Mediterráneo on the page: a sea read from a photo (or given as a board file), kept with what a
correction needs, scored with the objectives the players enter, and a match of rounds summed.

Reading uses `vision.mediterraneo.reader.read_sea` on the photo decoded once, which also reads the two
objective cards beside the sea: a round with no objectives yet takes them from the cards (marked as
read from the photo; a doubtful or cut-off card is a check until a player saves the objectives), and a
card not found asks the players for that objective. Objectives a player entered are kept as entered;
the cards read are shown beside them. A sea is stored as its visible cells
(DESIGN.md's sea JSON without objectives); a correction puts one cell's content (a species, an
octopus pointing N/E/S/W, a seagull, or no card) at (x, y), and the sea as corrected is scored by the
engine like any board file. Corrections reuse the store's rows: ``row`` is y and ``col`` is x.

The match (scoring.mediterraneo.match) is played from the rounds that are over: each player's
objective card is the card of their set whose objective side shows the objective entered (so a
winner's objective, whose card left the game, cannot be chosen again), and a player's seagull card
leaves once played seagull-side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import BoardFormatError
from scoring.mediterraneo import SPECIES, Cell, Objective, Sea, score_sea, sea_report_to_json
from scoring.mediterraneo.sea import cell_to_json
from scoring.sides import SIDES

SETS: tuple[str, ...] = ("circle", "square")  # the first player seated plays the circles
CONTENT_CHOICES: tuple[tuple[str, str | None], ...] = (
    *((s, None) for s in SPECIES),
    *(("octopus", side) for side in SIDES),
    ("seagull", None),
)
SIDE_NAMES = {"N": "up", "E": "right", "S": "down", "W": "left"}


@dataclass(frozen=True)
class ReadSea:
    board: dict[str, Any]  # the visible cells: {"format": 1, "game": "mediterraneo", "cells": [...]}
    reading: dict[str, Any]  # stored beside it: where each cell is on the picture, its doubt
    view: Any = None  # the picture's view of the photo (None for a board file)


# --- the kit's cards: which card an objective is, and each set's seagull card --------------------


@cache
def _catalog() -> dict[str, Any]:
    from vision.catalogs import load_catalog

    return load_catalog("mediterraneo")


def objective_card(set_name: str, objective: Objective) -> str:
    """The id of the card of ``set_name`` whose objective side shows ``objective``: the kit's card,
    or for an objective the kit does not print (another edition's) a card named after it, which
    leaves the game all the same."""
    return next(
        (
            side["card"]
            for side in set_objectives(set_name)
            if (side["plus"], side["minus"]) == (objective.plus, objective.minus)
        ),
        f"{set_name} +{objective.plus} -{objective.minus}",
    )


def seagull_card(set_name: str) -> str:
    return next(
        str(c["id"])
        for c in _catalog()["components"]
        if c["set"] == set_name and c["faces"]["back"]["kind"] == "seagull"
    )


def set_cards(set_name: str) -> list[str]:
    return [str(c["id"]) for c in _catalog()["components"] if c["set"] == set_name]


def set_objectives(set_name: str) -> list[dict[str, str]]:
    """The objective sides of a set's cards, as the page offers them."""
    out = []
    for component in _catalog()["components"]:
        back = component["faces"]["back"]
        if component["set"] == set_name and back["kind"] == "objective":
            out.append({"card": str(component["id"]), "plus": back["plus"], "minus": back["minus"]})
    return out


# --- reading a photo ----------------------------------------------------------------------------

_SECOND = re.compile(r"^(?:octopus pointing ([NESW])|([a-z]+)) (0?\.\d+|1\.0+|0|1)$")


def _second_cell(second: str, x: int, y: int, frame: str | None) -> dict[str, Any] | None | str:
    """The reader's runner-up ("ray 0.12", "octopus pointing W 0.05", "none 0.20") as a cell's JSON,
    None for no card, or "" when the words are not understood (then no runner-up is offered)."""
    m = _SECOND.match(second.strip())
    if not m:
        return ""
    side, content, _ = m.groups()
    if side:
        return {"x": x, "y": y, "content": "octopus", "points": side, **({"frame": frame} if frame else {})}
    if content == "none":
        return None
    if content == "seagull":
        return {"x": x, "y": y, "content": "seagull"}
    if content in SPECIES or content == "octopus":
        if content == "octopus":
            return ""  # an octopus without its side: the player picks the side from the list
        return {"x": x, "y": y, "content": content, **({"frame": frame} if frame else {})}
    return ""


def read_photo(path: Path) -> ReadSea:
    """Read the sea in the photo file at ``path``; InputError as the CLI says it. Decoded once."""
    import numpy as np

    from scorecam.errors import InputError
    from scorecam.photos import EXIT_FOR
    from scorecam.web.mondo import picture_view
    from vision.errors import PhotoError
    from vision.lattice import apply_h
    from vision.mediterraneo.reader import SURE, read_sea
    from vision.photo_io import read_photo as decode_file

    photo = None
    try:
        photo = decode_file(path)
        _, reading = read_sea(photo)
    except PhotoError as error:
        damage = f" ({'; '.join(photo.notes)})" if photo is not None and photo.notes else ""
        raise InputError(str(path), error.reason + damage, EXIT_FOR[error.kind]) from None
    view, view_scale = picture_view(photo)
    to_view = photo.scale / view_scale
    cells = []
    for r in reading.readings:
        quad = np.asarray(r.quad, np.float64)
        if r.cell is not None:
            x, y = r.cell.x, r.cell.y
        else:  # a lattice cell with no card: where it is on the lattice
            x, y = (int(v) for v in np.round(apply_h(reading.g, quad.mean(0)[None])[0]))
        now = cell_to_json(r.cell) if r.cell is not None else None
        frame = r.cell.frame if r.cell is not None else None
        cells.append(
            {
                "x": int(x),
                "y": int(y),
                "quad": np.round(quad * to_view, 1).tolist(),
                "cell": now,
                "confidence": round(float(r.confidence), 4),
                "doubtful": bool(r.confidence < SURE),
                "second": str(r.second),
                "second_cell": _second_cell(str(r.second), int(x), int(y), frame),
            }
        )
    sea_flags = [f for f in reading.flags if not f.startswith("Cell ")]
    cards = reading.objectives.cards if reading.objectives is not None else ()
    board = {"format": 1, "game": "mediterraneo", "cells": [cell_to_json(c) for c in reading.cells]}
    return ReadSea(
        board,
        {
            "source": "photo",
            "view": {"width": int(view.shape[1]), "height": int(view.shape[0]), "scale": view_scale},
            "cells": cells,
            "sea_flags": sea_flags,
            "objective_cards": [_card_json(c) for c in cards],
            "timing_ms": {k: round(v, 1) for k, v in reading.timing_ms.items()},
        },
        view,
    )


def _card_json(card: Any) -> dict[str, Any]:
    """An objective card read (vision.mediterraneo.objectives.ObjectiveCard) as the reading keeps it."""
    return {
        "set": card.player,  # the frame's shape: whose card it is
        "plus": card.objective.plus,
        "minus": card.objective.minus,
        "card": card.card,
        "confidence": round(float(card.confidence), 3),
        "sure": bool(card.sure),
        "cut_off": bool(card.cut_off),
        "second": str(card.second),
    }


# --- the objective cards read -------------------------------------------------------------------


def cards_read(reading: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Set name -> the objective card read for it (a set whose card was not found is missing)."""
    return {c["set"]: c for c in reading.get("objective_cards", [])}


def objectives_read(reading: dict[str, Any]) -> dict[str, Objective] | None:
    """Both sets' objectives as their cards read (doubtful ones too), or None unless both were found."""
    cards = cards_read(reading)
    if set(cards) != set(SETS):
        return None
    return {s: Objective(cards[s]["plus"], cards[s]["minus"]) for s in SETS}


def objective_words(objective: dict[str, Any]) -> str:
    return f"+2 {objective['plus']} −1 {objective['minus']}"


def objectives_view(
    reading: dict[str, Any], players: list[tuple[str, str]], entered: dict[str, dict[str, Any]] | None
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each player's objective on the sea page, and the flags it raises.

    ``players``: (name, set) in seating order; ``entered``: the round's objectives by player name
    ({"plus", "minus"}, and "from": "photo" where they were taken from this photo's cards), None
    while the round has none. A player's entry: ``objective`` (None: to choose), ``from`` ("photo",
    "entered" or None), ``card`` (the card read for their set, None: not in the photo), ``doubtful``
    (read from a card the reader is unsure of, or that the photo's edge cuts) and ``note`` (one line).
    """
    from_photo = reading.get("source") == "photo"
    cards = cards_read(reading)
    out, flags = [], []
    for name, set_name in players:
        card = cards.get(set_name)
        now = (entered or {}).get(name)
        objective = {"plus": now["plus"], "minus": now["minus"]} if now else None
        source = None if now is None else ("photo" if now.get("from") == "photo" else "entered")
        entry: dict[str, Any] = {
            "player": name,
            "set": set_name,
            "objective": objective,
            "from": source,
            "card": card,
            "doubtful": False,
            "note": "",
        }
        whose = f"{name}'s objective card ({set_name}s)"
        if card is not None:
            read = objective_words(card)
            if source == "photo" and card["cut_off"]:
                entry["doubtful"] = True
                entry["note"] = f"{whose} read as {read}, but the photo's edge cuts it: check it"
            elif source == "photo" and not card["sure"]:
                entry["doubtful"] = True
                entry["note"] = (
                    f"{whose} read as {read} ({card['confidence']:.2f}), perhaps {card['second']}: check it"
                )
            elif source == "photo":
                entry["note"] = f"read from the photo: {read} (card {card['card']})"
            elif objective is not None and (card["plus"], card["minus"]) != (
                objective["plus"],
                objective["minus"],
            ):
                entry["note"] = f"{whose} in the photo reads {read}, not the objective entered"
            elif objective is None:
                entry["note"] = f"read from the photo: {read} (card {card['card']})"
        elif from_photo and objective is None:
            entry["note"] = f"{whose} was not found in the photo: choose {name}'s objective"
        if entry["doubtful"]:
            flags.append(entry["note"])
        out.append(entry)
    return out, flags


def read_board(data: Any) -> tuple[ReadSea, dict[str, Any]]:
    """A sea given as a board file: its cells (checked as the engine checks them), and what else it
    says (``objectives``, ``first``: defaults for the round). BoardFormatError on a bad board."""
    from scoring.json_objects import check_keys
    from scoring.mediterraneo.sea import MAX_CELLS, check_header

    check_header(data, "sea")
    check_keys(data, "sea", ("format", "game", "cells"), ("objectives", "first", "hands", "next"))
    found = data["cells"]
    if not isinstance(found, list) or len(found) > MAX_CELLS:
        raise BoardFormatError(f'"cells" must be a list of at most {MAX_CELLS} cells')
    cells: dict[tuple[int, int], Cell] = {}
    for i, item in enumerate(found):
        if not isinstance(item, dict) or "x" not in item or "y" not in item:
            raise BoardFormatError(f"cell {i} must be an object with x, y and content")
        cell = _cell(item, item["x"], item["y"])
        if (cell.x, cell.y) in cells:
            raise BoardFormatError(f"two cells at ({cell.x}, {cell.y})")
        cells[(cell.x, cell.y)] = cell
    board = {"format": 1, "game": "mediterraneo", "cells": [cell_to_json(c) for c in cells.values()]}
    extra = {k: data[k] for k in ("objectives", "first") if k in data}
    return ReadSea(board, {"source": "board", "cells": [], "sea_flags": []}), extra


# --- the sea as corrected -----------------------------------------------------------------------


def corrected_cells(
    board: dict[str, Any], corrections: list[tuple[int, int, dict | None]]
) -> tuple[Cell, ...]:
    """The cells read, with each (x, y, cell JSON or None) put in in order (BoardFormatError)."""
    cells = {(c["x"], c["y"]): _cell(c, c["x"], c["y"]) for c in board["cells"]}
    for x, y, data in corrections:
        cells = put_cell(cells, x, y, data)
    return tuple(cells[key] for key in sorted(cells, key=lambda k: (k[1], k[0])))


def put_cell(cells: dict[tuple[int, int], Cell], x: int, y: int, data: Any) -> dict[tuple[int, int], Cell]:
    out = {k: v for k, v in cells.items() if k != (x, y)}
    if data is not None:
        out[(x, y)] = _cell(data, x, y)
    return out


def _cell(data: Any, x: int, y: int) -> Cell:
    if not isinstance(data, dict):
        raise BoardFormatError("a cell must be a JSON object (or null for no card)")
    unknown = set(data) - {"x", "y", "content", "points", "frame"}
    if unknown:
        raise BoardFormatError(f"a cell has no key {sorted(unknown)[0]!r}")
    return Cell(x, y, data.get("content"), data.get("points"), data.get("frame"))


def cell_words(cell: Cell | None) -> str:
    if cell is None:
        return "no card"
    if cell.content == "octopus":
        return f"an octopus pointing {SIDE_NAMES.get(cell.points or '', cell.points)}"
    return f"a {cell.content}"


def sea_of(cells: tuple[Cell, ...], objectives: dict[str, Objective], first: str, cards_out: bool) -> Sea:
    """The sea to score; ``cards_out``: the next player had no cards left (the round ends)."""
    second = next(p for p in objectives if p != first)
    hands = {p: 0 for p in objectives} if cards_out else None
    return Sea(cells, objectives, first, hands, second if cards_out else None)


def report(sea: Sea) -> dict[str, Any]:
    return sea_report_to_json(score_sea(sea))


def current_checks(reading: dict[str, Any], corrected: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """The doubtful cells nobody corrected, with the reader's words."""
    out = []
    for c in reading.get("cells", []):
        if c["doubtful"] and (c["x"], c["y"]) not in corrected:
            now = cell_words(_cell(c["cell"], c["x"], c["y"]) if c["cell"] else None)
            text = f"Cell ({c['x']}, {c['y']}): read as {now} ({c['confidence']:.2f}), perhaps {c['second']}"
            out.append({"x": c["x"], "y": c["y"], "text": text})
    return out


def alternatives(
    reading: dict[str, Any], cells: tuple[Cell, ...], x: int, y: int, sea_for: Any
) -> list[dict[str, Any]]:
    """What a player may put at (x, y) instead of what is there: the reader's runner-up first, then
    every species, octopus side, the seagull and no card. Each with both players' points with it.
    ``sea_for(cells)`` is the round's sea of those cells (None where it cannot be scored yet)."""
    at = {(c.x, c.y): c for c in cells}
    now = at.get((x, y))
    frame = (now.frame if now is not None else None) or _frame_near(cells, x, y)
    options: list[dict[str, Any]] = []
    seen = {None if now is None else (now.content, now.points)}

    def offer(data: dict[str, Any] | None, why: str) -> None:
        key = None if data is None else (data["content"], data.get("points"))
        if key in seen:
            return
        seen.add(key)
        changed = put_cell(at, x, y, data)
        cell = changed.get((x, y))
        option: dict[str, Any] = {"words": cell_words(cell), "why": why, "cell": data, "points": None}
        sea = sea_for(tuple(changed[k] for k in sorted(changed, key=lambda k: (k[1], k[0]))))
        if sea is not None:
            option["points"] = {p["name"]: p["total"] for p in report(sea)["players"]}
        options.append(option)

    read = next((c for c in reading.get("cells", []) if (c["x"], c["y"]) == (x, y)), None)
    if read is not None and read.get("second_cell") != "":
        second = read["second_cell"]
        if second is not None and frame and "frame" not in second and second["content"] != "seagull":
            second = {**second, "frame": frame}  # a cell read empty: its frame from a neighbour
        offer(second, f"the reader's second reading ({read['second']})")
    if read is not None and read["cell"] != (cell_to_json(now) if now else None):
        offer(read["cell"], "as the photo was read")
    for content, side in CONTENT_CHOICES:
        data: dict[str, Any] = {"x": x, "y": y, "content": content}
        if side:
            data["points"] = side
        if frame and content != "seagull":
            data["frame"] = frame
        offer(data, "")
    offer(None, "no card shows here")
    return options


def _frame_near(cells: tuple[Cell, ...], x: int, y: int) -> str | None:
    """A frame for a cell put where none was read: the frame of a neighbour (a card is 2x3 cells)."""
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        for c in cells:
            if (c.x, c.y) == (x + dx, y + dy) and c.frame:
                return c.frame
    return None


# --- the match ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundEntry:
    """A round as the players entered it, in player names (``first``: None after round 1, where the
    rules say who chooses first)."""

    number: int
    objectives: dict[str, Objective]
    first: str | None
    seagulls: tuple[str, ...]
    cards_out: bool


def match_state(players: list[tuple[str, str]], rounds: list[RoundEntry], score: Any) -> dict[str, Any]:
    """Where a match stands. ``players``: (name, set) in seating order; ``rounds``: in order;
    ``score(entry, first)``: the round's sea report (scored with ``first`` choosing first), or None
    while the round has no sea. A round counts once it is over (won, or replayed after a tie with
    no cards left); a round whose cards cannot have been played (a card that left the game) says
    why, and the rounds after it wait."""
    from scoring.mediterraneo import (
        RoundRecord,
        first_player_next_round,
        match_report_to_json,
        record_round,
        start_match,
    )

    sets = dict(players)
    names = [name for name, _ in players]
    first = rounds[0].first if rounds and rounds[0].first in names else names[0]
    cards = {n: set_cards(sets[n]) for n in names}
    for entry in rounds:  # objectives of another edition: their cards too
        for n, objective in entry.objectives.items():
            card = objective_card(sets[n], objective)
            if card not in cards[n]:
                cards[n].append(card)
    match = start_match(names, cards, first)
    entries: list[dict[str, Any]] = []
    blocked = ""
    for entry in rounds:
        starter = entry.first if entry.number == 1 else first_player_next_round(match)
        out: dict[str, Any] = {
            "round": entry.number,
            "first": starter,
            "objectives": {
                n: {"plus": o.plus, "minus": o.minus, "card": objective_card(sets[n], o)}
                for n, o in entry.objectives.items()
            },
            "seagulls": list(entry.seagulls),
            "cards_out": entry.cards_out,
            "points": None,
            "outcome": None,
            "winner": None,
            "why": "",
            "problem": blocked,
        }
        entries.append(out)
        if blocked or starter is None:
            out["first"] = None
            out["problem"] = out["problem"] or "the match was already won"
            blocked = blocked or f"round {entry.number} cannot be played"
            continue
        sea = score(entry, starter)
        if sea is None:
            out["why"] = "no sea yet"
            blocked = f"round {entry.number} has no sea yet"
            continue
        out["points"] = {p["name"]: p["total"] for p in sea["players"]}
        out["outcome"] = sea["round_outcome"]
        out["why"] = sea["round_why"]
        out["objectives_legal"] = sea["objectives_legal"]
        out["objectives_why"] = sea["objectives_why"]
        if sea["round_outcome"] not in ("won", "replay"):
            blocked = f"round {entry.number} is not over yet"  # a later round waits for it
            continue
        out["winner"] = sea["leader"] if sea["round_outcome"] == "won" else None
        record = RoundRecord(
            sea["round_outcome"],
            out["winner"],
            tuple((n, objective_card(sets[n], o)) for n, o in entry.objectives.items()),
            tuple(seagull_card(sets[n]) for n in entry.seagulls),
        )
        try:
            match = record_round(match, record)
        except BoardFormatError as error:
            out["problem"] = str(error)
            out["winner"] = None
            blocked = f"round {entry.number} cannot be played"
    state = match_report_to_json(match)
    counted = len(match.rounds)
    over = counted == len(rounds) and not blocked
    return {
        "sets": sets,
        "rounds": entries,
        "rounds_won": state["rounds_won"],
        "winner": state["winner"],
        "complete": state["winner"] is not None,
        "cards_left": state["cards_left"],
        "removed": state["removed"],
        "first_next_round": state["first_next_round"],
        # the round a player may start now: the one after the last, once every round is over
        "next_round": counted + 1 if over and state["winner"] is None else None,
    }

"""Photo in, Mediterráneo sea out: find the sea, fit its cell lattice, read every visible cell with
the cell model in one batch (each cell in its four quarter turns, averaged), build the board.

    sea, reading = read_sea(photo, objectives={"circle": Objective("ray", "fish"), ...}, first="circle")
    reading.cells        # the visible cells (scoring.mediterraneo.Cell), with or without objectives
    reading.flags        # doubtful readings in words; reading.status is "ok" or "check"

Without objectives given, the two objective cards beside the sea are read (objectives.py): with both
found, ``sea`` is scored by them (``reading.objectives_from`` is "read"; a doubtful or missing card is
flagged in ``reading.objectives.flags`` and makes the status "check"); with either missing ``sea`` is
None: the cells are still read. Given objectives override the cards and nothing is read of them.
With ``use_kit`` (the default) the cells are explained by placed cards of the kit (kit_decode.py);
``use_kit=False`` reads every cell head by head (the baseline the kit is measured against).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from scoring.errors import BoardFormatError
from scoring.mediterraneo import Cell, Objective, Sea, objective_choice_problem, score_sea
from vision.catalogs import load_catalog
from vision.errors import PhotoError
from vision.geometry import crop_quads
from vision.mediterraneo.kit_decode import decode_sea, objective_card_ids
from vision.mediterraneo.locate import SEA_MIN, FoundSea, LocatorModel, locate_sea
from vision.mediterraneo.objectives import PLAYERS, ObjectivesReading, read_objectives
from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo

CELL_MODEL = "mediterraneo-cells.onnx"
# a flag the kit's reading raised, the cell's place and what else the cell may be (None: no cell)
Doubt = tuple[str, tuple[int, int], tuple[Cell | None, ...]]
SURE = 0.75  # a reading below this probability is flagged (dev seed 9620: 6 of 8 wrong cells below)
# a cell the kit's card made sure where the cell alone was below this stays flagged, where its runner-up
# changes a total (dev seed 9638, 500 stress photos: at 0.5, silent misses 3 -> 2 for 4 more false
# alarms; at SURE, 3 -> 1 for 44 more)
ASSURED_BELOW = 0.5
CROP_CELL_PX = 40.0
SCORELESS = ("seagull", "none")  # cut crops from a picture where a cell spans about this many px
# An animal no card of the kit explains is left out of the sea (flagged) unless the locator saw a
# card's centre on it and its sea map reaches this. Dev seeds 9621 and 9622 (240 photos): all 25 such
# cells below it were no sea card (a loose card against the sea, the dots of a patterned table, an
# objective card's corner), and every sea card's animal the kit left unexplained lay at 0.88 or more.
# On stress photos (dev 9622, 80) 26 of 28 were sea cards of cards the locator missed, in seas
# misread anyway: left out, they stay flagged.
SEA_SURE = 0.7
# A cell where the locator saw a card's centre, read as no card but with at least this chance of a
# seagull, is read as a seagull: the seagull side is pale like the objective cards' parchment and
# light tables (dev seed 9621: 19 such cells were seagulls, all at 0.04 or more; 10 were no card, 8
# of them under 0.03). A seagull scores as no card does; the kit can then place the seagull card.
GULL_SEEN = 0.03
CARD_CELLS = 6  # a card covers 2 x 3 cells: a sea read with no more is flagged (``_flags``)


@dataclass(frozen=True)
class CellReading:
    cell: Cell | None  # None: no sea card shows in this lattice cell
    quad: np.ndarray  # 4x2 px of the photo's reduced view
    confidence: float
    second: str  # the runner-up reading, in words
    left_out: bool = False  # read as an animal, left out of the sea by the kit (its flag says why)


@dataclass(frozen=True)
class SeaReading:
    cells: tuple[Cell, ...]
    readings: tuple[CellReading, ...]  # every lattice cell read, "no card" ones included
    flags: tuple[str, ...]
    g: np.ndarray  # view px -> lattice
    cell_px: float
    timing_ms: dict[str, float]
    # with the kit: the same photo's cells read head by head, for measuring the kit against
    head_by_head: SeaReading | None = None
    objectives: ObjectivesReading | None = None  # the objective cards read (None: objectives given)
    objectives_from: str = ""  # "given", "read" (from the photo's cards) or "" (neither: no objectives)

    @property
    def all_flags(self) -> tuple[str, ...]:
        """The cells' flags and the objective cards' (a card not found or doubtful)."""
        return self.flags + (self.objectives.flags if self.objectives is not None else ())

    @property
    def status(self) -> str:
        return "check" if self.all_flags else "ok"


def load_cell_model(path: str | None = None) -> OnnxModel:
    return load_model(path or models_dir() / CELL_MODEL)


def _crop_picture(photo: Photo, found: FoundSea) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The sea's region from a decode where a cell spans at least CROP_CELL_PX, area-scaled down to
    about that: (picture, picture px per view px, origin of the region in view px)."""
    h, w = photo.image.shape[:2]
    pts = found.quads.reshape(-1, 2)
    pad = found.cell_px
    x0, y0 = np.floor(np.clip(pts.min(0) - pad, 0, [w - 1, h - 1])).astype(int)
    x1, y1 = np.ceil(np.clip(pts.max(0) + pad, 1, [w, h])).astype(int)
    want = CROP_CELL_PX / max(found.cell_px, 1e-6)  # picture px per view px
    fine, fine_scale = photo.at_scale(photo.scale / max(want, 1.0))
    k = photo.scale / fine_scale  # fine px per view px
    region = fine[int(y0 * k) : int(np.ceil(y1 * k)), int(x0 * k) : int(np.ceil(x1 * k))]
    s = min(1.0, want / k)
    if min(region.shape[:2]) * s < 1:  # cells larger than the photo's part of the sea: nothing to read
        raise PhotoError("no sea found: the cards found lie outside the photo", kind="no_board")
    if s < 1.0:
        region = cv2.resize(region, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    return region, k * s, (int(x0), int(y0))


def read_cells(model: OnnxModel, picture: np.ndarray, quads: np.ndarray) -> dict[str, np.ndarray]:
    """Every quad's crop in its four quarter turns in one batch; the heads' probabilities averaged
    back in the lattice's frame (octopus directions turned back)."""
    size = model.input_size
    margin = float(model.metadata["input"]["crop_margin"])
    turned = np.concatenate([np.roll(quads, -k, axis=1) for k in range(4)])
    out = model.run(crop_quads(picture, turned.astype(np.float32), size, margin))
    n = len(quads)
    probs = {name: np.mean([out[name][k * n : (k + 1) * n] for k in range(4)], 0) for name in out}
    # roll k shows the lattice turned k quarter turns counterclockwise: crop side i is lattice side i + k
    probs["points"] = np.mean([np.roll(out["points"][k * n : (k + 1) * n], k, axis=1) for k in range(4)], 0)
    return probs


def _cells(model: OnnxModel, probs: dict[str, np.ndarray], found: FoundSea) -> list[CellReading]:
    contents, points, frames = model.heads["content"], model.heads["points"], model.heads["frame"]
    readings = []
    for i, (x, y) in enumerate(found.nodes.tolist()):
        pc, pp, pf = probs["content"][i], probs["points"][i], probs["frame"][i]
        order = np.argsort(pc)[::-1]
        content, runner = contents[order[0]], contents[order[1]]
        confidence = float(pc[order[0]])
        second = f"{runner} {pc[order[1]]:.2f}"
        if content in SCORELESS:
            # a seagull and no card score alike (no animal; an octopus touching either becomes
            # nothing): only a doubt about an animal is worth a flag
            confidence = float(sum(pc[contents.index(c)] for c in SCORELESS))
            animal = next(int(j) for j in order if contents[j] not in SCORELESS)
            second = f"{contents[animal]} {pc[animal]:.2f}"
        if (
            content == "none"
            and found.seen[i]
            and pc[contents.index("seagull")] >= GULL_SEEN
            and found.sea_values[i] >= SEA_MIN  # (a light table's print can show a card's centre too)
        ):
            content = "seagull"
        cell = None
        if content != "none":
            side = points[int(np.argmax(pp))] if content == "octopus" else None
            if side is not None and float(pp.max()) < confidence:
                confidence = float(pp.max())
                second = f"octopus pointing {points[int(np.argsort(pp)[-2])]} {np.sort(pp)[-2]:.2f}"
            frame = frames[int(np.argmax(pf))]
            frame = None if content == "seagull" or frame == "none" else frame
            cell = Cell(x, y, content, side, frame)
        if content == "seagull" and not found.seen[i] and found.sea_values[i] < SEA_MIN:
            cell = None  # beside the sea, where the locator sees no card: pale tables look like gulls
        readings.append(CellReading(cell, found.quads[i], confidence, second))
    return readings


def _read_found(photo: Photo, model: OnnxModel, found: FoundSea) -> dict[str, np.ndarray]:
    """Every cell of ``found`` read (``read_cells``) from a picture where a cell spans CROP_CELL_PX."""
    picture, k, (ox, oy) = _crop_picture(photo, found)
    return read_cells(model, picture, (found.quads - [ox, oy]) * k)


def _sureness(probs: dict[str, np.ndarray], found: FoundSea) -> float:
    """How surely the cells where the locator saw a card's centre are read: the mean of their likeliest
    content's probability (crops astride two cards read ~0.7, crops on the cards ~0.99)."""
    content = probs["content"][found.seen]
    return float(content.max(axis=1).mean()) if len(content) else 0.0


def _flags(
    readings: list[CellReading], found: FoundSea, notes: tuple[str, ...], shape: tuple[int, ...]
) -> tuple[str, ...]:
    flags = [f"{note[:1].upper()}{note[1:]}: check every cell" for note in notes]
    shown, most = sum(r.cell is not None for r in readings), most_sea_cells()
    if shown > most:
        # no sea of the kit is that large: a pattern on the table (a gingham cloth in the cards' blue)
        # was read as cards, and the cells flagged below are mostly the table's
        flags.append(
            f"The sea read holds {shown} cells, more than the kit's cards can show ({most}): "
            "the table's pattern was taken for cards; check the photo"
        )
    if 0 < shown <= CARD_CELLS:
        # one card's cells: a sea of one card, or a loose card taken for the sea while the sea lies
        # elsewhere, too small or too faint to find (a card beside the sea looks the same either way)
        flags.append(
            f"Only {shown} cells read as the sea, one card's worth: if the sea is larger, it was not "
            "found (photograph it closer); check the photo"
        )
    h, w = shape[:2]
    corners = np.array([r.quad for r in readings if r.cell is not None]).reshape(-1, 2)
    if len(corners) and (
        (corners.min(0) < 1).any() or corners[:, 0].max() > w - 2 or corners[:, 1].max() > h - 2
    ):
        flags.append("The sea reaches the photo's edge: check that no card is cut off")
    for r, seen, sea in zip(readings, found.seen, found.sea_values, strict=True):
        if r.left_out:
            continue  # flagged by the kit's reading, which left it out
        if r.cell is not None and not seen and sea < SEA_MIN:
            flags.append(
                f"Cell ({r.cell.x}, {r.cell.y}): read as {_words(r.cell)} ({r.confidence:.2f}) beside the sea, "
                "where the locator sees no card: check that it belongs to the sea"
            )
            continue
        if r.confidence >= SURE:
            continue
        what = "no card" if r.cell is None else _words(r.cell)
        x, y = (int(v) for v in np.round(r.quad.mean(0)))
        where = f"({r.cell.x}, {r.cell.y})" if r.cell is not None else f"near photo px ({x}, {y})"
        flags.append(f"Cell {where}: read as {what} ({r.confidence:.2f}), perhaps {r.second}")
    return tuple(flags)


@cache
def most_sea_cells() -> int:
    """The most cells a sea can show: every card of the kit played, none covering another."""
    catalog = load_catalog("mediterraneo")
    return sum(
        max(len(sum(face.get("cells", []), [])) for face in c["faces"].values())
        for c in catalog["components"]
    )


def _kit_readings(
    model: OnnxModel, probs: dict[str, np.ndarray], found: FoundSea, readings: list[CellReading],
    objectives: Mapping[str, Objective] | None, objective_quads: Sequence[tuple[str, np.ndarray]] = (),
) -> tuple[list[CellReading], tuple[str, ...], tuple[Doubt, ...]]:  # fmt: skip
    """The visible cells as the kit explains them; a cell no card explains keeps its head-by-head
    reading and is flagged (unless its doubt is flagged already), or, an animal where the locator is
    not sure of a sea card or on an objective card (``objective_quads``: player, view px quad), is
    left out of the sea, flagged. A cell read as a seagull stays one where the kit's card would show
    an animal there (flagged). A cell the card reads otherwise than the cell shows is flagged too
    (the card may be the wrong one, and its other cells with it), and so is one the card made sure
    where the cell alone was a coin toss: returned apart as well, with what else the cell may be
    (`Doubt`), as `_quiet_doubts` drops those that change no total."""
    excluded = objective_card_ids(load_catalog("mediterraneo"), objectives) if objectives else frozenset()
    present = np.array([r.cell is not None for r in readings])
    decoded = decode_sea(found.nodes, present, probs, model.heads, excluded=excluded)
    kept, flags, doubts = [], [], []
    for i, (r, d) in enumerate(zip(readings, decoded.cells, strict=True)):
        if r.cell is None or d.cell is None:
            kept.append(r)
        elif d.card is None:
            why = _off_sea(r, bool(found.seen[i]), float(found.sea_values[i]), objective_quads)
            if why:
                kept.append(replace(r, cell=None, left_out=True))
                x, y = (int(v) for v in np.round(r.quad.mean(0)))
                flags.append(
                    f"Cell near photo px ({x}, {y}): read as {_words(r.cell)} ({r.confidence:.2f}) and left "
                    f"out of the sea: no card of the kit shows it there and {why}: check it"
                )
                continue
            kept.append(r)
            if r.confidence >= SURE and r.cell.content not in SCORELESS:  # a seagull scores nothing
                flags.append(
                    f"Cell ({r.cell.x}, {r.cell.y}): read as {_words(r.cell)} ({r.confidence:.2f}), "
                    "which no card of the kit shows there: check it"
                )
        elif (d.cell.content, d.cell.points) != (r.cell.content, r.cell.points) and d.confidence < 0.5:
            kept.append(r)  # a card placed for its other cells, whose own reading here is the weaker one
        elif r.cell.content in SCORELESS and d.cell.content not in SCORELESS:
            # an animal where the cell itself reads as a seagull (or no card): the card placed for its
            # other cells would add points the cell does not show; the cell's own reading, likelier
            # than that animal, stands, flagged (dev seeds 9621 and 9622, 360 photos: the one such
            # change was wrong, and unflagged)
            kept.append(r)
            if r.confidence >= SURE:  # else its doubt is flagged already
                flags.append(
                    f"Cell ({r.cell.x}, {r.cell.y}): read as {_words(r.cell)} ({r.confidence:.2f}), "
                    f"though the card of the kit that fits there shows {_words(d.cell)}: check it"
                )
        else:
            kept.append(CellReading(d.cell, r.quad, d.confidence, d.second))
            if d.cell == r.cell and r.confidence < ASSURED_BELOW and d.confidence >= SURE:
                # the card made a doubtful cell sure: where that card is the wrong one, the doubt the
                # cell itself showed is lost; it is kept where the cell's runner-up changes a total
                # (`_quiet_doubts`)
                flags.append(
                    f"Cell ({r.cell.x}, {r.cell.y}): read as {_words(r.cell)} ({r.confidence:.2f}; "
                    f"{d.confidence:.2f} with the kit's card that fits there), perhaps {r.second}"
                )
                doubts.append((flags[-1], (r.cell.x, r.cell.y), _runners_up(model, probs, i, r.cell)))
            elif (d.cell.content, d.cell.points, d.cell.frame) != (
                r.cell.content,
                r.cell.points,
                r.cell.frame,
            ):
                # the kit's card overrules what the cell itself shows: where that card is the wrong
                # one, its sure reading would leave a wrong total unflagged (fresh seeds 9637 / 9638,
                # 500 photos each: silent misses 4 -> 3 and 6 -> 3; right but flagged 14.7 -> 16.1%
                # and 27.0 -> 33.3%)
                flags.append(
                    f"Cell ({r.cell.x}, {r.cell.y}): read as {_framed(d.cell)} by the card of the kit that "
                    f"fits there, though the cell itself shows {_framed(r.cell)} ({r.confidence:.2f}): check it"
                )
    return kept, tuple(flags), tuple(doubts)


def _runners_up(
    model: OnnxModel, probs: dict[str, np.ndarray], i: int, cell: Cell
) -> tuple[Cell | None, ...]:
    """What cell `i` (read as `cell`) would be by its second likeliest content (an octopus: pointing
    any way) and, an octopus, by its second likeliest side; None: no cell there."""
    contents, points = model.heads["content"], model.heads["points"]
    order = [contents[int(j)] for j in np.argsort(probs["content"][i])[::-1]]
    runner = next(
        c for c in order if c != cell.content and not (cell.content in SCORELESS and c in SCORELESS)
    )
    frame = cell.frame if runner not in SCORELESS else None
    if runner == "none":
        out: list[Cell | None] = [None]
    elif runner == "octopus":
        out = [Cell(cell.x, cell.y, "octopus", side, frame) for side in points]
    else:
        out = [Cell(cell.x, cell.y, runner, None, frame)]
    if cell.content == "octopus":
        side = points[int(np.argsort(probs["points"][i])[-2])]
        out.append(Cell(cell.x, cell.y, "octopus", side, cell.frame))
    return tuple(out)


def _quiet_doubts(sea: Sea, doubts: Sequence[Doubt]) -> set[str]:
    """The flags of kit-assured cells (`Doubt`) that change no total: the sea scored with any of
    the cell's other readings gives both players what the kit's reading does, so where the cell is
    one of those the total is still right and a flag would only be a false alarm. Those quiet alone
    must be quiet together too (an octopus may take either; the first other reading of each), else
    none is. (A cell the card overrules stays flagged whatever its own reading scores: the card may
    be the wrong one, and its other cells with it; dev seed 9637: one such, quiet, had a wrong
    total.)"""
    if not doubts:
        return set()
    totals = _totals(sea, {})
    quiet = [
        (flag, place, others)
        for flag, place, others in doubts
        if totals is not None and others and all(_totals(sea, {place: o}) == totals for o in others)
    ]
    if len(quiet) > 1 and _totals(sea, {place: others[0] for _, place, others in quiet}) != totals:
        return set()
    return {flag for flag, _, _ in quiet}


def _totals(sea: Sea, owns: Mapping[tuple[int, int], Cell | None]) -> tuple[int, ...] | None:
    """Both players' totals with `owns` (place -> cell, None: none) in place of the sea's cells
    there (None: a place holds no cell of the sea, or the sea it makes is none)."""
    where = {(c.x, c.y): i for i, c in enumerate(sea.cells)}
    cells: list[Cell | None] = list(sea.cells)
    for place, own in owns.items():
        if place not in where:
            return None
        cells[where[place]] = own
    try:
        return tuple(p.total for p in score_sea(replace(sea, cells=tuple(c for c in cells if c))).players)
    except BoardFormatError:
        return None


def _off_sea(
    r: CellReading, seen: bool, sea: float, objective_quads: Sequence[tuple[str, np.ndarray]]
) -> str:
    """Why an animal no card of the kit explains is no sea card ("" when it may be one): it lies on an
    objective card, or the locator saw no card's centre there, or its sea map is under SEA_SURE."""
    if r.cell is None or r.cell.content in SCORELESS:
        return ""  # a seagull scores nothing: leaving it in changes no total
    centre = tuple(float(v) for v in r.quad.mean(0))
    for player, quad in objective_quads:
        if cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), centre, False) >= 0:
            return f"it lies on the {player} objective card"
    if not seen:
        return "the locator sees no card's centre there"
    if sea < SEA_SURE:
        return f"the locator is unsure of a sea card there ({sea:.2f})"
    return ""


def _words(cell: Cell) -> str:
    return f"an octopus pointing {cell.points}" if cell.content == "octopus" else f"a {cell.content}"


def _framed(cell: Cell) -> str:
    """`_words` with the card's frame, which tells the kit's cards apart."""
    return _words(cell) + (f" in a {cell.frame} frame" if cell.frame else "")


def read_sea(
    photo: Photo,
    objectives: Mapping[str, Objective] | None = None,
    first: str | None = None,
    *,
    locator: LocatorModel | None = None,
    cells: OnnxModel | None = None,
    use_kit: bool = True,
) -> tuple[Sea | None, SeaReading]:
    """The sea in `photo` and how it was read; a PhotoError ("no sea found") when there is none.
    With `objectives` (player -> Objective, two of them) and `first`, the Sea to score; without, the
    objective cards are read and the Sea is scored by them (`first` as given, else `first_unseen`),
    or None when either card is not found (reading.objectives says which).
    With `use_kit`, cells are explained by the kit's cards (the objective cards left out of the sea)."""
    t0 = time.perf_counter()
    found, _ = locate_sea(photo, locator)
    t1 = time.perf_counter()
    model = cells or load_cell_model()
    probs = _read_found(photo, model, found)
    if found.other_basis is not None:  # the lattice on another pair of steps: the one read surer
        other = _read_found(photo, model, found.other_basis)
        if _sureness(other, found.other_basis) > _sureness(probs, found):
            found, probs = found.other_basis, other
    readings = _cells(model, probs, found)
    t2 = time.perf_counter()
    visible = tuple(r.cell for r in readings if r.cell is not None)
    if len(visible) < 3:
        raise PhotoError("no sea found: the cards found hold no sea cells", kind="no_board")
    timing = {"locate": (t1 - t0) * 1000, "cells": (t2 - t1) * 1000}
    cards = None
    if objectives is None:
        cards = read_objectives(photo, found.g, found.cell_px, np.array([(c.x, c.y) for c in visible]))
        timing["objectives"] = cards.ms
        t2 = time.perf_counter()
    flags = _flags(readings, found, photo.notes, photo.image.shape)
    reading = SeaReading(visible, tuple(readings), flags, found.g, found.cell_px, timing)
    doubts: tuple[Doubt, ...] = ()
    if use_kit:
        # the objective cards read surely are not in the sea either
        out_of_sea = objectives if cards is None else {c.player: c.objective for c in cards.cards if c.sure}
        # where an objective card was found, no sea card lies
        quads = [] if cards is None else [(c.player, c.quad) for c in cards.cards]
        by_kit, kit_flags, doubts = _kit_readings(model, probs, found, readings, out_of_sea, quads)
        timing = timing | {"kit": (time.perf_counter() - t2) * 1000}
        reading = SeaReading(
            cells=tuple(r.cell for r in by_kit if r.cell is not None),
            readings=tuple(by_kit),
            flags=_flags(by_kit, found, photo.notes, photo.image.shape) + kit_flags,
            g=found.g,
            cell_px=found.cell_px,
            timing_ms=timing,
            head_by_head=reading,
        )
    visible = reading.cells
    sea = None
    if objectives is not None:
        sea = Sea(visible, dict(objectives), first or next(iter(objectives)))
        reading = replace(reading, objectives_from="given")
    elif cards is not None:
        reading = replace(reading, objectives=cards)
        if cards.objectives is not None:
            sea = Sea(visible, cards.objectives, first or first_unseen(cards.objectives))
            reading = replace(reading, objectives_from="read")
    if use_kit and sea is not None:
        quiet = _quiet_doubts(sea, doubts)
        reading = replace(reading, flags=tuple(f for f in reading.flags if f not in quiet))
    return sea, reading


def first_unseen(objectives: Mapping[str, Objective]) -> str:
    """Who chose first when the photo cannot show it: circle, unless only square choosing first makes
    the two objectives a legal choice (the photo is then not taken to show a broken rule)."""
    a, b = PLAYERS
    if objective_choice_problem(objectives[a], objectives[b]) and not objective_choice_problem(
        objectives[b], objectives[a]
    ):
        return b
    return a

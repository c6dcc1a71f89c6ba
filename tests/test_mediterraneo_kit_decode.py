"""The kit-constrained sea decoder on hand-built cell probabilities: the kit fixes a reading that no
placed card allows, a card is placed at most once, the objective cards stay out of the sea, a cell no
card explains is read head by head and flagged."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from sea_cell_probs import CATALOG, SURE_P
from sea_cell_probs import cell_probs as _probs
from sea_cell_probs import face as _face
from sea_cell_probs import one_hot as _one_hot
from sea_cell_probs import visible_cells as _sea

from scoring.mediterraneo import Cell, Objective, Play, Sea, sea_from_json
from vision.mediterraneo.cells import HEADS
from vision.mediterraneo.kit_decode import decode_sea, objective_card_ids, shipped_templates
from vision.mediterraneo.reader import CellReading, _kit_readings, _quiet_doubts, read_sea
from vision.photo_io import read_photo
from vision.synth.mediterraneo_sea import random_sea


def _nodes(cells: list[Cell]) -> np.ndarray:
    return np.array([(c.x, c.y) for c in cells])


def _c1_octopus_like_a_fish() -> tuple[list[Cell], dict[str, np.ndarray], int]:
    """C1 upright (fish, octopus:E / ray, turtle / starfish, jellyfish), read surely but for its
    octopus cell, which the model takes for a fish (0.6 against 0.4): cells, probabilities, that cell."""
    cells = _sea(Play(_face("C1"), 0, 0, 0))
    probs = _probs(cells)
    octopus = next(i for i, c in enumerate(cells) if c.content == "octopus")
    probs["content"][octopus] = 0.0
    probs["content"][octopus, HEADS["content"].index("fish")] = 0.6
    probs["content"][octopus, HEADS["content"].index("octopus")] = 0.4
    return cells, probs, octopus


def test_the_kit_has_every_sea_and_seagull_face_in_four_turns_and_names_the_objective_cards():
    kit = shipped_templates()
    assert len(kit.cards) == (18 + 2) * 4  # 18 sea faces, the seagull backs of C9 and S9
    assert objective_card_ids(
        CATALOG, {"circle": Objective("ray", "fish"), "square": Objective("fish", "ray")}
    ) == {
        "C1",
        "S2",
    }


def test_a_cell_whose_reading_no_card_allows_beside_its_card_is_read_as_the_card_shows_it():
    # C1 upright: fish, octopus:E / ray, turtle / starfish, jellyfish. The octopus cell looks like a
    # fish to the model (0.6), pointing N rather than E: no card has a fish there beside these cells.
    cells, probs, octopus = _c1_octopus_like_a_fish()
    probs["points"][octopus] = [0.55, 0.45, 0.0, 0.0]  # N, E, S, W
    assert HEADS["content"][int(np.argmax(probs["content"][octopus]))] == "fish"  # head by head: wrong

    decoded = decode_sea(_nodes(cells), np.ones(len(cells), bool), probs, HEADS)

    got = decoded.cells[octopus]
    assert (got.cell.content, got.cell.points, got.card) == ("octopus", "E", "C1")
    assert got.confidence > 0.9  # its five neighbours pin the card
    assert [c.cell for c in decoded.cells] == cells
    assert decoded.unexplained == ()
    assert [(p.card, p.x, p.y, p.rotation) for p in decoded.placements] == [("C1", 0, 0, 0)]


def test_a_turned_card_under_another_is_found_from_what_shows_of_it():
    # S4 lies turned a quarter; C6 on top covers two of its cells; the octopus directions turn with it
    plays = (Play(_face("S4"), 0, 0, 90), Play(_face("C6"), 2, 0, 0))
    cells = _sea(*plays)
    decoded = decode_sea(_nodes(cells), np.ones(len(cells), bool), _probs(cells), HEADS)
    assert [c.cell for c in decoded.cells] == cells
    assert {(p.card, p.x, p.y, p.rotation) for p in decoded.placements} == {("S4", 0, 0, 90), ("C6", 2, 0, 0)}


def test_a_card_is_placed_at_most_once_and_the_objective_cards_never():
    # two separate blocks that both show C1's pattern in circles: only one can be C1
    cells = _sea(Play(_face("C1"), 0, 0, 0)) + [
        Cell(c.x + 5, c.y, c.content, c.points, c.frame) for c in _sea(Play(_face("C1"), 0, 0, 0))
    ]
    decoded = decode_sea(_nodes(cells), np.ones(len(cells), bool), _probs(cells), HEADS)
    ids = [p.card for p in decoded.placements]
    assert len(ids) == len(set(ids))
    assert ids.count("C1") == 1
    assert sum(1 for c in decoded.cells if c.card == "C1") == 6
    assert decoded.unexplained  # the other block has no card of its own: read head by head
    assert all(decoded.cells[i].cell == cells[i] for i in decoded.unexplained)

    # with C1 lying objective side up, neither block is C1
    decoded = decode_sea(_nodes(cells), np.ones(len(cells), bool), _probs(cells), HEADS, excluded={"C1"})
    assert "C1" not in [p.card for p in decoded.placements]
    assert all(c.card != "C1" for c in decoded.cells)


def test_a_cell_no_card_explains_is_read_head_by_head_and_flagged_by_the_reader():
    # a lone cell two cells off a card: no card of 2 x 3 cells fits on it alone
    cells = _sea(Play(_face("C2"), 0, 0, 0)) + [Cell(4, 1, "crab", None, "square")]
    probs = _probs(cells)
    decoded = decode_sea(_nodes(cells), np.ones(len(cells), bool), probs, HEADS)
    lone = len(cells) - 1
    assert decoded.unexplained == (lone,)
    assert decoded.cells[lone].card is None and decoded.cells[lone].cell == cells[lone]

    readings = [CellReading(c, np.zeros((4, 2)), SURE_P, "fish 0.01") for c in cells]
    readings.append(CellReading(None, np.zeros((4, 2)), SURE_P, "crab 0.01"))  # the table beside it
    nodes = np.vstack([_nodes(cells), [[5, 1]]])
    probs = {
        h: np.vstack([v, _one_hot("none", HEADS[h]) if h != "points" else np.full(4, 0.25)])
        for h, v in probs.items()
    }
    model = SimpleNamespace(heads=HEADS)
    # the locator saw a card's centre on every cell and is sure of the sea there
    found = SimpleNamespace(nodes=nodes, seen=np.ones(len(nodes), bool), sea_values=np.ones(len(nodes)))
    kept, flags, _ = _kit_readings(model, probs, found, readings, None)
    assert [r.cell for r in kept] == [*cells, None]
    assert flags == ("Cell (4, 1): read as a crab (0.97), which no card of the kit shows there: check it",)


def test_absent_cells_are_not_decoded():
    cells = _sea(Play(_face("C3"), 0, 0, 180))
    present = np.ones(len(cells), bool)
    present[0] = False
    decoded = decode_sea(_nodes(cells), present, _probs(cells), HEADS)
    assert decoded.cells[0].cell is None
    assert decoded.placements == ()  # no whole card fits on five cells
    assert len(decoded.unexplained) == 5


def test_simulated_seas_read_clearly_are_explained_by_their_own_cards():
    # seas built by legal play (the simulator's), every visible cell read as it is: the decoder never
    # changes a clear reading, places each card once (the seagull sides sharing C9 and S9) and
    # explains nearly every cell
    cells_seen = unexplained = 0
    for seed in range(8):
        scene = random_sea(CATALOG, np.random.default_rng(seed), n_cards=8 + seed)
        cells = _sea(*scene.plays)
        excluded = objective_card_ids(CATALOG, dict(scene.objectives))
        decoded = decode_sea(
            _nodes(cells), np.ones(len(cells), bool), _probs(cells), HEADS, excluded=excluded
        )
        assert [c.cell for c in decoded.cells] == cells
        ids = [p.card for p in decoded.placements]
        assert len(ids) == len(set(ids)) and not set(ids) & excluded
        cells_seen += len(cells)
        unexplained += len(decoded.unexplained)
    assert unexplained <= 0.03 * cells_seen


def test_read_sea_decodes_with_the_kit_by_default_and_keeps_the_head_by_head_reading_beside_it():
    photo = sorted((Path(__file__).resolve().parents[1] / "samples" / "mediterraneo").glob("*.jpg"))[0]
    board = sea_from_json(json.loads(photo.with_suffix(".json").read_text())["board"])
    objectives = dict(board.objectives)
    _, by_kit = read_sea(read_photo(photo), objectives, board.first)
    _, by_heads = read_sea(read_photo(photo), objectives, board.first, use_kit=False)
    assert by_heads.head_by_head is None and "kit" not in by_heads.timing_ms
    assert by_kit.head_by_head is not None and by_kit.head_by_head.cells == by_heads.cells
    assert len(by_kit.cells) == len(by_heads.cells) == len(board.cells)
    assert sorted(c.content for c in by_kit.cells) == sorted(c.content for c in board.cells)


def test_a_cell_the_kit_reads_otherwise_than_it_shows_is_read_as_the_card_and_flagged():
    # C1 upright, its octopus cell looking like a fish (0.6): the kit reads the card's octopus there,
    # and the reader says so, as the card may be the wrong one; the cells read as they show are not
    cells, probs, octopus = _c1_octopus_like_a_fish()
    shown = Cell(cells[octopus].x, cells[octopus].y, "fish", None, cells[octopus].frame)
    readings = [CellReading(c, np.zeros((4, 2)), SURE_P, "fish 0.01") for c in cells]
    readings[octopus] = CellReading(shown, np.zeros((4, 2)), 0.6, "an octopus 0.40")
    found = SimpleNamespace(
        nodes=_nodes(cells), seen=np.ones(len(cells), bool), sea_values=np.ones(len(cells))
    )
    kept, flags, _ = _kit_readings(SimpleNamespace(heads=HEADS), probs, found, readings, None)
    assert [r.cell for r in kept] == cells
    c = cells[octopus]
    assert flags == (
        f"Cell ({c.x}, {c.y}): read as an octopus pointing E in a circle frame by the card of the kit "
        f"that fits there, though the cell itself shows a fish in a circle frame (0.60): check it",
    )


def test_a_doubt_stays_flagged_only_where_what_else_the_cell_may_be_changes_a_total():
    # the kit made sure of a crab at (1, 0) that may be a jellyfish: neither counts for circle
    # (ray +2, fish -1) or square (turtle +2, starfish -1), so either way the totals stand; a ray
    # that may be a fish changes circle's
    sea = Sea(
        (Cell(0, 0, "ray"), Cell(1, 0, "crab"), Cell(2, 0, "turtle"), Cell(0, 1, "ray")),
        {"circle": Objective("ray", "fish"), "square": Objective("turtle", "starfish")},
        "circle",
    )
    crab = ("Cell (1, 0): read as a crab ... check it", (1, 0), (Cell(1, 0, "jellyfish"),))
    ray = ("Cell (0, 1): read as a ray ... check it", (0, 1), (Cell(0, 1, "fish"),))
    assert _quiet_doubts(sea, [crab]) == {crab[0]}
    assert _quiet_doubts(sea, [ray]) == set()
    assert _quiet_doubts(sea, [crab, ray]) == {crab[0]}  # the one that matters stays flagged
    assert _quiet_doubts(sea, []) == set()
    assert _quiet_doubts(sea, [("Cell (5, 5) ...", (5, 5), (Cell(5, 5, "fish"),))]) == set()  # no such cell
    # a cell made sure by the kit, whose runner-ups are a crab (changes nothing) or no cell (a ray
    # less: circle loses 2)
    unsure = ("Cell (0, 0): read as a ray (0.60; ...)", (0, 0), (Cell(0, 0, "crab"),))
    assert _quiet_doubts(sea, [unsure]) == set()
    gone = ("Cell (1, 0): read as a crab (0.60; ...)", (1, 0), (None,))
    assert _quiet_doubts(sea, [gone]) == {gone[0]}


def test_doubts_quiet_alone_but_not_together_stay_flagged():
    # two crabs the kit made sure of that may be octopuses pointing at each other: either alone takes
    # the other's crab (square still loses 2), together they touch each other and take nothing
    sea = Sea(
        (Cell(0, 0, "crab"), Cell(1, 0, "crab"), Cell(2, 0, "ray")),
        {"circle": Objective("ray", "fish"), "square": Objective("turtle", "crab")},
        "circle",
    )
    east = ("Cell (0, 0): read as a crab ... check it", (0, 0), (Cell(0, 0, "octopus", "E"),))
    west = ("Cell (1, 0): read as a crab ... check it", (1, 0), (Cell(1, 0, "octopus", "W"),))
    assert _quiet_doubts(sea, [east]) == {east[0]}
    assert _quiet_doubts(sea, [west]) == {west[0]}
    assert _quiet_doubts(sea, [east, west]) == set()


def test_a_cell_the_kit_made_sure_where_it_alone_was_a_coin_toss_is_flagged_with_its_runner_up():
    # C1 upright, read surely but for its ray cell (ray 0.45, jellyfish 0.40): the card reads the ray
    # surely; the doubt stays, with the jellyfish the cell may be, for read_sea to weigh
    cells = _sea(Play(_face("C1"), 0, 0, 0))
    probs = _probs(cells)
    ray = next(i for i, c in enumerate(cells) if c.content == "ray")
    found = SimpleNamespace(
        nodes=_nodes(cells), seen=np.ones(len(cells), bool), sea_values=np.ones(len(cells))
    )
    for own, flagged in ((0.45, True), (0.55, False)):
        probs["content"][ray] = 0.0
        probs["content"][ray, HEADS["content"].index("ray")] = own
        probs["content"][ray, HEADS["content"].index("jellyfish")] = 0.40
        readings = [CellReading(c, np.zeros((4, 2)), SURE_P, "fish 0.01") for c in cells]
        readings[ray] = CellReading(cells[ray], np.zeros((4, 2)), own, "jellyfish 0.40")
        kept, flags, doubts = _kit_readings(SimpleNamespace(heads=HEADS), probs, found, readings, None)
        assert [r.cell for r in kept] == cells
        c = cells[ray]
        if not flagged:
            assert flags == doubts == ()
            continue
        assert len(flags) == 1 and flags[0].startswith(f"Cell ({c.x}, {c.y}): read as a ray (0.45; ")
        assert flags[0].endswith("with the kit's card that fits there), perhaps jellyfish 0.40")
        assert doubts == ((flags[0], (c.x, c.y), (Cell(c.x, c.y, "jellyfish", None, c.frame),)),)

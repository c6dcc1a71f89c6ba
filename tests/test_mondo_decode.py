"""Catalog-constrained decoding of the Mondo tile model's output (vision/mondo/decode.py).

Probabilities are built from truth islands made of the real catalog, then disturbed on purpose.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from scoring.mondo import Island, Tile
from vision.mondo.decode import CandidateTable, candidate_table, decode_island, head_title
from vision.mondo.heads import HEADS, tile_labels
from vision.synth.catalog import load_catalog
from vision.synth.mondo_island import PlacedTile, island_of, random_layout

CATALOG = load_catalog("mondo")
TABLE = candidate_table(CATALOG, HEADS)


def all_cells(grid: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(grid) for c in range(grid)]


def one_hot(island: Island, cells: list[tuple[int, int]]) -> dict[str, np.ndarray]:
    """Certain probabilities for every head; an empty cell is uniform on the tile heads."""
    probs = {head: np.zeros((len(cells), len(labels))) for head, labels in HEADS.items()}
    for i, (row, col) in enumerate(cells):
        labels = tile_labels(island.tile_at(row, col))
        for head, classes in HEADS.items():
            if head in labels:
                probs[head][i, classes.index(labels[head])] = 1.0
            else:
                probs[head][i] = 1.0 / len(classes)
    return probs


def set_head(probs, cells, cell, head, **by_label) -> None:
    """One head of one cell set to the given probabilities (the rest of the mass spread evenly)."""
    i = cells.index(cell)
    classes = HEADS[head]
    rest = (1.0 - sum(by_label.values())) / max(1, len(classes) - len(by_label))
    probs[head][i] = [by_label.get(label, rest) for label in classes]


def twins(tile: Tile, table: CandidateTable = TABLE) -> list:
    """Components of every candidate labelled exactly like ``tile`` (identical backs, symmetric turns)."""
    labels = tile_labels(tile)
    return [t.component for t in table.tiles if tile_labels(t) == labels]


def assert_same_island(decoded: Island, truth: Island, table: CandidateTable = TABLE) -> None:
    assert decoded.grid == truth.grid
    assert [t.cell for t in decoded.tiles] == [t.cell for t in truth.tiles]
    for got, want in zip(decoded.tiles, truth.tiles, strict=True):
        assert got.edges == want.edges, got.cell
        assert set(got.areas) == set(want.areas), got.cell
        assert (got.animals, got.volcanoes) == (want.animals, want.volcanoes), got.cell
        assert got.component in twins(want, table), got.cell


def truth_island(seed: int, grid: int, kind: str) -> Island:
    return island_of(random_layout(CATALOG, np.random.default_rng(seed), grid, kind), CATALOG, grid)


# --- the candidate table ------------------------------------------------------------------------


def test_table_keeps_distinct_turns_only():
    ids = [TABLE.component_ids[i] for i in TABLE.component]
    # T01: an asymmetric front in 4 turns, an all-forest back once.
    assert ids.count("T01") == 5
    t01 = [t.component for t in TABLE.tiles if t.component.id == "T01"]
    assert [(c.face, c.rotation) for c in t01] == [
        ("front", 0),
        ("front", 90),
        ("front", 180),
        ("front", 270),
        ("back", 0),
    ]
    assert len(TABLE.component_ids) == 48
    assert list(TABLE.starts) == [ids.index(cid) for cid in TABLE.component_ids]
    for head in TABLE.heads:
        assert TABLE.classes[head].shape == (len(TABLE),)


def test_table_ignores_heads_the_catalog_cannot_label():
    table = candidate_table(CATALOG, {**HEADS, "glare": ("no", "yes")})
    assert "glare" not in table.heads
    assert table.heads == TABLE.heads


def test_table_names_a_label_the_model_lacks():
    heads = {**HEADS, "edge_N": ("water", "forest", "plains")}
    with pytest.raises(ValueError, match="'edge_N'.*'desert'"):
        candidate_table(CATALOG, heads)


def test_table_leaves_the_catalog_untouched():
    catalog = copy.deepcopy(CATALOG)
    candidate_table(catalog, HEADS)
    assert catalog == CATALOG


# --- decoding -----------------------------------------------------------------------------------


@pytest.mark.parametrize("grid", [3, 4])
@pytest.mark.parametrize("kind", ["complete", "empty", "misconnections", "invalid"])
def test_clean_probabilities_decode_to_the_truth(grid, kind):
    for seed in range(3):
        truth = truth_island(seed, grid, kind)
        cells = all_cells(grid)
        decoded = decode_island(one_hot(truth, cells), HEADS, cells, grid, TABLE)
        assert_same_island(decoded.island, truth)
        assert decoded.flags == ()
        assert {c.source for c in decoded.cells} <= {"catalog", "empty"}
        assert len({t.component.id for t in decoded.island.tiles}) == len(truth.tiles)


def test_one_confident_wrong_edge_is_recovered_by_the_catalog():
    truth = truth_island(7, 4, "complete")
    cells = all_cells(4)
    known = {tuple(sorted(tile_labels(t).items())) for t in TABLE.tiles}
    # A wrong terrain on one edge that makes a labelling no catalog face has.
    tile, side, wrong = next(
        (t, side, terrain)
        for t in truth.tiles
        for side in "NESW"
        for terrain in HEADS[f"edge_{side}"]
        if terrain != t.edge(side)
        and tuple(sorted({**tile_labels(t), f"edge_{side}": terrain}.items())) not in known
    )
    probs = one_hot(truth, cells)
    set_head(probs, cells, tile.cell, f"edge_{side}", **{wrong: 0.7, tile.edge(side): 0.3})

    decoded = decode_island(probs, HEADS, cells, 4, TABLE)
    assert_same_island(decoded.island, truth)
    row, col = tile.cell
    side_words = {"N": "top", "E": "right", "S": "bottom", "W": "left"}[side]
    (check,) = decoded.checks
    assert (check.row, check.col, check.head) == (row, col, f"edge_{side}")
    assert decoded.flags == (check.text,)
    assert check.text.startswith(
        f"Row {row + 1}, tile {col + 1}: is the {side_words} edge {tile.edge(side)} or {wrong}? (30% / 70%) — "
    )

    by_heads = decode_island(probs, HEADS, cells, 4, TABLE, use_catalog=False)
    assert by_heads.island.tile_at(row, col).edge(side) == wrong
    assert by_heads.island.tile_at(row, col).component is None


def mixed_by_a_third_face(x: Tile, y: Tile) -> bool:
    a, b = tile_labels(x), tile_labels(y)
    own = twins(x) + twins(y)
    return any(
        t.component not in own and all(v in (a[h], b[h]) for h, v in tile_labels(t).items())
        for t in TABLE.tiles
    )


def test_two_cells_that_best_fit_one_component_get_different_ones():
    truth = truth_island(3, 4, "complete")
    cells = all_cells(4)
    unique = [t for t in truth.tiles if len({c.id for c in twins(t)}) == 1]
    # Two tiles no third face mixes (taking each head from one or the other), so the runner-up is known.
    first, second = next(
        (x, y) for x in unique for y in unique if x is not y and not mixed_by_a_third_face(x, y)
    )
    probs = one_hot(truth, cells)
    # The second cell looks a little more like the first cell's tile than like its own.
    a, b = tile_labels(first), tile_labels(second)
    for head in HEADS:
        if head in a and a[head] != b[head]:
            set_head(probs, cells, second.cell, head, **{a[head]: 0.55, b[head]: 0.45})

    by_heads = decode_island(probs, HEADS, cells, 4, TABLE, use_catalog=False)
    assert by_heads.island.tile_at(*second.cell).edges == first.edges  # read alone: a second copy
    decoded = decode_island(probs, HEADS, cells, 4, TABLE)
    assert decoded.island.tile_at(*first.cell).component.id == first.component.id
    assert decoded.island.tile_at(*second.cell).component.id == second.component.id
    assert_same_island(decoded.island, truth)


def test_a_tile_that_fits_no_catalog_face_is_read_head_by_head_and_flagged():
    truth = truth_island(5, 3, "complete")
    cells = all_cells(3)
    probs = one_hot(truth, cells)
    odd = (1, 1)
    for head, label in {
        "face": "back",
        **{f"edge_{s}": "water" for s in "NESW"},
        "volcanoes": "2",
        "animals": "0",
        **{h: "yes" for h in HEADS if h.startswith("join_")},
        **{h: "0" for h in HEADS if h.startswith("patch_")},
    }.items():
        set_head(probs, cells, odd, head, **{label: 1.0})

    decoded = decode_island(probs, HEADS, cells, 3, TABLE)
    tile = decoded.island.tile_at(*odd)
    assert tile.edges == ("water",) * 4
    assert tile.volcanoes == 2 and tile.animals == 0
    assert tile.component is None
    assert len(tile.areas) == 1
    assert decoded.flags == (
        "Row 2, tile 2: this tile matches no tile of the kit (read part by part): please look at it",
    )
    assert [c.source for c in decoded.cells if (c.row, c.col) == odd] == ["heads"]
    # The foreign tile took no physical tile from the others.
    others = [t for t in truth.tiles if t.cell != odd]
    assert_same_island(
        Island(3, tuple(t for t in decoded.island.tiles if t.cell != odd)), Island(3, tuple(others))
    )


def test_flag_text():
    cells = all_cells(3)
    tile = next(t for t in TABLE.tiles if t.edge("E") == "forest" and t.component.face == "front")
    truth = Island(3, (Tile(2, 1, tile.edges, tile.areas, tile.animals, tile.volcanoes, tile.component),))
    probs = one_hot(truth, cells)
    set_head(probs, cells, (2, 1), "edge_E", forest=0.61, plains=0.37, desert=0.01, water=0.01)
    set_head(probs, cells, (0, 2), "present", empty=0.55, tile=0.45)

    decoded = decode_island(probs, HEADS, cells, 3, TABLE)
    # one tile alone breaks the water rule whatever its edges show: no reading changes its score
    assert decoded.flags == (
        "Row 1, tile 3: is this space empty, or is there a tile? (55% / 45%) — if a tile: no change to the score"
        " (the island still breaks the water rule)",
        "Row 3, tile 2: is the right edge forest or plains? (61% / 37%) — if plains: no change to the score"
        " (the island still breaks the water rule)",
    )
    assert dict(decoded.island.tile_at(2, 1).confidence)["edge_E"] == pytest.approx(0.61)


def test_head_titles():
    assert [head_title(h) for h in ("edge_E", "animals", "volcanoes", "join_NE", "patch_forest", "face")] == [
        "edge E",
        "animals",
        "volcanoes",
        "join N-E",
        "patch forest",
        "face",
    ]
    assert head_title("present") == "tile present"


def test_empty_cells():
    truth = truth_island(2, 3, "empty")
    cells = all_cells(3)
    empty = truth.empty_cells
    probs = one_hot(truth, cells)
    set_head(probs, cells, empty[0], "present", empty=0.9, tile=0.1)  # sure enough: no flag

    decoded = decode_island(probs, HEADS, cells, 3, TABLE)
    assert decoded.island.empty_cells == empty
    assert decoded.flags == ()
    reading = next(c for c in decoded.cells if (c.row, c.col) == empty[0])
    assert reading.source == "empty"
    assert reading.confidence == (("present", pytest.approx(0.9)),)
    assert reading.log_likelihood == pytest.approx(np.log(0.9))

    set_head(probs, cells, empty[0], "present", empty=0.7, tile=0.3)  # doubtful: flagged, still empty
    decoded = decode_island(probs, HEADS, cells, 3, TABLE)
    assert decoded.island.empty_cells == empty
    (check,) = decoded.checks
    assert (check.row, check.col, check.head, check.readings) == (
        *empty[0],
        "present",
        (("empty", 0.7), ("tile", 0.3)),
    )
    assert check.text.startswith(
        f"Row {empty[0][0] + 1}, tile {empty[0][1] + 1}: is this space empty, or is there a tile? (70% / 30%) — if a tile: "
    )


def test_a_doubtful_tile_is_flagged_on_its_present_head():
    truth = truth_island(4, 3, "complete")
    cells = all_cells(3)
    probs = one_hot(truth, cells)
    set_head(probs, cells, (0, 0), "present", empty=0.4, tile=0.6)
    decoded = decode_island(probs, HEADS, cells, 3, TABLE)
    assert_same_island(decoded.island, truth)
    assert decoded.flags == (
        "Row 1, tile 1: is there a tile here, or is the space empty? (60% / 40%) — if empty: -4 points",
    )


TINY = {
    "format": 1,
    "game": "mondo",
    "dpi": 300,
    "tile_mm": 50,
    "components": [
        {
            "id": "A",
            "faces": {
                "front": {
                    "image": "A-front.png",
                    "edges": {"N": "water", "E": "forest", "S": "forest", "W": "water"},
                    "areas": [
                        {"terrain": "water", "sides": ["N", "W"]},
                        {"terrain": "forest", "sides": ["E", "S"]},
                    ],
                    "animals": 1,
                    "volcanoes": 0,
                },
                "back": {
                    "image": "A-back.png",
                    "edges": {"N": "plains", "E": "plains", "S": "plains", "W": "plains"},
                    "areas": [{"terrain": "plains", "sides": ["N", "E", "S", "W"]}],
                    "animals": 0,
                    "volcanoes": 0,
                },
            },
        },
        {
            "id": "B",
            "faces": {
                "front": {
                    "image": "B-front.png",
                    "edges": {"N": "water", "E": "desert", "S": "water", "W": "desert"},
                    "areas": [
                        {"terrain": "water", "sides": ["N"]},
                        {"terrain": "water", "sides": ["S"]},
                        {"terrain": "desert", "sides": ["E", "W"]},
                        {"terrain": "forest", "sides": []},
                    ],
                    "animals": 0,
                    "volcanoes": 2,
                },
                "back": {
                    "image": "B-back.png",
                    "edges": {"N": "desert", "E": "desert", "S": "desert", "W": "desert"},
                    "areas": [{"terrain": "desert", "sides": ["N", "E", "S", "W"]}],
                    "animals": 0,
                    "volcanoes": 0,
                },
            },
        },
    ],
}


def test_another_catalog_plugs_in():
    table = candidate_table(TINY, HEADS)
    assert table.component_ids == ("A", "B")
    assert len(table) == 4 + 1 + 2 + 1  # B's front looks the same turned by a half
    layout = [PlacedTile("A", "front", 90, 0, 0), PlacedTile("B", "front", 270, 1, 1)]
    truth = island_of(layout, TINY, 3)
    cells = all_cells(3)
    decoded = decode_island(one_hot(truth, cells), HEADS, cells, 3, table)
    assert_same_island(decoded.island, truth, table)
    assert decoded.island.tile_at(1, 1).component.id == "B"
    assert decoded.flags == ()


def test_a_physical_tile_is_used_once():
    table = candidate_table(TINY, HEADS)
    layout = [PlacedTile("A", "front", 0, 0, 0), PlacedTile("A", "front", 0, 2, 2)]  # a second copy
    truth = Island(3, tuple(island_of([p], TINY, 3).tiles[0] for p in layout))
    cells = all_cells(3)
    decoded = decode_island(one_hot(truth, cells), HEADS, cells, 3, table)
    sources = {(c.row, c.col): c.source for c in decoded.cells if c.source != "empty"}
    assert sources == {(0, 0): "catalog", (2, 2): "heads"}  # ties go to the first cell in reading order
    assert decoded.flags == (
        "Row 3, tile 3: this tile matches no tile of the kit (read part by part): please look at it",
    )
    assert decoded.island.tile_at(2, 2).edges == truth.tile_at(2, 2).edges


def test_decoding_ignores_the_order_of_cells():
    rng = np.random.default_rng(11)
    truth = truth_island(11, 4, "empty")
    cells = all_cells(4)
    probs = one_hot(truth, cells)
    for head, p in probs.items():  # honest-looking noise: the truth keeps most of the mass
        probs[head] = 0.75 * p + 0.25 * rng.dirichlet(np.ones(p.shape[1]), size=p.shape[0])
    decoded = decode_island(probs, HEADS, cells, 4, TABLE)
    assert_same_island(decoded.island, truth)

    order = rng.permutation(len(cells))
    shuffled = decode_island(
        {head: p[order] for head, p in probs.items()}, HEADS, [cells[i] for i in order], 4, TABLE
    )
    assert shuffled.island == decoded.island
    assert shuffled.flags == decoded.flags
    assert shuffled.cells == decoded.cells


def test_bad_inputs_are_refused():
    cells = all_cells(3)
    truth = truth_island(1, 3, "complete")
    probs = one_hot(truth, cells)
    with pytest.raises(ValueError, match="shape"):
        decode_island(probs, HEADS, cells[:-1], 3, TABLE)
    with pytest.raises(ValueError, match="twice"):
        decode_island(probs, HEADS, [cells[0], *cells[:-1]], 3, TABLE)
    with pytest.raises(ValueError, match="other class labels"):
        decode_island(probs, {**HEADS, "animals": ("0", "1", "2+")}, cells, 3, TABLE)

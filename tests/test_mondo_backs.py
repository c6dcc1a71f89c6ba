"""The back reader (vision.mondo.backs): a back's terrain told from a fine crop, as decoder evidence."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.mondo import Island, score_turn, single_island_turn
from vision.catalogs import PlacedTile, load_catalog, tile_of
from vision.mondo import backs, reader
from vision.mondo import looks as mondo_looks
from vision.mondo.backs import (
    BACK_TERRAINS,
    BACK_WEIGHT,
    MOST_LOSS,
    back_cells,
    back_evidence,
    back_model,
    back_terrain_checks,
    back_terrain_of,
    candidate_terrains,
    read_backs,
)
from vision.mondo.checks import BACK_TERRAIN, island_score
from vision.mondo.decode import decode_island
from vision.mondo.heads import HEADS, tile_labels
from vision.mondo.reader import catalog_table, finer_view, tile_model
from vision.photo_io import decode_photo
from vision.synth.dataset import make_scene
from vision.synth.scenes import mondo_scene, random_layout, with_backs
from vision.synth.world import World
from vision.training.mondo_backs_data import BackSpec, jittered, photo_back_crops

CATALOG = load_catalog("mondo")


def _back_of(terrain: str) -> str:
    return next(c["id"] for c in CATALOG["components"] if back_terrain_of(CATALOG, c["id"]) == terrain)


def test_every_kit_back_shows_one_land_terrain():
    for component in CATALOG["components"]:
        back = component["faces"]["back"]
        assert set(back["edges"].values()) == {back_terrain_of(CATALOG, component["id"])}
        assert back_terrain_of(CATALOG, component["id"]) in BACK_TERRAINS
    with pytest.raises(KeyError):
        back_terrain_of(CATALOG, "T99")


def test_candidate_terrains_name_each_back_and_no_front():
    table = catalog_table(tile_model())
    terrains = candidate_terrains(table)
    for tile, terrain in zip(table.tiles, terrains, strict=True):
        if tile.component.face == "back":
            assert BACK_TERRAINS[terrain] == tile.edge("N") == tile.edge("S")
        else:
            assert terrain == -1
    assert (terrains >= 0).sum() == len(CATALOG["components"])  # a back reads the same in every turn


def test_back_evidence_costs_a_back_its_odds_against_the_likeliest_terrain():
    table = catalog_table(tile_model())
    terrains = candidate_terrains(table)
    probs = np.array([[0.1, 0.8, 0.1], [1e-12, 1.0, 0.0]])  # forest, desert, plains
    evidence = back_evidence(probs, np.array([2, 0]), 4, table)
    assert evidence.shape == (4, len(table))
    assert not evidence[[1, 3]].any()  # cells not read
    assert not evidence[:, terrains < 0].any()  # fronts
    desert = terrains == BACK_TERRAINS.index("desert")
    assert np.allclose(evidence[2, desert], 0.0)
    assert np.allclose(evidence[2, terrains == 0], BACK_WEIGHT * np.log(0.1 / 0.8))
    assert np.allclose(evidence[0, (terrains >= 0) & ~desert], -MOST_LOSS * BACK_WEIGHT)  # capped


def test_back_cells_are_tiles_that_may_lie_back_side_up_on_a_land_not_sure():
    n = 5
    edge = np.zeros((n, len(HEADS["edge_N"])))
    sure, unsure = (HEADS["edge_N"].index(t) for t in ("desert", "plains"))
    edge[:, sure] = 1.0
    edge[2, [sure, unsure]] = 0.6, 0.4  # the tile model torn between two lands
    probs = {
        "face": np.array([[0.9, 0.1], [0.7, 0.3], [0.1, 0.9], [0.0, 1.0], [0.0, 1.0]]),
        "present": np.array([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.9, 0.1], [0.0, 1.0]]),
        **{f"edge_{side}": edge for side in "NESW"},
    }
    assert back_cells(probs, HEADS).tolist() == [2]
    edge[1, [sure, unsure]] = 0.5, 0.5
    assert back_cells(probs, HEADS).tolist() == [1, 2]


def _one_hot_probs(labels: dict[str, str]) -> dict[str, np.ndarray]:
    return {
        head: np.array([float(label == labels.get(head)) for label in names]) for head, names in HEADS.items()
    }


MIDDLE = 4  # the middle cell of a 3x3 grid, in reading order


def _middle_back(desert: float) -> dict[str, np.ndarray]:
    """The tile model's probabilities of a 3x3 grid, empty but for a back in the middle read as
    desert at `desert` and as plains at the rest, every head alike."""
    backs = (
        tile_labels(tile_of(PlacedTile(_back_of(t), "back", 0, 0, 0), CATALOG)) for t in ("desert", "plains")
    )
    a, b = (_one_hot_probs(labels) for labels in backs)
    empty = _one_hot_probs(tile_labels(None))
    return {
        head: np.stack(
            [desert * a[head] + (1 - desert) * b[head] if i == MIDDLE else empty[head] for i in range(9)]
        )
        for head in HEADS
    }


def _read_middle(probs: dict[str, np.ndarray], back_probs: list[float] | None = None):
    """The middle tile decoded from `probs`, with the back model's reading of it (forest, desert,
    plains) as evidence where given."""
    model = tile_model()
    table = catalog_table(model)
    cells = [(r, c) for r in range(3) for c in range(3)]
    evidence = (
        None if back_probs is None else back_evidence(np.array([back_probs]), np.array([MIDDLE]), 9, table)
    )
    (tile,) = decode_island(probs, model.heads, cells, 3, table, evidence=evidence).island.tiles
    return tile


def test_the_decoder_takes_the_terrain_the_evidence_names():
    """A back in the middle of a 3x3 grid that the tile model reads as desert a little more than as
    plains is read as a plains back when the back model says plains (and as desert without it)."""
    probs = _middle_back(0.55)
    assert _read_middle(probs).edges == ("desert",) * 4
    with_it = _read_middle(probs, [0.01, 0.1, 0.89])
    assert with_it.edges == ("plains",) * 4
    assert with_it.component.face == "back"


def test_a_sure_back_model_outweighs_four_edges_read_as_one_pale_colour(monkeypatch):
    """Stress 9541-00434: the tile model reads a plains back's four edges as desert at 0.75 (faded
    print, overexposed: one pale yellow at its size), the back model plains at 0.9. Each edge counts
    in the decoder's sum; counted once, the back model is outvoted, counted BACK_WEIGHT times not."""
    probs = _middle_back(0.75)
    assert _read_middle(probs, [0.02, 0.08, 0.9]).edges == ("plains",) * 4
    monkeypatch.setattr(backs, "BACK_WEIGHT", 1.0)
    assert _read_middle(probs, [0.02, 0.08, 0.9]).edges == ("desert",) * 4


def test_with_backs_anywhere_turns_that_many_fronts_on_any_cells():
    rng = np.random.default_rng(5)
    layout = random_layout(CATALOG, rng, 3, "complete")
    fronts = {(p.row, p.col) for p in layout if p.face == "front"}
    turned = with_backs(layout, 6, 3, rng, anywhere=True)
    newly = {(p.row, p.col) for p in turned if p.face == "back"} & fronts
    assert len(newly) == 6
    assert [(p.row, p.col, p.component) for p in turned] == [(p.row, p.col, p.component) for p in layout]
    # the island's few backs as before: the one inner cell of a 3x3 island, at most one outer cell
    few = with_backs(layout, 6, 3, np.random.default_rng(5))
    newly = {(p.row, p.col) for p in few if p.face == "back"} & fronts
    assert len(newly - {(1, 1)}) <= 1


def test_a_scene_with_backs_asked_for_shows_that_many():
    plain = mondo_scene(np.random.default_rng([7, 1]), CATALOG, long_side_px=800)
    scene = mondo_scene(np.random.default_rng([7, 1]), CATALOG, long_side_px=800, backs=5)
    assert sum(t["face"] == "back" for t in plain.truth["tiles"]) < 5
    assert sum(t["face"] == "back" for t in scene.truth["tiles"]) >= 5


def test_jittered_quads_stay_about_their_cell():
    quads = np.array([[[100, 100], [200, 100], [200, 200], [100, 200]]], np.float32).repeat(50, axis=0)
    out = jittered(quads, BackSpec(), np.random.default_rng(0))
    assert out.shape == quads.shape
    moved = np.linalg.norm(out.mean(axis=1) - [150, 150], axis=1)
    assert (
        moved.max() <= 100 * (BackSpec.shift_jitter * np.sqrt(2) + BackSpec.corner_jitter * np.sqrt(2)) + 1e-3
    )
    assert moved.max() > 0


def test_a_photos_back_crops_are_cut_at_the_models_size_and_labelled_by_the_truth():
    spec = BackSpec(seed=21, n=1, long_sides=(3000,), backs=(3, 3), variants=2)
    crops, labels, light = photo_back_crops(spec, 0)
    n = len(crops) // 2  # the layout's own backs, and 3 more
    assert n >= 3 and crops.shape == (2 * n, spec.size, spec.size, 3) and crops.dtype == np.uint8
    assert labels[:n].tolist() == labels[n:].tolist()
    assert set(labels.tolist()) <= {0, 1, 2} and len(set(light.tolist())) == 1


def _stress_photo(index: int):
    """A stress photo of seed 9517 (a development set), drawn again by the simulator, and its truth."""
    scene = make_scene("mondo", 9517, index, 4000, world=World(stress=True))
    return decode_photo(scene.jpeg), scene.truth


def _total(photo, grid: int) -> int:
    result = reader.read_photo_island(photo, grid=grid)
    assert result.reading is not None
    return score_turn(single_island_turn("island", result.reading.island)).players[0].total


def test_an_overexposed_plains_back_is_read_by_its_grass(monkeypatch):
    # 9517-00268: overexposure clips desert and plains to one pale yellow; at the tile model's 50 px a
    # cell the plains back in the island's middle reads as desert, at the back model's 120 px its
    # grass tufts show. Read by the four looks: every look of this photo asks about 20 checks or more,
    # and a further look (`mondo_looks.FURTHER_LOOKS`) reads it with one fewer and a total of 1 for 2
    monkeypatch.setattr(mondo_looks, "FURTHER_LOOKS", ())
    photo, truth = _stress_photo(268)
    assert _total(photo, 4) == truth["report"]["players"][0]["total"]
    monkeypatch.setattr(reader, "back_model", lambda: None)
    assert _total(photo, 4) != truth["report"]["players"][0]["total"]


def test_a_desert_back_under_a_green_cast_is_read_by_its_dunes():
    # 9517-00135: a colour cast makes the desert back plains-green; a back model trained on true
    # colours alone read it as plains, surely (the colour that lies in training mended it)
    photo, truth = _stress_photo(135)
    backs = [t for t in truth["tiles"] if t["face"] == "back"]
    cells = {(c["row"], c["col"]): np.float32(c["quad"]) for c in truth["cells"]}
    quads = np.stack([cells[(t["row"], t["col"])] for t in backs])
    probs = read_backs(
        back_model(), photo.image, (quads + 0.5) / np.float32(photo.scale) - 0.5, finer_view(photo)
    )
    read = [BACK_TERRAINS[i] for i in probs.argmax(axis=1)]
    assert read == [back_terrain_of(CATALOG, t["component"]) for t in backs] == ["desert"]


def _island_with_back(terrain: str, seed: int = 3) -> Island:
    """A whole 3x3 island of kit fronts with a back of ``terrain`` in the middle."""
    layout = [
        p
        for p in random_layout(CATALOG, np.random.default_rng(seed), 3, "complete")
        if (p.row, p.col) != (1, 1)
    ]
    taken = {p.component for p in layout}
    back = next(
        c["id"]
        for c in CATALOG["components"]
        if c["id"] not in taken and back_terrain_of(CATALOG, c["id"]) == terrain
    )
    return Island(3, tuple(tile_of(p, CATALOG) for p in [*layout, PlacedTile(back, "back", 0, 1, 1)]))


def test_a_back_the_back_model_reads_as_another_terrain_is_asked_about_with_that_score():
    desert, plains = _island_with_back("desert"), _island_with_back("plains")
    assert island_score(desert)[0] != island_score(plains)[0]  # the middle's terrain counts here
    probs = np.array([[0.02, 0.08, 0.9]])  # forest, desert, plains
    (check,) = back_terrain_checks(desert, [(1, 1)], probs)
    assert check.head == BACK_TERRAIN and (check.row, check.col) == (1, 1)
    assert check.readings == (("desert", pytest.approx(0.08)), ("plains", pytest.approx(0.9)))
    assert check.total == island_score(desert)[0]
    assert check.total_if_second == island_score(plains)[0]
    assert check.text.startswith(
        "Row 2, tile 2: is this tile's back (one terrain all over) desert or plains?"
    )
    # the back model agreeing, or torn with the terrain read still at least BACK_DOUBT: nothing to ask
    assert back_terrain_checks(desert, [(1, 1)], np.array([[0.05, 0.9, 0.05]])) == ()
    assert back_terrain_checks(desert, [(1, 1)], np.array([[0.0, 0.5, 0.5]])) == ()
    # nor where the other terrain would not change the score (this island: desert and plains alike)
    desert, plains = _island_with_back("desert", seed=0), _island_with_back("plains", seed=0)
    assert island_score(desert) == island_score(plains)
    assert back_terrain_checks(desert, [(1, 1)], probs) == ()
    assert len(back_terrain_checks(_island_with_back("forest", seed=0), [(1, 1)], probs)) == 1


def test_a_plains_back_the_tile_model_is_sure_is_desert_is_asked_about(monkeypatch):
    # fresh stress 9523-00222 (spent): under a colour cast the tile model reads the plains back in row
    # 3 as desert at 0.989, where the back model was not asked (the tile model sure); the back model
    # reads plains at 0.99. The score stays wrong, but it is asked about, with the true score
    scene = make_scene("mondo", 9523, 222, 4000, world=World(stress=True))
    truth = scene.truth["report"]["players"][0]["total"]
    photo = decode_photo(scene.jpeg)
    result = reader.read_photo_island(photo, grid=4)
    checks = [c for c in result.reading.checks if c.head == BACK_TERRAIN]
    assert [(c.readings[0][0], c.readings[1][0]) for c in checks] == [("desert", "plains")]
    assert checks[0].total != truth and checks[0].total_if_second == truth
    # the back model is asked only where the tile model gives the terrain less than ASK_BELOW
    monkeypatch.setattr(backs, "ASK_BELOW", 0.98)
    assert not [c for c in reader.read_photo_island(photo, grid=4).reading.checks if c.head == BACK_TERRAIN]

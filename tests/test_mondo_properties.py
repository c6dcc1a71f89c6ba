"""Properties of the Mondo engine over random islands (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.mondo import (
    TERRAINS,
    Area,
    Island,
    PlayerIsland,
    Tile,
    Turn,
    island_from_json,
    island_to_json,
    mirrored_island,
    rotated_island,
    score_island,
    score_turn,
)
from scoring.sides import SIDES


@st.composite
def tiles(draw, row: int, col: int, grid: int, mostly_legal: bool) -> Tile:
    edges = []
    for side in SIDES:
        outer = (side == "N" and row == 0) or (side == "S" and row == grid - 1)
        outer |= (side == "W" and col == 0) or (side == "E" and col == grid - 1)
        if mostly_legal and draw(st.integers(0, 9)) > 0:
            terrain = "water" if outer else draw(st.sampled_from(TERRAINS[1:]))
        else:
            terrain = draw(st.sampled_from(TERRAINS))
        edges.append(terrain)
    areas = []
    for terrain in dict.fromkeys(edges):  # group same-terrain sides, then split the group at random
        sides = [s for s, t in zip(SIDES, edges, strict=True) if t == terrain]
        groups: dict[int, list[str]] = {}
        for side in sides:
            groups.setdefault(draw(st.integers(0, len(sides) - 1)), []).append(side)
        areas += [Area(terrain, tuple(g)) for g in groups.values()]
    areas += [Area(t, ()) for t in draw(st.lists(st.sampled_from(TERRAINS), max_size=2))]
    return Tile(
        row,
        col,
        tuple(edges),
        tuple(areas),
        draw(st.integers(0, 2)),
        draw(st.integers(0, 2)),  # type: ignore[arg-type]
    )


@st.composite
def islands(draw, mostly_legal: bool = True) -> Island:
    grid = draw(st.sampled_from([3, 4]))
    cells = [(r, c) for r in range(grid) for c in range(grid)]
    filled = [cell for cell in cells if draw(st.integers(0, 7)) > 0]
    return Island(grid, tuple(draw(tiles(r, c, grid, mostly_legal)) for r, c in filled))


def summary(island: Island):
    score = score_island(island)
    a = score.analysis
    return (
        score.total,
        score.points,
        len(a.invalid_edges),
        len(a.misconnections),
        sorted((ls.terrain, len(ls.areas), ls.scores) for ls in a.landscapes),
    )


@settings(max_examples=150, deadline=None)
@given(islands(), st.integers(1, 3))
def test_turning_an_island_leaves_its_score_unchanged(island, quarter_turns):
    assert summary(rotated_island(island, quarter_turns)) == summary(island)


@settings(max_examples=150, deadline=None)
@given(islands())
def test_mirroring_an_island_leaves_its_score_unchanged(island):
    assert summary(mirrored_island(island)) == summary(island)


@settings(max_examples=150, deadline=None)
@given(islands(mostly_legal=False))
def test_no_score_is_negative_and_invalid_islands_score_nothing(island):
    score = score_island(island)
    assert score.total >= 0
    if not score.valid:
        assert score.total == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(islands(), min_size=1, max_size=4))
def test_turn_totals_are_never_negative_and_only_the_most_volcanoes_pay(island_list):
    turn = score_turn(Turn(tuple(PlayerIsland(f"P{i}", isl) for i, isl in enumerate(island_list))))
    for player in turn.players:
        assert player.total >= 0
        if player.points.volcanoes:
            assert player.valid and player.volcanoes == turn.most_volcanoes


@settings(max_examples=100, deadline=None)
@given(islands(mostly_legal=False))
def test_json_round_trip(island):
    assert island_from_json(island_to_json(island)) == island

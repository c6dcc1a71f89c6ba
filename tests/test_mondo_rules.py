"""Hand-built Mondo islands with known scores, one rule interpretation of DESIGN.md at a time."""

import pytest
from mondo_builders import D, F, P, W, full_forest_island, tile

from scoring.mondo import (
    Game,
    Island,
    PlayerIsland,
    Turn,
    analyse_island,
    score_game,
    score_island,
    score_turn,
)


def test_a_full_forest_island_scores_every_inner_pair():
    island = full_forest_island(3)
    analysis = analyse_island(island)
    assert analysis.valid
    assert len(analysis.scoring_landscapes) == 12  # 2 * 3 * 2 inner facing pairs
    assert score_island(island).total == 24


def test_a_4x4_island_has_24_inner_pairs():
    island = full_forest_island(4, animals_at=[(1, 1), (2, 2)])
    score = score_island(island)
    assert score.valid
    assert score.points.landscapes == 48
    assert score.total == 50


def test_outer_edge_not_water_makes_the_island_invalid_and_worth_nothing():
    tiles = list(full_forest_island(3).tiles)
    tiles[0] = tile(0, 0, F, F, F, W, animals=2)  # N is an outer edge showing forest
    island = Island(3, tuple(tiles))
    score = score_island(island)
    assert not score.valid
    assert [(e.row, e.col, e.side, e.terrain) for e in score.analysis.invalid_edges] == [(0, 0, "N", F)]
    assert score.total == 0
    assert score.points.sum == 0


def test_inward_water_edge_makes_the_island_invalid_even_facing_an_empty_space():
    # Tile at (1, 1) alone; its N side faces an empty space and shows water.
    island = Island(3, (tile(1, 1, W, F, F, F),))
    analysis = analyse_island(island)
    assert not analysis.valid
    assert [(e.side, e.why) for e in analysis.invalid_edges] == [("N", "inward edge shows water")]


def test_an_invalid_island_takes_no_part_in_the_volcano_comparison():
    valid = full_forest_island(3, volcanoes_at=[(1, 1)])
    tiles = list(full_forest_island(3, volcanoes_at=[(0, 1), (1, 1), (2, 1)]).tiles)
    tiles[1] = tile(0, 1, F, F, F, F, volcanoes=1)  # outer N edge not water: invalid
    invalid = Island(3, tuple(tiles))
    turn = score_turn(Turn((PlayerIsland("A", valid), PlayerIsland("B", invalid))))
    assert turn.volcano_contenders == ("A",)
    assert turn.player("A").volcano_majority and turn.player("A").points.volcanoes == -1
    assert turn.player("B").total == 0


def test_volcano_ties_for_most_all_pay():
    a = full_forest_island(3, volcanoes_at=[(0, 0), (1, 1)])
    b = full_forest_island(3, volcanoes_at=[(2, 2), (1, 1)])
    c = full_forest_island(3, volcanoes_at=[(2, 2)])
    turn = score_turn(Turn((PlayerIsland("A", a), PlayerIsland("B", b), PlayerIsland("C", c))))
    assert [p.points.volcanoes for p in turn.players] == [-2, -2, 0]
    assert turn.most_volcanoes == 2


def test_no_volcanoes_no_majority():
    turn = score_turn(
        Turn((PlayerIsland("A", full_forest_island()), PlayerIsland("B", full_forest_island())))
    )
    assert all(not p.volcano_majority and p.points.volcanoes == 0 for p in turn.players)


def test_an_island_scored_alone_is_the_only_volcano_participant():
    score = score_island(full_forest_island(3, volcanoes_at=[(0, 0), (2, 2)]))
    assert score.volcano_majority and score.points.volcanoes == -2


def test_misconnection_counts_once_per_pair_and_spoils_both_landscapes():
    tiles = list(full_forest_island(3).tiles)
    tiles[4] = tile(1, 1, F, D, F, F)  # centre: E shows desert against (1, 2)'s forest W
    analysis = analyse_island(Island(3, tuple(tiles)))
    assert analysis.valid
    assert len(analysis.misconnections) == 1
    m = analysis.misconnections[0]
    assert (m.a, m.side_a, m.terrain_a, m.b, m.side_b, m.terrain_b) == ((1, 1), "E", D, (1, 2), "W", F)
    spoiled = [ls for ls in analysis.landscapes if ls.why_not.startswith("misconnection")]
    assert sorted(ls.terrain for ls in spoiled) == [D, F]
    assert len(analysis.scoring_landscapes) == 11
    assert score_island(Island(3, tuple(tiles))).total == 22 - 1


def test_empty_space_costs_one_and_causes_no_misconnection():
    tiles = [t for t in full_forest_island(3).tiles if t.cell != (1, 1)]
    score = score_island(Island(3, tuple(tiles)))
    assert score.analysis.misconnections == ()
    # the 4 inner pairs around the centre are gone; the remaining 8 pairs score
    assert len(score.analysis.scoring_landscapes) == 8
    assert score.points.empty_spaces == -1
    assert score.total == 16 - 1


def test_a_landscape_joined_to_an_edge_facing_an_empty_space_does_not_score():
    # Top row: (0,0) forest E joined with S; (0,1) missing. The forest landscape (0,0)-(1,0) faces it.
    tiles = [t for t in full_forest_island(3).tiles if t.cell not in {(0, 0), (0, 1)}]
    tiles.append(tile(0, 0, W, F, F, W, areas=[(W, "NW"), (F, "ES")]))
    analysis = analyse_island(Island(3, tuple(tiles)))
    joined = next(ls for ls in analysis.landscapes if (0, 0) in ls.cells and ls.terrain == F)
    assert joined.cells == ((0, 0), (1, 0)) and not joined.scores
    assert joined.why_not == "faces the empty space at (0, 1)"


def test_an_interior_patch_is_a_landscape_of_its_own():
    tiles = list(full_forest_island(3).tiles)
    tiles[4] = tile(1, 1, F, F, F, F, areas=[(F, "NESW"), (P, ""), (D, "")])
    analysis = analyse_island(Island(3, tuple(tiles)))
    # the centre joins its four pairs into one forest landscape: 12 - 4 + 1 + 2 patches
    assert len(analysis.scoring_landscapes) == 11
    assert sorted(ls.terrain for ls in analysis.landscapes if ls.cells == ((1, 1),)) == [D, P]


def test_water_landscapes_never_score():
    analysis = analyse_island(full_forest_island(3))
    water = [ls for ls in analysis.landscapes if ls.terrain == W]
    assert water and all(not ls.scores and ls.why_not == "water scores nothing" for ls in water)


def test_a_turn_never_scores_below_zero():
    island = Island(3, (tile(0, 0, W, F, F, W),))  # 8 empty spaces, two landscapes facing them
    score = score_island(island)
    assert score.valid
    assert score.points.sum == -8
    assert score.total == 0


def test_first_out_bonus_only_for_the_first_and_only_when_valid():
    good = full_forest_island(3)
    bad = Island(3, (tile(0, 0, F, F, F, F),))
    turn = score_turn(Turn((PlayerIsland("A", good, first_out=True), PlayerIsland("B", bad))))
    assert turn.player("A").points.first_out == 4
    turn = score_turn(Turn((PlayerIsland("A", good), PlayerIsland("B", bad, first_out=True))))
    assert turn.player("B").total == 0 and turn.player("A").points.first_out == 0


def test_a_game_of_three_turns_adds_up_and_ties_share_the_win():
    rich = full_forest_island(3, animals_at=[(0, 0)])  # 25
    plain = full_forest_island(3)  # 24
    turns = (
        Turn((PlayerIsland("A", rich), PlayerIsland("B", plain))),
        Turn((PlayerIsland("A", plain), PlayerIsland("B", rich))),
        Turn((PlayerIsland("A", plain), PlayerIsland("B", plain))),
    )
    game = score_game(Game(turns))
    assert dict(game.totals) == {"A": 73, "B": 73}
    assert game.winners == ("A", "B")
    assert game.complete
    game = score_game(Game(turns[:2] + (Turn((PlayerIsland("A", rich), PlayerIsland("B", plain))),)))
    assert game.winners == ("A",)


@pytest.mark.parametrize("grid", [3, 4])
def test_landscape_areas_partition_the_island(grid):
    island = full_forest_island(grid)
    analysis = analyse_island(island)
    keys = [k for ls in analysis.landscapes for k in ls.areas]
    assert len(keys) == len(set(keys)) == sum(len(t.areas) for t in island.tiles)

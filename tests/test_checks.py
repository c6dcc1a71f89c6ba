"""Doubtful readings in a player's words (vision/mondo/checks.py): the wording of every kind of check,
the score with the runner-up reading on hand-built islands of known score, the report's ``checks``,
and a photo report fed back to `scorecam score`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from mondo_builders import F, P, W, full_forest_island, tile

from scorecam.errors import InputError
from scorecam.inputs import score_board_file
from scorecam.photos import PhotoIsland, photo_additions, score_photo_file
from scoring.mondo import Island
from vision.mondo.checks import (
    NO_KIT_TILE,
    OFF_GRID_TILE,
    SLANTED_TILE,
    TURNED_TILE,
    Check,
    island_score,
    settle,
)
from vision.mondo.reader import IslandReading

SAMPLE = "samples/mondo/mondo-s9900-00002.jpg"


def check(row, col, head, first, p1, second, p2) -> Check:
    return Check(row, col, head, ((first, p1), (second, p2)))


# ------------------------------------------------------------------------------------ wording


@pytest.mark.parametrize(
    ("head", "first", "second", "words"),
    [
        ("edge_E", "forest", "plains", "is the right edge forest or plains?"),
        ("edge_N", "water", "desert", "is the top edge water or desert?"),
        ("edge_S", "plains", "water", "is the bottom edge plains or water?"),
        ("edge_W", "desert", "forest", "is the left edge desert or forest?"),
        ("join_WN", "no", "yes", "are the left and top edges separate, or one connected area?"),
        ("join_ES", "yes", "no", "are the right and bottom edges one connected area, or separate?"),
        ("patch_desert", "1", "0", "how many desert patches touch no edge: 1 or none?"),
        ("animals", "0", "1", "does the tile show no animals or 1 animal?"),
        ("volcanoes", "2", "1", "does the tile show 2 volcanoes or 1 volcano?"),
        ("present", "empty", "tile", "is this space empty, or is there a tile?"),
        ("present", "tile", "empty", "is there a tile here, or is the space empty?"),
        ("face", "front", "back", "is the tile front or back side up?"),
    ],
)
def test_each_kind_of_check_asks_in_a_players_words(head, first, second, words):
    doubt = check(0, 1, head, first, 0.61, second, 0.37)
    assert doubt.question == words
    # counted from 1 (row 0, col 1 is row 1, tile 2), percentages of the reading used, then the other
    assert doubt.text == f"Row 1, tile 2: {words} (61% / 37%)"
    assert doubt.to_json()["row"] == 1 and doubt.to_json()["tile"] == 2


def test_a_tile_that_fits_no_kit_tile_has_no_readings():
    doubt = Check(2, 0, NO_KIT_TILE, ())
    assert (
        doubt.text
        == "Row 3, tile 1: this tile matches no tile of the kit (read part by part): please look at it"
    )
    assert doubt.to_json()["readings"] == [] and doubt.to_json()["total_if_second"] is None


def test_a_tile_turned_across_an_empty_space_asks_to_look_and_keeps_the_total():
    island = full_forest_island(3)
    (doubt,) = settle(Island(3, island.tiles[1:]), [Check(0, 0, TURNED_TILE, ())])
    assert doubt.text == (
        "Row 1, tile 1: read as empty, but a tile lies turned across this space: is a tile of the island "
        "under it, or is it a loose tile? please look"
    )
    assert doubt.total is not None and doubt.total_if_second is None and doubt.change is None


def test_a_slanted_tile_left_out_says_what_the_island_scores_with_it():
    island = full_forest_island(3)
    without = Island(3, island.tiles[1:])
    (doubt,) = settle(without, [Check(0, 0, SLANTED_TILE, ())], {(0, 0): island.tiles[0]})
    assert doubt.total == island_score(without)[0] and doubt.total_if_second == island_score(island)[0]
    assert doubt.change == island_score(island)[0] - island_score(without)[0] != 0
    assert doubt.text.startswith(
        "Row 1, tile 1: read as empty: the tile lying here is turned well off the island's grid, so it "
        "was taken for a loose tile; is it part of the island? please look — if part of the island: +"
    )


def test_a_tile_kept_though_it_lies_off_the_grid_says_what_the_island_scores_without_it():
    island = full_forest_island(3)
    (doubt,) = settle(island, [Check(0, 0, OFF_GRID_TILE, ())])
    without = Island(3, island.tiles[1:])
    assert doubt.total == island_score(island)[0] and doubt.total_if_second == island_score(without)[0]
    # two facing forest pairs fewer (-4), an empty space (-1)
    assert doubt.change == island_score(without)[0] - island_score(island)[0] == -5
    assert doubt.text == (
        "Row 1, tile 1: this tile lies turned further off the island's grid than a hand-laid tile does: "
        "is it part of the island, or a loose tile lying in a space the island leaves empty? please look "
        "— if loose: -5 points"
    )


# ------------------------------------------------------------------------------------ what if


FOREST = full_forest_island(3)  # 12 landscapes of two facing forest sides: 24 points


def settled(island: Island, doubt: Check, new_tiles=None) -> Check:
    (result,) = settle(island, [doubt], new_tiles)
    return result


def test_the_hand_built_island_scores_as_known():
    assert island_score(FOREST) == (24, True)


@pytest.mark.parametrize(
    ("doubt", "total", "words"),
    [
        # the middle's right edge plains: a misconnection (-1) and its landscape lost (-2)
        (check(1, 1, "edge_E", "forest", 0.61, "plains", 0.37), 21, "— if plains: -3 points"),
        (check(1, 1, "animals", "0", 0.6, "1", 0.4), 25, "— if 1 animal: +1 point"),
        # alone, an island has the most volcanoes
        (check(1, 1, "volcanoes", "0", 0.6, "1", 0.4), 23, "— if 1 volcano: -1 point"),
        (check(1, 1, "patch_forest", "0", 0.6, "1", 0.4), 26, "— if 1 patch: +2 points"),
        # the middle's top and right forests one area: two landscapes become one
        (check(1, 1, "join_NE", "no", 0.6, "yes", 0.4), 22, "— if joined: -2 points"),
        # no middle tile: 4 landscapes face the empty space, and the space costs 1
        (check(1, 1, "present", "tile", 0.6, "empty", 0.4), 15, "— if empty: -9 points"),
        (check(1, 1, "face", "front", 0.6, "back", 0.4), 24, "— if back side up: no change to the score"),
        (
            check(0, 0, "edge_N", "water", 0.6, "forest", 0.4),
            0,
            "— if forest: -24 points (the island would break the water rule)",
        ),
    ],
)
def test_the_score_with_the_second_reading(doubt, total, words):
    result = settled(FOREST, doubt)
    assert result.total == 24
    assert result.total_if_second == total
    assert result.change == total - 24
    assert result.text.endswith(words)
    assert result.to_json()["total_if_second"] == total and result.to_json()["change"] == total - 24


def test_an_empty_space_read_as_a_tile_takes_the_decoders_likeliest_tile():
    middle = FOREST.tile_at(1, 1)
    holed = Island(3, tuple(t for t in FOREST.tiles if t.cell != (1, 1)))
    assert island_score(holed) == (15, True)
    doubt = check(1, 1, "present", "empty", 0.7, "tile", 0.3)
    result = settled(holed, doubt, {(1, 1): middle})
    assert (result.total, result.total_if_second) == (15, 24)
    assert result.text == (
        "Row 2, tile 2: is this space empty, or is there a tile? (70% / 30%) — if a tile: +9 points"
    )
    assert settled(holed, doubt).not_possible  # no tile to imagine there


def test_a_second_reading_that_makes_no_possible_tile_says_why():
    # the corner's top (water) and right (forest) edges cannot be one area
    result = settled(FOREST, check(0, 0, "join_NE", "no", 0.6, "yes", 0.4))
    assert result.total_if_second is None and result.change is None
    assert result.text.endswith("— if joined: not possible (they show different terrains)")
    assert result.to_json()["not_possible"] == "they show different terrains"
    # top, right and bottom in one area: top and bottom stay joined through the right edge
    bend = tile(1, 1, F, F, F, F, areas=[(F, "NES"), (F, "W")])
    island = Island(3, tuple(bend if t.cell == (1, 1) else t for t in FOREST.tiles))
    result = settled(island, check(1, 1, "join_NS", "yes", 0.6, "no", 0.4))
    assert result.not_possible == "they join through another edge of the tile"


def test_an_invalid_island_stays_invalid_says_so():
    broken = Island(3, tuple(tile(0, 0, F, F, F, W) if t.cell == (0, 0) else t for t in FOREST.tiles))
    assert island_score(broken) == (0, False)
    result = settled(broken, check(1, 1, "edge_E", "forest", 0.6, "plains", 0.4))
    assert result.text.endswith(
        "— if plains: no change to the score (the island still breaks the water rule)"
    )
    # and the reading that mends it gives the island its score back
    result = settled(broken, check(0, 0, "edge_N", "forest", 0.6, "water", 0.4))
    assert (result.total_if_second, result.valid_if_second) == (24, True)
    assert result.text.endswith("— if water: +24 points")


def test_a_plains_misreading_of_a_facing_pair():
    # a tile's right edge read plains against a forest neighbour; read forest, the pair scores again
    misread = tile(1, 1, F, P, F, F)
    island = Island(3, tuple(misread if t.cell == (1, 1) else t for t in FOREST.tiles))
    assert island_score(island) == (21, True)
    result = settled(island, check(1, 1, "edge_E", "plains", 0.61, "forest", 0.37))
    assert (
        result.text == "Row 2, tile 2: is the right edge plains or forest? (61% / 37%) — if forest: +3 points"
    )


# ---------------------------------------------------------------------------------- the report


def test_the_report_carries_the_checks_in_order(tmp_path):
    doubts = settle(
        FOREST,
        [check(1, 1, "animals", "0", 0.6, "1", 0.4), check(2, 0, "edge_E", "forest", 0.61, "plains", 0.37)],
    )
    quads = np.zeros((9, 4, 2), np.float32)
    reading = IslandReading(FOREST, ("a note", *(d.text for d in doubts)), (), 3, quads[0], quads, {}, doubts)
    report = photo_additions(PhotoIsland(tmp_path / "x.jpg", FOREST, reading, {"decode": 1.0}), 0.5)
    assert report["flags"] == ["a note", *(d.text for d in doubts)]
    assert report["status"] == "check"
    assert [(c["row"], c["tile"]) for c in report["checks"]] == [(2, 2), (3, 1)]
    assert report["checks"][1] == {
        "row": 3,
        "tile": 1,
        "head": "edge_E",
        "question": "is the right edge forest or plains?",
        "readings": [{"reading": "forest", "p": 0.61}, {"reading": "plains", "p": 0.37}],
        "total_if_second": 21,
        "change": -3,
        "valid_if_second": True,
        "not_possible": None,
        "text": doubts[1].text,
    }
    json.dumps(report)  # all plain JSON


def test_a_photo_report_scores_again_and_after_a_fix(root, tmp_path):
    report, _ = score_photo_file(root / SAMPLE)
    player = report["players"][0]
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    again = score_board_file(saved)
    assert again["players"][0]["total"] == player["total"]
    assert again["players"][0]["name"] == player["name"]  # the report's player, not the file's name

    # the player fixes one tile (one more animal on it) and scores the report again
    fixed = json.loads(saved.read_text())
    fixed["board"]["tiles"][0]["animals"] += 1
    saved.write_text(json.dumps(fixed))
    expected = score_board_file(_board_only(tmp_path, fixed["board"]))["players"][0]["total"]
    assert score_board_file(saved)["players"][0]["total"] == expected == player["total"] + 1


def _board_only(tmp_path: Path, board: dict) -> Path:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    return path


def test_the_reports_of_several_photos_say_what_to_do(tmp_path):
    board = {"format": 1, "game": "mondo", "grid": 3, "tiles": []}
    reports = [{"format": 1, "game": "mondo", "board": board, "source": f"{name}.jpg"} for name in "ab"]
    both = tmp_path / "both.json"
    both.write_text(json.dumps(reports))
    with pytest.raises(InputError, match="holds the reports of 2 photos; score one report at a time"):
        score_board_file(both)

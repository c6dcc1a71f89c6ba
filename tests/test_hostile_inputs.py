"""Hostile and broken inputs (issue 13, item 10): each defect the fuzz found, one test each.

Every bad input ends in one line ``scorecam: FILE: reason`` and exit 3 (4 for a photo with no
board), never in a traceback, a hang or unbounded memory; what is printed can always be encoded.
"""

from __future__ import annotations

import io
import json
import os
import struct

import cv2
import numpy as np
import pytest
from fuzz_inputs import SAMPLE_PHOTO, SURROGATE, png_declaring, run_cli, sample_truth_total, time_limit

from scorecam.errors import InputError
from scorecam.inputs import MAX_JSON_BYTES, read_json
from scoring.errors import BoardFormatError, shown
from scoring.mediterraneo import Match
from scoring.mondo import PlayerIsland, Turn, score_turn, turn_score_to_json
from scoring.mondo.turn import MAX_PLAYERS
from vision.errors import PhotoError
from vision.photo_io import decode_photo

DEEP = "[" * 10_000 + "]" * 10_000
EDGES = {"N": "water", "E": "water", "S": "water", "W": "water"}


def island(**extra) -> dict:
    return {"format": 1, "game": "mondo", "grid": 3, "tiles": [], **extra}


def turn_of(names: list, **island_keys) -> dict:
    body = {"grid": 3, "tiles": [{"row": 1, "col": 1, "edges": EDGES}], **island_keys}
    return {"format": 1, "game": "mondo", "players": [{"name": n, "island": body} for n in names]}


def score_text(tmp_path, text: str | bytes, *options: str, name: str = "board.json", seconds: float = 20):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    result = run_cli(["score", *options, str(path)], seconds)
    assert not result.crash, result.crash
    assert "Traceback" not in result.err and not result.noise.strip()
    return result


def refused(result, words: str) -> str:
    """The one line of a refused input; it holds ``words``."""
    assert result.code == 3, (result.code, result.err)
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scorecam: "), result.err
    assert words in lines[0], lines[0]
    return lines[0]


# --- JSON that the parser itself cannot survive --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        DEEP,
        json.dumps(island()).replace('"tiles": []', f'"tiles": {DEEP}'),
        json.dumps(turn_of(["Anna"])).replace('"Anna"', DEEP),
        '{"a":' * 10_000 + "1" + "}" * 10_000,
        "[" * 33 + "]" * 33,  # deeper than any board, yet shallow enough for the parser
    ],
    ids=["array", "in-tiles", "as-player-name", "objects", "33-deep"],
)
def test_deep_nesting_is_one_line(tmp_path, text):
    refused(score_text(tmp_path, text), "nested too deep")


def test_a_5000_digit_number_is_one_line(tmp_path):
    text = json.dumps(island()).replace('"grid": 3', '"grid": ' + "9" * 5000)
    refused(score_text(tmp_path, text), "a number with 5,000 digits")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_numbers(tmp_path, constant):
    text = json.dumps(island()).replace('"grid": 3', f'"grid": {constant}')
    refused(score_text(tmp_path, text), f"{constant} is not a JSON number")


def test_a_float_too_large_for_a_float(tmp_path):
    refused(score_text(tmp_path, json.dumps(island()).replace('"grid": 3', '"grid": 1e999')), "too large")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(50_000_000)  # sparse: nothing to write, 50 MB to read
    with pytest.raises(InputError, match="too large for a board file") as error:
        read_json(path)
    assert f"at most {MAX_JSON_BYTES:,}" in error.value.reason


def test_a_pipe_named_like_a_board_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(InputError, match="not a regular file"), time_limit(5):  # opening it would wait
        read_json(tmp_path / "pipe.json")


def test_links_to_themselves_and_to_nothing(tmp_path):
    os.symlink("loop.json", tmp_path / "loop.json")
    os.symlink("gone.json", tmp_path / "dangling.json")
    with pytest.raises(InputError, match="too many levels of symbolic links"):
        read_json(tmp_path / "loop.json")
    with pytest.raises(InputError, match="a broken link"):
        read_json(tmp_path / "dangling.json")


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(island()).encode())
    assert read_json(path)["grid"] == 3


# --- wrong types everywhere -----------------------------------------------------------------------


def test_a_match_player_that_is_an_object(tmp_path):
    match = {"players": [{"a": 1}, "b"], "cards": {}, "first": "b"}
    text = json.dumps({"format": 1, "game": "mediterraneo", "match": match})
    refused(score_text(tmp_path, text), "a match has two differently named players, got [{'a': 1}, 'b']")
    with pytest.raises(BoardFormatError, match="two differently named players"):
        Match(([], "b"), (), "b")


@pytest.mark.parametrize(
    "tile, words",
    [
        (
            {"row": 0, "col": 0, "edges": EDGES, "areas": [{"terrain": "water", "sides": [{}]}]},
            "unknown side {}",
        ),
        (
            {"row": 0, "col": 0, "edges": EDGES, "areas": [{"terrain": "water", "sides": [["N"]]}]},
            "unknown side",
        ),
        (
            {
                "row": 0,
                "col": 0,
                "edges": EDGES,
                "component": {"id": "T1", "face": "front", "rotation": False},
            },
            "rotation",
        ),
        (
            {
                "row": 0,
                "col": 0,
                "edges": EDGES,
                "component": {"id": "T1", "face": "front", "rotation": 90.0},
            },
            "rotation",
        ),
        (
            {"row": 0, "col": 0, "edges": {**EDGES, "N": {"terrain": "water"}}},
            "unknown terrain {'terrain': 'water'}",
        ),
    ],
    ids=["side-object", "side-list", "rotation-false", "rotation-float", "terrain-object"],
)
def test_wrong_types_in_a_tile(tmp_path, tile, words):
    refused(score_text(tmp_path, json.dumps(island(tiles=[tile]))), words)


@pytest.mark.parametrize("grid", [3.0, True, "3", [3]])
def test_a_grid_that_is_not_a_whole_number(tmp_path, grid):
    refused(score_text(tmp_path, json.dumps(island(grid=grid))), "grid must be one of 3, 4")


# --- lone surrogates and names that are not UTF-8 -------------------------------------------------


@pytest.mark.parametrize("options", [(), ("--json",)], ids=["table", "json"])
def test_a_lone_surrogate_in_a_player_name_is_printed_escaped(tmp_path, options):
    result = score_text(tmp_path, json.dumps(turn_of([SURROGATE, "Anna"])), *options)
    assert result.code == 0, result.err
    if options:  # escaped, never the unencodable character
        assert [p["name"] for p in json.loads(result.out)["players"]] == ["Pe\\ud800ter", "Anna"]
    else:
        assert "Pe\\ud800ter" in result.out


def test_a_lone_surrogate_written_raw_is_not_utf8(tmp_path):
    raw = json.dumps(turn_of([SURROGATE]), ensure_ascii=False)
    refused(score_text(tmp_path, raw), "not a text file")


def test_a_file_name_that_is_not_utf8_names_its_player_escaped(tmp_path):
    folder = os.fsencode(tmp_path)
    path = os.fsdecode(folder + b"/Anna-\xe4.json")
    with open(path, "w") as file:
        json.dump(island(), file)
    result = run_cli(["score", "--json", path], 20)
    assert result.code == 0 and not result.crash, result.crash or result.err
    assert json.loads(result.out)["players"][0]["name"] == "Anna-\\xe4"
    os.remove(path)
    missing = run_cli(["score", path], 20)
    assert missing.code == 3 and missing.err.strip().endswith("Anna-\\xe4.json: no such file")


# --- limits that keep time and memory bounded -----------------------------------------------------


def test_a_turn_of_8000_players_is_refused_at_once(tmp_path):
    text = json.dumps(turn_of([f"p{i}" for i in range(8000)]))
    result = score_text(tmp_path, text, seconds=10)  # it once took 60 s, 8 GB and wrote 1.4 GB
    refused(result, f"8,000 players in one turn; a turn has at most {MAX_PLAYERS} players")


def test_the_report_of_the_largest_turn_stays_small(tmp_path):
    """50 players, every one tied for the most volcanoes: each names the others, 50 x 50 names."""
    volcanic = {"row": 1, "col": 1, "edges": {s: "forest" for s in "NESW"}, "volcanoes": 1}
    text = json.dumps(turn_of([f"p{i}" for i in range(MAX_PLAYERS)], tiles=[volcanic]))
    result = score_text(tmp_path, text, "--json")
    report = json.loads(result.out)
    assert result.code == 0 and len(report["players"]) == MAX_PLAYERS
    assert all(p["points"]["volcanoes"] == -1 for p in report["players"])
    assert len(result.out) < 2_000_000


def test_a_turn_built_in_code_has_the_same_limit():
    player = turn_of(["x"])["players"][0]["island"]
    from scoring.mondo import island_from_json

    built = island_from_json(player, header_required=False)
    players = tuple(PlayerIsland(f"p{i}", built) for i in range(MAX_PLAYERS + 1))
    with pytest.raises(BoardFormatError, match=f"at most {MAX_PLAYERS} players"):
        Turn(players)
    report = turn_score_to_json(score_turn(Turn(players[:MAX_PLAYERS])))
    assert len(report["players"]) == MAX_PLAYERS


@pytest.mark.parametrize(
    "board, words",
    [
        (island(tiles=[{}] * 100_000), "100,000 tiles: a 3x3 island holds at most 9 tiles"),
        (
            island(
                tiles=[
                    {"row": 0, "col": 0, "edges": EDGES, "areas": [{"terrain": "desert", "sides": []}] * 500}
                ]
            ),
            "500 areas; a tile has at most",
        ),
        (
            {"format": 1, "game": "mondo", "turns": [{"players": []}] * 1000},
            "a game has 1 to 3 turns, not 1,000",
        ),
        (
            {"format": 1, "game": "mediterraneo", "plays": [{}] * 5000},
            "5,000 plays; a play sequence has at most",
        ),
        (
            {"format": 1, "game": "mediterraneo", "cells": [{}] * 5000, "objectives": {}, "first": "a"},
            "5,000 cells; a sea has at most",
        ),
        (
            {
                "format": 1,
                "game": "mediterraneo",
                "match": {"players": ["a", "b"], "cards": {"a": ["C"] * 5000, "b": []}, "first": "a"},
            },
            "a has 5,000 cards; a player has at most",
        ),
        (
            {
                "format": 1,
                "game": "mediterraneo",
                "match": {"players": ["a", "b"], "cards": {}, "first": "a", "rounds": [{}] * 5000},
            },
            "5,000 rounds; a match record holds at most",
        ),
        ({"format": 1, "game": "x" * 2000}, "a text of 2,000 characters"),
    ],
    ids=["tiles", "areas", "turns", "plays", "cells", "cards", "rounds", "text"],
)
def test_limits_with_a_clear_message(tmp_path, board, words):
    refused(score_text(tmp_path, json.dumps(board), seconds=10), words)


# --- long values are cut in messages ------------------------------------------------------------


def test_a_megabyte_value_is_not_echoed_whole(tmp_path):
    tile = {
        "row": 0,
        "col": 0,
        "edges": EDGES,
        "component": {"id": "T1", "face": "front", "rotation": [7] * 300_000},
    }
    line = refused(score_text(tmp_path, json.dumps(island(tiles=[tile]))), "component rotation must be")
    assert len(line) < 300 + len(str(tmp_path)) and "…" in line


def test_messages_and_values_are_cut_and_printable():
    assert len(shown("y" * 1_000_000)) <= 80 and "…" in shown("y" * 1_000_000)
    assert len(shown(DEEP)) <= 80
    assert shown(SURROGATE) == "'Pe\\ud800ter'" and shown(SURROGATE).encode()  # repr escapes it
    error = BoardFormatError("start " + "z" * 1_000_000 + " end\nsecond line")
    assert len(str(error)) <= 400 and str(error).startswith("start ") and str(error).endswith("second line")
    assert "\n" not in str(error)
    long = InputError("x" * 5000 + ".json", "r" * 5000)
    assert len(str(long)) < 800 and str(long).encode("utf-8")


# --- photos: what the libraries say, and images that are not photos ------------------------------


def test_libjpeg_warnings_do_not_reach_the_terminal(capfd):
    data = SAMPLE_PHOTO.read_bytes()
    glued = data[: len(data) // 3] + b"\xff\xd9"  # cut, with the end marker put back: premature end
    photo = decode_photo(glued)
    assert capfd.readouterr().err == ""
    assert photo.notes == (
        "damaged JPEG data: premature end of data segment; parts of the photo may be missing",
    )


def test_a_damaged_photo_says_what_the_decoder_saw(tmp_path):
    data = SAMPLE_PHOTO.read_bytes()
    result = score_text(tmp_path, data[:2000] + b"\xff\xd9", name="cut.jpg")
    assert result.code in (3, 4) and len(result.err.splitlines()) == 1
    assert "premature end of data segment" in result.err


def test_a_photo_read_through_damage_is_scored_but_flagged(tmp_path):
    data = SAMPLE_PHOTO.read_bytes()
    cut = data[: len(data) * 97 // 100] + b"\xff\xd9"  # the last rows of the photo are lost
    result = score_text(tmp_path, cut, "--json", name="cut.jpg")
    report = json.loads(result.out)
    assert result.code == 0 and report["status"] == "check"
    assert report["flags"][0].startswith("Damaged JPEG data: premature end of data segment")
    assert report["players"][0]["total"] == sample_truth_total()  # the island is above the damage


def test_pillow_warnings_on_a_corrupt_tiff_become_the_reason(capfd):
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.full((64, 80, 3), 100, np.uint8)).save(buffer, format="TIFF")
    tiff = bytearray(buffer.getvalue())
    (offset,) = struct.unpack("<I", tiff[4:8])
    for entry in range(struct.unpack("<H", tiff[offset : offset + 2])[0]):
        at = offset + 2 + 12 * entry
        if struct.unpack("<H", tiff[at : at + 2])[0] == 258:  # BitsPerSample: claim a million of them
            tiff[at + 4 : at + 8] = struct.pack("<I", 1_000_000)
    with pytest.raises(PhotoError, match="damaged TIFF file .*Tag data larger than file"):
        decode_photo(bytes(tiff))
    assert capfd.readouterr().err == ""


def test_an_empty_png_is_not_called_truncated():
    with pytest.raises(PhotoError, match=r"^an empty image \(0 x 0 px\)$"):
        decode_photo(png_declaring(0, 0))


@pytest.mark.parametrize("shape", [(64, 80), (64, 80, 3)], ids=["grey", "colour"])
def test_a_floating_point_tiff_is_not_called_truncated(capfd, shape):
    data = cv2.imencode(".tiff", np.random.default_rng(1).random(shape, np.float32))[1].tobytes()
    with pytest.raises(PhotoError, match=r"^a floating-point TIFF \(measurements, not a photo\)$"):
        decode_photo(data)
    assert capfd.readouterr().err == ""


def test_a_heic_photo_scores_its_true_total(tmp_path):
    """A HEIC (many phones' default) written by pillow-heif from a sample photo reads like the JPEG."""
    import pillow_heif
    from PIL import Image

    with Image.open(SAMPLE_PHOTO) as sample:
        smaller = sample.resize((sample.width * 7 // 10, sample.height * 7 // 10), Image.LANCZOS)
    buffer = io.BytesIO()
    pillow_heif.from_pillow(smaller).save(buffer, quality=90, enc_params={"preset": "ultrafast"})
    result = score_text(tmp_path, buffer.getvalue(), "--json", name="island.heic", seconds=60)
    assert result.code == 0, result.err
    assert json.loads(result.out)["players"][0]["total"] == sample_truth_total()

"""The second locator net: asked only where the first net's reading asks for a check, and kept only
where its reading has fewer doubts (`vision.mondo.reader.read_photo_island`). The photos are stress
photos of the development seed 9613, drawn again by the simulator, on which the first net alone
reads a wrong score (flagged) and the two together read the truth's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.mondo import Island, score_turn, single_island_turn
from vision.errors import PhotoError
from vision.mondo import reader
from vision.mondo.reader import PhotoReading, read_photo_island, read_with_locator
from vision.photo_io import decode_photo
from vision.synth.dataset import make_scene
from vision.synth.world import World


def _total(result: PhotoReading) -> int | None:
    if result.reading is None or result.refusal is not None:
        return None
    return score_turn(single_island_turn("island", result.reading.island)).players[0].total


def _stress_photo(index: int):
    scene = make_scene("mondo", 9613, index, 4000, world=World(stress=True))
    return decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]


@pytest.mark.parametrize(
    ("index", "what_the_first_net_does"),
    [
        (188, "a grid off the island on a hard-shadowed table: a wrong score, flagged"),
        (2, "no island found: a sparse island on stone under glare"),
    ],
)
def test_the_second_net_reads_what_the_first_misses(index, what_the_first_net_does):
    photo, truth = _stress_photo(index)
    first = read_with_locator(photo, grid=3)
    assert reader._asks_to_look(first)
    assert _total(first) != truth, what_the_first_net_does
    both = read_photo_island(photo, grid=3)
    assert _total(both) == truth


def test_without_the_second_net_the_first_reading_stands(monkeypatch):
    photo, _ = _stress_photo(188)
    first = read_with_locator(photo, grid=3)
    monkeypatch.setattr(reader, "SECOND_LOCATOR", "no-such-locator.onnx")
    assert reader.second_locator() is None
    alone = read_photo_island(photo, grid=3)
    assert _total(alone) == _total(first)
    assert alone.reading.flags == first.reading.flags


@pytest.fixture(scope="module")
def some_reading():
    photo, _ = _stress_photo(188)
    return read_with_locator(photo, grid=3).reading


def _result(base, flags: int, refusal: str | None = None, tiles: int = 9) -> PhotoReading:
    """`base` with `flags` flags, an island of its first `tiles` tiles, and a refusal or none: what
    the choice between two readings looks at."""
    island = Island(base.island.grid, base.island.tiles[:tiles])
    reading = replace(base, island=island, flags=tuple(f"flag {i}" for i in range(flags)))
    return PhotoReading(reading, None, PhotoError(refusal, kind="no_board") if refusal else None, ())


def test_the_reading_with_fewer_doubts_is_kept(some_reading):
    def result(*args, **kwargs):
        return _result(some_reading, *args, **kwargs)

    assert reader._fewer_doubts(result(1), result(3))
    assert not reader._fewer_doubts(result(3), result(3))  # a tie keeps the first net's
    assert not reader._fewer_doubts(result(0, refusal="no island found"), result(2))
    # an island where the first found none; but two islands, or one cut by the edge, stand
    assert reader._fewer_doubts(result(2), result(0, refusal="no island found", tiles=1))
    assert not reader._fewer_doubts(result(0), result(0, refusal="2 islands in one photo"))


def test_the_time_of_both_looks_is_reported(some_reading):
    first = replace(some_reading, timing_ms={"locate": 10.0, "crop": 1.0, "model": 2.0, "catalog": 3.0})
    second = replace(some_reading, timing_ms={"locate": 20.0, "crop": 4.0, "model": 5.0, "catalog": 6.0})
    kept = reader.with_time_of(PhotoReading(second, None, None, ()), PhotoReading(first, None, None, ()))
    assert kept.reading.timing_ms == {"locate": 30.0, "crop": 5.0, "model": 7.0, "catalog": 9.0}
    assert kept.reading.island == second.island
    no_island = PhotoReading(None, None, PhotoError("no island found in the photo", kind="no_board"), ())
    assert (
        reader.with_time_of(PhotoReading(second, None, None, ()), no_island).reading.timing_ms
        == second.timing_ms
    )

"""A tile lying turned across a space read as empty is asked about (vision.mondo.turned): a loose
tile dropped on the island may hide a tile of it, and "empty" would be a wrong score nobody is told
about. A space that is really empty asks nothing."""

from dataclasses import replace

import numpy as np
from test_mondo_reader import _island_pieces

from vision.mondo.checks import TURNED_TILE
from vision.mondo.reader import read_photo_island
from vision.synth.photo import PhotoStyle, photograph


def _read(pieces):
    shot = photograph(
        pieces,
        np.random.default_rng(7),
        subject_mm=(-30, -30, 190, 190),
        long_side_px=1600,
        style=PhotoStyle(table="felt", span=0.6),
    )
    return read_photo_island(shot.image, grid=3)


def test_a_loose_tile_lying_turned_on_a_space_is_asked_about():
    island = _island_pieces(4, 0)
    gap = island.pop(5)  # the middle of the east column: a space the island surrounds on three sides
    empty = _read(island)
    assert empty.refusal is None and len(empty.reading.island.tiles) == 8
    assert not [c for c in empty.reading.checks if c.head == TURNED_TILE]

    loose = replace(island[0], center_mm=gap.center_mm, angle_deg=32.0)
    covered = _read([*island, loose])
    assert covered.refusal is None
    assert [(t.cell, t.component) for t in covered.reading.island.tiles] == [
        (t.cell, t.component) for t in empty.reading.island.tiles
    ]  # the turned tile is read as no tile of the island ...
    (check,) = [c for c in covered.reading.checks if c.head == TURNED_TILE]
    space = (check.row, check.col)
    assert covered.reading.island.tile_at(*space) is None  # ... on the space it lies on,
    assert check.text in covered.reading.flags and "please look" in check.text  # and the player is asked

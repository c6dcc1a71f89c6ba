"""A simulated Mondo photo read as `scorecam score` reads it, for tests that pin one photo whose
reading once went wrong."""

from __future__ import annotations


def read_scene(seed: int, index: int, grid: int = 3):
    """(the reader's result, its island's player report, the truth's player report) of photo
    ``index`` of the Mondo set of ``seed``, made at 4000 px as `scorecam synth` makes it."""
    from scoring.mondo import score_turn, single_island_turn
    from vision.mondo.reader import read_photo_island
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene

    scene = make_scene("mondo", seed, index, 4000)
    result = read_photo_island(decode_photo(scene.jpeg), grid=grid)
    player = score_turn(single_island_turn("island", result.reading.island)).players[0]
    return result, player, scene.truth["report"]["players"][0]

"""A mat region read where the locator found it, then turned off its axis and looked at closer
(``vision.snorkeling.closer_look``): the Snorkeling reader's tests of the closer look share it."""

from __future__ import annotations

from dataclasses import replace

from vision.snorkeling.candidates import candidates
from vision.snorkeling.closer_look import look_around
from vision.snorkeling.reader import _read_spots


def turned_and_looked_at(model, photo, found, region, turn: float, mat_long: float):
    """(the mat probabilities of ``region`` read where it lies, of each spot of it turned ``turn``
    degrees, and the closer look's candidates and probabilities for it turned)."""
    none = model.heads["mat"].index("none")
    plain = candidates([region.spot], mat_long)
    read = _read_spots(model, photo, [c.spot for c in plain], plain, mat_long)["mat"]
    turned = replace(region, spot=replace(region.spot, angle=region.spot.angle + turn))
    looks = candidates([turned.spot], mat_long)
    sure = 1.0 - _read_spots(model, photo, [c.spot for c in looks], looks, mat_long)["mat"][:, none]
    more, probs = look_around(model, photo, replace(found, mats=(turned,)), looks, sure, mat_long)
    return read, sure, more, probs

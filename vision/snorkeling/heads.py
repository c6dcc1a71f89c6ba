"""The card model's heads and labels (the model file's metadata repeats them; the reader reads those)."""

from __future__ import annotations

MAT_LABELS = ("none", "1", "2", "3", "4", "5", "6")  # none: not a diver mat (the centre, a hand, the deck)
VALUE_LABELS = ("0", "1", "2", "3", "4", "5")  # 5: the Lanternfish
COLOR_LABELS = ("red", "yellow", "green", "blue", "purple", "none")  # none: the Lanternfish
HEADS = {"mat": MAT_LABELS, "value": VALUE_LABELS, "color": COLOR_LABELS}
LOCATOR_CHANNELS = ("mats", "centre")  # the mats' regions; the central pile's top card
HEADER_HEADS = {"number": MAT_LABELS}  # the header model: a mat's numeral in a header disc, or none

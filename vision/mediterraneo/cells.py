"""What the cell model says about one lattice cell, and the labels of its heads.

The labels are recorded in the model file's metadata, which the reader reads; these constants are
what training writes there (and what a test checks the shipped file against).
"""

from __future__ import annotations

from scoring.mediterraneo.sea import SPECIES

# "none": no sea card shows in the cell (table, an objective card, a loose card)
CONTENT_LABELS: tuple[str, ...] = (*SPECIES, "octopus", "seagull", "none")
# the side an octopus's tentacles point at, in the crop's frame (N = up)
POINT_LABELS: tuple[str, ...] = ("N", "E", "S", "W")
FRAME_LABELS: tuple[str, ...] = ("circle", "square", "none")
HEADS: dict[str, tuple[str, ...]] = {"content": CONTENT_LABELS, "points": POINT_LABELS, "frame": FRAME_LABELS}

"""Rules engines: symbolic boards in, score reports out.

Pure Python by design (no numpy, no OpenCV): a board read from a photo and a board typed by hand
are the same values, and the engines never know where a board came from.

- :mod:`scoring.mondo`: islands, turns and games of Mondo.
- :mod:`scoring.mediterraneo`: seas, objectives, rounds, matches and card placement of Mediterráneo.
- :mod:`scoring.boards`: read any board JSON and score it.
"""

from scoring.errors import BoardFormatError

__all__ = ["BoardFormatError"]

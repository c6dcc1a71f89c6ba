"""scorecam: photograph the table, get the score.

The application layer: command line, batch work and reports. It calls :mod:`vision` to read photos
and :mod:`scoring` to score boards; neither of them knows about it.
"""

__version__ = "0.1.0"

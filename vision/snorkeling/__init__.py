"""The Snorkeling reader: a photo of the table at the end of a round -> each diver's top card."""

from vision.snorkeling.reader import RoundReading, read_round

__all__ = ["RoundReading", "read_round"]

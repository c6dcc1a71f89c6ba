"""The Mediatore reader: a photo of one side's won cards -> every card whose corner index shows."""

from vision.mediatore.reader import CardRead, CardsReading, read_cards

__all__ = ["CardRead", "CardsReading", "read_cards"]

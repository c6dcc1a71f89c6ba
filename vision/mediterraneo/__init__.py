"""The Mediterráneo sea reader: a photo in, the visible cells of the sea out (``reader.read_sea``)."""

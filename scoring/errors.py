"""The one error the rules engines raise for input that breaks a board format."""


class BoardFormatError(ValueError):
    """A board, turn or play sequence that breaks its JSON format or cannot exist.

    The message is one line a person can act on, e.g.
    ``tile (0, 2): side E is reached by two areas (forest, plains)``.
    The application prefixes the file name.
    """

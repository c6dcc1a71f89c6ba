"""Why a photo could not be read. The application turns these into one-line messages and exit codes."""


class PhotoError(Exception):
    """A photo that cannot be read as a board; ``kind`` says which exit code applies.

    kinds: ``unreadable`` (not an image, truncated, too large), ``no_board`` (no board in it, or too
    small to hold one), ``several_boards`` (more than one island: one photo per island, please).
    """

    def __init__(self, reason: str, kind: str = "unreadable") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


class ModelFileError(RuntimeError):
    """A model file that is missing or not a scorecam model (an installation problem, not a photo's)."""

"""The web app's refusal: an HTTP status and one line a player can act on."""

from __future__ import annotations

from scoring.errors import cut, printable


class WebError(Exception):
    """Raised by the service, answered by the app as ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = cut(printable(" ".join(str(message).split())), 500)

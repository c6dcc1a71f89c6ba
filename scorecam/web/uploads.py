"""Uploads: a hard limit on every request body, and the names a server gives to what it keeps.

The limit is enforced while the body arrives (an ASGI wrapper around ``receive``), before any
multipart parsing spools it anywhere: a client that sends more, with or without a Content-Length,
gets a 413 and the server reads no further. What a photo is, is told by its bytes
(`vision.photo_io`), never by its name; the client's file name is only shown, never used as a path.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import Any

from scoring.errors import cut, printable

MAX_PHOTO_BYTES = 25 * 1024 * 1024  # 25 MB: a 48 MP phone JPEG or HEIC is well under this
MAX_BODY_BYTES = MAX_PHOTO_BYTES + 256 * 1024  # the photo and the multipart wrapping around it
NAME_CHARS = 100  # a client's file name as shown
SUFFIX_OF_FORMAT = {
    "JPEG": ".jpg",
    "PNG": ".png",
    "WEBP": ".webp",
    "BMP": ".bmp",
    "TIFF": ".tif",
    "HEIF": ".heic",
}


def too_large_message(limit: int = MAX_PHOTO_BYTES) -> str:
    return f"too large: an upload may have at most {limit // (1024 * 1024)} MB"


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: a request whose body passes ``limit`` bytes is answered 413 (one JSON line)."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _refuse(send)
            return
        seen = 0
        over = False  # the body passed the limit: whatever the app answers, the client gets a 413
        answered = started = False

        async def counted_receive() -> dict:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit and not started:
                    over = True
                    raise BodyTooLarge  # the app's body parser stops here (it may call it a 400)
            return message

        async def watched_send(message: dict) -> None:
            nonlocal answered, started
            if not over:
                started = True
                await send(message)
            elif not answered:
                answered = True
                await _refuse(send)

        with contextlib.suppress(BodyTooLarge):  # raised into the app's body parser, ends here
            await self.app(scope, counted_receive, watched_send)
        if over and not answered:
            await _refuse(send)


async def _refuse(send: Any) -> None:
    body = json.dumps({"error": too_large_message()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def shown_name(name: str | None) -> str:
    """A client's file name as the page shows it: its last part, printable, cut; never a path."""
    name = (name or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    name = "".join(ch if ch.isprintable() else "?" for ch in printable(name))
    return cut(name, NAME_CHARS) or "photo"


def server_name(suffix: str = "") -> str:
    """A fresh name for a stored file: random, so no client can guess or choose it."""
    return secrets.token_hex(16) + suffix

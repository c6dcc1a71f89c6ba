"""`scorecam serve`: the web app for the phones at the table (FastAPI on uvicorn, the `web` extra).

Nothing of the web stack is imported until the command runs, so `scorecam --help` stays fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

DB_NAME = "games.sqlite"


def default_db_path() -> Path:
    """Where games are kept unless --db says otherwise: the user's data folder, so that the same
    games are there whichever folder the server is started from."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "scorecam" / DB_NAME


@click.command("serve", short_help="the web app for phones: read, correct, keep whole games")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="address to listen on; 0.0.0.0 lets the phones on your network reach it",
)
@click.option(
    "--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port"
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help=f"the SQLite file the games are kept in (its photos go in FILE-photos/ beside it); default: "
    f"{DB_NAME} in the user's data folder (~/.local/share/scorecam on Linux)",
)
def serve(host: str, port: int, db: Path | None):
    """Serve the scorecam page: take a photo of an island with the phone, see the annotated picture
    and the score, tap a tile to correct it, and keep a whole game (three turns, every player) in a
    database. The JSON API is under /api/ and documented at /docs."""
    import logging
    import socket

    from scorecam.errors import Exit, InputError

    try:
        import uvicorn

        from scorecam.web.app import create_app
        from scorecam.web.store import StoreError
    except ImportError as error:
        raise InputError(
            "serve",
            f"needs the web extra ({error.name} is missing): .venv/bin/pip install -e '.[web]'",
            Exit.USAGE,
        ) from None
    db = db or default_db_path()
    try:
        listener = socket.create_server((host, port))
    except OSError as error:
        raise InputError(
            f"{host}:{port}",
            f"cannot listen there ({error.strerror or error}); pick another with --port",
            Exit.USAGE,
        ) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    try:
        app = create_app(db, preload_models=True)
    except StoreError as error:
        listener.close()
        raise InputError(str(db), str(error).removeprefix(f"{db}: "), Exit.UNREADABLE) from None
    port = listener.getsockname()[1]
    click.echo(f"scorecam serve: games kept in {db}")
    for line in addresses_to_open(host, port):
        click.echo(line)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info", timeout_graceful_shutdown=5))
    server.run(sockets=[listener])
    return int(Exit.SCORED)


def addresses_to_open(host: str, port: int) -> list[str]:
    """What to type on a phone (and a QR code of it, in the terminal, to scan instead)."""
    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        lines = [f"open http://{shown}:{port}/ in a browser on this machine"]
        if host.startswith("127.") or host == "localhost":
            lines.append("(phones cannot reach it: start it with --host 0.0.0.0 to play at the table)")
        return lines
    addresses = network_addresses()
    if not addresses:
        return [f"open http://<this machine's address>:{port}/ on a phone on the same network"]
    url = f"http://{addresses[0]}:{port}/"
    lines = [f"open {url} on a phone on the same network (or scan the code)"]
    lines += [f"  also http://{a}:{port}/" for a in addresses[1:]]
    return lines + qr_lines(url)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: those its own name resolves to, else the
    one the system would route from (a UDP socket's connect picks a route and sends nothing)."""
    import socket

    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found = sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})
    if found:
        return found
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address (RFC 5737): only the route is looked up
            address = probe.getsockname()[0]
    except OSError:
        return []
    return [] if address.startswith(("127.", "0.")) else [address]


def qr_lines(url: str) -> list[str]:
    """The URL as a QR code drawn with block characters (segno, of the web extra), or nothing."""
    try:
        import io

        import segno
    except ImportError:
        return []
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n").splitlines()

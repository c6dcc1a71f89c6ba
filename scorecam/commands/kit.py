"""`scorecam kit GAME`: scorecam's own print-and-play edition of a game."""

from __future__ import annotations

import json
from pathlib import Path

import click

from scorecam.commands.options import KIT_GAME


@click.command("kit", short_help="write a game's print-and-play kit: PNG faces, PDF cut sheets")
@click.argument("game", type=KIT_GAME, metavar="GAME")
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="folder to write into (default: kit-GAME in the current folder)",
)
def kit(game: str, out: Path | None):
    """Write scorecam's own edition of GAME (mondo, mediterraneo, snorkeling or mediatore): one PNG per component face at
    300 dpi, GAME-kit.pdf (A4 cut sheets for double-sided printing) and manifest.json."""
    from scorecam.errors import Exit
    from scorecam.progress import Progress
    from vision.synth.kit import write_kit

    out = out or Path(f"kit-{game}")
    bar = Progress(f"kit {game}", 0)
    if game == "snorkeling":  # cards and mats of two sizes: its own cut sheets
        from vision.synth.snorkeling_kit import write_snorkeling_kit

        manifest = write_snorkeling_kit(out, progress=bar)
    else:
        manifest = write_kit(game, out, progress=bar)
    bar.close()
    count = len(json.loads(manifest.read_text())["components"])
    click.echo(f"wrote {count} components ({2 * count} faces), {game}-kit.pdf and manifest.json to {out}")
    return int(Exit.SCORED)

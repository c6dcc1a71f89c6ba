"""`scorecam synth GAME`: simulated phone photos of finished boards, each with its truth JSON."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from scorecam.commands.options import GAME, IMAGE_SUFFIXES, jobs_option

LONG_SIDE_RANGE = (64, 4000)  # up to a 12 MP phone photo; below 64 px nothing is left to read
FAMILIES = "wood, plain, felt, cloth, tablecloth, patterned, mat, stone, tiled, paper, photo, noise"


def _long_side(ctx: click.Context, param: click.Parameter, value: int) -> int:
    lo, hi = LONG_SIDE_RANGE
    if not lo <= value <= hi:
        raise click.BadParameter(f"must be {lo} to {hi}, not {value}", ctx, param)
    return value


def _families(ctx: click.Context, param: click.Parameter, text: str | None) -> tuple[str, ...] | None:
    """'felt, Cloth' -> ('felt', 'cloth'); World checks the names."""
    if text is None:
        return None
    return tuple(name.strip().lower() for name in text.split(",") if name.strip())


def synth_world(
    *, stress: bool = False, tables=None, exclude_tables=None, terrain_hues: bool = False, **_: Any
):
    """The simulated world `scorecam synth` draws from, or None for the everyday one.
    Raises ValueError (unknown family, nothing left to draw from) for a usage message."""
    from vision.synth.world import HUED_FAMILIES, TABLE_FAMILIES, World

    if not (stress or tables is not None or exclude_tables or terrain_hues):
        return None
    world = World(
        stress=stress,
        tables=tables if tables is not None else TABLE_FAMILIES,
        exclude_tables=exclude_tables or (),
        terrain_hues=True if terrain_hues else None,
    )
    # World only finds this when the first photo is drawn, inside a worker: say it now.
    if world.terrain_hues and not set(world.families()) & HUED_FAMILIES:
        hued = ", ".join(f for f in TABLE_FAMILIES if f in HUED_FAMILIES)
        raise ValueError(f"--terrain-hues needs a table family whose colour is free ({hued})")
    return world


@click.command("synth", short_help="simulate phone photos of a game, each with its truth JSON")
@click.argument("game", type=GAME, metavar="GAME")
@click.option(
    "--n",
    "-n",
    "count",
    type=click.IntRange(min=1),
    default=16,
    show_default=True,
    metavar="N",
    help="number of photos",
)
@click.option("--seed", "-s", type=int, default=0, show_default=True, metavar="S", help="random seed")
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="folder to write into (default: synth-GAME in the current folder)",
)
@click.option(
    "--long-side",
    type=int,
    default=4000,
    callback=_long_side,
    metavar="PX",
    help="photo size, long side, 64 to 4000 (default 4000: 12 MP)",
)
@jobs_option("1", 1)
@click.option(
    "--contact-sheet",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="also write a grid of the first 16 photos to FILE (.jpg or .png)",
)
@click.option("--stress", is_flag=True, help="draw every condition from its hard end (the stress set)")
@click.option(
    "--tables",
    callback=_families,
    metavar="FAMILY[,FAMILY...]",
    help=f"only these table families ({FAMILIES})",
)
@click.option(
    "--exclude-tables", callback=_families, metavar="FAMILY[,FAMILY...]", help="never these table families"
)
@click.option("--terrain-hues", is_flag=True, help="only tables in the terrains' own colours")
def synth(
    game: str,
    count: int,
    seed: int,
    out: Path | None,
    long_side: int,
    jobs: int,
    contact_sheet: Path | None,
    **world_options: Any,
):
    """Write N simulated photos of GAME (mondo, mediterraneo, snorkeling or mediatore; JPEG) with a
    truth JSON beside each: the board, its score report, and where every component corner lies in
    the photo. The same seed gives the same files."""
    from scorecam.errors import Exit, InputError

    try:
        world = synth_world(**world_options)
    except ValueError as error:  # before any folder is made
        raise click.UsageError(str(error)) from None
    if contact_sheet is not None and contact_sheet.suffix.lower() not in IMAGE_SUFFIXES:
        raise click.BadParameter(
            f"{contact_sheet}: the sheet is a .jpg or .png file", param_hint="'--contact-sheet'"
        )
    out = out or Path(f"synth-{game}")

    import cv2

    from scorecam.progress import Progress
    from vision.synth.dataset import contact_sheet as sheet_of
    from vision.synth.dataset import write_photos

    bar = Progress(f"synth {game}", count)
    photos = write_photos(
        game, count, seed, out, long_side_px=long_side, jobs=jobs, progress=bar, world=world
    )
    bar.close()
    seconds = max(bar.elapsed, 1e-6)
    click.echo(
        f"wrote {len(photos)} photos with truth to {out} in {seconds:.1f} s "
        f"({len(photos) / seconds:.2f} photos/s, {jobs} process{'es' if jobs > 1 else ''})"
    )
    if contact_sheet is not None:
        contact_sheet.parent.mkdir(parents=True, exist_ok=True)
        try:
            # the JPEG quality only for a .jpg: OpenCV warns of a key it does not know for a .png
            quality = [] if contact_sheet.suffix.lower() == ".png" else [cv2.IMWRITE_JPEG_QUALITY, 85]
            written = cv2.imwrite(str(contact_sheet), sheet_of(photos), quality)
        except cv2.error:  # OpenCV 5 raises where OpenCV 4 returned False
            written = False
        if not written:
            raise InputError(str(contact_sheet), "cannot write an image there (use .jpg or .png)", Exit.USAGE)
        click.echo(f"contact sheet: {contact_sheet}")
    return int(Exit.SCORED)


def synth_options(argv: Sequence[str]) -> dict[str, Any]:
    """The options `scorecam synth ARGS` would run with (what the tests check the world against)."""
    with synth.make_context("synth", list(argv)) as ctx:
        return dict(ctx.params)

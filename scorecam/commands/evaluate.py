"""`scorecam eval DIR`: measure the photo reader on simulated photos with their truth."""

from __future__ import annotations

import json
from pathlib import Path

import click

from scorecam.commands.options import json_switch, refuse_folder_inputs


@click.command("eval", short_help="measure the photo reader on simulated photos with truth")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR")
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="also write the figures as JSON to FILE",
)
@json_switch("the figures (instead of the table)")
@click.option("--limit", "-n", type=click.IntRange(min=1), metavar="N", help="only the first N photos")
@click.option(
    "--grid",
    "-g",
    "grid_mode",
    type=click.Choice(["given", "detected"]),
    default="given",
    show_default=True,
    help="read each island with its game's grid size (3x3, or 4x4 for two players), or detect it",
)
def evaluate(folder: Path, out: Path | None, as_json: bool, limit: int | None, grid_mode: str):
    """Read every Mondo (or Mediterráneo) photo under DIR that has a truth JSON beside it (scorecam synth writes them)
    and report islands found, per-head accuracy, islands read exactly, exact scores (with and
    without the catalog), wrong scores left unflagged, right scores flagged, the median time per
    photo, and the figures per condition of the simulated world.

    A game states its grid size (the rulebook's game is 3x3; two players may play 4x4), and a player
    passes it (`scorecam score --grid 3`, `batch --grid`); `--grid detected` measures the reader
    guessing it, as `scorecam score` does without --grid."""
    from scorecam.errors import Exit, InputError
    from scorecam.eval_guard import NoTruthPhotos
    from scorecam.evaluate import eval_table
    from scorecam.evaluate import evaluate as measure
    from scorecam.photos import BOARD_SUFFIXES, PHOTO_SUFFIXES

    if out is not None:
        refuse_folder_inputs("--out", out, folder, PHOTO_SUFFIXES | BOARD_SUFFIXES)
    from scorecam import evaluate_mediterraneo as sea

    if sea.is_sea_folder(folder):  # Mediterráneo photos (and no Mondo ones): the sea reader's figures
        measure, eval_table = sea.evaluate, sea.eval_table
    from scorecam import evaluate_snorkeling as snorkeling

    if snorkeling.is_snorkeling_folder(folder):  # Snorkeling tables: the round reader's figures
        measure, eval_table = snorkeling.evaluate, snorkeling.eval_table
    from scorecam import evaluate_mediatore as cards

    if cards.is_mediatore_folder(folder):  # one side's won Mediatore cards: the card reader's figures
        measure, eval_table = cards.evaluate, cards.eval_table
    try:
        result = measure(folder, limit=limit, grid_given=grid_mode == "given")
    except NoTruthPhotos as error:  # only this: a stray ValueError of a reader is a bug, not "no board"
        raise InputError(str(folder), str(error).replace(f" under {folder}", ""), Exit.NO_BOARD) from None
    if as_json:
        click.echo(json.dumps(result, indent=1))
    else:
        click.echo(eval_table(result))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1) + "\n")
    return int(Exit.SCORED)

"""`scorecam batch DIR`: a whole folder of photos and boards into CSV and JSON lines."""

from __future__ import annotations

from pathlib import Path

import click

from scorecam.commands.options import grid_option, jobs_option

DEFAULT_CSV = "scorecam-results.csv"


@click.command("batch", short_help="score a whole folder of photos into CSV and JSON lines")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR")
@click.argument("more_objectives", nargs=-1, metavar="")  # `--objectives a b`: click hands b on here
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_CSV,
    show_default=True,
    metavar="CSV",
    help="the results table (in the current folder unless a path is given)",
)
@click.option(
    "--jsonl",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="full reports, one JSON per line (default: the CSV's name with .jsonl)",
)
@grid_option("the game's grid: 3 (the rulebook's), 4 (the two-player variant); else guessed per island")
@jobs_option("all cores; each process loads the models once", None)
@click.option("--resume", is_flag=True, help="keep what the output files hold and score only the rest")
@click.option(
    "--ray",
    is_flag=False,
    flag_value="auto",
    default=None,
    metavar="[ADDRESS]",
    help="run on Ray (the `ray` extra): a cluster's ADDRESS, or alone for a local Ray; put it after DIR",
)
@click.option(
    "--objectives",
    "objectives",
    multiple=True,
    metavar="OBJECTIVES",
    help="the objectives of the Mediterráneo sea photos, 'circle=PLUS/MINUS square=PLUS/MINUS' "
    "(a folder's objectives.txt wins over them)",
)
@click.option(
    "--first", type=click.Choice(["circle", "square"]), help="who chose a Mediterráneo objective first"
)
@click.option(
    "--game",
    type=click.Choice(["mediatore"]),
    help="mediatore: every photo is one side's won Mediatore cards (a folder's mediatore.txt says so too)",
)
@click.option(
    "--round",
    "round_words",
    multiple=True,
    metavar="'bid=KIND bidder=NAME last-trick=SIDE ...'",
    help="the Mediatore round the photos bidder.jpg / others.jpg of each folder settle, as a "
    "mediatore.txt holds it (a folder's mediatore.txt wins); implies --game mediatore",
)
def batch(
    folder: Path,
    out: Path,
    jsonl: Path | None,
    grid: int | None,
    jobs: int | None,
    resume: bool,
    ray: str | None,
    more_objectives: tuple[str, ...],
    objectives: tuple[str, ...],
    first: str | None,
    game: str | None,
    round_words: tuple[str, ...],
):
    """Score every photo and board under DIR. A sub-folder with several photos is one turn (players
    named after the files; a first.txt naming one of them gives the first-out bonus). Failures are
    recorded with their reason and the work goes on; a turn with a failed photo is reported
    incomplete. Exit code 1 if any input failed or a turn is incomplete.

    A Mediterráneo sea photo is scored by the objectives.txt in its folder (what --objectives takes,
    and first=circle or first=square), else by --objectives and --first, else by the two objective
    cards read in the photo; a folder with an objectives.txt is a folder of seas, not a Mondo turn.
    A sea whose objective cards are not both found (and none given) fails, naming what is missing.

    Mediatore photos (one side's won cards) are read where a mediatore.txt is in their folder, or
    with --game mediatore. A mediatore.txt holding a round (bid=... bidder=... last-trick=..., as
    `scorecam mediatore round` takes them) settles it from the photos bidder.jpg and others.jpg."""
    from scorecam.batch import run_batch
    from scorecam.errors import Exit
    from scorecam.progress import Progress

    more_objectives, more_round = _round_words(more_objectives, round_words)
    sea = _sea_objectives(objectives, more_objectives, first)
    cards = _mediatore(game, (*round_words, *more_round))
    bar = Progress("batch", 0)
    options = {"grid": grid, "jobs": jobs, "resume": resume, "ray": ray, "sea": sea, "mediatore": cards}
    summary = run_batch(folder, out, jsonl, progress=bar, **options)
    bar.close()
    click.echo(summary_line(summary, out, jsonl or out.with_suffix(".jsonl")))
    return int(Exit.SOME_FAILED if summary.inputs_failed or summary.turns_incomplete else Exit.SCORED)


def _sea_objectives(objectives: tuple[str, ...], more: tuple[str, ...], first: str | None):
    """--objectives and --first for the run; the words click took for more arguments belong to
    --objectives (``--objectives circle=a/b square=c/d``: it takes one value), anything else is a
    usage error."""
    from scorecam.batch.seas import run_objectives
    from scorecam.sea_photos import OBJECTIVE

    stray = [word for word in more if not (objectives and OBJECTIVE.match(word.lower()))]
    if stray:
        raise click.UsageError(
            f"Got unexpected extra argument{'s' if len(stray) > 1 else ''} ({' '.join(stray)})"
        )
    try:
        return run_objectives((*objectives, *more), first)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--objectives'") from None


def _round_words(
    more: tuple[str, ...], round_words: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The extra words that belong to --round (``--round bid=solo bidder=Anna``: click takes one
    value), and the rest."""
    from scorecam.batch.mediatore import KEYS

    if not round_words:
        return more, ()
    ours = tuple(w for w in more if w.partition("=")[0].lower().replace("_", "-") in KEYS and "=" in w)
    return tuple(w for w in more if w not in ours), ours


def _mediatore(game: str | None, words: tuple[str, ...]):
    from scorecam.batch.mediatore import run_mediatore

    try:
        return run_mediatore(game, words)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--round'") from None


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary_line(summary, csv_path: Path, jsonl_path: Path) -> str:
    """What a club organiser needs from the run: how many players were scored, how many of those
    readings need a look, what failed."""
    parts = [
        f"scored {_n(summary.players_scored, 'player', 'players')}",
        f"{summary.players_to_check} to check (status 'check')",
        _n(summary.inputs_failed, "input failed", "inputs failed"),
    ]
    if summary.turns_incomplete:
        parts.append(_n(summary.turns_incomplete, "turn incomplete", "turns incomplete"))
    if summary.skipped:
        parts.append(f"{summary.skipped} already in the output (skipped)")
    return ", ".join(parts) + f"; results in {csv_path} and {jsonl_path}"

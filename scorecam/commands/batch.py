"""`scorecam batch DIR`: a whole folder of photos and boards into CSV and JSON lines."""

from __future__ import annotations

from pathlib import Path

import click

from scorecam.commands.options import grid_option, jobs_option

DEFAULT_CSV = "scorecam-results.csv"


@click.command("batch", short_help="score a whole folder of photos into CSV and JSON lines")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DIR")
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
def batch(
    folder: Path,
    out: Path,
    jsonl: Path | None,
    grid: int | None,
    jobs: int | None,
    resume: bool,
    ray: str | None,
):
    """Score every photo and board under DIR. A sub-folder with several photos is one turn (players
    named after the files; a first.txt naming one of them gives the first-out bonus). Failures are
    recorded with their reason and the work goes on; a turn with a failed photo is reported
    incomplete. Exit code 1 if any input failed or a turn is incomplete."""
    from scorecam.batch import run_batch
    from scorecam.errors import Exit
    from scorecam.progress import Progress

    bar = Progress("batch", 0)
    summary = run_batch(folder, out, jsonl, grid=grid, jobs=jobs, resume=resume, ray=ray, progress=bar)
    bar.close()
    click.echo(summary_line(summary, out, jsonl or out.with_suffix(".jsonl")))
    return int(Exit.SOME_FAILED if summary.inputs_failed or summary.turns_incomplete else Exit.SCORED)


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

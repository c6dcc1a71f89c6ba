"""`scorecam score FILE...`: photos of Mondo islands and board files of any kind."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from scorecam.commands.options import grid_option, json_switch
from scorecam.errors import Exit, InputError


@click.command(
    "score",
    short_help="score photos of Mondo islands, or board files of any kind",
    epilog="An island scored alone counts as the only island of its turn: its volcano penalty is "
    "provisional (scorecam turn scores the islands of a turn together).",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@json_switch("the score reports (DESIGN.md format)")
@click.option(
    "--annotate",
    "-a",
    type=click.Path(path_type=Path),
    metavar="PNG|DIR",
    help="write the annotated picture: a .png/.jpg file for one photo, a folder for several "
    "(each PHOTO-annotated.png); never an input, never a file scorecam did not draw",
)
@grid_option()
@click.option("--no-catalog", is_flag=True, help="read tiles head by head, without the kit's catalog")
def score(files: tuple[Path, ...], as_json: bool, annotate: Path | None, grid: int | None, no_catalog: bool):
    """Score each FILE: a photo of one Mondo island, or a board JSON file (island, turn, game, sea,
    plays, match, or the --json report of a photo). Prints a table per file, or the reports as JSON.

    The truth files that `scorecam synth` writes beside its photos are skipped, so
    `scorecam score samples/mondo/*` scores the photos alone."""
    from scorecam.commands.annotated import score_targets
    from scorecam.photos import is_photo

    photos = [path for path in files if is_photo(path)]
    pictures = score_targets(annotate, files, photos)  # refused here, before any work
    reports, code = [], Exit.SCORED
    several = len(files) > 1
    for path in files:
        try:
            report = _score_one(path, path in photos, pictures.get(path), grid, not no_catalog)
        except InputError as error:
            print(f"scorecam: {error}", file=sys.stderr)
            code = max(code, error.code)
            continue
        if report is None:
            continue
        reports.append(report)
        if not as_json:
            _show(report, path if several else None)
    if as_json and reports:
        print(json.dumps(reports[0] if not several else reports, indent=2, ensure_ascii=False))
    return int(code)


def _score_one(path: Path, photo: bool, picture: Path | None, grid: int | None, use_catalog: bool):
    """The report of one file, None for a file skipped with a word on stderr."""
    from scorecam.commands.reading import is_lone_island, provisional_volcano_note
    from scorecam.photos import score_photo_file

    if photo:
        report, read = score_photo_file(path, grid=grid, use_catalog=use_catalog)
        if picture is not None:
            from scorecam.commands.annotated import write_annotation

            report["annotated"] = str(write_annotation(picture, read, report["players"][0]))
        lone = True
    else:
        from scorecam.inputs import read_json, score_board_data, simulator_truth_of

        data = read_json(path)  # once: the truth test, the score and the lone-island test all use it
        truth_of = simulator_truth_of(path, data)
        if truth_of is not None:
            print(
                f"scorecam: {path}: simulator truth for {truth_of.name}, not a board (skipped)",
                file=sys.stderr,
            )
            return None
        lone = is_lone_island(data)
        report = score_board_data(data, path)
    if lone and _one_mondo_island(report):
        note = provisional_volcano_note(report)
        if note:
            report["notes"] = [*report.get("notes", []), note]
    return report


def _one_mondo_island(report: dict) -> bool:
    players = report.get("players")
    return (
        report.get("game") == "mondo"
        and "turns" not in report
        and isinstance(players, list)
        and len(players) == 1
    )


def _show(report: dict, heading: Path | None) -> None:
    from scorecam.tables import show, show_report

    lines = [f"== {heading}"] if heading is not None else []
    if lines:
        show(lines)
    show_report(report)
    tail = [f"annotated picture: {report['annotated']}"] if "annotated" in report else []
    show([*tail, ""])

"""`scorecam score FILE...`: photos of Mondo islands and board files of any kind."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from scorecam.commands.options import grid_option, json_switch
from scorecam.commands.snorkeling import players_option, totals_option
from scorecam.errors import Exit, InputError


@click.command(
    "score",
    short_help="score photos (islands, seas, Snorkeling tables) or board files",
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
@players_option()
@totals_option()
@click.option(
    "--objectives",
    "objectives",
    multiple=True,
    metavar="'circle=PLUS/MINUS square=PLUS/MINUS'",
    help="the objectives of a Mediterráneo sea photo (e.g. circle=ray/fish square=turtle/ray); "
    "default: read from the two objective cards beside the sea",
)
@click.option(
    "--first", type=click.Choice(["circle", "square"]), help="who chose a Mediterráneo objective first"
)
@click.option(
    "--game",
    type=click.Choice(["mondo", "mediterraneo", "snorkeling", "mediatore"]),
    help="what the photos show (default: a Mondo island or a Mediterráneo sea; "
    "--players or --totals mean a Snorkeling table; mediatore: one side's won cards)",
)
def score(
    files: tuple[Path, ...],
    as_json: bool,
    annotate: Path | None,
    grid: int | None,
    no_catalog: bool,
    players: tuple[str, ...],
    totals: Path | None,
    objectives: tuple[str, ...],
    first: str | None,
    game: str | None,
):
    """Score each FILE: a photo of one Mondo island, or a board JSON file (island, turn, game, sea,
    plays, match, or the --json report of a photo). Prints a table per file, or the reports as JSON.

    The truth files that `scorecam synth` writes beside its photos are skipped, so
    `scorecam score samples/mondo/*` scores the photos alone."""
    from scorecam.commands.annotated import score_targets
    from scorecam.commands.snorkeling import RunningGame, split_names
    from scorecam.photos import is_photo

    files, names = split_names(players, files)  # `--players 1=Anna 2=Ben`: 2=Ben arrives as a FILE
    files, sea = _sea_options(objectives, first, files)  # `--objectives circle=a/b square=c/d`: the same
    running = RunningGame(totals, files) if totals is not None else None
    photos = [path for path in files if is_photo(path)]
    pictures = score_targets(annotate, files, photos)  # refused here, before any work
    reports, code = [], Exit.SCORED
    several = len(files) > 1
    # a photo with --players or --totals can only be of a Snorkeling table
    snorkeling = game == "snorkeling" or (game is None and bool(names or totals is not None))
    for path in files:
        try:
            report = _score_one(
                path,
                path in photos,
                pictures.get(path),
                grid,
                not no_catalog,
                names,
                running,
                sea,
                snorkeling,
                game,
            )
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


def _score_one(
    path: Path,
    photo: bool,
    picture: Path | None,
    grid: int | None,
    use_catalog: bool,
    names=None,
    running=None,
    sea=None,
    snorkeling: bool = False,
    game: str | None = None,
):
    """The report of one file, None for a file skipped with a word on stderr; a Snorkeling round is
    named by ``names`` (mat: name) and added to the ``running`` game of --totals. A photo is read as
    ``game`` says (--game), else as a Mondo island or, where it shows none but a sea, a sea."""
    from scorecam.commands.reading import is_lone_island, provisional_volcano_note
    from scorecam.commands.snorkeling import is_round, name_round
    from scorecam.photos import score_photo_file

    if photo and game == "mediatore":
        from scorecam.mediatore_photos import score_side_photo_file, write_side_annotation

        report, read = score_side_photo_file(path)
        if picture is not None:
            report["annotated"] = str(write_side_annotation(picture, path, read, report))
        return report
    if photo and game == "mediterraneo":
        from scorecam.sea_photos import score_sea_photo_file

        return score_sea_photo_file(path, **(sea or {}), picture=picture)
    if photo and snorkeling:
        from scorecam.snorkeling_photos import score_round_photo_file, write_round_annotation

        report, read = score_round_photo_file(path, names, running)
        if picture is not None:
            report["annotated"] = str(write_round_annotation(picture, path, read, report))
        lone = False
    elif photo:
        from scorecam.photos import SeaPhoto

        try:
            report, read = score_photo_file(path, grid=grid, use_catalog=use_catalog)
        except SeaPhoto:
            if game == "mondo":
                raise
            from scorecam.sea_photos import score_sea_photo_file

            return score_sea_photo_file(path, **(sea or {}), picture=picture)
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
        if is_round(data) and names:
            data = name_round(data, names, path)
        if is_round(data) and running is not None:
            data = running.prepare(data, path)
        report = score_board_data(data, path)
    if running is not None:
        report = running.add(report, path)
    if lone and _one_mondo_island(report):
        note = provisional_volcano_note(report)
        if note:
            report["notes"] = [*report.get("notes", []), note]
    return report


def _sea_options(
    objectives: tuple[str, ...], first: str | None, files: tuple[Path, ...]
) -> tuple[tuple[Path, ...], dict]:
    """The FILE arguments that are files, and --objectives and --first as read_sea's arguments: the
    second objective of `--objectives circle=a/b square=c/d` arrives as a FILE (click takes one value)."""
    if not objectives and first is None:
        return files, {"objectives": None, "first": None}  # not a sea: spare a photo the sea imports
    from scorecam.sea_photos import OBJECTIVE, parse_objectives

    given = [f for f in files if objectives and OBJECTIVE.match(str(f).lower()) and not f.exists()]
    try:
        parsed = parse_objectives([*objectives, *map(str, given)])
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--objectives'") from None
    if first is not None and parsed and first not in parsed:
        raise click.BadParameter(f"{first} has no objective", param_hint="'--first'")
    return tuple(f for f in files if f not in given), {"objectives": parsed or None, "first": first}


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
    if report.get("game") == "mediatore" and "cards_read" in report:  # one side's cards, from a photo
        from scorecam.mediatore_photos import side_layout

        show(side_layout(report))
    else:
        show_report(report)
    tail = [f"annotated picture: {report['annotated']}"] if "annotated" in report else []
    show([*tail, ""])

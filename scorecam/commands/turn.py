"""`scorecam turn NAME=FILE...`: one turn of Mondo, every player's island together."""

from __future__ import annotations

import json
from pathlib import Path

import click

from scorecam.commands.options import grid_option, json_switch


def parse_players(specs: tuple[str, ...]) -> dict[str, Path]:
    """``NAME=FILE`` arguments as {name: file}; a usage error for a malformed one or a name given twice."""
    players: dict[str, Path] = {}
    for spec in specs:
        name, sep, file = spec.partition("=")
        if not sep or not name.strip() or not file:
            raise click.UsageError(f"{spec!r} is not NAME=FILE (for example Kathrin=kathrin.jpg)")
        if name in players:
            raise click.UsageError(f"player {name!r} is named twice")
        players[name] = Path(file)
    return players


def first_player(first: str | None, names: list[str]) -> str | None:
    """``--first`` must name a player exactly; a name that differs only in case is pointed out."""
    if first is None or first in names:
        return first
    near = [n for n in names if n.casefold() == first.casefold()]
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise click.UsageError(f"--first {first!r} is not one of the players ({', '.join(names)}){hint}")


@click.command("turn", short_help="score a Mondo turn: the islands together, volcanoes, first out")
@click.argument("specs", nargs=-1, required=True, metavar="NAME=FILE...")
@click.option("--first", "-f", metavar="NAME", help="the player who jumped out first (+4), named exactly")
@json_switch("the report")
@click.option(
    "--annotate",
    "-a",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="write each player's annotated picture into DIR",
)
@grid_option("the game's grid: 3 (the rulebook's), 4 (the two-player variant); else guessed per island")
def turn(specs: tuple[str, ...], first: str | None, as_json: bool, annotate: Path | None, grid: int | None):
    """Score one turn of Mondo: every NAME=FILE (a photo or an island JSON) together, so the volcano
    majority is decided among all the islands."""
    from scorecam.commands.annotated import turn_targets
    from scorecam.errors import Exit, InputError
    from scorecam.inputs import read_json
    from scorecam.photos import is_photo, photo_status, read_island_photo
    from scoring.errors import BoardFormatError
    from scoring.mondo import PlayerIsland, Turn, score_turn, turn_score_to_json
    from scoring.mondo.island import island_from_json
    from scoring.mondo.turn import MAX_PLAYERS

    entries = parse_players(specs)
    if len(entries) > MAX_PLAYERS:
        raise click.UsageError(f"{len(entries)} players; a turn has at most {MAX_PLAYERS}")
    first = first_player(first, list(entries))
    photo_players = {name: path for name, path in entries.items() if is_photo(path)}
    pictures = turn_targets(annotate, photo_players) if photo_players else {}
    players, photos, flags = [], {}, []
    for name, path in entries.items():
        if name in photo_players:
            photo = read_island_photo(path, grid=grid)  # an InputError ends the turn: main() reports it
            island = photo.island
            photos[name] = photo
            flags += [f"{name}: {f}" for f in photo.reading.flags]
        else:
            from scorecam.photos import board_in_report

            try:
                island = island_from_json(board_in_report(read_json(path), path)[0])
            except BoardFormatError as error:
                raise InputError(str(path), f"impossible island: {error}") from None
        players.append(PlayerIsland(name, island, name == first))
    report = turn_score_to_json(score_turn(Turn(tuple(players))))
    report["source"] = {name: str(path) for name, path in entries.items()}
    report["flags"] = flags
    if photos:
        report["status"] = photo_status(flags)
    for player in report["players"]:
        if player["name"] in pictures:
            from scorecam.commands.annotated import write_annotation

            write_annotation(pictures[player["name"]], photos[player["name"]], player)
    if as_json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        from scorecam.tables import show, show_report

        show_report(report)
        if pictures:
            show([f"annotated pictures: {', '.join(str(p) for p in pictures.values())}"])
    return int(Exit.SCORED)

"""One job's work: score a lone file or a turn, and turn every failure into rows.

Returns ``(rows, line)``: the CSV rows and the one JSON line of the job, every string in them
already escaped (valid UTF-8) so that any process can hand them on and any writer can write them.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from scorecam.batch.jobs import Job, link_problem
from scorecam.batch.rows import failure_row, flag_text, flags_cell, report_rows
from scorecam.batch.text import escaped_all, one_line
from scorecam.errors import InputError
from scorecam.photos import BOARD_SUFFIXES, SeaPhoto, photo_status, read_island_photo
from scoring.mondo import PlayerIsland, Turn, score_turn, turn_score_to_json

Result = tuple[list[dict[str, Any]], dict[str, Any]]
FIRST_FILE = "first.txt"
MAX_FIRST_BYTES = 1000  # a player's name, not a document
WITHHELD = "volcano majority and first-out withheld"
SEA_IN_TURN = (
    "this looks like a Mediterráneo sea, in a folder of several photos that batch takes for a Mondo "
    "turn: put an objectives.txt in the folder to score its photos as seas"
)


class TurnError(Exception):
    """A turn that cannot be scored at all (its first.txt, two photos of one player)."""


def run_job(job: Job, grid: int | None = None) -> Result:
    """(CSV rows, JSON line) of one job; failures are rows too, and nothing escapes but a result."""
    try:
        if job.turn and job.mediatore is not None:  # a Mediatore round folder: its sides' photos
            from scorecam.batch.mediatore import round_result

            rows, line = round_result(job)
        else:
            rows, line = _turn(job, grid) if job.turn else _lone(job, grid)
    except Exception as error:  # noqa: BLE001 - one broken input must not end a club's batch
        reason = f"internal error ({error.__class__.__name__}: {error})"
        rows, line = _failed(job, reason)
    return escaped_all(rows), escaped_all(line)


def failed_result(job: Job, reason: str) -> Result:
    """The result of a job that failed outside ``run_job`` (its worker died)."""
    rows, line = _failed(job, reason)
    return escaped_all(rows), escaped_all(line)


def _failed(job: Job, reason: str) -> Result:
    line = {"source": job.source} | ({"turn": job.turn} if job.turn else {}) | {"error": one_line(reason)}
    return [failure_row(job.source, job.turn, reason)], line


def _lone(job: Job, grid: int | None) -> Result:
    path = job.files[0]
    if job.problem:
        return _failed(job, job.problem)
    try:
        if path.suffix.lower() in BOARD_SUFFIXES:
            from scorecam.inputs import score_board_file

            report = score_board_file(path)
        elif job.mediatore is not None:  # one side's won cards, counted alone
            from scorecam.batch.mediatore import score_side

            report = score_side(path, job.mediatore)
        else:
            from scorecam.photos import SeaPhoto, score_photo_file

            try:
                report, _ = score_photo_file(path, grid=grid)
            except SeaPhoto:  # no Mondo island: a Mediterráneo sea, scored by its folder's objectives
                from scorecam.batch.seas import score_sea_job

                report = score_sea_job(path, job.sea)
    except InputError as error:
        return _failed(job, error.reason)
    rows = list(report_rows(report, job.source, ""))
    for row in rows:
        row["flags"] = flags_cell(report.get("flags", []))
        row["status"] = report.get("status", "scored")  # a board file has no reading to doubt
    return rows, {"source": job.source, "report": report}


def _turn(job: Job, grid: int | None) -> Result:
    names = [path.stem for path in job.files]
    try:
        _check_names(job.files)
        first = _first_out(job.files[0].parent, names)
    except TurnError as error:
        return _failed(job, str(error))
    players, flags, failed = [], {}, {}
    for path in job.files:
        try:
            photo = _read_photo(path, grid)
        except SeaPhoto:
            failed[path.name] = SEA_IN_TURN
            continue
        except InputError as error:
            failed[path.name] = error.reason
            continue
        except Exception as error:  # noqa: BLE001 - one photo's crash is that photo's failure
            failed[path.name] = f"internal error ({error.__class__.__name__}: {error})"
            continue
        players.append(PlayerIsland(path.stem, photo.island, path.stem == first))
        flags[path.stem] = photo.reading.flags
    rows = [
        failure_row(job.source, job.turn, f"{file}: {why}", Path(file).stem) for file, why in failed.items()
    ]
    line: dict[str, Any] = {"source": job.source, "turn": job.turn}
    if failed:
        line["failed"] = [{"file": file, "error": one_line(why)} for file, why in failed.items()]
    if not players:
        return rows, line | {"error": "no photo of this turn could be read"}
    report = turn_score_to_json(score_turn(Turn(tuple(players))))
    report["flags"] = [f"{name}: {flag_text(f)}" for name, fs in flags.items() for f in fs]
    report["status"] = photo_status(report["flags"])
    if failed:
        reason = _incomplete_reason(failed)
        _withhold(report, reason)
    player_rows = list(report_rows(report, job.source, job.turn))
    for row in player_rows:
        row["flags"] = flags_cell(flags.get(row["player"], ()))
        if failed:
            row["status"], row["error"] = "incomplete", report["reason"]
        else:
            row["status"] = photo_status(flags.get(row["player"], ()))  # each player's own photo
    order = {name: i for i, name in enumerate(names)}  # rows in the order of the turn's files
    rows = sorted(rows + player_rows, key=lambda row: order[row["player"]])
    return rows, line | {"report": report}


def _read_photo(path: Path, grid: int | None):
    problem = link_problem(path)
    if problem:
        raise InputError(str(path), problem)
    return read_island_photo(path, grid=grid)


def _check_names(files: tuple[Path, ...]) -> None:
    from scoring.mondo.turn import MAX_PLAYERS

    if len(files) > MAX_PLAYERS:  # said before any photo is read
        raise TurnError(f"{len(files)} photos in one turn; a turn has at most {MAX_PLAYERS} players")
    seen: dict[str, str] = {}
    for path in files:
        if path.stem in seen:
            raise TurnError(
                f"two photos of player {path.stem!r} ({seen[path.stem]}, {path.name}): one per player"
            )
        seen[path.stem] = path.name


def _first_out(folder: Path, names: list[str]) -> str:
    """The player first.txt names ("" when there is no first.txt); a name that is not a player of the
    turn is an error, so the +4 is never silently lost."""
    marker = folder / FIRST_FILE
    if not marker.exists() and not marker.is_symlink():
        return ""
    try:
        data = marker.read_bytes()[: MAX_FIRST_BYTES + 1]
    except OSError as error:
        raise TurnError(f"{FIRST_FILE} cannot be read ({error.strerror or error})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TurnError(f"{FIRST_FILE} is not text (it should hold one player's name)") from None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    if len(lines) > 1 or len(data) > MAX_FIRST_BYTES:
        raise TurnError(f"{FIRST_FILE} should name one player, not {len(lines)} lines")
    first = lines[0]
    if first in names:
        return first
    players = ", ".join(names)
    near = [n for n in names if n.casefold() == first.casefold()] or difflib.get_close_matches(
        first, names, 1
    )
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise TurnError(
        f"{FIRST_FILE} names {first!r}, who is not a player of this turn (players: {players}){hint}"
    )


def _incomplete_reason(failed: dict[str, str]) -> str:
    what = "; ".join(f"{file} could not be read ({why})" for file, why in failed.items())
    return one_line(f"turn incomplete: {what}; {WITHHELD}")


def _withhold(report: dict[str, Any], reason: str) -> None:
    """Without every island the volcano majority is unknown, and so is whether first.txt's player
    is among those read: both are left out (null) and each total is what the rest scores."""
    report["status"] = "incomplete"
    report["reason"] = reason
    for player in report["players"]:
        points = player["points"]
        kept = sum(v for k, v in points.items() if k not in ("volcanoes", "first_out"))
        points["volcanoes"] = points["first_out"] = None
        player["first_out"] = None
        player["total"] = max(0, kept) if player["valid"] else 0
        player["details"]["volcano_majority"] = None
        player["details"]["sum_before_floor"] = kept if player["valid"] else 0

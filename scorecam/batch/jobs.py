"""Finding the work in a folder: lone files, turns (a sub-folder of several photos), and links that
lead nowhere (recorded, never skipped). A photo job carries the objectives a Mediterráneo sea in it
is scored by: its folder's objectives.txt, else the run's (``scorecam.batch.seas``); a folder with
an objectives.txt holds seas, so its photos are never a Mondo turn. A folder with a mediatore.txt (or
a run with --game mediatore) holds Mediatore sides; one holding a round is one job
(``scorecam.batch.mediatore``)."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from scorecam.batch.mediatore import MediatoreInfo, mediatore_in
from scorecam.batch.seas import SeaObjectives, objectives_in
from scorecam.photos import BOARD_SUFFIXES, PHOTO_SUFFIXES

WANTED = PHOTO_SUFFIXES | BOARD_SUFFIXES


@dataclass(frozen=True)
class Job:
    """One unit of batch work: a lone file, or the photos of one turn."""

    turn: str  # "" for a lone file; else the turn's folder, relative to the batch folder
    files: tuple[Path, ...]
    problem: str = ""  # known to fail from the start (a link loop, a folder that cannot be listed)
    sea: SeaObjectives | None = None  # what a photo is scored by if it shows a Mediterráneo sea
    mediatore: MediatoreInfo | None = None  # its photos are Mediatore sides (a turn: one round's)

    @property
    def source(self) -> str:
        """What the output calls this job: the file, or the turn's folder (resume matches on it)."""
        return str(self.files[0].parent if self.turn else self.files[0])


def find_jobs(
    folder: Path, sea: SeaObjectives | None = None, mediatore: MediatoreInfo | None = None
) -> list[Job]:
    """The jobs under ``folder`` in a fixed order (by name), so every run writes the same files.
    ``sea``: the run's objectives for sea photos (a folder's objectives.txt wins over them);
    ``mediatore``: the run's photos are Mediatore sides (a folder's own text file wins)."""
    return list(_walk(folder, folder, frozenset({_identity(folder)}), top=True, sea=sea, mediatore=mediatore))


def _walk(
    folder: Path,
    root: Path,
    ancestors: frozenset,
    *,
    top: bool,
    sea: SeaObjectives | None = None,
    mediatore: MediatoreInfo | None = None,
):
    try:
        entries = sorted(folder.iterdir())
    except OSError as error:
        yield Job("", (folder,), f"cannot list the folder ({error.strerror or error})")
        return
    photos = [p for p in entries if p.suffix.lower() in PHOTO_SUFFIXES and _file_or_broken(p)]
    here = objectives_in(folder)
    cards = mediatore_in(folder) or (mediatore if here is None else None)
    is_round = cards is not None and cards.is_round and bool(photos)
    is_turn = not top and len(photos) > 1 and here is None and cards is None
    if is_turn or is_round:
        yield Job(folder.relative_to(root).as_posix(), tuple(photos), mediatore=cards if is_round else None)
    for path in entries:
        if (is_turn or is_round) and path in photos:
            continue
        problem = link_problem(path)
        if problem:
            yield Job("", (path,), problem)
        elif path.is_dir():
            identity = _identity(path)
            if identity in ancestors:
                yield Job("", (path,), "link loop (it leads back to a folder that contains it)")
            else:
                yield from _walk(path, root, ancestors | {identity}, top=False, sea=sea, mediatore=mediatore)
        elif path.suffix.lower() in WANTED and not _is_truth(path):
            photo = path.suffix.lower() in PHOTO_SUFFIXES
            photo_sea = (here or sea) if photo else None
            problem = "" if path.is_file() else "not a regular file"
            yield Job("", (path,), problem, photo_sea, cards if photo else None)


def link_problem(path: Path) -> str:
    """Why a symbolic link cannot be followed ("" for a good link or no link)."""
    if not path.is_symlink():
        return ""
    try:
        os.stat(path)
    except FileNotFoundError:
        return f"dangling link (it points to {os.readlink(path)}, which does not exist)"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "link loop (the link leads back to itself)"
        return f"cannot follow the link ({error.strerror or error})"
    return ""


def _file_or_broken(path: Path) -> bool:
    """A turn's photo: a file, or a broken link where a photo should be (that player's photo fails)."""
    return path.is_file() or bool(link_problem(path))


def _identity(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_dev, info.st_ino


def _is_truth(path: Path) -> bool:
    """A simulator's truth JSON beside its photo is not a board to score (a photo's report saved
    beside it is)."""
    from scorecam.inputs import simulator_truth_of

    return simulator_truth_of(path) is not None

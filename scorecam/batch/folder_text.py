"""A folder's small settings file for batch (objectives.txt, mediatore.txt): its lines without
``#`` comments, or why it cannot be used, so each photo it is for fails with that reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FolderText:
    origin: str  # the file's path, for messages
    lines: tuple[str, ...] = ()  # its lines, each without its comment
    problem: str = ""  # why it cannot be used; then ``lines`` is empty


def folder_text(folder: Path, name: str, max_bytes: int, too_long: str) -> FolderText | None:
    """The file ``name`` in ``folder`` (None: there is none, a link that leads nowhere counts as one).
    ``too_long`` ends the message for a file over ``max_bytes`` ("... is too long for ...")."""
    path = folder / name
    if not path.exists() and not path.is_symlink():
        return None
    origin = str(path)
    try:
        data = path.read_bytes()[: max_bytes + 1]
    except OSError as error:
        return FolderText(origin, problem=f"{name} cannot be read ({error.strerror or error})")
    if len(data) > max_bytes:
        return FolderText(origin, problem=f"{name} is too long for {too_long}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return FolderText(origin, problem=f"{name} is not text")
    return FolderText(origin, tuple(line.split("#", 1)[0] for line in text.splitlines()))

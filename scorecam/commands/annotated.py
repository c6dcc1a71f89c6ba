"""Where the annotated pictures go (checked before any work), and writing them.

Nothing is ever written over an input, nor over any file scorecam did not write itself: every
picture scorecam draws carries a mark (a PNG text chunk, a JPEG comment), and an existing file
without it is refused. So ``scorecam score --annotate a.jpg b.jpg``, where ``--annotate`` was
meant as a switch, refuses instead of drawing ``b.jpg`` over the photo ``a.jpg``.
"""

from __future__ import annotations

import contextlib
import os
import re
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from scorecam.commands.options import IMAGE_SUFFIXES, refuse_inputs

MARK = b"scorecam annotated picture"
FOLDER_EXAMPLE = "for example --annotate annotated/"


def score_targets(target: Path | None, files: Sequence[Path], photos: Sequence[Path]) -> dict[Path, Path]:
    """Each photo's picture file: ``target`` itself for one photo, else ``target/STEM-annotated.png``.
    A usage error (before any photo is read) for a target that cannot be right."""
    if target is None or not photos:
        return {}
    folder = target.is_dir() or (not target.suffix and not target.exists())
    if folder:
        outputs = {photo: target / f"{photo.stem}-annotated.png" for photo in photos}
    else:
        _check_suffix(target)
        if len(photos) > 1:
            raise click.UsageError(
                f"--annotate {target}: {len(photos)} photos need a folder for their pictures, "
                f"not one {target.suffix} file ({FOLDER_EXAMPLE})"
            )
        outputs = {photos[0]: target}
    _check_outputs(outputs, files)
    return outputs


def turn_targets(folder: Path | None, players: dict[str, Path]) -> dict[str, Path]:
    """Each player's picture in ``folder``: ``NAME-annotated.png``."""
    if folder is None:
        return {}
    if folder.exists() and not folder.is_dir():
        raise click.UsageError(f"--annotate {folder}: a turn's pictures go into a folder; this is a file")
    if not folder.exists() and folder.suffix.lower() in IMAGE_SUFFIXES:
        raise click.UsageError(
            f"--annotate {folder}: a turn's pictures go into a folder, not one {folder.suffix} file "
            f"({FOLDER_EXAMPLE})"
        )
    outputs = {name: folder / f"{safe_name(name)}-annotated.png" for name in players}
    _check_outputs(outputs, list(players.values()))
    return outputs


def safe_name(name: str) -> str:
    """A player's name as a file name: no folder separators, nothing that climbs out of the folder."""
    name = re.sub(r"[^\w.-]+", "_", name).strip(".") or "_"
    return name[:100]


def _check_suffix(target: Path) -> None:
    if target.suffix.lower() not in IMAGE_SUFFIXES:
        shown = f"a {target.suffix} file" if target.suffix else "a file without a suffix"
        raise click.UsageError(
            f"--annotate {target}: the picture is a .png, .jpg or .jpeg file (or a folder), not {shown}"
        )


def _check_outputs(outputs: dict[Any, Path], inputs: Sequence[Path]) -> None:
    seen: dict[Path, Any] = {}
    for key, output in outputs.items():
        if output in seen:
            raise click.UsageError(
                f"--annotate: {seen[output]} and {key} would both be drawn into {output}; "
                "score them separately or rename one"
            )
        seen[output] = key
        refuse_inputs("--annotate", output, inputs)
        if output.is_dir():
            raise click.UsageError(f"--annotate: {output} is a folder; scorecam writes a picture there")
        if output.exists() and not written_by_scorecam(output):
            raise click.UsageError(
                f"--annotate {output}: that file exists and scorecam did not draw it; scorecam only "
                "replaces its own pictures (--annotate takes a new file name, or a folder for several "
                "photos: scorecam score -a annotated/ a.jpg b.jpg)"
            )


def written_by_scorecam(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return MARK in file.read(512)
    except OSError:
        return False


def marked(encoded: bytes, suffix: str) -> bytes:
    """The encoded picture with scorecam's mark, just after the header, where it is read back."""
    if suffix == ".png":  # a tEXt chunk after IHDR (8-byte signature + 25-byte IHDR chunk)
        body = b"Software\x00" + MARK
        chunk = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body))
        return encoded[:33] + chunk + encoded[33:]
    comment = b"\xff\xfe" + struct.pack(">H", len(MARK) + 2) + MARK  # a JPEG COM segment after SOI
    return encoded[:2] + comment + encoded[2:]


def write_annotation(output: Path, photo_island, player: dict[str, Any]) -> Path:
    """Draw the reading on the photo, decoded at a size a person looks at, and write it."""
    from scorecam.annotate import annotate_island
    from vision.photo_io import read_photo

    reading = photo_island.reading
    view = read_photo(photo_island.path, min_long_side=1600)
    quads = reading.cell_quads / view.scale
    picture = annotate_island(
        view.image, photo_island.island, quads, player, reading.flags, checks=getattr(reading, "checks", None)
    )
    return write_picture(picture, output)


def write_picture(picture, output: Path) -> Path:
    """Write a drawn picture (BGR) to `output`, marked as scorecam's, through a `.part` file: never a
    half-written picture under the real name. InputError where it cannot be written."""
    import cv2

    from scorecam.errors import Exit, InputError

    suffix = output.suffix.lower() if output.suffix.lower() in IMAGE_SUFFIXES else ".png"
    try:
        ok, encoded = cv2.imencode(".jpg" if suffix == ".jpeg" else suffix, picture)
    except cv2.error:  # OpenCV 5 raises where OpenCV 4 returned False
        ok = False
    if not ok:
        raise InputError(str(output), "cannot write an image there (use .png or .jpg)", Exit.USAGE)
    partial = output.with_name(output.name + ".part")
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(marked(encoded.tobytes(), ".png" if suffix == ".png" else ".jpg"))
        os.replace(partial, output)  # never a half-written picture under the real name
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise InputError(str(output), f"cannot write the picture there ({error.strerror or error})") from None
    return output

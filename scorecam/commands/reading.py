"""Reading the inputs of `score` and `turn`: photos (with what to say when no island is found),
board files, and the simulator's truth files that lie beside its photos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorecam.errors import Exit, InputError

SEA_REASON = "this looks like a Mediterráneo sea, which scorecam does not read from photos yet"


def with_sea_hint(error: InputError, path: Path) -> InputError:
    """A photo without one Mondo island may be a Mediterráneo sea: say so instead."""
    if error.code != Exit.NO_BOARD:
        return error
    from vision.errors import PhotoError
    from vision.photo_io import read_photo
    from vision.sea_hint import looks_like_mediterraneo

    try:
        sea = looks_like_mediterraneo(read_photo(path, min_long_side=600).image)
    except PhotoError:
        return error
    return InputError(str(path), SEA_REASON, Exit.NO_BOARD) if sea else error


def score_photo(path: Path, *, grid: int | None, use_catalog: bool) -> tuple[dict[str, Any], Any]:
    from scorecam.photos import score_photo_file

    try:
        return score_photo_file(path, grid=grid, use_catalog=use_catalog)
    except InputError as error:
        raise with_sea_hint(error, path) from None


def read_turn_photo(path: Path, *, grid: int | None):
    from scorecam.photos import read_island_photo

    try:
        return read_island_photo(path, grid=grid)
    except InputError as error:
        raise with_sea_hint(error, path) from None


def simulator_truth_of(path: Path) -> Path | None:
    """The photo a `scorecam synth` truth file belongs to, when ``path`` is one (it lies beside
    its photo and names it); None for anything else."""
    from scorecam.inputs import read_json
    from scorecam.photos import PHOTO_SUFFIXES

    if path.suffix.lower() != ".json":
        return None
    photos = [path.with_suffix(s) for s in PHOTO_SUFFIXES if path.with_suffix(s).is_file()]
    if not photos:
        return None
    try:
        data = read_json(path)
    except InputError:
        return None  # the board reader says what is wrong with it
    if isinstance(data, dict) and "seed" in data and data.get("photo") in {p.name for p in photos}:
        return path.with_name(data["photo"])
    return None


def is_lone_island_file(path: Path) -> bool:
    """Whether a board file holds one island (or a photo's report of one), not a turn."""
    from scorecam.inputs import read_json
    from scorecam.photos import is_photo_report

    try:
        data = read_json(path)
    except InputError:
        return False
    return isinstance(data, dict) and ("tiles" in data or is_photo_report(data))


def provisional_volcano_note(report: dict[str, Any]) -> str | None:
    """An island scored alone has the most volcanoes of its 'turn' by itself; with the other islands
    of the real turn it may have fewer than the most and lose nothing."""
    player = report["players"][0]
    if not player.get("valid") or not player.get("points", {}).get("volcanoes"):
        return None
    return (
        f"{player['name']}: the volcano penalty ({player['points']['volcanoes']:+d}) is provisional: "
        "scored alone, this island has the most volcanoes; in a turn only the islands with the most "
        "lose points. Score the whole turn with: scorecam turn NAME=PHOTO NAME=PHOTO ..."
    )

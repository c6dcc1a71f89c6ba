"""What `score` says about the inputs it scored: whether a board file is one island alone, and the
note that an island scored alone has a provisional volcano penalty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorecam.errors import InputError


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

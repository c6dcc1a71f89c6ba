"""What `score` says about the inputs it scored: whether a board file is one island alone, and the
note that an island scored alone has a provisional volcano penalty."""

from __future__ import annotations

from typing import Any


def is_lone_island(data: Any) -> bool:
    """Whether a board file's JSON value is one island (or a photo's report of one), not a turn."""
    from scorecam.photos import is_photo_report

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

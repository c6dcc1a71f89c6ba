"""`scorecam eval DIR` on Mediatore photos: read each side's cards back and compare them with the truth.

Figures: cards whose corner shows (the truth's ``seen``) read right; cards misread (read, but not in
the side's pile) and duplicates; photos read exactly (every card that shows read, none misread); the
side's points exactly right, two ways: over the cards that show (what a reader can see: the cards
that show, and any other card of the pile it read from a corner partly covered) and over the whole
pile (what the side really has: a card whose corners are all hidden is missing from any reading);
wrong and unflagged (against the whole pile: the worst outcome), right but flagged (a false alarm),
the median time per photo (decoding included), and the points right per condition of the simulated
world (layout, light, table family, stress, shake).

A corner can show and still be unreadable: where the camera's shake smeared its rank index
(``vision.synth.mediatore_scene.SMEARED``: a motion blur a third of the index's height or longer),
no reader could read it. The cards whose corner shows are therefore counted twice, all of them and
those with a corner that shows unsmeared, and the sides' points over the photos with no smeared card.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from scorecam import eval_guard as guard
from scorecam import evaluate_games as games
from scorecam.evaluate_games import figures_table, pct, share, time_figures, time_rows
from scoring.mediatore import card, thirds_of


def truth_photos(folder: Path) -> list[Path]:
    """Photos under ``folder`` with a Mediatore truth JSON beside them."""
    return games.truth_photos(folder, "mediatore", keys=("photo", "cards", "board"))


def is_mediatore_folder(folder: Path) -> bool:
    """Whether ``folder`` holds Mediatore photos with truth and no Mondo ones."""
    return bool(truth_photos(folder)) and games.has_no_mondo_photos(folder)


def _thirds(ids: set[str]) -> int:
    return thirds_of(card(c) for c in ids)


def measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    """One photo's record: cards that show read right, misreads, points right, flagged, time; a reading
    that raises is recorded as not found, with what it raised (`scorecam.eval_guard`)."""
    return guard.measured(_measure_photo, photo, truth, _not_read)


def _base(photo: Path, truth: dict[str, Any], legible: set[str]) -> dict[str, Any]:
    """What a photo's record says before any reading: its pile, the cards that show, and of them
    those with a corner the shake left legible (``_legible``)."""
    pile, seen = set(truth["board"]["cards"]), set(truth["board"]["seen"])
    smeared = len(seen - legible)  # cards that show, but only smeared by the shake
    return {
        "photo": photo.name,
        "cards": len(pile),
        "seen": len(seen),
        "seen_legibly": len(legible),
        "smeared": smeared,
        "conditions": _conditions(truth) | {"shake": "a corner smeared" if smeared else "none smeared"},
    }


def _legible(truth: dict[str, Any]) -> set[str]:
    from vision.synth.mediatore_scene import shown_legibly

    return set(shown_legibly(truth))


# what a record says of a photo whose cards were not read
NOT_READ = {"found": False, "seen_right": 0, "seen_legibly_right": 0, "points_right": False,
            "side_points_right": False}  # fmt: skip


def _not_read(photo: Path, truth: dict[str, Any], reason: str) -> dict[str, Any]:
    """The record of a photo whose cards were not read (refused, or the reader raised)."""
    return _base(photo, truth, _legible(truth)) | NOT_READ | {"reason": reason}


def _measure_photo(photo: Path, truth: dict[str, Any]) -> dict[str, Any]:
    from vision.errors import PhotoError
    from vision.mediatore import read_cards
    from vision.photo_io import read_photo

    pile, seen = set(truth["board"]["cards"]), set(truth["board"]["seen"])
    legible = _legible(truth)
    base = _base(photo, truth, legible)
    start = time.perf_counter()
    try:
        cards, reading = read_cards(read_photo(photo))
    except PhotoError as error:
        return base | NOT_READ | {"reason": error.reason, "ms": (time.perf_counter() - start) * 1000}
    ms = (time.perf_counter() - start) * 1000
    read = {c.id for c in cards}
    misread = read - pile
    thirds = _thirds(read)
    visible = seen | (read & pile)  # what shows, and what else of the pile was read rightly
    return base | {
        "found": True,
        "seen_right": len(read & seen),
        "seen_legibly_right": len(read & legible),
        "missed": sorted(seen - read),
        "misread": sorted(misread),
        "read_partly_covered": len((read & pile) - seen),
        "duplicates": sum(1 for c in reading.cards if c.duplicate),
        "exact": not misread and seen <= read,
        "thirds": thirds,
        "points_right": thirds == _thirds(visible),
        "side_points_right": thirds == _thirds(pile),
        "flagged": bool(reading.flags),
        "flags": list(reading.flags),
        "ms": ms,
    }


def _conditions(truth: dict[str, Any]) -> dict[str, str]:
    c = truth.get("conditions") or {}
    scene = truth.get("scene") or {}
    return {
        "world": "stress" if c.get("stress") else "everyday",
        "layout": str(scene.get("layout")),
        "light": str(c.get("light")),
        "table family": str(c.get("table")),
    }


def evaluate(folder: Path, *, limit: int | None = None, progress: bool = True, **_: Any) -> dict[str, Any]:
    photos = truth_photos(folder)[:limit]
    return figures(
        games.measure_photos(photos, measure_photo, game="Mediatore", folder=folder, progress=progress)
    )


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    found = [r for r in records if r["found"]]
    side_right = [r for r in found if r["side_points_right"]]
    by: dict[str, dict[str, list[bool]]] = {}
    for r in records:
        for family, bucket in (r.get("conditions") or {}).items():
            by.setdefault(family, {}).setdefault(bucket, []).append(bool(r.get("points_right")))
    return {
        "game": "mediatore",
        "photos": n,
        "photos_found": share(len(found), n),
        "cards_shown_read_right": share(
            sum(r["seen_right"] for r in records), sum(r["seen"] for r in records)
        ),
        "cards_shown": sum(r["seen"] for r in records),
        "cards_shown_legibly_read_right": share(
            sum(r.get("seen_legibly_right", 0) for r in records),
            sum(r.get("seen_legibly", 0) for r in records),
        ),
        "cards_shown_legibly": sum(r.get("seen_legibly", 0) for r in records),
        "photos_smeared": sum(1 for r in records if r.get("smeared")),
        "points_right_unsmeared": share(
            sum(1 for r in found if r["points_right"] and not r.get("smeared")),
            sum(1 for r in records if not r.get("smeared")),
        ),
        "cards_missed": sum(len(r.get("missed", [])) for r in found)
        + sum(r["seen"] for r in records if not r["found"]),
        "cards_misread": sum(len(r.get("misread", [])) for r in found),
        "cards_read_partly_covered": sum(r.get("read_partly_covered", 0) for r in found),
        "duplicates": sum(r.get("duplicates", 0) for r in found),
        "photos_read_exactly": share(sum(1 for r in found if r["exact"]), n),
        "points_right_cards_shown": share(sum(1 for r in found if r["points_right"]), n),
        "points_right_whole_side": share(len(side_right), n),
        "photos_with_hidden_cards": share(sum(1 for r in records if r["seen"] < r["cards"]), n),
        # a refused photo is flagged by its refusal, never wrong-and-unflagged
        "wrong_unflagged": share(sum(1 for r in found if not r["side_points_right"] and not r["flagged"]), n),
        "wrong_unflagged_cards_shown": share(
            sum(1 for r in found if not r["points_right"] and not r["flagged"]), n
        ),
        "right_flagged": share(sum(1 for r in side_right if r["flagged"]), len(side_right)),
        "flagged": share(sum(1 for r in found if r["flagged"]), n),
        **time_figures(records),
        # readings that raised (bugs): each counted as a photo not found, named with what it raised
        "raised": guard.raised_figure(records),
        "by_condition": {
            family: {
                b: {"photos": len(v), "points_right": share(sum(v), len(v))}
                for b, v in sorted(buckets.items())
            }
            for family, buckets in by.items()
        },
        "records": records,
    }


def eval_table(result: dict[str, Any]) -> str:
    rows = [
        ("photos", str(result["photos"])),
        ("photos where cards were found", pct(result["photos_found"])),
        (
            "cards whose corner shows, read right",
            f"{pct(result['cards_shown_read_right'])} of {result['cards_shown']}",
        ),
        (
            "  those with a corner the shake left legible",
            f"{pct(result['cards_shown_legibly_read_right'])} of {result['cards_shown_legibly']}",
        ),
        (
            "cards missed / misread / duplicates",
            f"{result['cards_missed']} / {result['cards_misread']} / {result['duplicates']}",
        ),  # fmt: skip
        ("photos read exactly", pct(result["photos_read_exactly"])),
        ("points right, cards that show", pct(result["points_right_cards_shown"])),
        (
            "  points right, photos the shake smeared no card of",
            f"{pct(result['points_right_unsmeared'])} of {result['photos'] - result['photos_smeared']}",
        ),
        ("points right, whole side", pct(result["points_right_whole_side"])),
        ("  photos with a card wholly hidden", pct(result["photos_with_hidden_cards"])),
        ("wrong and unflagged (whole side)", pct(result["wrong_unflagged"])),
        ("wrong and unflagged (cards that show)", pct(result["wrong_unflagged_cards_shown"])),
        ("right but flagged", pct(result["right_flagged"])),
        *time_rows(result),
    ]
    for family in ("world", "layout", "shake"):
        for bucket, v in result["by_condition"].get(family, {}).items():
            rows.append((f"  points right, {family} {bucket}", f"{pct(v['points_right'])} of {v['photos']}"))
    rows.append((guard.RAISED_LABEL, str(len(result.get("raised", [])))))
    return "\n".join([figures_table(rows), *guard.raised_lines(result)])

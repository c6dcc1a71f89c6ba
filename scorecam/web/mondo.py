"""Mondo on the page: a photo read as the CLI reads it, kept with what a correction needs, and the
board, report, checks and picture of it as corrected.

Reading uses `scorecam.photos.read_island_photo`, the CLI's own path (same island, same flags, same
one-line refusals). What the page adds is each cell's best alternatives: the tile model's
probabilities of the cells (the same crops and the same batch the reader ran, computed again from
the reading's cell quads), ranked against the kit's catalog as the decoder ranks them. They are
worked out once, when the photo arrives, and stored with it.

A correction puts one tile (or an empty space) into one cell; the board as corrected is the board as
read with every correction applied in order, and it is scored by the engine like any board file.
A corrected cell's checks are settled; the other checks are worked out again on the corrected island.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.errors import BoardFormatError
from scoring.mondo import Island, Tile, island_from_json, island_to_json
from scoring.mondo.island import tile_from_json, tile_to_json
from scoring.sides import SIDE_WORDS, SIDES

CANDIDATES_KEPT = 6  # kit tiles remembered per cell: more than a player looks through
ALTERNATIVES_SHOWN = 6
VIEW_LONG_SIDE = 1600  # the picture is drawn on the photo decoded at least this big (as `--annotate`)


@dataclass(frozen=True)
class ReadPhoto:
    board: dict[str, Any]  # the island as read (DESIGN.md's island JSON)
    reading: dict[str, Any]  # stored beside it: geometry, checks, flags, candidates, timing
    view: Any = None  # the picture's view of the photo (kept a while in memory for its first picture)


def read_photo(path: Path, grid: int | None = None) -> ReadPhoto:
    """Read the island in the photo file at ``path`` (a server-chosen name) on a ``grid`` x ``grid``
    grid (None: the reader guesses 3 or 4); InputError as the CLI says it. The photo is decoded once:
    the alternatives and the picture's view come from the reader's own decoded photo."""
    import numpy as np

    from scorecam.photos import read_island_photo

    photo_island = read_island_photo(path, grid=grid)
    reading = photo_island.reading
    view, view_scale = picture_view(photo_island.photo)
    grid = int(reading.grid)
    check_texts = {check.text for check in reading.checks}
    return ReadPhoto(
        board=island_to_json(photo_island.island),
        reading={
            "grid": grid,
            "view": {"width": int(view.shape[1]), "height": int(view.shape[0]), "scale": view_scale},
            "cell_quads": np.round(reading.cell_quads / view_scale, 1).tolist(),
            "island_flags": [flag for flag in reading.flags if flag not in check_texts],
            "checks": [
                {
                    "row": c.row,
                    "col": c.col,
                    "head": c.head,
                    "readings": [[label, p] for label, p in c.readings],
                }
                for c in reading.checks
            ],
            "candidates": cell_candidates(photo_island.photo, reading),
            "timing_ms": {k: round(v, 1) for k, v in photo_island.timing_ms.items()},
        },
        view=view,
    )


def picture_view(photo: Any) -> tuple[Any, float]:
    """The photo as the picture is drawn on (long side at least VIEW_LONG_SIDE where the photo has
    it): (image, full-size px per its px). From the decoded photo (a finer view of a JPEG is decoded
    once and kept by the photo); the same function at upload and when the picture is drawn, so the
    cell quads stored in its px always fit it."""
    want = max(photo.size) / VIEW_LONG_SIDE
    return photo.at_scale(max(want, 1.0))


def cell_candidates(photo: Any, reading: Any) -> list[dict[str, Any]]:
    """Per cell (reading order): p(empty) and the likeliest kit tiles with their probabilities.

    The tile model runs again on the reading's cells, exactly as the reader ran it (the same crop
    source, crops and quarter turns), and each candidate face and turn of the catalog gets the
    decoder's log-likelihood; the probabilities are those, normalised over the catalog, times p(tile).
    """
    import numpy as np

    from vision.geometry import crop_quads
    from vision.mondo.crops import crop_source
    from vision.mondo.decode import PROB_FLOOR
    from vision.mondo.reader import catalog_table, finer_view, read_turns, tile_model

    model = tile_model()
    table = catalog_table(model)
    margin = float(model.metadata["input"]["crop_margin"])
    quads = (np.asarray(reading.cell_quads, np.float64) / photo.scale).astype(np.float32)
    source, to_source = crop_source(photo.image, quads, model.input_size, margin, finer_view(photo))
    probs = read_turns(model, crop_quads(source, to_source(quads), model.input_size, margin))
    tile_index = table.labels["present"].index("tile")
    out = []
    for i in range(len(quads)):
        p_tile = float(probs["present"][i, tile_index])
        ll = sum(np.log(np.maximum(probs[h][i][table.classes[h]], PROB_FLOOR)) for h in table.heads)
        posterior = np.exp(ll - ll.max())
        posterior /= posterior.sum()
        kept, seen = [], set()
        for k in np.argsort(-ll, kind="stable"):
            tile = table.tiles[int(k)]
            key = _looks(tile)
            if key in seen:
                continue  # a face that reads like one already kept (the backs, say)
            seen.add(key)
            kept.append({"tile": _tile_json(tile), "p": round(float(posterior[k]) * p_tile, 4)})
            if len(kept) == CANDIDATES_KEPT:
                break
        out.append({"p_empty": round(1 - p_tile, 4), "tiles": kept})
    return out


def _looks(tile: Tile) -> tuple:
    """What a tile shows a scorer: two faces alike in this are the same correction."""
    areas = tuple(sorted((a.terrain, a.sides) for a in tile.areas))
    return tile.edges, areas, tile.animals, tile.volcanoes


def _tile_json(tile: Tile) -> dict[str, Any]:
    out = tile_to_json(tile)
    out.pop("confidence", None)
    return out


# --- the board as corrected ---------------------------------------------------------------------


def corrected_island(board: dict[str, Any], corrections: list[tuple[int, int, dict | None]]) -> Island:
    """The island read, with each (row, col, tile JSON or None) put in in order (BoardFormatError)."""
    island = island_from_json(board)
    for row, col, tile_data in corrections:
        island = put_tile(island, row, col, tile_data)
    return island


def put_tile(island: Island, row: int, col: int, tile_data: dict[str, Any] | None) -> Island:
    """``island`` with the cell (row, col) holding the tile of ``tile_data`` (its row/col are the
    cell's), or empty for None."""
    if not (0 <= row < island.grid and 0 <= col < island.grid):
        raise BoardFormatError(
            f"row {row + 1}, tile {col + 1} is outside the {island.grid}x{island.grid} grid"
        )
    others = tuple(t for t in island.tiles if t.cell != (row, col))
    if tile_data is None:
        return Island(island.grid, others)
    if not isinstance(tile_data, dict):
        raise BoardFormatError("a tile must be a JSON object (or null for an empty space)")
    tile = tile_from_json({**tile_data, "row": row, "col": col}, 0)
    return Island(island.grid, tuple(sorted((*others, tile), key=lambda t: t.cell)))


def current_checks(reading: dict[str, Any], island: Island, corrected: set[tuple[int, int]]) -> tuple:
    """The reader's checks on cells nobody corrected, with totals worked out on ``island``."""
    from vision.mondo.checks import Check, settle

    checks = [
        Check(c["row"], c["col"], c["head"], tuple((label, float(p)) for label, p in c["readings"]))
        for c in reading["checks"]
        if (c["row"], c["col"]) not in corrected
    ]
    new_tiles = {}
    for check in checks:  # a space read empty: what it would hold (the likeliest kit tile)
        if check.head == "present" and island.tile_at(check.row, check.col) is None:
            best = _best_tile(reading, island.grid, check.row, check.col)
            if best is not None:
                new_tiles[(check.row, check.col)] = best
    return settle(island, checks, new_tiles)


def _best_tile(reading: dict[str, Any], grid: int, row: int, col: int) -> Tile | None:
    tiles = reading["candidates"][row * grid + col]["tiles"]
    return tile_from_json({**tiles[0]["tile"], "row": row, "col": col}, 0) if tiles else None


def photo_report(reading: dict[str, Any], island: Island, checks: tuple, name: str) -> dict[str, Any]:
    """The report of the island scored alone, as `scorecam score PHOTO --json` gives it (less the
    timing and source): players, board, flags, checks, status."""
    from scoring.mondo import score_turn, single_island_turn, turn_score_to_json

    flags = [*reading["island_flags"], *(check.text for check in checks)]
    report = turn_score_to_json(score_turn(single_island_turn(name, island)))
    return report | {
        "board": island_to_json(island),
        "flags": flags,
        "checks": [check.to_json() for check in checks],
        "status": "check" if flags else "ok",
    }


# --- alternatives for one cell ------------------------------------------------------------------


def alternatives(reading: dict[str, Any], island: Island, row: int, col: int, checks: tuple) -> list[dict]:
    """What a player may put into the cell instead of what is there now, likeliest first: the
    second reading of each of its checks, then the kit tiles the model rates highest for it, and
    the empty space. Each with its words, its tile JSON (None: empty) and the island's total with it."""
    from vision.mondo.checks import NotPossible, island_if_second, island_score

    now = island.tile_at(row, col)
    options: list[dict[str, Any]] = []
    seen = {_looks(now) if now else None}

    def offer(tile: Tile | None, words: str, p: float | None, why: str) -> None:
        key = _looks(tile) if tile else None
        if key in seen or len(options) >= ALTERNATIVES_SHOWN:
            return
        seen.add(key)
        try:
            changed = put_tile(island, row, col, _tile_json(tile) if tile else None)
        except BoardFormatError:
            return
        total, valid = island_score(changed)
        options.append(
            {
                "words": words,
                "why": why,
                "p": None if p is None else round(p, 3),
                "tile": _tile_json(replace(tile, row=row, col=col)) if tile else None,
                "total": total,
                "valid": valid,
            }
        )

    best = _best_tile(reading, island.grid, row, col)
    for check in checks:
        if (check.row, check.col) != (row, col) or len(check.readings) < 2:
            continue
        try:
            other = island_if_second(island, check, best)
        except NotPossible:
            continue
        second = other.tile_at(row, col)
        offer(second, describe_change(now, second), check.readings[1][1], check.question)
    cell = reading["candidates"][row * island.grid + col]
    for candidate in cell["tiles"]:
        tile = tile_from_json({**candidate["tile"], "row": row, "col": col}, 0)
        offer(tile, describe_change(now, tile), candidate["p"], "a kit tile the model rates likely here")
    offer(None, describe_change(now, None), cell["p_empty"], "no tile in this space")
    return options


def describe_change(old: Tile | None, new: Tile | None) -> str:
    """What a correction changes, in a player's words: "right edge plains (was forest); 1 animal"."""
    if new is None:
        return "an empty space" if old is not None else "empty, as read"
    parts = [f"{SIDE_WORDS[s]} edge {new.edge(s)}" + (f" (was {old.edge(s)})" if old else "") for s in SIDES]
    if old is not None:
        parts = [p for p, s in zip(parts, SIDES, strict=True) if old.edge(s) != new.edge(s)]
    for what, one, many in (("animals", "animal", "animals"), ("volcanoes", "volcano", "volcanoes")):
        count = getattr(new, what)
        if old is None or getattr(old, what) != count:
            parts.append(f"{count} {one if count == 1 else many}" if count else f"no {many}")
    if old is not None and not parts and _looks(old) != _looks(new):
        parts.append("areas joined differently")
    if old is not None and not parts:
        parts.append("the same tile")
    head = "a tile: " if old is None else ""
    return head + "; ".join(parts)


def tile_words(tile: Tile | None) -> str:
    """The whole tile in words (for a cell's header on the page)."""
    if tile is None:
        return "empty space"
    edges = ", ".join(f"{SIDE_WORDS[s]} {tile.edge(s)}" for s in SIDES)
    counts = [f"{tile.animals} animal{'s' * (tile.animals != 1)}"] if tile.animals else []
    counts += [f"{tile.volcanoes} volcano{'es' * (tile.volcanoes != 1)}"] if tile.volcanoes else []
    kit = f" (kit {tile.component.id} {tile.component.face})" if tile.component else ""
    return "; ".join([edges, *counts]) + kit


# --- the picture --------------------------------------------------------------------------------


def view_image(path: Path) -> Any:
    """The picture's view of a kept photo file (as ``picture_view`` made it when the photo came)."""
    from vision.photo_io import read_photo as decode_file

    return picture_view(decode_file(path))[0]


def picture_jpeg(
    view: Any, reading: dict[str, Any], island: Island, player: dict, flags: list, checks
) -> bytes:
    """The annotated picture (the CLI's `--annotate`) of the island as corrected, drawn on the
    photo's view, as JPEG bytes."""
    import numpy as np

    from scorecam.annotate import annotate_island

    quads = np.asarray(reading["cell_quads"], np.float32)
    return jpeg(annotate_island(view, island, quads, player, flags, checks=checks))


def jpeg(picture: Any) -> bytes:
    import cv2

    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise RuntimeError("the picture could not be encoded")
    return encoded.tobytes()

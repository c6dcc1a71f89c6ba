"""What the API does, apart from HTTP: games, photos read and kept, corrections, pictures.

Every refusal is a :class:`WebError`: an HTTP status and one line a player can act on, the same
line the CLI prints for the same photo or board (without the ``scorecam: FILE:`` prefix, which
names the client's file instead).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from scorecam.errors import InputError
from scorecam.photos import SeaPhoto
from scorecam.web import mondo
from scorecam.web.errors import WebError
from scorecam.web.games import GAMES, mondo_game_score
from scorecam.web.matches import MatchKeeping
from scorecam.web.store import Game, PhotoRecord, Store
from scorecam.web.uploads import (
    MAX_PHOTO_BYTES,
    SUFFIX_OF_FORMAT,
    server_name,
    shown_name,
    too_large_message,
)
from scoring.errors import BoardFormatError, cut, printable
from scoring.mondo.island import tile_to_json

log = logging.getLogger("scorecam.web")

NAME_CHARS = 40  # a player's or a game's name
PICTURES_CACHED = 16
VIEWS_KEPT = 4  # decoded photos kept from their upload for their first picture
GRIDS = (3, 4)


def clean_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise WebError(400, f"{what} must be a non-empty text")
    name = " ".join(printable(value).split())
    if len(name) > NAME_CHARS or not name.isprintable():
        raise WebError(400, f"{what} must be at most {NAME_CHARS} printable characters")
    return name


class Scorekeeper(MatchKeeping):
    def __init__(self, store: Store) -> None:
        self.store = store
        self._reading = threading.Lock()  # one photo read at a time: the reader is CPU-bound
        self._pictures: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        self._views: OrderedDict[int, Any] = OrderedDict()
        self._pictures_lock = threading.Lock()

    # --- games ----------------------------------------------------------------------------------

    def create_game(self, kind: Any, name: Any, players: Any, grid: Any = 3) -> dict[str, Any]:
        if kind not in GAMES:
            raise WebError(
                400, f"game must be one of {', '.join(GAMES)}, not {cut(printable(str(kind)), 40)}"
            )
        rules = GAMES[kind]
        if kind == "mondo":
            if type(grid) is not int or grid not in GRIDS:
                raise WebError(
                    400, f"grid must be 3 (the rulebook's game) or 4, not {cut(printable(str(grid)), 20)}"
                )
        elif grid not in (None, 3):  # 3: the default a client may send for any game
            raise WebError(400, f"a game of {rules.title} has no grid")
        if not isinstance(players, list):
            raise WebError(400, "players must be a list of names")
        fewest, most = rules.players
        if not fewest <= len(players) <= most:
            many = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise WebError(400, f"a game of {rules.title} has {many} players, not {len(players)}")
        names = [clean_name(p, "a player's name") for p in players]
        doubles = sorted({n for n in names if names.count(n) > 1})
        if doubles:
            raise WebError(400, f"two players are called {doubles[0]}; give each a name of their own")
        title = clean_name(name, "the game's name") if name not in (None, "") else f"{rules.title} game"
        turns = rules.turns if kind == "mondo" else 0
        game_id = self.store.create_game(kind, title, names, turns, grid if kind == "mondo" else None)
        return self.game_view(game_id)

    def games(self) -> list[dict[str, Any]]:
        return [self._game_summary(game) for game in self.store.games()]

    def _game(self, game_id: int) -> Game:
        game = self.store.game(game_id)
        if game is None:
            raise WebError(404, f"no game {game_id}")
        return game

    def _game_summary(self, game: Game) -> dict[str, Any]:
        out = {
            "id": game.id,
            "game": game.kind,
            "name": game.name,
            "created": game.created,
            "players": [p.name for p in game.players],
        }
        if game.kind == "mondo":
            out["grid"] = game.grid  # None: a game from before grids were kept; its photos guess
        return out

    def game_view(self, game_id: int) -> dict[str, Any]:
        game = self._game(game_id)
        if game.kind == "mediterraneo":
            return self._game_summary(game) | self._match(game)
        photos = self.store.turn_photos(game.id)
        names = {p.id: p.name for p in game.players}
        turns = []
        islands_table = []
        for number in sorted(game.first_out):
            islands, entries = {}, []
            for player in game.players:
                photo_id = photos.get((number, player.id))
                entry: dict[str, Any] = {"player": player.name, "photo": photo_id}
                if photo_id is not None:
                    record = self._photo(photo_id)
                    island, corrected = self._island(record)
                    checks = mondo.current_checks(record.reading, island, corrected)
                    islands[player.name] = island
                    flags = [*record.reading["island_flags"], *checks]
                    entry["status"] = "check" if flags else "ok"
                entries.append(entry)
            first = game.first_out[number]
            turns.append({"islands": islands, "first_out": names.get(first) if first else None})
            islands_table.append(entries)
        score = mondo_game_score([p.name for p in game.players], turns)
        for turn, entries in zip(score["turns"], islands_table, strict=True):
            turn["islands"] = entries
            for entry in entries:
                entry["total"] = turn.get("totals", {}).get(entry["player"])
        return self._game_summary(game) | score

    def set_first_out(self, game_id: int, turn: int, player: Any) -> dict[str, Any]:
        game = self._game(game_id)
        self._check_turn(game, turn)
        if player is None or player == "":
            self.store.set_first_out(game.id, turn, None)
        else:
            found = game.player_named(player) if isinstance(player, str) else None
            if found is None:
                raise WebError(400, f"no player called {cut(printable(str(player)), 40)} in this game")
            self.store.set_first_out(game.id, turn, found.id)
        return self.game_view(game.id)

    def _check_turn(self, game: Game, turn: int) -> None:
        if game.kind != "mondo":
            raise WebError(404, f"a game of {GAMES[game.kind].title} has rounds, not turns")
        if turn not in game.first_out:
            raise WebError(
                404, f"a game of {GAMES[game.kind].title} has turns 1 to {len(game.first_out)}, not {turn}"
            )

    # --- photos ---------------------------------------------------------------------------------

    def add_photo(
        self,
        data: bytes,
        filename: str | None,
        *,
        game_id: int | None = None,
        turn: int | None = None,
        player: Any = None,
        grid: Any = None,
        rounds: bool = False,
        round_fields: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Read an uploaded photo and keep it (only when it reads: a refused photo is not kept).

        A photo alone is a Mondo island on ``grid`` (3, 4, or None: guessed); a game's photo is read
        as its game says: a Mondo turn's island on the game's grid, a Mediterráneo round's sea (a
        round with no objectives yet takes them from the objective cards read, with ``round_fields``:
        first, seagulls, cards_out)."""
        kind, player_id, options = "mondo", None, {"grid": _grid_option(grid)}
        fields: dict[str, Any] = {}
        if game_id is not None:
            game = self._game(game_id)
            kind = game.kind
            if not rounds:
                self._check_turn(game, turn or 0)
                found = game.player_named(player) if isinstance(player, str) else None
                if found is None:
                    raise WebError(400, f"no player called {cut(printable(str(player)), 40)} in this game")
                player_id, options = found.id, {"grid": game.grid}
            else:  # _round_number refuses a Mondo game
                number = self._round_number(game, turn or 0)
                fields = self.round_photo_fields(game, number, **(round_fields or {}))
                options = {}
        name = shown_name(filename)
        if len(data) > MAX_PHOTO_BYTES:
            raise WebError(413, f"{name}: {too_large_message()}")
        rules = GAMES[kind]
        if rules.read_photo is None:
            raise WebError(422, f"{name}: {rules.no_reader}")
        stored = server_name(".upload")
        path = self.store.photos / stored
        try:
            path.write_bytes(data)
            with self._reading:
                read = rules.read_photo(path, **options)
            final = server_name(_suffix(data))
            os.replace(path, self.store.photos / final)
        except InputError as error:
            if kind == "mondo" and isinstance(error, SeaPhoto):
                raise WebError(
                    422,
                    f"{name}: this looks like a Mediterráneo sea: start a match under Games and add the "
                    "photo to its round, with the players' objectives",
                ) from None
            raise WebError(422, f"{name}: {error.reason}") from None
        finally:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        if rounds and game_id is not None:
            self.round_from_cards(game, turn or 0, read.reading, fields)
        photo_id = self.store.add_photo(
            kind=kind,
            file=final,
            original_name=name,
            board=read.board,
            reading=read.reading,
            game_id=game_id,
            turn=turn if game_id is not None else None,
            player_id=player_id,
        )
        self._keep_view(photo_id, read.view)
        log.info("photo %d read from %s (%s)", photo_id, name, final)
        return self.photo_view(photo_id)

    def _keep_view(self, photo_id: int, view: Any) -> None:
        if view is None:
            return
        with self._pictures_lock:
            self._views[photo_id] = view
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)

    def _view(self, record: PhotoRecord) -> Any:
        with self._pictures_lock:
            view = self._views.get(record.id)
        return view if view is not None else mondo.view_image(self.store.photos / record.file)

    def _photo(self, photo_id: int) -> PhotoRecord:
        record = self.store.photo(photo_id)
        if record is None:
            raise WebError(404, f"no photo {photo_id}")
        return record

    def _island(self, record: PhotoRecord):
        """The island as corrected, and the cells corrected."""
        corrections = [(c.row, c.col, c.tile) for c in record.corrections]
        try:
            island = mondo.corrected_island(record.board, corrections)
        except BoardFormatError as error:  # stored corrections were each checked: a bug if it happens
            raise RuntimeError(f"photo {record.id}: stored corrections do not apply ({error})") from None
        return island, {(row, col) for row, col, _ in corrections}

    def _player_name(self, record: PhotoRecord) -> str:
        if record.game_id is not None and record.player_id is not None:
            game = self.store.game(record.game_id)
            for player in game.players if game else ():
                if player.id == record.player_id:
                    return player.name
        return Path(record.original_name).stem or "island"

    def _state(self, record: PhotoRecord):
        island, corrected = self._island(record)
        checks = mondo.current_checks(record.reading, island, corrected)
        report = mondo.photo_report(record.reading, island, checks, self._player_name(record))
        return island, corrected, checks, report

    def photo_view(self, photo_id: int) -> dict[str, Any]:
        record = self._photo(photo_id)
        if record.kind == "mediterraneo":
            return self._sea_view(record)
        island, corrected, checks, report = self._state(record)
        grid = record.reading["grid"]
        doubtful = {(c.row, c.col) for c in checks}
        cells = []
        for index, quad in enumerate(record.reading["cell_quads"]):
            row, col = divmod(index, grid)
            tile = island.tile_at(row, col)
            cells.append(
                {
                    "row": row + 1,
                    "tile": col + 1,
                    "quad": quad,
                    "empty": tile is None,
                    "doubtful": (row, col) in doubtful,
                    "corrected": (row, col) in corrected,
                    "words": mondo.tile_words(tile),
                    "edges": list(tile.edges) if tile else None,
                    "animals": tile.animals if tile else 0,
                    "volcanoes": tile.volcanoes if tile else 0,
                }
            )
        version = len(record.corrections)
        return {
            "id": record.id,
            "game": record.kind,
            "name": record.original_name,
            "game_id": record.game_id,
            "turn": record.turn,
            "player": self._player_name(record) if record.player_id is not None else None,
            "report": report,
            "grid": grid,
            "picture": {
                "url": f"/api/photos/{record.id}/picture.jpg?v={version}",
                "photo_width": record.reading["view"]["width"],
                "photo_height": record.reading["view"]["height"],
            },
            "cells": cells,
            "corrections": [
                {"row": c.row + 1, "tile": c.col + 1, "empty": c.tile is None, "made": c.made}
                for c in record.corrections
            ],
        }

    def picture(self, photo_id: int) -> bytes:
        record = self._photo(photo_id)
        key = (record.id, len(record.corrections))
        with self._pictures_lock:
            if key in self._pictures:
                self._pictures.move_to_end(key)
                return self._pictures[key]
        if record.kind == "mediterraneo":
            if record.reading.get("source") != "photo":
                raise WebError(404, f"photo {record.id} is a board file: it has no picture")
            jpeg = mondo.jpeg(self._view(record))
        else:
            island, _, checks, report = self._state(record)
            jpeg = mondo.picture_jpeg(
                self._view(record), record.reading, island, report["players"][0], report["flags"], checks
            )
        with self._pictures_lock:
            self._pictures[key] = jpeg
            while len(self._pictures) > PICTURES_CACHED:
                self._pictures.popitem(last=False)
        return jpeg

    def cell(self, photo_id: int, row: int, tile: int) -> dict[str, Any]:
        record = self._photo(photo_id)
        if record.kind == "mediterraneo":
            raise WebError(404, f"photo {record.id} is a sea: its cells are /api/photos/{record.id}/sea/X/Y")
        island, _, checks, _ = self._state(record)
        r, c = self._cell_index(record, row, tile)
        return {
            "row": row,
            "tile": tile,
            "now": mondo.tile_words(island.tile_at(r, c)),
            "checks": [check.to_json() for check in checks if (check.row, check.col) == (r, c)],
            "alternatives": mondo.alternatives(record.reading, island, r, c, checks),
        }

    def _cell_index(self, record: PhotoRecord, row: Any, tile: Any) -> tuple[int, int]:
        grid = record.reading["grid"]
        if not all(type(v) is int and 1 <= v <= grid for v in (row, tile)):
            raise WebError(400, f"row and tile count from 1 to {grid} on this {grid}x{grid} island")
        return row - 1, tile - 1

    def correct(
        self, photo_id: int, row: Any, tile: Any, becomes: Any, x: Any = None, y: Any = None
    ) -> dict[str, Any]:
        """Put ``becomes`` into the cell, and re-score: a Mondo island's (row, tile) gets a tile's JSON
        (None: an empty space), a sea's (x, y) a cell's content (None: no card)."""
        record = self._photo(photo_id)
        if record.kind == "mediterraneo":
            return self._correct_sea(record, x, y, becomes)
        if row is None or tile is None:
            raise WebError(400, "missing row and tile (a Mondo island's cell, counted from 1)")
        r, c = self._cell_index(record, row, tile)
        island, _ = self._island(record)
        try:
            changed = mondo.put_tile(island, r, c, becomes)
        except BoardFormatError as error:
            raise WebError(400, f"impossible tile: {error}") from None
        stored = changed.tile_at(r, c)
        self.store.add_correction(record.id, r, c, tile_to_json(stored) if stored else None)
        return self.photo_view(record.id)

    def undo(self, photo_id: int) -> dict[str, Any]:
        record = self._photo(photo_id)
        if not self.store.undo_correction(record.id):
            raise WebError(409, "nothing to undo: this photo has no corrections")
        return self.photo_view(record.id)


def _grid_option(grid: Any) -> int | None:
    """A single photo's grid as the page sends it: "3", "4", or "" / "guess" / None (guessed)."""
    if grid in (None, "", "guess"):
        return None
    if str(grid) in ("3", "4"):
        return int(grid)
    raise WebError(400, f"grid must be 3, 4 or guess, not {cut(printable(str(grid)), 20)}")


def _suffix(data: bytes) -> str:
    from vision.photo_io import photo_header

    try:
        fmt, _ = photo_header(data)
    except Exception:  # noqa: BLE001 - it was read already; the suffix is only a convenience
        return ".img"
    return SUFFIX_OF_FORMAT.get(fmt.upper(), ".img")


def score_board(data: Any) -> dict[str, Any]:
    """The report of a board JSON value of any game (a Mediterráneo sea, a Mondo turn, ...), as
    `scorecam score BOARD.json` gives it."""
    from scorecam.inputs import checked_json
    from scoring.boards import score_board as score

    try:
        data = checked_json(data)
        return score(data, name="island")
    except BoardFormatError as error:
        raise WebError(422, f"impossible board: {error}") from None
    except (ValueError, TypeError, KeyError, RecursionError) as error:
        raise WebError(422, f"not a board: {cut(printable(str(error)))}") from None

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
from scorecam.web import mediterraneo as sea_web
from scorecam.web import mondo
from scorecam.web.games import GAMES, mondo_game_score
from scorecam.web.store import Game, PhotoRecord, RoundSettings, Store
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


class WebError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = cut(printable(" ".join(str(message).split())), 500)


def clean_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise WebError(400, f"{what} must be a non-empty text")
    name = " ".join(printable(value).split())
    if len(name) > NAME_CHARS or not name.isprintable():
        raise WebError(400, f"{what} must be at most {NAME_CHARS} printable characters")
    return name


class Scorekeeper:
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
    ) -> dict[str, Any]:
        """Read an uploaded photo and keep it (only when it reads: a refused photo is not kept).

        A photo alone is a Mondo island on ``grid`` (3, 4, or None: guessed); a game's photo is read
        as its game says: a Mondo turn's island on the game's grid, a Mediterráneo round's sea."""
        kind, player_id, options = "mondo", None, {"grid": _grid_option(grid)}
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
                self._check_round_has_settings(game, turn or 0)
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

    # --- Mediterráneo matches -------------------------------------------------------------------

    def _entries(self, game: Game) -> list[sea_web.RoundEntry]:
        from scoring.mediterraneo import Objective

        names = {p.id: p.name for p in game.players}
        out = []
        for number, settings in sorted(self.store.rounds(game.id).items()):
            objectives = {
                names[pid]: Objective(o["plus"], o["minus"]) for pid, o in settings.objectives.items()
            }
            first = names.get(settings.first) if settings.first is not None else None
            seagulls = tuple(names[pid] for pid in settings.seagulls)
            out.append(sea_web.RoundEntry(number, objectives, first, seagulls, settings.cards_out))
        return out

    def _match(self, game: Game) -> dict[str, Any]:
        """The match as it stands: each round (its sea, points, outcome) and the match's winner."""
        photos = self.store.turn_photos(game.id)
        players = [(p.name, sea_web.SETS[p.seat]) for p in game.players]

        def score(entry: sea_web.RoundEntry, first: str) -> dict[str, Any] | None:
            photo_id = photos.get((entry.number, None))
            if photo_id is None:
                return None
            cells, _ = self._cells(self._photo(photo_id))
            return sea_web.report(sea_web.sea_of(cells, entry.objectives, first, entry.cards_out))

        state = sea_web.match_state(players, self._entries(game), score)
        for entry in state["rounds"]:
            photo_id = photos.get((entry["round"], None))
            entry["sea"] = photo_id
            if photo_id is not None:
                record = self._photo(photo_id)
                entry["source"] = record.reading.get("source")
                _, corrected = self._cells(record)
                checks = sea_web.current_checks(record.reading, corrected)
                entry["status"] = "check" if checks or record.reading.get("sea_flags") else "ok"
        state["objective_sides"] = {name: sea_web.set_objectives(s) for name, s in players}
        return state

    def _round_number(self, game: Game, number: Any) -> int:
        if game.kind != "mediterraneo":
            raise WebError(404, f"a game of {GAMES[game.kind].title} has turns, not rounds")
        state = self._match(game)
        known = [r["round"] for r in state["rounds"]]
        allowed = set(known) | ({state["next_round"]} if state["next_round"] else set())
        if type(number) is not int or number not in allowed:
            if state["complete"]:
                why = f"the match is won by {state['winner']}"
            elif known and not state["next_round"]:
                why = f"round {known[-1]} is not over yet"
            else:
                why = "the rounds are played in order"
            raise WebError(404, f"no round {number} to enter now ({why})")
        return number

    def _check_round_has_settings(self, game: Game, number: int) -> None:
        self._round_number(game, number)
        if number not in self.store.rounds(game.id):
            raise WebError(409, f"round {number} has no objectives yet: enter both players' objectives first")

    def set_round(
        self, game_id: int, number: int, objectives: Any, first: Any, seagulls: Any, cards_out: Any
    ) -> dict[str, Any]:
        """The players' side of a round: objectives, who chose first, seagull cards played, whether
        the cards ran out. Checked against the cards each player still has."""
        from scoring.mediterraneo import Objective

        game = self._game(game_id)
        number = self._round_number(game, number)
        state = self._match(game)
        earlier = [r for r in state["rounds"] if r["round"] < number]
        # the cards each player has as the round starts: the match before it
        before = sea_web.match_state(
            [(p.name, sea_web.SETS[p.seat]) for p in game.players],
            [e for e in self._entries(game) if e.number < number],
            lambda entry, starter: self._round_report(game, entry, starter),
        )
        gone = {r["card"] for r in before["removed"]}
        if not isinstance(objectives, dict):
            raise WebError(400, "objectives must be an object: player -> {plus, minus}")
        chosen: dict[int, dict[str, str]] = {}
        for player in game.players:
            given = objectives.get(player.name)
            if not isinstance(given, dict) or set(given) != {"plus", "minus"}:
                raise WebError(
                    400, f'give {player.name}\'s objective as {{"plus": SPECIES, "minus": SPECIES}}'
                )
            try:
                objective = Objective(given["plus"], given["minus"])
            except BoardFormatError as error:
                raise WebError(400, f"{player.name}'s objective: {error}") from None
            card = sea_web.objective_card(sea_web.SETS[player.seat], objective)
            if card in gone:
                raise WebError(
                    400,
                    f"{player.name}'s objective +{objective.plus} −{objective.minus} (card {card}) has left "
                    "the game: its player won a round with it",
                )
            chosen[player.id] = {"plus": objective.plus, "minus": objective.minus}
        unknown = [name for name in objectives if game.player_named(name) is None]
        if unknown:
            raise WebError(400, f"no player called {cut(printable(str(unknown[0])), 40)} in this game")
        first_id = None
        if number == 1:
            found = game.player_named(first) if isinstance(first, str) else None
            if found is None:
                raise WebError(400, "say who chose an objective first in round 1 (first: a player's name)")
            first_id = found.id
        elif first not in (None, "", before["first_next_round"]):
            loser = earlier[-1]["winner"] if earlier else None
            because = f" (the loser of round {number - 1})" if loser else ""
            raise WebError(400, f"{before['first_next_round']} chooses first in round {number}{because}")
        if not isinstance(seagulls, list):
            raise WebError(400, "seagulls must be a list of the players who played their seagull card")
        ids = []
        for name in dict.fromkeys(seagulls):
            player = game.player_named(name) if isinstance(name, str) else None
            if player is None:
                raise WebError(400, "seagulls must be a list of the players who played their seagull card")
            if sea_web.seagull_card(sea_web.SETS[player.seat]) in gone:
                raise WebError(
                    400, f"{player.name}'s seagull card has left the game (played seagull-side before)"
                )
            ids.append(player.id)
        if not isinstance(cards_out, bool):
            raise WebError(400, "cards_out must be true or false")
        self.store.set_round(game.id, RoundSettings(number, first_id, chosen, tuple(ids), cards_out))
        return self.game_view(game.id)

    def _round_report(self, game: Game, entry: sea_web.RoundEntry, first: str) -> dict[str, Any] | None:
        photo_id = self.store.turn_photos(game.id).get((entry.number, None))
        if photo_id is None:
            return None
        cells, _ = self._cells(self._photo(photo_id))
        return sea_web.report(sea_web.sea_of(cells, entry.objectives, first, entry.cards_out))

    def add_sea_board(self, game_id: int, number: int, data: Any) -> dict[str, Any]:
        """A round's sea from its board JSON (kept as a file, like a photo); its objectives and
        first player, where the file has them and the round has none yet, become the round's."""
        import json

        from scorecam.inputs import checked_json

        game = self._game(game_id)
        number = self._round_number(game, number)
        try:
            read, extra = sea_web.read_board(checked_json(data))
        except BoardFormatError as error:
            raise WebError(422, f"impossible board: {error}") from None
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            raise WebError(422, f"not a board: {cut(printable(str(error)))}") from None
        if number not in self.store.rounds(game.id):
            objectives = extra.get("objectives")
            if not isinstance(objectives, dict):
                raise WebError(
                    409, f"round {number} has no objectives yet: enter both players' objectives first"
                )
            by_set = {sea_web.SETS[p.seat]: p.name for p in game.players}
            named = {by_set.get(k, k): v for k, v in objectives.items()}
            first = extra.get("first")
            self.set_round(game.id, number, named, by_set.get(first, first), [], False)
        final = server_name(".json")
        (self.store.photos / final).write_text(json.dumps(data), encoding="utf-8")
        photo_id = self.store.add_photo(
            kind="mediterraneo",
            file=final,
            original_name="board.json",
            board=read.board,
            reading=read.reading,
            game_id=game.id,
            turn=number,
        )
        return self.photo_view(photo_id)

    def _cells(self, record: PhotoRecord):
        """A sea's cells as corrected, and the cells corrected."""
        corrections = [(c.col, c.row, c.tile) for c in record.corrections]
        try:
            cells = sea_web.corrected_cells(record.board, corrections)
        except BoardFormatError as error:
            raise RuntimeError(f"photo {record.id}: stored corrections do not apply ({error})") from None
        return cells, {(x, y) for x, y, _ in corrections}

    def _sea_context(self, record: PhotoRecord):
        """The round of a sea: (entry, who chose first), or (None, None) for a sea of no round."""
        game = self.store.game(record.game_id) if record.game_id is not None else None
        if game is None:
            return None, None
        state = self._match(game)
        entry = next((e for e in self._entries(game) if e.number == record.turn), None)
        first = next((r["first"] for r in state["rounds"] if r["round"] == record.turn), None)
        return entry, first

    def _sea_for(self, record: PhotoRecord):
        """cells -> the round's sea of them (None when it cannot be scored: no objectives yet)."""
        entry, first = self._sea_context(record)

        def sea_for(cells):
            if entry is None or first is None:
                return None
            return sea_web.sea_of(cells, entry.objectives, first, entry.cards_out)

        return sea_for, entry, first

    def _sea_view(self, record: PhotoRecord) -> dict[str, Any]:
        from scoring.mediterraneo import sea_to_json

        cells, corrected = self._cells(record)
        sea_for, entry, first = self._sea_for(record)
        checks = sea_web.current_checks(record.reading, corrected)
        flags = [*record.reading.get("sea_flags", []), *(c["text"] for c in checks)]
        sea = sea_for(cells)
        report = None
        if sea is not None:
            report = sea_web.report(sea) | {
                "board": sea_to_json(sea),
                "flags": flags,
                "checks": checks,
                "status": "check" if flags else "ok",
            }
        doubtful = {(c["x"], c["y"]) for c in checks}
        quads = {(c["x"], c["y"]): c["quad"] for c in record.reading.get("cells", [])}
        at = {(c.x, c.y): c for c in cells}
        places = sorted(set(at) | set(quads), key=lambda k: (k[1], k[0]))
        photo = record.reading.get("source") == "photo"
        return {
            "id": record.id,
            "game": record.kind,
            "name": record.original_name,
            "game_id": record.game_id,
            "round": record.turn,
            "source": record.reading.get("source"),
            "report": report,
            "first": first,
            "flags": flags,
            "status": "check" if flags else "ok",
            "picture": {
                "url": f"/api/photos/{record.id}/picture.jpg",
                "photo_width": record.reading["view"]["width"],
                "photo_height": record.reading["view"]["height"],
            }
            if photo
            else None,
            "cells": [
                {
                    "x": x,
                    "y": y,
                    "quad": quads.get((x, y)),
                    "cell": sea_web.cell_to_json(at[(x, y)]) if (x, y) in at else None,
                    "words": sea_web.cell_words(at.get((x, y))),
                    "doubtful": (x, y) in doubtful,
                    "corrected": (x, y) in corrected,
                }
                for x, y in places
            ],
            "corrections": [
                {"x": c.col, "y": c.row, "empty": c.tile is None, "made": c.made} for c in record.corrections
            ],
        }

    def sea_cell(self, photo_id: int, x: int, y: int) -> dict[str, Any]:
        """A sea cell's reading and what else it may be, each with both players' points."""
        record = self._photo(photo_id)
        if record.kind != "mediterraneo":
            raise WebError(404, f"photo {record.id} is a Mondo island: its cells are row and tile")
        cells, corrected = self._cells(record)
        at = {(c.x, c.y): c for c in cells}
        sea_for, _, _ = self._sea_for(record)
        checks = [c for c in sea_web.current_checks(record.reading, corrected) if (c["x"], c["y"]) == (x, y)]
        return {
            "x": x,
            "y": y,
            "now": sea_web.cell_words(at.get((x, y))),
            "cell": sea_web.cell_to_json(at[(x, y)]) if (x, y) in at else None,
            "checks": checks,
            "alternatives": sea_web.alternatives(record.reading, cells, x, y, sea_for),
        }

    def _correct_sea(self, record: PhotoRecord, x: Any, y: Any, becomes: Any) -> dict[str, Any]:
        if type(x) is not int or type(y) is not int or not all(-1000 <= v <= 1000 for v in (x, y)):
            raise WebError(400, "a sea's cell is given by its x and y (whole numbers, as the sea's cells)")
        cells, _ = self._cells(record)
        try:
            changed = sea_web.put_cell({(c.x, c.y): c for c in cells}, x, y, becomes)
        except BoardFormatError as error:
            raise WebError(400, f"impossible cell: {error}") from None
        stored = changed.get((x, y))
        self.store.add_correction(record.id, y, x, sea_web.cell_to_json(stored) if stored else None)
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

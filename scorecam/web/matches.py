"""Mediterráneo matches in the web app: rounds with their objectives and who chose first, each
round's sea (a photo read by the sea reader, or a board), its cells corrected, and the match's
state by the engine. A round whose sea photo comes before its objectives takes them from the
objective cards read in the photo (kept with ``"from": "photo"`` until a player saves them). A part
of `Scorekeeper` (scorecam.web.service), which keeps the store, the photos and their pictures."""

from __future__ import annotations

from typing import Any

from scorecam.web import mediterraneo as sea_web
from scorecam.web.errors import WebError
from scorecam.web.games import GAMES
from scorecam.web.store import Game, PhotoRecord, RoundSettings
from scorecam.web.uploads import server_name
from scoring.errors import BoardFormatError, cut, printable


class MatchKeeping:
    """The Mediterráneo half of `Scorekeeper`: it uses the store and the photo helpers of the class
    it is mixed into (``self.store``, ``self._game``, ``self._photo``, ``self.photo_view``, ...)."""

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
            entered = self._entered(game, entry["round"])
            entry["objectives_from"] = {n: o.get("from", "entered") for n, o in (entered or {}).items()}
            if photo_id is not None:
                record = self._photo(photo_id)
                entry["source"] = record.reading.get("source")
                _, corrected = self._cells(record)
                checks = sea_web.current_checks(record.reading, corrected)
                _, doubts = sea_web.objectives_view(record.reading, players, entered)
                entry["status"] = "check" if checks or doubts or record.reading.get("sea_flags") else "ok"
        # a sea photo of the next round that came before its objectives (a card was not found)
        waiting = photos.get((state["next_round"], None)) if state["next_round"] else None
        state["next_round_sea"] = waiting
        state["objective_sides"] = {name: sea_web.set_objectives(s) for name, s in players}
        return state

    def _entered(self, game: Game, number: int | None) -> dict[str, dict[str, Any]] | None:
        """A round's objectives as stored, by player name (None: the round has none yet)."""
        settings = self.store.rounds(game.id).get(number) if number is not None else None
        if settings is None:
            return None
        names = {p.id: p.name for p in game.players}
        return {names[pid]: o for pid, o in settings.objectives.items()}

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

    def set_round(
        self,
        game_id: int,
        number: int,
        objectives: Any,
        first: Any,
        seagulls: Any,
        cards_out: Any,
        *,
        from_photo: bool = False,
    ) -> dict[str, Any]:
        """The players' side of a round: objectives, who chose first, seagull cards played, whether
        the cards ran out. Checked against the cards each player still has. ``from_photo``: the
        objectives are the cards read in the round's sea photo (marked so until a player saves them)."""
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
            if from_photo:
                chosen[player.id]["from"] = "photo"
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

    def round_photo_fields(
        self, game: Game, number: int, first: Any = None, seagulls: Any = None, cards_out: Any = False
    ) -> dict[str, Any]:
        """The rest of a round sent with its sea photo (used only where the photo's objective cards
        become the round's objectives): who chose first (round 1; None: as the cards suggest), the
        players who played their seagull card, whether the cards ran out. WebError when wrong."""
        given = number == 1 and first not in (None, "")
        if given and (not isinstance(first, str) or game.player_named(first) is None):
            raise WebError(400, f"no player called {cut(printable(str(first)), 40)} in this game")
        for name in seagulls or []:
            if not isinstance(name, str) or game.player_named(name) is None:
                raise WebError(400, "seagulls must be a list of the players who played their seagull card")
        return {
            "first": (first or None) if number == 1 else None,
            "seagulls": list(dict.fromkeys(seagulls or [])),
            "cards_out": bool(cards_out),
        }

    def round_from_cards(
        self, game: Game, number: int, reading: dict[str, Any], fields: dict[str, Any]
    ) -> None:
        """A round with no objectives yet takes them from the objective cards read in its sea photo.
        What the sea page needs to ask for them (a card not found, a card that left the game) is kept
        in ``reading``: ``round_settings`` (first, seagulls, cards_out) and ``objectives_problem``."""
        from vision.mediterraneo.reader import first_unseen

        if number in self.store.rounds(game.id):
            return  # the players' objectives stand; the cards read are shown beside them
        by_set = {sea_web.SETS[p.seat]: p.name for p in game.players}
        read = sea_web.objectives_read(reading)
        first = fields["first"]
        if number == 1 and first is None:  # as `scorecam score` assumes it: it cannot be seen
            first = by_set[first_unseen(read) if read else sea_web.SETS[0]]
        reading["round_settings"] = fields | {"first": first}
        if read is None:
            return
        objectives = {by_set[s]: {"plus": o.plus, "minus": o.minus} for s, o in read.items()}
        try:
            self.set_round(
                game.id, number, objectives, first, fields["seagulls"], fields["cards_out"], from_photo=True
            )
        except WebError as error:
            reading["objectives_problem"] = (
                f"the objective cards read cannot be this round's: {error.message}"
            )

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

    def _sea_objectives(self, record: PhotoRecord) -> dict[str, Any]:
        """The sea page's objectives: each player's (read from the photo, entered, or to choose), the
        flags they raise, why the round cannot be scored yet, and the round's other settings (which
        the page sends again with the objectives the players choose)."""
        game = self.store.game(record.game_id) if record.game_id is not None else None
        if game is None:
            return {"objectives": [], "objective_flags": [], "objectives_needed": "", "round_settings": None}
        players = [(p.name, sea_web.SETS[p.seat]) for p in game.players]
        entered = self._entered(game, record.turn)
        objectives, flags = sea_web.objectives_view(record.reading, players, entered)
        needed = ""
        settings = self.store.rounds(game.id).get(record.turn)
        if settings is None:
            asks = [o["note"] for o in objectives if o["objective"] is None and "not found" in o["note"]]
            needed = record.reading.get("objectives_problem") or "; ".join(asks)
            needed = needed or "choose both players' objectives to score this sea"
            flags = [*flags, needed]
            round_settings = record.reading.get("round_settings") or {
                "first": game.players[0].name if record.turn == 1 else None,
                "seagulls": [],
                "cards_out": False,
            }
        else:
            names = {p.id: p.name for p in game.players}
            round_settings = {
                "first": names.get(settings.first) if settings.first is not None else None,
                "seagulls": [names[pid] for pid in settings.seagulls],
                "cards_out": settings.cards_out,
            }
        return {
            "objectives": objectives,
            "objective_flags": flags,
            "objectives_needed": needed,
            "round_settings": round_settings,
            "objective_sides": {name: sea_web.set_objectives(s) for name, s in players},
        }

    def _sea_view(self, record: PhotoRecord) -> dict[str, Any]:
        from scoring.mediterraneo import sea_to_json

        cells, corrected = self._cells(record)
        sea_for, entry, first = self._sea_for(record)
        checks = sea_web.current_checks(record.reading, corrected)
        chosen = self._sea_objectives(record)
        flags = [
            *record.reading.get("sea_flags", []),
            *chosen["objective_flags"],
            *(c["text"] for c in checks),
        ]
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
        } | {k: v for k, v in chosen.items() if k != "objective_flags"}

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

"""The games a server keeps: SQLite, one file, with the photos in a folder beside it.

Tables: ``games`` (which game, a name, a Mondo game's grid), ``players`` (seated in order), ``turns``
(a Mondo game's three turns and who jumped out first in each), ``rounds`` (a Mediterráneo match's
rounds: the objectives, who chose first, the seagull cards played, whether the cards ran out), ``photos`` (the file under a server-chosen name, the
board read from it and what the reader said about it) and ``corrections`` (each tile a player put
right, in order). The schema carries its version in ``PRAGMA user_version``; ``MIGRATIONS[i]`` takes
a file from version i to i + 1, so an older file is brought up to date when it is opened and a file
of a newer scorecam is refused rather than misread.

One connection serves the process, behind a lock: the server is for one table of players, and a
photo takes far longer to read than any query here.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: games, players, turns, photos, corrections
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        UNIQUE (game_id, seat),
        UNIQUE (game_id, name)
    );
    CREATE TABLE turns (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        first_out INTEGER REFERENCES players(id),
        PRIMARY KEY (game_id, number)
    );
    CREATE TABLE photos (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        file TEXT NOT NULL UNIQUE,
        original_name TEXT NOT NULL,
        uploaded REAL NOT NULL,
        game_id INTEGER REFERENCES games(id),
        turn INTEGER,
        player_id INTEGER REFERENCES players(id),
        board TEXT NOT NULL,
        reading TEXT NOT NULL
    );
    CREATE INDEX photos_by_turn ON photos (game_id, turn, player_id);
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        photo_id INTEGER NOT NULL REFERENCES photos(id),
        row INTEGER NOT NULL,
        col INTEGER NOT NULL,
        tile TEXT,
        made REAL NOT NULL
    );
    CREATE INDEX corrections_by_photo ON corrections (photo_id, id);
    """,
    # 1 -> 2: a Mondo game's grid (NULL: guessed from each photo, as every game made before), and a
    # Mediterráneo match's rounds (objectives, who chose first, seagull cards played; the sea of a
    # round is its latest photo: `photos.turn` is the round, a board file kept as a file like a photo)
    """
    ALTER TABLE games ADD COLUMN grid INTEGER;
    CREATE TABLE rounds (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        first INTEGER REFERENCES players(id),
        objectives TEXT NOT NULL,
        seagulls TEXT NOT NULL,
        cards_out INTEGER NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """A database file that cannot be used (a newer schema, not SQLite): said in one line."""


@dataclass(frozen=True)
class Player:
    id: int
    seat: int
    name: str


@dataclass(frozen=True)
class Game:
    id: int
    kind: str
    name: str
    created: float
    players: tuple[Player, ...]
    first_out: dict[int, int | None]  # turn number -> player id
    grid: int | None = None  # Mondo: 3 or 4; None: guessed from each photo (games made before schema 2)

    def player_with_id(self, player_id: int | None) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)

    def player_named(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name), None)


@dataclass(frozen=True)
class RoundSettings:
    """What the players say about a Mediterráneo round (the sea says the rest)."""

    number: int
    first: int | None  # the player id who chose an objective first
    objectives: dict[int, dict[str, str]]  # player id -> {"plus": species, "minus": species}
    seagulls: tuple[int, ...]  # player ids who played their seagull card seagull-side
    cards_out: bool  # the round ended because the next player had no cards left


@dataclass(frozen=True)
class Correction:
    id: int
    row: int
    col: int
    tile: dict[str, Any] | None  # the tile's JSON, or None for an empty space
    made: float


@dataclass(frozen=True)
class PhotoRecord:
    id: int
    kind: str
    file: str  # the server's name for it, inside the photos folder
    original_name: str  # as the phone called it: shown, never used as a path
    uploaded: float
    game_id: int | None
    turn: int | None
    player_id: int | None
    board: dict[str, Any]  # as read
    reading: dict[str, Any]  # what the reader said: geometry, checks, alternatives (per game)
    corrections: tuple[Correction, ...]


def photos_folder(db_path: Path) -> Path:
    """The folder of a database's photos: ``games.sqlite`` keeps them in ``games-photos/``."""
    return db_path.with_name(db_path.stem + "-photos")


class Store:
    def __init__(self, db_path: Path) -> None:
        self.path = Path(db_path)
        self.photos = photos_folder(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a scorecam games file ({error})") from None
        self.photos.mkdir(exist_ok=True)  # only beside a file that is a games database

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer scorecam (schema {version}; this one knows up to "
                f"{SCHEMA_VERSION}); upgrade scorecam or use another --db"
            )
        for step in range(version, SCHEMA_VERSION):
            with self._transaction() as db:
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {step + 1}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # --- games ----------------------------------------------------------------------------------

    def create_game(
        self, kind: str, name: str, players: list[str], turns: int, grid: int | None = None
    ) -> int:
        with self._transaction() as db:
            game_id = db.execute(
                "INSERT INTO games (kind, name, created, grid) VALUES (?, ?, ?, ?)",
                (kind, name, time.time(), grid),
            ).lastrowid
            db.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, seat, player) for seat, player in enumerate(players)],
            )
            db.executemany(
                "INSERT INTO turns (game_id, number) VALUES (?, ?)",
                [(game_id, number) for number in range(1, turns + 1)],
            )
        return int(game_id)

    def games(self) -> list[Game]:
        return [self._game(row) for row in self._query("SELECT * FROM games ORDER BY id DESC")]

    def game(self, game_id: int) -> Game | None:
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    def _game(self, row: sqlite3.Row) -> Game:
        players = tuple(
            Player(r["id"], r["seat"], r["name"])
            for r in self._query("SELECT * FROM players WHERE game_id = ? ORDER BY seat", (row["id"],))
        )
        turns = self._query("SELECT * FROM turns WHERE game_id = ? ORDER BY number", (row["id"],))
        return Game(
            row["id"],
            row["kind"],
            row["name"],
            row["created"],
            players,
            {t["number"]: t["first_out"] for t in turns},
            row["grid"],
        )

    def set_first_out(self, game_id: int, turn: int, player_id: int | None) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE turns SET first_out = ? WHERE game_id = ? AND number = ?", (player_id, game_id, turn)
            )

    # --- rounds (Mediterráneo) -------------------------------------------------------------------

    def set_round(self, game_id: int, settings: RoundSettings) -> None:
        objectives = json.dumps({str(k): v for k, v in settings.objectives.items()})
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO rounds (game_id, number, first, objectives, seagulls, cards_out) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    settings.number,
                    settings.first,
                    objectives,
                    json.dumps(list(settings.seagulls)),
                    int(settings.cards_out),
                ),
            )

    def rounds(self, game_id: int) -> dict[int, RoundSettings]:
        rows = self._query("SELECT * FROM rounds WHERE game_id = ? ORDER BY number", (game_id,))
        return {
            r["number"]: RoundSettings(
                r["number"],
                r["first"],
                {int(k): v for k, v in json.loads(r["objectives"]).items()},
                tuple(json.loads(r["seagulls"])),
                bool(r["cards_out"]),
            )
            for r in rows
        }

    # --- photos ---------------------------------------------------------------------------------

    def add_photo(
        self,
        *,
        kind: str,
        file: str,
        original_name: str,
        board: dict[str, Any],
        reading: dict[str, Any],
        game_id: int | None = None,
        turn: int | None = None,
        player_id: int | None = None,
    ) -> int:
        with self._transaction() as db:
            photo_id = db.execute(
                "INSERT INTO photos (kind, file, original_name, uploaded, game_id, turn, player_id, board, "
                "reading) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    file,
                    original_name,
                    time.time(),
                    game_id,
                    turn,
                    player_id,
                    json.dumps(board),
                    json.dumps(reading),
                ),
            ).lastrowid
        return int(photo_id)

    def photo(self, photo_id: int) -> PhotoRecord | None:
        rows = self._query("SELECT * FROM photos WHERE id = ?", (photo_id,))
        if not rows:
            return None
        row = rows[0]
        corrections = tuple(
            Correction(c["id"], c["row"], c["col"], json.loads(c["tile"]) if c["tile"] else None, c["made"])
            for c in self._query("SELECT * FROM corrections WHERE photo_id = ? ORDER BY id", (photo_id,))
        )
        return PhotoRecord(
            row["id"],
            row["kind"],
            row["file"],
            row["original_name"],
            row["uploaded"],
            row["game_id"],
            row["turn"],
            row["player_id"],
            json.loads(row["board"]),
            json.loads(row["reading"]),
            corrections,
        )

    def turn_photos(self, game_id: int) -> dict[tuple[int, int], int]:
        """(turn, player id) -> the photo that counts: the latest one taken of that island."""
        rows = self._query(
            "SELECT turn, player_id, MAX(id) AS id FROM photos WHERE game_id = ? GROUP BY turn, player_id",
            (game_id,),
        )
        return {(r["turn"], r["player_id"]): r["id"] for r in rows if r["turn"] is not None}

    def add_correction(self, photo_id: int, row: int, col: int, tile: dict[str, Any] | None) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO corrections (photo_id, row, col, tile, made) VALUES (?, ?, ?, ?, ?)",
                (photo_id, row, col, json.dumps(tile) if tile is not None else None, time.time()),
            )

    def undo_correction(self, photo_id: int) -> bool:
        with self._transaction() as db:
            last = db.execute("SELECT MAX(id) FROM corrections WHERE photo_id = ?", (photo_id,)).fetchone()[0]
            if last is None:
                return False
            db.execute("DELETE FROM corrections WHERE id = ?", (last,))
        return True

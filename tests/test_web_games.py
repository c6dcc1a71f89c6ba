"""The web app's games beyond one photo: a Mondo game's grid (chosen when it starts, every photo read
on it; games from before grids were kept read as before), and a Mediterráneo match kept round by
round (objectives entered, cards that leave the game, best of three, seas corrected and re-scored)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from scorecam.web.app import create_app
from scoring.boards import score_board
from scoring.mediterraneo import (
    Cell,
    RoundRecord,
    match_report_to_json,
    record_round,
    start_match,
)

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
MONDO = SAMPLES / "mondo"

# The schema of version 1, as the first web app wrote it: an old games file is made from it here.
SCHEMA_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE players (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL, name TEXT NOT NULL, UNIQUE (game_id, seat), UNIQUE (game_id, name));
CREATE TABLE turns (game_id INTEGER NOT NULL REFERENCES games(id), number INTEGER NOT NULL,
    first_out INTEGER REFERENCES players(id), PRIMARY KEY (game_id, number));
CREATE TABLE photos (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, file TEXT NOT NULL UNIQUE,
    original_name TEXT NOT NULL, uploaded REAL NOT NULL, game_id INTEGER REFERENCES games(id), turn INTEGER,
    player_id INTEGER REFERENCES players(id), board TEXT NOT NULL, reading TEXT NOT NULL);
CREATE INDEX photos_by_turn ON photos (game_id, turn, player_id);
CREATE TABLE corrections (id INTEGER PRIMARY KEY, photo_id INTEGER NOT NULL REFERENCES photos(id),
    row INTEGER NOT NULL, col INTEGER NOT NULL, tile TEXT, made REAL NOT NULL);
CREATE INDEX corrections_by_photo ON corrections (photo_id, id);
"""


def mondo_sample(index: int) -> tuple[bytes, dict]:
    stem = MONDO / f"mondo-s9900-{index:05d}"
    return stem.with_suffix(".jpg").read_bytes(), json.loads(stem.with_suffix(".json").read_text())


def upload(client: TestClient, data: bytes, url: str, **fields):
    return client.post(url, files={"photo": ("photo.jpg", data, "image/jpeg")}, data=fields)


@pytest.fixture
def grids_asked(monkeypatch) -> list:
    """The grid every island photo is read with (scorecam.photos.read_island_photo, which the web
    app calls), recorded as the reader is called."""
    import scorecam.photos

    asked = []
    real = scorecam.photos.read_island_photo

    def spy(path, *, grid=None, use_catalog=True):
        asked.append(grid)
        return real(path, grid=grid, use_catalog=use_catalog)

    monkeypatch.setattr(scorecam.photos, "read_island_photo", spy)
    return asked


@pytest.fixture
def client(tmp_path) -> TestClient:
    return TestClient(create_app(tmp_path / "games.sqlite"), raise_server_exceptions=False)


# --- a Mondo game's grid ------------------------------------------------------------------------


def test_a_4x4_game_reads_its_islands_as_4x4(client, grids_asked):
    game = client.post("/api/games", json={"players": ["Anna", "Ben"], "grid": 4})
    assert game.status_code == 201 and game.json()["grid"] == 4
    data, truth = mondo_sample(5)  # a 4x4 island with two spaces empty
    view = upload(client, data, f"/api/games/{game.json()['id']}/turns/1/photos", player="Anna").json()
    assert grids_asked == [4]
    assert view["grid"] == 4 and len(view["cells"]) == 16
    assert view["report"]["players"][0]["total"] == truth["report"]["players"][0]["total"]


def test_a_game_is_3x3_unless_said_and_its_photos_are_read_so(client, grids_asked):
    game = client.post("/api/games", json={"players": ["Anna"]}).json()
    assert game["grid"] == 3
    data, truth = mondo_sample(2)
    view = upload(client, data, f"/api/games/{game['id']}/turns/1/photos", player="Anna").json()
    assert grids_asked == [3] and view["grid"] == 3
    assert view["report"]["players"][0]["total"] == truth["report"]["players"][0]["total"]
    # a photo alone: 3, 4 or guessed (the default) as the page's selector says
    upload(client, data, "/api/photos", grid="4")
    upload(client, data, "/api/photos")
    upload(client, data, "/api/photos", grid="guess")
    assert grids_asked == [3, 4, None, None]
    for bad in ({"grid": 5}, {"grid": "4"}, {"grid": None}):
        response = client.post("/api/games", json={"players": ["Anna"], **bad})
        assert response.status_code == 400 and response.json()["error"].startswith("grid must be 3")
    response = upload(client, data, "/api/photos", grid="5")
    assert response.status_code == 400 and response.json() == {"error": "grid must be 3, 4 or guess, not 5"}


def test_a_games_file_of_schema_1_is_migrated_and_its_games_read_as_before(tmp_path, grids_asked):
    from scorecam.web.store import SCHEMA_VERSION

    # a photo read by today's app, for its board and reading as the old file would hold them
    fresh = tmp_path / "fresh.sqlite"
    data, truth = mondo_sample(2)
    read = upload(TestClient(create_app(fresh)), data, "/api/photos").json()
    with sqlite3.connect(fresh) as db:
        file, board, reading = db.execute("SELECT file, board, reading FROM photos").fetchone()

    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.executescript(SCHEMA_1)
        db.execute("PRAGMA user_version = 1")
        db.execute("INSERT INTO games VALUES (1, 'mondo', 'Old game', 0)")
        db.executemany("INSERT INTO players VALUES (?, 1, ?, ?)", [(1, 0, "Anna"), (2, 1, "Ben")])
        db.executemany("INSERT INTO turns VALUES (1, ?, NULL)", [(1,), (2,), (3,)])
        db.execute(
            "INSERT INTO photos VALUES (1, 'mondo', ?, 'island.jpg', 0, 1, 1, 1, ?, ?)",
            (file, board, reading),
        )
    (tmp_path / "old-photos").mkdir()
    (tmp_path / "old-photos" / file).write_bytes((tmp_path / "fresh-photos" / file).read_bytes())

    client = TestClient(create_app(old))
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    game = client.get("/api/games/1").json()
    assert game["grid"] is None  # made before grids were kept: its photos are guessed, as they were
    assert game["turns"][0]["missing"] == ["Ben"] and game["turns"][0]["islands"][0]["photo"] == 1
    kept = client.get("/api/photos/1").json()
    assert kept["report"] == read["report"] | {"players": kept["report"]["players"]}
    assert client.get(kept["picture"]["url"]).status_code == 200
    grids_asked.clear()
    assert upload(client, data, "/api/games/1/turns/1/photos", player="Ben").status_code == 201
    assert grids_asked == [None]
    turn = client.get("/api/games/1").json()["turns"][0]
    # the same island twice: one volcano each, both the most, so each scores as alone
    assert turn["missing"] == [] and turn["totals"] == {"Anna": 11, "Ben": 11} == {
        "Anna": truth["report"]["players"][0]["total"],
        "Ben": truth["report"]["players"][0]["total"],
    }


# --- a Mediterráneo match -----------------------------------------------------------------------


def sea(*cells: tuple[int, int, str], frame: str = "circle") -> dict:
    return {
        "format": 1,
        "game": "mediterraneo",
        "cells": [{"x": x, "y": y, "content": c, "frame": frame} for x, y, c in cells],
    }


def objectives(anna: tuple[str, str], ben: tuple[str, str]) -> dict:
    return {"Anna": {"plus": anna[0], "minus": anna[1]}, "Ben": {"plus": ben[0], "minus": ben[1]}}


def test_a_match_is_played_round_by_round_to_its_winner(client):
    game = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]})
    assert game.status_code == 201, game.text
    game_id = game.json()["id"]
    assert game.json()["sets"] == {"Anna": "circle", "Ben": "square"} and game.json()["next_round"] == 1
    url = f"/api/games/{game_id}/rounds"

    # round 1: the rulebook-format sea of the samples, its objectives in the file (circle, square)
    board = json.loads((SAMPLES / "boards" / "mediterraneo-round-over.json").read_text())
    board["objectives"]["circle"] = {"plus": "fish", "minus": "ray"}  # the kit's cards C2 and S7
    board["objectives"]["square"] = {"plus": "turtle", "minus": "ray"}
    round1 = client.post(f"{url}/1/board", json=board)
    assert round1.status_code == 201, round1.text
    expected = score_board(
        {
            **board,
            "objectives": {"Anna": board["objectives"]["circle"], "Ben": board["objectives"]["square"]},
            "first": "Anna",
            "hands": {"Anna": 2, "Ben": 3},
            "next": "Ben",
        }  # fmt: skip
    )
    assert round1.json()["report"]["players"] == expected["players"]
    view = client.get(f"/api/games/{game_id}").json()
    assert view["rounds"][0]["winner"] == "Anna" and view["rounds"][0]["points"] == {"Anna": 11, "Ben": 3}
    assert view["first_next_round"] == "Ben" and view["next_round"] == 2
    assert view["removed"] == [
        {"card": "C2", "player": "Anna", "round": 1, "reason": "objective card of the round winner"}
    ]

    # round 2: Anna's card C2 left the game; the loser (Ben) chooses first
    settings = {"objectives": objectives(("fish", "ray"), ("ray", "fish")), "seagulls": ["Ben"]}
    response = client.put(f"{url}/2", json=settings)
    assert response.status_code == 400 and "(card C2) has left the game" in response.json()["error"]
    settings["objectives"] = objectives(("turtle", "crab"), ("ray", "fish"))
    response = client.put(f"{url}/2", json={**settings, "first": "Anna"})
    assert response.status_code == 400 and response.json() == {
        "error": "Ben chooses first in round 2 (the loser of round 1)"
    }
    assert client.put(f"{url}/2", json=settings).status_code == 200
    assert client.post(f"{url}/3/board", json=sea()).status_code == 404  # round 2 is not over
    # a tie with no cards left: the round is played again, Ben choosing first again
    response = client.put(f"{url}/2", json={**settings, "cards_out": True})
    assert response.status_code == 200
    view = client.post(f"{url}/2/board", json=sea((0, 0, "crab"), (1, 0, "fish")))
    view = client.get(f"/api/games/{game_id}").json()
    assert view["rounds"][1]["outcome"] == "replay" and view["rounds"][1]["points"] == {"Anna": -1, "Ben": -1}
    assert view["first_next_round"] == "Ben" and view["next_round"] == 3
    # Ben's seagull card left the game with the replayed round
    response = client.put(f"{url}/3", json=settings)
    assert response.status_code == 400 and "Ben's seagull card has left the game" in response.json()["error"]

    # round 3: Ben scores 10 with five rays: he wins
    settings = {"objectives": objectives(("turtle", "crab"), ("ray", "fish"))}
    assert client.put(f"{url}/3", json=settings).status_code == 200
    client.post(f"{url}/3/board", json=sea(*((x, 0, "ray") for x in range(5)), frame="square"))
    # round 4: Anna (the loser) first; five starfish: Anna wins the match
    settings = {"objectives": objectives(("starfish", "jellyfish"), ("fish", "ray"))}
    assert client.put(f"{url}/4", json=settings).status_code == 200
    sea_id = client.post(f"{url}/4/board", json=sea(*((x, 1, "starfish") for x in range(4)))).json()["id"]
    view = client.get(f"/api/games/{game_id}").json()
    assert view["rounds"][3]["outcome"] == "in_play" and view["winner"] is None and view["next_round"] is None
    # a correction: the fifth starfish, read as a jellyfish, is put right; Anna reaches 10
    client.post(
        f"/api/photos/{sea_id}/corrections", json={"x": 4, "y": 1, "becomes": {"content": "jellyfish"}}
    )
    client.post(
        f"/api/photos/{sea_id}/corrections", json={"x": 4, "y": 1, "becomes": {"content": "starfish"}}
    )
    view = client.get(f"/api/games/{game_id}").json()
    assert [r["winner"] for r in view["rounds"]] == ["Anna", None, "Ben", "Anna"]
    assert view["winner"] == "Anna" and view["complete"] and view["next_round"] is None

    # the engine's match from the same rounds says the same
    match = start_match(
        ["Anna", "Ben"],
        {"Anna": [f"C{i}" for i in range(1, 10)], "Ben": [f"S{i}" for i in range(1, 10)]},
        "Anna",
    )
    for record in (
        RoundRecord("won", "Anna", (("Anna", "C2"), ("Ben", "S7"))),
        RoundRecord("replay", None, (("Anna", "C3"), ("Ben", "S1")), ("S9",)),
        RoundRecord("won", "Ben", (("Anna", "C3"), ("Ben", "S1"))),
        RoundRecord("won", "Anna", (("Anna", "C5"), ("Ben", "S2"))),
    ):
        match = record_round(match, record)
    engine = match_report_to_json(match)
    for key in ("rounds_won", "winner", "cards_left", "removed"):
        assert view[key] == engine[key], key
    assert [r["first"] for r in view["rounds"]] == [r["first"] for r in engine["rounds"]]
    response = client.put(f"{url}/5", json=settings)
    assert response.status_code == 404 and "the match is won by Anna" in response.json()["error"]
    # kept: a restarted server shows the same match
    assert (
        TestClient(create_app(client.app.app.state.keeper.store.path)).get(f"/api/games/{game_id}").json()
        == view
    )


def test_a_sea_cell_is_corrected_and_rescored_like_the_board_by_hand(client):
    game_id = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]}).json()[
        "id"
    ]
    board = json.loads((SAMPLES / "boards" / "mediterraneo-octopus-example.json").read_text())
    settings = {"objectives": objectives(("ray", "fish"), ("turtle", "crab")), "first": "Ben"}
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200
    view = client.post(f"/api/games/{game_id}/rounds/1/board", json=board).json()
    x, y = view["cells"][0]["x"], view["cells"][0]["y"]
    cell = client.get(f"/api/photos/{view['id']}/sea/{x}/{y}").json()
    # every content a cell may hold is offered, with both players' points: 6 species, an octopus
    # pointing 4 ways, the seagull and no card, less the fish that is there
    assert cell["cell"]["content"] == "fish" and len(cell["alternatives"]) == 6 + 4 + 1 + 1 - 1
    option = next(o for o in cell["alternatives"] if o["cell"] and o["cell"]["content"] == "octopus")
    corrected = client.post(
        f"/api/photos/{view['id']}/corrections", json={"x": x, "y": y, "becomes": option["cell"]}
    ).json()
    by_hand = {
        "format": 1,
        "game": "mediterraneo",
        "cells": [c for c in board["cells"] if (c["x"], c["y"]) != (x, y)] + [option["cell"]],
        "objectives": {"Anna": {"plus": "ray", "minus": "fish"}, "Ben": {"plus": "turtle", "minus": "crab"}},
        "first": "Ben",
    }
    engine = score_board(by_hand)
    assert corrected["report"]["players"] == engine["players"]
    assert {p["name"]: p["total"] for p in engine["players"]} == option["points"]
    assert next(c for c in corrected["cells"] if (c["x"], c["y"]) == (x, y))["corrected"]
    undone = client.delete(f"/api/photos/{view['id']}/corrections/last").json()
    assert undone["report"]["players"] == view["report"]["players"]
    for bad in ({"content": "shark"}, {"content": "octopus"}, "fish"):
        response = client.post(f"/api/photos/{view['id']}/corrections", json={"x": x, "y": y, "becomes": bad})
        assert response.status_code in (400, 422) and "error" in response.json()
    assert client.get(f"/api/photos/{view['id']}/picture.jpg").status_code == 404  # a board has no picture


def test_bad_match_requests_are_refused_in_one_line(client):
    response = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben", "Cleo"]})
    assert response.json() == {"error": "a game of Mediterráneo has 2 players, not 3"}
    game_id = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]}).json()[
        "id"
    ]
    url = f"/api/games/{game_id}/rounds"
    for body, message in (
        ({"objectives": objectives(("ray", "fish"), ("turtle", "crab"))}, "say who chose an objective first"),
        ({"objectives": objectives(("ray", "ray"), ("turtle", "crab")), "first": "Anna"}, "Anna's objective"),
        ({"objectives": {"Anna": {"plus": "ray", "minus": "fish"}}, "first": "Anna"}, "give Ben's objective"),
        (
            {"objectives": objectives(("shark", "fish"), ("turtle", "crab")), "first": "Anna"},
            "Anna's objective",
        ),
    ):
        response = client.put(f"{url}/1", json=body)
        assert response.status_code == 400 and response.json()["error"].startswith(message), response.text
    assert client.put(f"{url}/2", json={"objectives": {}}).status_code == 404
    response = client.post(f"{url}/1/board", json=sea((0, 0, "fish")))
    assert response.status_code == 409 and "no objectives yet" in response.json()["error"]
    data, _ = mondo_sample(2)
    # a photo before the objectives is read (its objective cards may give them): an island is no sea
    response = upload(client, data, f"{url}/1/photos")
    assert response.status_code == 422 and response.json()["error"].startswith("photo.jpg: no sea found")
    assert client.get(f"/api/games/{game_id}").json()["next_round_sea"] is None  # a refused photo is not kept
    good = {"objectives": objectives(("ray", "fish"), ("turtle", "crab")), "first": "Anna"}
    assert client.put(f"{url}/1", json=good).status_code == 200
    response = client.post(f"{url}/1/board", json={"format": 1, "game": "mediterraneo", "cells": [{"x": 0}]})
    assert response.status_code == 422 and response.json()["error"].startswith("impossible board")
    assert (
        client.post(
            f"/api/games/{game_id}/turns/1/photos", files={"photo": ("a.jpg", data)}, data={"player": "Anna"}
        ).status_code
        == 404
    )


# --- a sea read from a photo ----------------------------------------------------------------------


def test_a_sea_photo_shows_its_doubtful_cells_and_offers_the_second_reading(client, monkeypatch):
    """The sea reader's answer (made here by hand: the reader's own types) kept with each cell's place
    on the picture, doubtful cells flagged, and the runner-up offered first when tapped."""
    import vision.mediterraneo.reader as reader

    def read_sea(photo, objectives=None, first=None, **_):
        cells = [
            Cell(0, 0, "ray", None, "circle"),
            Cell(1, 0, "fish", None, "square"),
            Cell(2, 0, "octopus", "W", "circle"),
        ]
        quads = [
            np.array([[x * 50, 0], [x * 50 + 50, 0], [x * 50 + 50, 50], [x * 50, 50]], np.float64)
            for x in range(4)
        ]
        readings = (
            reader.CellReading(cells[0], quads[0], 0.99, "fish 0.01"),
            reader.CellReading(cells[1], quads[1], 0.55, "turtle 0.40"),
            reader.CellReading(cells[2], quads[2], 0.97, "octopus pointing E 0.02"),
            reader.CellReading(None, quads[3], 0.6, "crab 0.35"),
        )
        g = np.array(
            [[1 / 50, 0, -0.5], [0, 1 / 50, -0.5], [0, 0, 1]]
        )  # px -> lattice: nodes at cell centres
        return None, reader.SeaReading(
            tuple(cells), readings, ("Cell (1, 0): read as a fish",), g, 50.0, {"cells": 1.0}
        )

    monkeypatch.setattr(reader, "read_sea", read_sea)
    game_id = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]}).json()[
        "id"
    ]
    settings = {"objectives": objectives(("ray", "fish"), ("turtle", "crab")), "first": "Anna"}
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200
    jpg = (SAMPLES / "mediterraneo" / "mediterraneo-s9900-00000.jpg").read_bytes()
    response = upload(client, jpg, f"/api/games/{game_id}/rounds/1/photos")
    assert response.status_code == 201, response.text
    view = response.json()
    # octopus (2, 0) points W at the fish: Anna +2 ray -1 fish -1 octopus-fish; Ben nothing
    assert {p["name"]: p["total"] for p in view["report"]["players"]} == {"Anna": 0, "Ben": 0}
    assert view["status"] == "check" and [(c["x"], c["y"]) for c in view["cells"] if c["doubtful"]] == [
        (1, 0),
        (3, 0),
    ]
    empty = next(c for c in view["cells"] if (c["x"], c["y"]) == (3, 0))
    assert empty["cell"] is None and np.asarray(empty["quad"]).shape == (4, 2)
    picture = client.get(view["picture"]["url"])
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/jpeg"
    cell = client.get(f"/api/photos/{view['id']}/sea/1/0").json()
    first = cell["alternatives"][0]
    assert (
        first["cell"] == {"x": 1, "y": 0, "content": "turtle", "frame": "square"}
        and "second reading" in first["why"]
    )
    # the octopus now touches a turtle: Anna +2 for the ray, Ben +2 for each of the two turtles
    assert first["points"] == {"Anna": 2, "Ben": 4}
    corrected = client.post(
        f"/api/photos/{view['id']}/corrections", json={"x": 1, "y": 0, "becomes": first["cell"]}
    ).json()
    assert [(c["x"], c["y"]) for c in corrected["cells"] if c["doubtful"]] == [(3, 0)]
    assert {p["name"]: p["total"] for p in corrected["report"]["players"]} == first["points"]
    crab = client.get(f"/api/photos/{view['id']}/sea/3/0").json()["alternatives"][0]
    assert crab["cell"]["content"] == "crab" and crab["cell"]["frame"] == "circle"  # the neighbour's frame


def test_a_round_made_unfinished_by_a_correction_holds_the_rounds_after_it(client):
    game_id = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]}).json()[
        "id"
    ]
    url = f"/api/games/{game_id}/rounds"
    settings = {"objectives": objectives(("ray", "fish"), ("turtle", "crab")), "first": "Anna"}
    assert client.put(f"{url}/1", json=settings).status_code == 200
    sea_id = client.post(f"{url}/1/board", json=sea(*((x, 0, "ray") for x in range(5)))).json()["id"]
    round2 = {"objectives": objectives(("turtle", "crab"), ("ray", "fish"))}  # Anna's C1 left the game
    assert client.put(f"{url}/2", json=round2).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["rounds"][1]["first"] == "Ben"
    # a ray was a fish: Anna has 8 - 1 = 7, so round 1 is not over, and round 2 waits for it
    client.post(f"/api/photos/{sea_id}/corrections", json={"x": 0, "y": 0, "becomes": {"content": "fish"}})
    view = client.get(f"/api/games/{game_id}").json()
    assert view["rounds"][0]["outcome"] == "in_play" and view["rounds"][0]["points"] == {"Anna": 7, "Ben": 0}
    assert view["rounds"][1]["problem"] == "round 1 is not over yet" and view["rounds"][1]["first"] is None
    assert view["rounds_won"] == {"Anna": 0, "Ben": 0} and view["next_round"] is None
    response = client.put(f"{url}/3", json=settings)
    assert response.status_code == 404 and "round 2 is not over yet" in response.json()["error"]


def test_a_sea_photo_alone_is_sent_to_a_match(client):
    """A photo on the one-photo page is read as an island; a sea there is told where it is scored."""
    jpg = (SAMPLES / "mediterraneo" / "mediterraneo-s9900-00000.jpg").read_bytes()
    response = upload(client, jpg, "/api/photos")
    assert response.status_code == 422
    assert response.json()["error"].startswith("photo.jpg: this looks like a Mediterráneo sea: start a match")


def test_a_sea_photo_read_by_the_reader_scores_as_its_truth(client):
    """A committed sample sea photo, read by the sea reader in a match's round with the objectives of
    its truth: both players' points as the truth has them, and a picture to tap the cells on."""
    stem = SAMPLES / "mediterraneo" / "mediterraneo-s9900-00000"
    truth = json.loads(stem.with_suffix(".json").read_text())
    name = {"circle": "Anna", "square": "Ben"}
    game_id = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]}).json()[
        "id"
    ]
    settings = {
        "objectives": {name[s]: o for s, o in truth["board"]["objectives"].items()},
        "first": name[truth["board"]["first"]],
    }
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200, settings
    response = upload(client, stem.with_suffix(".jpg").read_bytes(), f"/api/games/{game_id}/rounds/1/photos")
    assert response.status_code == 201, response.text
    view = response.json()
    expected = {name[p["name"]]: p["total"] for p in truth["report"]["players"]}
    assert {p["name"]: p["total"] for p in view["report"]["players"]} == expected
    assert len([c for c in view["cells"] if c["cell"]]) == len(truth["board"]["cells"])
    assert all(np.asarray(c["quad"]).shape == (4, 2) for c in view["cells"])
    assert client.get(view["picture"]["url"]).headers["content-type"] == "image/jpeg"
    assert client.get(f"/api/games/{game_id}").json()["rounds"][0]["points"] == expected

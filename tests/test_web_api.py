"""The web app's JSON API (`scorecam serve`), through FastAPI's test client: a sample photo read and
scored as its truth says, a tile corrected and re-scored as the engine scores the edited board, a
three-turn Mondo game played to its winner and kept across a new app on the same file, and bad
requests of every kind answered with one line while the server goes on serving."""

from __future__ import annotations

import copy
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from scorecam.errors import InputError
from scorecam.photos import read_island_photo
from scorecam.web.app import create_app
from scorecam.web.uploads import MAX_PHOTO_BYTES
from scoring.boards import score_board
from scoring.mondo import Game, PlayerIsland, Turn, game_score_to_json, island_from_json, score_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def sample(index: int) -> tuple[bytes, dict]:
    """A committed sample photo's bytes and its truth (board and report), written by `scorecam synth`."""
    stem = SAMPLES / "mondo" / f"mondo-s9900-{index:05d}"
    return stem.with_suffix(".jpg").read_bytes(), json.loads(stem.with_suffix(".json").read_text())


def upload(client: TestClient, data: bytes, name: str = "island.jpg", url: str = "/api/photos", **fields):
    return client.post(url, files={"photo": (name, data, "image/jpeg")}, data=fields)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("web") / "games.sqlite"


@pytest.fixture(scope="module")
def client(db) -> TestClient:
    return TestClient(create_app(db), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def photo(client) -> dict:
    data, _ = sample(6)
    response = upload(client, data, "mondo-s9900-00006.jpg")
    assert response.status_code == 201, response.text
    return response.json()


def test_a_sample_photo_scores_as_its_truth(photo):
    _, truth = sample(6)
    player, expected = photo["report"]["players"][0], truth["report"]["players"][0]
    assert (player["valid"], player["points"], player["total"]) == (
        expected["valid"],
        expected["points"],
        expected["total"],
    )
    assert player["total"] == 20 and photo["report"]["status"] == "ok"
    assert player["name"] == "mondo-s9900-00006"  # named after the file, as the CLI names it
    assert photo["grid"] == 4 and len(photo["cells"]) == 16
    # every cell has its outline on the picture, in the picture's pixels
    for cell in photo["cells"]:
        quad = np.asarray(cell["quad"])
        assert quad.shape == (4, 2)
        assert (quad >= 0).all() and (quad[:, 0] <= photo["picture"]["photo_width"]).all()


def test_the_annotated_picture_is_a_jpeg_of_the_photo_and_its_panel(client, photo):
    response = client.get(photo["picture"]["url"])
    assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
    picture = cv2.imdecode(np.frombuffer(response.content, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[1] > photo["picture"]["photo_width"]  # the panel in a margin to the right
    assert picture.shape[0] >= photo["picture"]["photo_height"]


def _engine_total(board: dict, row: int, col: int, tile: dict | None) -> int:
    """What `scorecam score` gives for the board JSON with one tile replaced by hand."""
    edited = copy.deepcopy(board)
    edited["tiles"] = [t for t in edited["tiles"] if (t["row"], t["col"]) != (row, col)]
    if tile is not None:
        edited["tiles"].append({**tile, "row": row, "col": col})
    return score_board(edited, name="island")["players"][0]["total"]


def test_a_corrected_tile_is_scored_like_the_board_fixed_by_hand(client, db):
    data, _ = sample(2)
    view = upload(client, data).json()
    before = view["report"]["players"][0]["total"]
    cell = client.get(f"/api/photos/{view['id']}/cells/2/2").json()
    assert cell["alternatives"], "every cell offers alternatives"
    # the alternative whose total differs: the page says what the total becomes, and it does
    option = next(o for o in cell["alternatives"] if o["tile"] is not None and o["total"] != before)
    response = client.post(
        f"/api/photos/{view['id']}/corrections", json={"row": 2, "tile": 2, "becomes": option["tile"]}
    )
    assert response.status_code == 200, response.text
    corrected = response.json()
    total = corrected["report"]["players"][0]["total"]
    assert total == option["total"] != before
    assert total == _engine_total(view["report"]["board"], 1, 1, option["tile"])
    assert next(c for c in corrected["cells"] if (c["row"], c["tile"]) == (2, 2))["corrected"]
    # an empty space, the same way
    emptied = client.post(
        f"/api/photos/{view['id']}/corrections", json={"row": 1, "tile": 1, "becomes": None}
    )
    board_now = corrected["report"]["board"]
    assert emptied.json()["report"]["players"][0]["total"] == _engine_total(board_now, 0, 0, None)
    # kept: a new app on the same file shows the photo as corrected, and its picture draws
    again = TestClient(create_app(db))
    kept = again.get(f"/api/photos/{view['id']}").json()
    assert kept["report"] == emptied.json()["report"] and len(kept["corrections"]) == 2
    assert again.get(kept["picture"]["url"]).status_code == 200
    # undone, one correction at a time, back to the reading
    assert (
        client.delete(f"/api/photos/{view['id']}/corrections/last").json()["report"]["players"][0]["total"]
        == total
    )
    undone = client.delete(f"/api/photos/{view['id']}/corrections/last").json()
    assert undone["report"]["players"][0]["total"] == before and undone["corrections"] == []
    assert client.delete(f"/api/photos/{view['id']}/corrections/last").status_code == 409


def test_a_doubtful_reading_offers_its_second_reading_first(client, photo):
    """A check's runner-up is the first alternative of its cell, with the check's own what-if total."""
    from scorecam.web import mondo

    island = island_from_json(photo["report"]["board"])
    tile = island.tile_at(0, 1)
    from vision.mondo.checks import settle

    reading = {
        "grid": 4,
        "checks": [
            {"row": 0, "col": 1, "head": "edge_E", "readings": [[tile.edge("E"), 0.55], ["water", 0.4]]}
        ],
        "candidates": [{"p_empty": 0.0, "tiles": []}] * 16,
        "island_flags": [],
    }
    checks = mondo.current_checks(reading, island, set())
    (expected,) = settle(island, list(checks))
    first = mondo.alternatives(reading, island, 0, 1, checks)[0]
    assert first["tile"]["edges"]["E"] == "water"
    assert first["total"] == expected.total_if_second
    assert first["why"] == expected.question


def test_a_three_turn_game_is_played_to_its_winner_and_kept(client, db):
    # the islands of each turn (sample photos) and who jumped out first
    # (a game is played on one grid: these islands are all 3x3, the default)
    plan = [({"Anna": 2, "Ben": 4}, "Ben"), ({"Anna": 1, "Ben": 7}, "Anna"), ({"Anna": 9, "Ben": 8}, None)]
    game = client.post("/api/games", json={"game": "mondo", "name": "Friday", "players": ["Anna", "Ben"]})
    assert game.status_code == 201, game.text
    game_id = game.json()["id"]
    assert game.json()["totals"] == {"Anna": 0, "Ben": 0} and not game.json()["complete"]
    truth_turns = []
    for number, (photos, first) in enumerate(plan, start=1):
        for name, index in photos.items():
            data, truth = sample(index)
            response = upload(client, data, url=f"/api/games/{game_id}/turns/{number}/photos", player=name)
            assert response.status_code == 201, response.text
            # each island as its truth scores it alone
            assert response.json()["report"]["players"][0]["total"] == truth["report"]["players"][0]["total"]
        if first:
            response = client.put(f"/api/games/{game_id}/turns/{number}/first-out", json={"player": first})
            assert response.status_code == 200, response.text
        islands = [
            PlayerIsland(name, island_from_json(sample(i)[1]["board"]), name == first)
            for name, i in photos.items()
        ]
        truth_turns.append(Turn(tuple(islands)))
        view = client.get(f"/api/games/{game_id}").json()
        expected = game_score_to_json(score_game(Game(tuple(truth_turns))))
        assert view["totals"] == expected["totals"]  # volcano majority and first out, turn by turn
        assert view["complete"] == (number == 3)
        assert view["winners"] == (expected["winners"] if number == 3 else [])
    # by hand: turn 1 Anna 11 (her 1 volcano is the most: -1, as alone), Ben 3 + 4 out first; turn 2
    # Anna 6 alone but Ben's 5 volcanoes are the most: 6 + 1 + 4 out first, Ben 15; turn 3 Anna 20 + 1
    # (Ben's 4 volcanoes are the most), Ben 2
    assert [t["totals"] for t in view["turns"]] == [
        {"Anna": 11, "Ben": 7},
        {"Anna": 11, "Ben": 15},
        {"Anna": 21, "Ben": 2},
    ]
    assert view["totals"] == {"Anna": 43, "Ben": 24}
    assert view["winners"] == expected["winners"] == ["Anna"]
    # kept: a new app (a restarted server) on the same file
    restarted = TestClient(create_app(db)).get(f"/api/games/{game_id}").json()
    assert restarted == view
    assert any(g["id"] == game_id for g in client.get("/api/games").json())


def test_tied_totals_share_the_win():
    from scorecam.web.games import mondo_game_score

    island = island_from_json(sample(3)[1]["board"])
    turns = [{"islands": {"Anna": island, "Ben": island}, "first_out": None} for _ in range(3)]
    score = mondo_game_score(["Anna", "Ben"], turns)
    assert (
        score["complete"]
        and score["winners"] == ["Anna", "Ben"]
        and score["totals"] == {"Anna": 39, "Ben": 39}
    )
    turns[2]["first_out"] = "Ben"
    assert mondo_game_score(["Anna", "Ben"], turns)["winners"] == ["Ben"]


def test_a_turn_waits_for_every_island_before_it_counts(client):
    game_id = client.post("/api/games", json={"players": ["Cleo", "Dino", "Emil"]}).json()["id"]
    data, _ = sample(4)
    assert upload(client, data, url=f"/api/games/{game_id}/turns/1/photos", player="Cleo").status_code == 201
    view = client.get(f"/api/games/{game_id}").json()
    assert view["turns"][0]["missing"] == ["Dino", "Emil"] and view["totals"] == {
        "Cleo": 0,
        "Dino": 0,
        "Emil": 0,
    }
    for bad, status in (
        ({"player": "Nobody"}, 400),
        ({"player": 3}, 400),
    ):
        response = client.put(f"/api/games/{game_id}/turns/1/first-out", json=bad)
        assert response.status_code == status and "error" in response.json()
    response = upload(client, data, url=f"/api/games/{game_id}/turns/4/photos", player="Cleo")
    assert response.status_code == 404 and response.json() == {
        "error": "a game of Mondo has turns 1 to 3, not 4"
    }
    response = upload(client, data, url=f"/api/games/{game_id}/turns/1/photos", player="Zed")
    assert response.status_code == 400 and response.json() == {"error": "no player called Zed in this game"}


def _cli_reason(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "upload.jpg"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        read_island_photo(path)
    return caught.value.reason


def _no_island_photo() -> bytes:
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(90, 140, (600, 800, 3), dtype=np.uint8), (0, 0), 9)
    return cv2.imencode(".jpg", table)[1].tobytes()


@pytest.mark.parametrize(
    "name, make",
    [
        ("notes.jpg", lambda jpg: b"these are my notes, not a photo\n" * 20),
        ("half.jpg", lambda jpg: jpg[: len(jpg) // 2]),
        ("empty.jpg", lambda jpg: b""),
        ("table.jpg", lambda jpg: _no_island_photo()),
        ("tiny.png", lambda jpg: cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()),
    ],
)
def test_a_bad_photo_gets_the_clis_one_line_reason(client, tmp_path, name, make):
    data = make(sample(6)[0])
    response = upload(client, data, name)
    assert response.status_code == 422
    assert response.json() == {"error": f"{name}: {_cli_reason(tmp_path, data)}"}


def test_bad_requests_of_every_kind_are_refused_in_one_line(client, db):
    data, _ = sample(6)
    cases = [
        (upload(client, b"\xff\xd8\xff" + b"\0" * MAX_PHOTO_BYTES, "big.jpg"), 413, "too large"),
        (
            client.post("/api/photos", files={"file": ("a.jpg", data, "image/jpeg")}),
            400,
            "form field 'photo'",
        ),
        (client.post("/api/photos", content=b"photo", headers={"content-type": "image/jpeg"}), 400, "photo"),
        (
            client.post("/api/games", content=b'{"players": [', headers={"content-type": "application/json"}),
            400,
            "broken JSON",
        ),
        (client.post("/api/games", json={"players": ["Anna", "Anna"]}), 400, "two players are called Anna"),
        (client.post("/api/games", json={"players": []}), 400, "1 to 8 players"),
        (client.post("/api/games", json={"game": "chess", "players": ["A"]}), 400, "game must be one of"),
        (client.post("/api/games", json={"players": ["x" * 500]}), 400, "at most 40"),
        (
            client.post(
                "/api/photos/1/corrections",
                content=b"\x00garbage",
                headers={"content-type": "application/json"},
            ),
            400,
            "broken JSON",
        ),
        (
            client.post("/api/photos/1/corrections", json={"row": 9, "tile": 1, "becomes": None}),
            400,
            "count from 1 to 4",
        ),
        (
            client.post("/api/photos/1/corrections", json={"row": 1, "tile": 1, "becomes": {"edges": "x"}}),
            400,
            "impossible tile",
        ),
        (
            client.post("/api/photos/1/corrections", json={"row": 1, "tile": 1, "becomes": [1]}),
            400,
            "becomes",
        ),
        (client.get("/api/photos/999999"), 404, "no photo 999999"),
        (client.get("/api/photos/abc"), 400, "photo_id"),
        (client.get("/api/games/999999"), 404, "no game 999999"),
        (client.get("/api/photos/1/cells/0/1"), 400, "count from 1"),
        (client.get("/../../etc/passwd"), 404, "no such page"),
        (client.get("/static/../app.py"), 404, ""),
        (
            client.post("/api/boards", content=b"[[[[", headers={"content-type": "application/json"}),
            400,
            "broken JSON",
        ),
        (
            client.post("/api/boards", json={"game": "mondo", "grid": 3, "tiles": "none"}),
            422,
            "impossible board",
        ),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (response.status_code, response.text)
        error = response.json()["error"]
        assert words in error and "\n" not in error and len(error) < 600

    # a body streamed without a length is cut off at the limit too
    def chunks():
        yield b'--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n'
        for _ in range(30):
            yield b"\0" * 1024 * 1024

    response = client.post(
        "/api/photos", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b"}
    )
    assert response.status_code == 413 and "too large" in response.json()["error"]
    # and the server goes on serving
    assert client.get("/api/games").status_code == 200
    assert upload(client, data).status_code == 201


def test_client_names_never_touch_the_file_system(client, db):
    folder = db.with_name("games-photos")
    outside = sorted(p.name for p in db.parent.iterdir())
    data, _ = sample(6)
    for number, name in enumerate(
        ("../../escape.jpg", "/etc/passwd", "..\\..\\win.jpg", "a/b/c.jpg", "\x00.jpg", "é" * 300)
    ):
        if number < 2:  # read and kept: under the server's name
            response = upload(client, data, name)
            assert response.status_code == 201, response.text
            shown = response.json()["name"]
        else:
            shown = upload(client, b"not a photo", name).json()["error"].split(": not an image")[0]
        assert "/" not in shown and "\\" not in shown and "\x00" not in shown and len(shown) <= 100
        refused = upload(client, b"not a photo", name)
        assert refused.status_code == 422 and refused.json()["error"].startswith(f"{shown}: not an image")
    assert sorted(p.name for p in db.parent.iterdir()) == outside  # nothing new beside the database
    for path in folder.iterdir():  # every stored photo under a name the server chose
        assert path.is_file() and len(path.stem) == 32 and all(c in "0123456789abcdef" for c in path.stem)
        assert path.suffix == ".jpg"


def test_an_internal_error_is_one_line_500_and_the_server_goes_on(client, photo, monkeypatch, caplog):
    from scorecam.web import service

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service.mondo, "alternatives", broken)
    response = client.get(f"/api/photos/{photo['id']}/cells/1/1")
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (ZeroDivisionError); the server log has the details"}
    assert "ZeroDivisionError" in caplog.text  # the traceback is logged
    monkeypatch.undo()
    assert client.get(f"/api/photos/{photo['id']}/cells/1/1").status_code == 200


def test_a_sea_board_is_scored_as_the_cli_scores_it(client):
    board = json.loads((SAMPLES / "boards" / "mediterraneo-octopus-example.json").read_text())
    response = client.post("/api/boards", json=board)
    assert response.status_code == 200 and response.json() == score_board(board)


def test_the_api_is_documented(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/photos", "/api/games", "/api/photos/{photo_id}/corrections", "/api/boards"} <= set(paths)
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and 'capture="environment"' in page.text


def test_help_does_not_import_the_web_stack():
    code = "import sys; from scorecam.cli import main; main(['--help']); print(sorted(m for m in ('fastapi', 'uvicorn', 'starlette') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "serve" in out and out.strip().endswith("[]")


def test_serve_starts_and_answers(tmp_path):
    """The command itself: it listens, says where, keeps games in --db, and stops on a signal."""
    db = tmp_path / "kept.sqlite"
    server = subprocess.Popen(
        [sys.executable, "-m", "scorecam", "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = server.stdout.readline()
            lines.append(line)
            if line.startswith("open http://127.0.0.1:"):
                break
        url = lines[-1].split()[1]
        assert f"games kept in {db}" in "".join(lines)
        with urllib.request.urlopen(url + "api/games", timeout=10) as response:
            assert response.status == 200 and json.load(response) == []
        assert db.is_file() and db.with_name("kept-photos").is_dir()
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path, capsys):
    from scorecam.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"scorecam: 127.0.0.1:{port}: cannot listen there") and err.count("\n") == 1
    assert not (tmp_path / "g.sqlite").exists()  # refused before anything was made


def test_serve_refuses_a_file_that_is_no_games_database(tmp_path, capsys):
    from scorecam.cli import main

    notes = tmp_path / "notes.sqlite"
    notes.write_text("my shopping list\n" * 200)
    code = main(["serve", "--port", "0", "--db", str(notes)])
    err = capsys.readouterr().err
    assert (
        code == 3 and err.startswith(f"scorecam: {notes}: not a scorecam games file") and err.count("\n") == 1
    )
    assert notes.read_text() == "my shopping list\n" * 200  # never written over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]  # and nothing made beside it


def test_a_newer_schema_is_refused_not_misread(tmp_path):
    import sqlite3

    from scorecam.web.store import SCHEMA_VERSION, Store, StoreError

    db = tmp_path / "future.sqlite"
    Store(db).close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="written by a newer scorecam"):
        Store(db)

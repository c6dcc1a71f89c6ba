"""The web app's sea page with the objectives read from the photo: a round's sea photo sent before its
objectives takes them from the two objective cards beside the sea (marked as read from the photo), a
player changes one and the sea is scored again, a doubtful card is a check until a player saves the
objectives, and a card hidden from the photo is asked for (the sea is kept, unscored, meanwhile)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorecam.web.app import create_app
from scoring.boards import score_board

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mediterraneo"
NAME = {"circle": "Anna", "square": "Ben"}  # the first player seated plays the circles


@pytest.fixture
def client(tmp_path) -> TestClient:
    return TestClient(create_app(tmp_path / "games.sqlite"))


def sample(index: int) -> tuple[Path, dict]:
    stem = SAMPLES / f"mediterraneo-s9900-{index:05d}"
    return stem.with_suffix(".jpg"), json.loads(stem.with_suffix(".json").read_text())


def new_match(client: TestClient) -> int:
    response = client.post("/api/games", json={"game": "mediterraneo", "players": ["Anna", "Ben"]})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def send_sea(client: TestClient, game_id: int, photo: Path, **fields) -> dict:
    response = client.post(
        f"/api/games/{game_id}/rounds/1/photos",
        files={"photo": ("sea.jpg", photo.read_bytes(), "image/jpeg")},
        data=fields,
    )
    assert response.status_code == 201, response.text
    return response.json()


def totals(view: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in view["report"]["players"]}


def truth_totals(truth: dict) -> dict[str, int]:
    return {NAME[p["name"]]: p["total"] for p in truth["report"]["players"]}


def by_player(view: dict) -> dict[str, dict]:
    return {o["player"]: o for o in view["objectives"]}


def test_a_sea_photo_without_objectives_is_scored_by_its_objective_cards(client):
    photo, truth = sample(0)
    game_id = new_match(client)
    view = send_sea(client, game_id, photo, first=NAME[truth["board"]["first"]])
    assert totals(view) == truth_totals(truth)
    objectives = by_player(view)
    for seat, objective in truth["board"]["objectives"].items():
        read = objectives[NAME[seat]]
        assert read["objective"] == objective and read["from"] == "photo" and read["set"] == seat
        assert read["card"]["sure"] and not read["doubtful"]
    assert view["objectives_needed"] == "" and view["status"] == "ok"
    game = client.get(f"/api/games/{game_id}").json()
    assert game["rounds"][0]["objectives_from"] == {"Anna": "photo", "Ben": "photo"}
    assert (
        game["rounds"][0]["points"] == truth_totals(truth)
        and game["rounds"][0]["first"] == NAME[truth["board"]["first"]]
    )


def test_an_objective_changed_by_a_player_scores_the_sea_again(client):
    photo, truth = sample(1)
    game_id = new_match(client)
    view = send_sea(client, game_id, photo)  # who chose first is left as the cards suggest: circle
    assert totals(view) == truth_totals(truth) and view["round_settings"]["first"] == "Anna"
    # Ben's objective becomes another of his cards: the engine's score of the true sea with it
    ben = by_player(view)["Ben"]["objective"]
    other = {"plus": "turtle", "minus": "crab"}
    assert other != ben
    objectives = {"Anna": by_player(view)["Anna"]["objective"], "Ben": other}
    settings = {"objectives": objectives, **view["round_settings"]}
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200
    rescored = client.get(f"/api/photos/{view['id']}").json()
    board = dict(truth["board"]) | {"objectives": dict(truth["board"]["objectives"]) | {"square": other}}
    expected = {NAME[p["name"]]: p["total"] for p in score_board(board)["players"]}
    assert totals(rescored) == expected != truth_totals(truth)
    after = by_player(rescored)
    assert after["Ben"]["from"] == "entered" and after["Ben"]["objective"] == other
    assert "in the photo reads +2 ray −1 fish, not the objective entered" in after["Ben"]["note"]
    assert after["Anna"]["from"] == "entered" and after["Anna"]["note"] == ""


def test_objectives_entered_before_the_photo_stand(client):
    """As before the cards were read: the players' objectives score the sea, the cards only beside."""
    photo, truth = sample(1)
    game_id = new_match(client)
    mine = {"Anna": {"plus": "fish", "minus": "ray"}, "Ben": truth["board"]["objectives"]["square"]}
    assert (
        client.put(f"/api/games/{game_id}/rounds/1", json={"objectives": mine, "first": "Anna"}).status_code
        == 200
    )
    view = send_sea(client, game_id, photo)
    assert [o["objective"] for o in view["objectives"]] == [mine["Anna"], mine["Ben"]]
    assert {o["from"] for o in view["objectives"]} == {"entered"} and view["status"] == "ok"
    board = dict(truth["board"]) | {"objectives": {"circle": mine["Anna"], "square": mine["Ben"]}}
    assert totals(view) == {NAME[p["name"]]: p["total"] for p in score_board(board)["players"]}


def test_a_doubtful_objective_card_is_highlighted_until_a_player_saves_it(client, monkeypatch):
    """The reader's own answer for the photo, with Ben's card made unsure (as a worn card reads)."""
    import vision.mediterraneo.reader as reader

    real = reader.read_objectives

    def unsure_square(*args, **kwargs):
        cards = real(*args, **kwargs)
        worn = tuple(
            dataclasses.replace(c, confidence=0.6) if c.player == "square" else c for c in cards.cards
        )
        return dataclasses.replace(cards, cards=worn)

    monkeypatch.setattr(reader, "read_objectives", unsure_square)
    photo, truth = sample(1)
    game_id = new_match(client)
    view = send_sea(client, game_id, photo)
    assert totals(view) == truth_totals(truth)  # scored by the cards read all the same
    ben = by_player(view)["Ben"]
    assert ben["doubtful"] and ben["from"] == "photo" and "check it" in ben["note"]
    assert not by_player(view)["Anna"]["doubtful"]
    assert view["status"] == "check" and ben["note"] in view["flags"]
    assert client.get(f"/api/games/{game_id}").json()["rounds"][0]["status"] == "check"
    # the player confirms what the card says: the check is settled
    settings = {
        "objectives": {o["player"]: o["objective"] for o in view["objectives"]},
        **view["round_settings"],
    }
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200
    settled = client.get(f"/api/photos/{view['id']}").json()
    assert settled["status"] == "ok" and not by_player(settled)["Ben"]["doubtful"]


def test_a_hidden_objective_card_is_asked_for(client, tmp_path):
    from sea_photo_edits import hide_objective_cards  # the tests' helper (tests/ is on sys.path)

    photo, truth = sample(1)
    hidden = hide_objective_cards(photo, tmp_path / "no-square-card.jpg", ("square",))
    game_id = new_match(client)
    view = send_sea(client, game_id, hidden, first="Anna")
    assert view["report"] is None and view["status"] == "check"
    needed = "Ben's objective card (squares) was not found in the photo: choose Ben's objective"
    assert view["objectives_needed"] == needed and needed in view["flags"]
    anna, ben = by_player(view)["Anna"], by_player(view)["Ben"]
    assert ben["card"] is None and ben["objective"] is None
    circle = truth["board"]["objectives"]["circle"]
    assert anna["objective"] is None and {k: anna["card"][k] for k in ("plus", "minus")} == circle
    game = client.get(f"/api/games/{game_id}").json()
    assert game["rounds"] == [] and game["next_round"] == 1 and game["next_round_sea"] == view["id"]
    # the players give Ben's objective: the sea kept is scored as its truth
    objectives = {"Anna": circle, "Ben": truth["board"]["objectives"]["square"]}
    settings = {"objectives": objectives, **view["round_settings"]}
    assert client.put(f"/api/games/{game_id}/rounds/1", json=settings).status_code == 200
    scored = client.get(f"/api/photos/{view['id']}").json()
    assert totals(scored) == truth_totals(truth) and scored["objectives_needed"] == ""
    assert client.get(f"/api/games/{game_id}").json()["rounds"][0]["sea"] == view["id"]


def test_a_round_photos_other_settings_are_checked(client):
    photo, _ = sample(1)
    game_id = new_match(client)
    for fields, words in (({"first": "Cleo"}, "no player called Cleo"), ({"seagulls": ["Cleo"]}, "seagulls")):
        response = client.post(
            f"/api/games/{game_id}/rounds/1/photos",
            files={"photo": ("sea.jpg", photo.read_bytes(), "image/jpeg")},
            data=fields,
        )
        assert response.status_code == 400 and words in response.json()["error"]
    view = send_sea(client, game_id, photo, first="Ben", seagulls="Ben", cards_out="true")
    assert view["round_settings"] == {"first": "Ben", "seagulls": ["Ben"], "cards_out": True}
    assert client.get(f"/api/games/{game_id}").json()["rounds"][0]["seagulls"] == ["Ben"]

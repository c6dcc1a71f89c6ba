"""The page in a real browser: headless Chromium (the system's package; Playwright cannot download its
own here) driven by Playwright, against `scorecam serve`'s app on uvicorn in a background thread.

A sample photo is uploaded as from a phone, its score appears, a tile tapped on the picture is
corrected and the new score appears; a phone-sized screenshot is saved under pytest's tmp dir. A
whole three-turn game is played on the page to its winner, who is still shown after the server
restarts on the same database (marked slow: `.ci/run` and `make test-slow` run it). Without a Chromium on the machine these tests are skipped, and say so.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mondo"
PHONE = {"width": 390, "height": 844}
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def system_chromium() -> str | None:
    """$SCORECAM_CHROMIUM, else a Chromium on PATH (Debian's package: `apt-get install chromium`)."""
    named = os.environ.get("SCORECAM_CHROMIUM")
    if named:
        return named
    return next((path for path in map(shutil.which, CHROMIUM_NAMES) if path), None)


CHROMIUM = system_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium on this machine, so the browser test did not run "
    "(install it with `apt-get install chromium`; .ci/run does)",
)


@contextmanager
def serving(db: Path) -> Iterator[str]:
    """The app on uvicorn on a free port, in a thread; yields its URL."""
    import uvicorn

    from scorecam.web.app import create_app

    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        listener.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def truth_total(index: int) -> int:
    truth = json.loads((SAMPLES / f"mondo-s9900-{index:05d}.json").read_text())
    return truth["report"]["players"][0]["total"]


def test_upload_score_correct_and_rescore_on_a_phone(phone, tmp_path):
    with serving(tmp_path / "games.sqlite") as url:
        phone.goto(url + "/")
        # a file that is no photo: the CLI's reason, on the page
        phone.set_input_files(
            "#photo-file", files=[{"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"notes"}]
        )
        phone.wait_for_selector("#error:not([hidden])")
        assert phone.text_content("#error").startswith("notes.jpg: not an image (a photo must be JPEG")

        phone.set_input_files("#photo-file", str(SAMPLES / "mondo-s9900-00006.jpg"))
        phone.wait_for_selector("#view-photo:not([hidden]) #total")
        assert phone.text_content("#total") == str(truth_total(6)) == "20"
        assert phone.is_hidden("#error")
        phone.wait_for_function("document.getElementById('picture-img').naturalWidth > 0")

        # tap a tile on the picture: its alternatives, each with the total it would give
        phone.tap("#picture-cells [data-cell='2-3']")
        phone.wait_for_selector("#cell-panel:not([hidden]) .alternative")
        assert phone.text_content("#cell-title") == "Row 2, tile 3"
        options = phone.query_selector_all(".alternative")
        totals = [int(option.get_attribute("data-total")) for option in options]
        pick = next(i for i, total in enumerate(totals) if total != 20)
        options[pick].tap()
        phone.wait_for_function(f"document.getElementById('total').textContent === '{totals[pick]}'")
        assert phone.is_hidden("#cell-panel")
        assert phone.get_attribute("#board [data-cell='2-3']", "class").split().count("corrected") == 1
        phone.wait_for_function("document.getElementById('picture-img').complete")

        shot = tmp_path / "web-phone.png"
        phone.screenshot(path=str(shot), full_page=True)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        # undo brings the reading back
        phone.tap("#undo")
        phone.wait_for_function("document.getElementById('total').textContent === '20'")


@pytest.mark.slow  # 6 photos read: about 10 s; .ci/run runs it, and `make test-slow`
def test_a_three_turn_game_on_the_page_survives_a_restart(phone, tmp_path):
    db = tmp_path / "games.sqlite"
    plan = [({"Anna": 2, "Ben": 4}, "Ben"), ({"Anna": 1, "Ben": 7}, "Anna"), ({"Anna": 9, "Ben": 8}, None)]
    with serving(db) as url:
        phone.goto(url + "/#/games")
        phone.fill("#game-name", "Friday")
        names = phone.query_selector_all(".player-name")
        names[0].fill("Anna")
        names[1].fill("Ben")
        phone.click("#new-game button[type=submit]")
        phone.wait_for_selector("#view-game:not([hidden]) #totals tr[data-player='Ben']")
        game_url = phone.url
        for turn, (photos, first) in enumerate(plan, start=1):
            for name, index in photos.items():
                phone.set_input_files(
                    f"#turns section:nth-child({turn}) li[data-player='{name}'] input[type=file]",
                    str(SAMPLES / f"mondo-s9900-{index:05d}.jpg"),
                )
                phone.wait_for_selector("#view-photo:not([hidden]) #total")
                assert phone.text_content("#total") == str(truth_total(index))
                phone.goto(game_url)
                phone.wait_for_selector(f"#view-game:not([hidden]) #turns li[data-player='{name}'] a.state")
            if first:
                with phone.expect_response(lambda response: "first-out" in response.url) as answer:
                    phone.select_option(f"select[data-turn='{turn}']", first)
                assert answer.value.status == 200
        phone.wait_for_selector("#game-result.done")
        assert phone.text_content("#game-result") == "Winner: Anna"
        assert phone.text_content("#totals tr[data-player='Anna'] td.total") == "43"
        phone.screenshot(path=str(tmp_path / "web-game.png"), full_page=True)
    with serving(db) as url:  # the server restarted on the same file
        phone.goto(url + "/" + game_url.split("/", 3)[3])
        phone.wait_for_selector("#game-result.done")
        assert phone.text_content("#game-result") == "Winner: Anna"
        assert phone.text_content("#totals tr[data-player='Ben'] td.total") == "24"


def test_a_mediterraneo_match_on_a_phone(phone, tmp_path):
    """A match started on the page, round 1's objectives chosen and its sea given as a board file, a
    cell tapped and corrected (both players' points change as the engine says), the round won; round
    2's sea a sample photo, scored as its truth, a cell tapped on the picture."""
    board = Path(__file__).resolve().parents[1] / "samples" / "boards" / "mediterraneo-round-over.json"
    with serving(tmp_path / "games.sqlite") as url:
        phone.goto(url + "/#/games")
        phone.select_option("#game-kind", "mediterraneo")
        assert phone.is_hidden("#grid-choice")
        names = phone.query_selector_all(".player-name")
        names[0].fill("Anna")
        names[1].fill("Ben")
        phone.click("#new-game button[type=submit]")
        phone.wait_for_selector("#view-game:not([hidden]) #rounds form[data-round='1']")
        assert phone.text_content("#game-result") == "No round played yet."
        game_url = phone.url
        phone.select_option("form[data-round='1'] [data-objective='Anna']", "fish/ray")
        phone.select_option("form[data-round='1'] [data-objective='Ben']", "turtle/ray")
        phone.set_input_files("form[data-round='1'] [data-sea-board]", str(board))
        phone.wait_for_selector("#view-photo:not([hidden]) #sea .sea-cell")
        assert phone.text_content("#score-table tr[data-player='Anna'] td.total") == "11"
        assert phone.text_content("#score-table tr[data-player='Ben'] td.total") == "3"
        # the seagull at (3, 0) becomes a turtle: Ben's +2 turtles go from 2 to 3
        phone.tap("#sea [data-cell='sea:3-0']")
        phone.wait_for_selector("#cell-panel:not([hidden]) .alternative")
        assert phone.text_content("#cell-title") == "Cell (3, 0)"
        turtle = next(o for o in phone.query_selector_all(".alternative") if "a turtle" in o.text_content())
        assert "Anna 11 · Ben 5" in turtle.text_content()
        phone.screenshot(path=str(tmp_path / "web-phone-sea-cell.png"), full_page=True)
        turtle.tap()
        phone.wait_for_function(
            "document.querySelector(\"#score-table tr[data-player='Ben'] td.total\").textContent === '5'"
        )
        assert "corrected" in phone.get_attribute("#sea [data-cell='sea:3-0']", "class").split()
        phone.screenshot(path=str(tmp_path / "web-phone-sea.png"), full_page=True)
        phone.goto(game_url)
        phone.wait_for_selector("#view-game:not([hidden]) #totals tr[data-round='1']")
        assert phone.text_content("#totals tr[data-round='1'] td.total") == "Anna"
        assert phone.text_content("#game-result") == "Rounds won: Anna 1, Ben 0"
        phone.wait_for_selector("#rounds form[data-round='2']")  # the next round, Ben choosing first
        assert phone.input_value("form[data-round='2'] [data-first]") == "Ben"
        phone.screenshot(path=str(tmp_path / "web-phone-match.png"), full_page=True)

        # round 2's sea from a photo, read by the sea reader: the truth's points, cells to tap on it
        stem = Path(__file__).resolve().parents[1] / "samples" / "mediterraneo" / "mediterraneo-s9900-00000"
        truth = json.loads(stem.with_suffix(".json").read_text())
        name = {"circle": "Anna", "square": "Ben"}
        for seat, objective in truth["board"]["objectives"].items():
            value = f"{objective['plus']}/{objective['minus']}"
            phone.select_option(f"form[data-round='2'] [data-objective='{name[seat]}']", value)
        phone.set_input_files("form[data-round='2'] [data-sea-photo]", str(stem.with_suffix(".jpg")))
        phone.wait_for_selector("#view-photo:not([hidden]) #sea .sea-cell")
        for player in truth["report"]["players"]:
            total = phone.text_content(f"#score-table tr[data-player='{name[player['name']]}'] td.total")
            assert total == str(player["total"])
        phone.wait_for_function("document.getElementById('picture-img').naturalWidth > 0")
        phone.tap("#picture-cells polygon")
        phone.wait_for_selector("#cell-panel:not([hidden]) .alternative")
        assert phone.text_content("#cell-title").startswith("Cell (")


def test_a_sea_photo_gives_its_objectives_on_a_phone(phone, tmp_path):
    """A round's sea photo sent with its objectives left to the cards: the objectives read from the
    photo are shown (marked so) with the truth's points; one changed on the sea page re-scores it."""
    stem = Path(__file__).resolve().parents[1] / "samples" / "mediterraneo" / "mediterraneo-s9900-00001"
    truth = json.loads(stem.with_suffix(".json").read_text())
    name = {"circle": "Anna", "square": "Ben"}
    with serving(tmp_path / "games.sqlite") as url:
        phone.goto(url + "/#/games")
        phone.select_option("#game-kind", "mediterraneo")
        names = phone.query_selector_all(".player-name")
        names[0].fill("Anna")
        names[1].fill("Ben")
        phone.click("#new-game button[type=submit]")
        phone.wait_for_selector("#view-game:not([hidden]) #rounds form[data-round='1']")
        assert phone.input_value("form[data-round='1'] [data-objective='Ben']") == ""  # from its card
        phone.set_input_files("form[data-round='1'] [data-sea-photo]", str(stem.with_suffix(".jpg")))
        phone.wait_for_selector("#view-photo:not([hidden]) #sea-objectives:not([hidden]) select")
        for seat, objective in truth["board"]["objectives"].items():
            chosen = f"#sea-objectives [data-objective='{name[seat]}']"
            assert phone.input_value(chosen) == f"{objective['plus']}/{objective['minus']}"
            label = f"#sea-objectives label[data-player='{name[seat]}']"
            assert phone.text_content(f"{label} .tag") == "read from the photo"
        for player in truth["report"]["players"]:
            total = phone.text_content(f"#score-table tr[data-player='{name[player['name']]}'] td.total")
            assert total == str(player["total"])
        phone.screenshot(path=str(tmp_path / "web-phone-sea-objectives.png"), full_page=True)
        # Ben's objective becomes +2 turtle −1 crab: the sea is scored again by it
        board = truth["board"] | {
            "objectives": truth["board"]["objectives"] | {"square": {"plus": "turtle", "minus": "crab"}}
        }
        from scoring.boards import score_board

        ben = next(p["total"] for p in score_board(board)["players"] if p["name"] == "square")
        phone.select_option("#sea-objectives [data-objective='Ben']", "turtle/crab")
        phone.click("#objectives-form button[type=submit]")
        phone.wait_for_function(
            f"document.querySelector(\"#score-table tr[data-player='Ben'] td.total\").textContent === '{ben}'"
        )
        assert phone.text_content("#sea-objectives label[data-player='Ben'] .tag") == "entered"

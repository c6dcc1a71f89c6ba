"""`scorecam batch` over Mediatore photos (issue 12, item 5): each photo of a side's won cards is
read and counted (a row per side with its verdict), a folder's mediatore.txt (or `batch --game
mediatore` / `--round`) says what the photos cannot (that they are Mediatore cards, the bid, the
bidder, who took the last trick), a round is settled from its photos as the truth settles it, a
broken photo is a failed row while the rest score, and missing round words give a one-line reason."""

from __future__ import annotations

import csv
import json
import pickle
import shutil
from pathlib import Path

import pytest

from scorecam.batch import find_jobs, run_batch
from scorecam.batch.games import FIELDS, table_path
from scorecam.batch.mediatore import MEDIATORE_FILE, parse_round, run_mediatore, settle_round
from scorecam.cli import main
from scorecam.errors import Exit
from scoring.mediatore import score_board

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "mediatore"
PHOTOS = sorted(SAMPLES.glob("*.jpg"))
PLAYERS = ["Anna", "Ben", "Cleo", "Dino"]
SOLO = "bid=solo bidder=Anna last-trick=bidder  # Anna alone\nplayers=Anna,Ben,Cleo,Dino dealer=Dino\n"
CHIAMO = "bid=chiamo bidder=Ben called=3-denari partner=none\nplayers=Anna,Ben,Cleo,Dino last-trick=others\n"
NO_BIDDER = "bid=solo last-trick=bidder\n"
MISSING_BIDDER = (
    f"{MEDIATORE_FILE}: a round needs the bid, the bidder and who took the last trick; missing bidder=NAME"
)


def truth(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def put(folder: Path, photo: Path, name: str | None = None, text: str | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(photo, folder / (name or photo.name))
    if name is None:  # the simulator's truth beside its photo: batch skips it
        shutil.copy(photo.with_suffix(".json"), folder / photo.with_suffix(".json").name)
    if text is not None:
        (folder / MEDIATORE_FILE).write_text(text)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """A club's folder: three side photos and a broken one, two rounds, and a round whose
    mediatore.txt forgets the bidder; batch run once over it, in this process."""
    root = tmp_path_factory.mktemp("club")
    folder = root / "club"
    for photo in PHOTOS:
        put(folder / "sides", photo, text="# each photo: one side's won cards, counted alone\n")
    (folder / "sides" / "broken.jpg").write_bytes(PHOTOS[0].read_bytes()[:3000])
    put(folder / "round-solo", PHOTOS[1], "bidder.jpg", SOLO)
    put(folder / "round-chiamo", PHOTOS[2], "others.jpg", CHIAMO)
    put(folder / "round-chiamo", PHOTOS[0], "IMG_0001.jpg")  # not named after a side
    put(folder / "no-bidder", PHOTOS[0], "bidder.jpg", NO_BIDDER)
    out = root / "results.csv"
    summary = run_batch(folder, out, None, jobs=1)
    return {
        "folder": folder,
        "summary": summary,
        "rows": rows_of(out),
        "table": rows_of(table_path(out, "mediatore")),
        "lines": [json.loads(line) for line in out.with_suffix(".jsonl").read_text().splitlines()],
    }


def by_source(rows: list[dict[str, str]], end: str) -> list[dict[str, str]]:
    return [row for row in rows if row["source"].endswith(end)]


def test_each_side_photo_is_counted_as_its_truth_or_flagged(club):
    table = club["table"]
    assert list(table[0]) == FIELDS["mediatore"]
    exact = 0
    for photo in PHOTOS:
        (row,) = by_source(table, f"sides/{photo.name}")
        expected = truth(photo)["report"]
        assert row["kind"] == "side" and row["status"] in ("ok", "check")
        right = (row["side_exact"], row["side_points"]) == (
            expected["exact"],
            str(expected["card_thirds"] // 3),
        )
        assert right or row["status"] == "check", (photo.name, row)  # never wrong and unflagged
        # each card read at most once: more cards than the pile holds is a misread, and flagged
        assert int(row["side_cards"]) <= expected["cards"] or row["status"] == "check"
        exact += right
        (main_row,) = by_source(club["rows"], f"sides/{photo.name}")
        assert (main_row["status"], main_row["total"]) == (row["status"], row["side_points"])
    assert exact >= 2  # the samples 00000 and 00001 are counted right


def test_a_broken_photo_is_a_failed_row_and_the_others_still_score(club):
    (row,) = by_source(club["rows"], "sides/broken.jpg")
    assert row["status"] == "failed"
    assert "truncated" in row["error"] and "\n" not in row["error"]
    assert [r["status"] for r in club["rows"] if "/sides/" in r["source"] and r is not row] == [
        r["status"] for r in club["table"] if "/sides/" in r["source"]
    ]
    assert not any(Path(r["source"]).suffix == ".json" for r in club["rows"])  # the truth is skipped
    # broken.jpg, IMG_0001.jpg and the round without a bidder
    assert club["summary"].inputs_failed == 3


@pytest.mark.parametrize(
    ("folder", "photo", "side", "words"),
    [("round-solo", PHOTOS[1], "bidder", SOLO), ("round-chiamo", PHOTOS[2], "others", CHIAMO)],
)
def test_a_round_is_settled_from_its_photo_as_the_truth_settles_it(club, folder, photo, side, words):
    info = parse_round([line.split("#")[0] for line in words.splitlines()], MEDIATORE_FILE)
    board = info.round_board() | {"format": 1, "game": "mediatore", "players": PLAYERS}
    pile = truth(photo)["board"]["cards"]
    board |= {"bidder_side": pile, "others_side": None} if side == "bidder" else {}
    if side == "others":
        from scoring.mediatore import DECK

        board |= {"bidder_side": [str(c) for c in DECK if str(c) not in pile], "others_side": pile}
    expected = score_board(board)
    rows = [row for row in club["rows"] if row["turn"] == folder and row["status"] != "failed"]
    assert {row["player"]: int(row["total"]) for row in rows} == expected["payments"]
    assert {row["status"] for row in rows} <= {"ok", "check"}
    table = [row for row in club["table"] if row["source"].endswith(folder)]
    assert [row["player"] for row in table if row["winner"] == "True"] == expected["winners"]
    (side_row,) = by_source(club["table"], f"{folder}/{side}.jpg")
    assert side_row["kind"] == "side" and side_row["side"] == side
    assert side_row["player"] == ", ".join(expected["sides"][side]["players"])


def test_a_photo_the_round_cannot_place_and_a_round_without_bidder_say_why_on_one_line(club):
    (unnamed,) = [row for row in club["rows"] if row["player"] == "IMG_0001"]
    assert unnamed["status"] == "failed" and unnamed["turn"] == "round-chiamo"
    assert "which side does it show?" in unnamed["error"] and "bidder.jpg and others.jpg" in unnamed["error"]
    (row,) = by_source(club["rows"], "no-bidder/bidder.jpg")
    assert (row["status"], row["error"]) == ("failed", MISSING_BIDDER)
    line = next(line for line in club["lines"] if line["source"].endswith("no-bidder/bidder.jpg"))
    assert line == {"source": line["source"], "error": MISSING_BIDDER}


def test_the_round_words_are_checked_with_reasons_a_person_understands():
    assert parse_round(["", "  "], "x").board is None  # an empty mediatore.txt: sides counted alone
    with pytest.raises(ValueError, match="a chiamo bid names a card: called=CARD"):
        parse_round(["bid=chiamo bidder=Anna last-trick=bidder"], "x")
    with pytest.raises(ValueError, match="partner=none: the card lay in the monte"):
        parse_round(["bid=chiamo bidder=Anna called=3-denari last-trick=bidder"], "x")
    with pytest.raises(ValueError, match="unknown key 'bidding'"):
        parse_round(["bidding=solo"], "x")
    with pytest.raises(ValueError, match="bid=trump: the bids are"):
        parse_round(["bid=trump bidder=Anna last-trick=bidder"], "x")
    with pytest.raises(ValueError, match="dealer 'Zoe' is not a player"):
        parse_round(["bid=solo bidder=Anna last-trick=others dealer=Zoe"], "x")
    board = parse_round(["bid=mediatore bidder=Anna called=re-spade giver=none last_trick=Others"], "x")
    assert board.round_board()["bid"] == {
        "kind": "mediatore",
        "bidder": "Anna",
        "called": "re-spade",
        "giver": None,
    }
    assert board.round_board()["last_trick"] == "others"
    assert board.round_board()["dealer"] == "Player 4"  # as `mediatore round`: the last player


def test_two_photos_that_leave_the_winner_open_are_flagged():
    # the bidder's photo shows 4 aces (12 thirds), the others' 2 threes and 2 twos (4 thirds): with
    # the last trick the bidder has at least 5, the others at most 7 2/3: the unseen cards decide
    board = parse_round(["bid=solo bidder=Anna last-trick=bidder"], "x").round_board()
    aces = [f"1-{s}" for s in ("coppe", "denari", "spade", "bastoni")]
    photos = {
        "bidder": {"side": "bidder", "source": "b.jpg", "board": aces, "flags": []},
        "others": {
            "side": "others",
            "source": "o.jpg",
            "board": ["3-coppe", "3-spade", "2-coppe", "2-spade"],
        },
    }
    report = settle_round(board, photos, {})
    assert report["status"] == "check"
    assert report["flags"] == [
        "the photos show 8 of the 40 cards and neither side's own count reaches 6: the cards they do not "
        "show decide the round"
    ]
    assert report["winner"] == "others" and report["payments"]["Anna"] == -36  # 12 + 3 thirds: 5 points
    photos["others"]["board"] = ["1-coppe", "3-spade"]
    assert (
        settle_round(board, photos, {})["flags"][0] == "1-coppe read in both photos: one of them is misread"
    )


def test_a_round_folder_is_one_job_and_a_sides_folder_is_not_a_mondo_turn(tmp_path):
    put(tmp_path / "r", PHOTOS[0], "bidder.jpg", SOLO)
    put(tmp_path / "r", PHOTOS[1], "others.jpg")
    put(tmp_path / "s", PHOTOS[0], "a.jpg", "")
    put(tmp_path / "s", PHOTOS[1], "b.jpg")
    put(tmp_path / "t", PHOTOS[0], "a.jpg")
    put(tmp_path / "t", PHOTOS[1], "b.jpg")
    jobs = find_jobs(tmp_path)
    assert [(job.turn, [p.name for p in job.files]) for job in jobs] == [
        ("r", ["bidder.jpg", "others.jpg"]),
        ("", ["a.jpg"]),
        ("", ["b.jpg"]),
        ("t", ["a.jpg", "b.jpg"]),  # no mediatore.txt: a Mondo turn, as before
    ]
    assert jobs[0].mediatore.is_round and jobs[1].mediatore.board is None and jobs[3].mediatore is None
    assert pickle.loads(pickle.dumps(jobs[0])) == jobs[0]  # a pool's worker gets it
    everyone = find_jobs(tmp_path, mediatore=run_mediatore("mediatore", ()))
    assert [job.turn for job in everyone] == ["r", "", "", "", ""]  # --game mediatore: t's are sides


def test_batch_game_mediatore_reads_a_photo_without_mediatore_txt_and_round_words_are_usage(tmp_path, capsys):
    put(tmp_path / "in", PHOTOS[1], "pile.jpg")
    out = tmp_path / "r.csv"
    assert (
        main(["batch", str(tmp_path / "in"), "--game", "mediatore", "-o", str(out), "-j", "1"]) == Exit.SCORED
    )
    (row,) = rows_of(out)
    assert (
        row["status"] in ("ok", "check")
        and row["total"] == rows_of(table_path(out, "mediatore"))[0]["side_points"]
    )
    code = main(["batch", str(tmp_path / "in"), "--round", "bid=solo", "last-trick=bidder", "-o", str(out)])
    assert code == Exit.USAGE
    assert "missing bidder=NAME" in capsys.readouterr().err

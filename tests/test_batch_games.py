"""`scorecam batch` over Snorkeling and Mediatore boards: each player's total in the batch's CSV
(whose Mondo columns stay as they are), the game's own columns in a table of its own beside it, a
broken file recorded while the batch goes on, and tables that a resumed run makes whole again."""

import csv
import json
import shutil
from pathlib import Path

import pytest

from scorecam.batch import CSV_FIELDS, run_batch
from scorecam.batch.games import FIELDS
from scorecam.cli import main
from scorecam.errors import Exit, InputError

ISLAND = "samples/boards/island-4x4.json"  # a lone Mondo island: 46 points
PLAYERS = ["Anna", "Ben", "Cleo", "Dino"]
SUITS = ("coppe", "denari", "spade", "bastoni")
ACES_THREES_TWOS = [f"{rank}-{suit}" for rank in ("1", "3", "2") for suit in SUITS]
ACES_SEVENS = [f"{rank}-{suit}" for rank in ("1", "7") for suit in SUITS]

BOARDS = {
    # Ben's Solo with the 4 Aces, 3s and 2s and the last trick: 12 + 4 + 4 + 3 = 23 thirds, 7 2/3
    # points, won: each of the three others pays him 12.
    "m1-solo-won.json": {
        "format": 1, "game": "mediatore", "players": PLAYERS, "dealer": "Anna",
        "bid": {"kind": "solo", "bidder": "Ben"}, "bidder_side": ACES_THREES_TWOS, "others_side": None,
        "last_trick": "bidder",
    },
    # Anna calls Cleo and they take the 4 Aces and 4 sevens (12 thirds: 4 points) without the last
    # trick: lost, so the Chiamo is paid the other way round (Anna pays 5, Cleo 3, Ben and Dino get 4).
    "m2-chiamo-lost.json": {
        "format": 1, "game": "mediatore", "players": PLAYERS, "dealer": "Dino",
        "bid": {"kind": "chiamo", "bidder": "Anna", "called": "re-coppe", "partner": "Cleo"},
        "bidder_side": ACES_SEVENS, "others_side": None, "last_trick": "others",
    },
    # a bidding alone: Anna (at the dealer's right) passes, Ben bids Solo, three passes end it
    "m3-bidding.json": {
        "format": 1, "game": "mediatore", "players": PLAYERS, "dealer": "Dino",
        "bidding": ["pass", "solo", "pass", "pass", "pass"],
    },
    # Ben's Beach ends the round; Anna's Ray takes her from 9 to 13: she reaches 12 and wins
    "s1-round-won.json": {
        "format": 1, "game": "snorkeling", "target": 12,
        "players": [{"name": "Anna", "mat": 1, "top": {"value": 4, "color": "red"}},
                    {"name": "Ben", "mat": 2, "top": {"value": 0, "color": "green"}}],
        "before": {"Anna": 9, "Ben": 3},
    },
    # no Beach on any pile: not over, values still reported; nameless divers are named by their mat
    "s2-not-over.json": {
        "format": 1, "game": "snorkeling",
        "players": [{"mat": 3, "top": {"value": 5}}, {"mat": 5, "top": {"value": 2, "color": "blue"}}],
    },
    "s3-impossible.json": {
        "format": 1, "game": "snorkeling", "players": [{"mat": 1, "top": {"value": 7, "color": "red"}}],
    },
}  # fmt: skip


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def header_of(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as file:
        return next(csv.reader(file))


def by_player(rows: list[dict[str, str]], source_name: str) -> dict[str, dict[str, str]]:
    return {row["player"]: row for row in rows if Path(row["source"]).name == source_name}


@pytest.fixture
def folder(root, tmp_path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for name, board in BOARDS.items():
        (folder / name).write_text(json.dumps(board))
    (folder / "broken.json").write_text(json.dumps(BOARDS["s1-round-won.json"])[:60])  # cut short
    shutil.copy(root / ISLAND, folder / "island.json")
    return folder


def test_each_player_of_each_game_has_a_row_with_the_total_in_the_main_csv(folder, tmp_path, capsys):
    out = tmp_path / "results.csv"
    assert main(["batch", str(folder), "-o", str(out), "-j", "1"]) == Exit.SOME_FAILED
    said = capsys.readouterr().out
    # 4 + 4 + 2 + 2 players and the island, and the bidding's one row (as a play sequence's is)
    assert "scored 14 players" in said and "2 inputs failed" in said
    rows = rows_of(out)
    assert header_of(out) == CSV_FIELDS
    totals = {(Path(r["source"]).name, r["player"]): r["total"] for r in rows if r["status"] == "scored"}
    assert totals == {
        ("island.json", "island"): "46",
        ("m1-solo-won.json", "Anna"): "-12", ("m1-solo-won.json", "Ben"): "36",
        ("m1-solo-won.json", "Cleo"): "-12", ("m1-solo-won.json", "Dino"): "-12",
        ("m2-chiamo-lost.json", "Anna"): "-5", ("m2-chiamo-lost.json", "Ben"): "4",
        ("m2-chiamo-lost.json", "Cleo"): "-3", ("m2-chiamo-lost.json", "Dino"): "4",
        ("m3-bidding.json", ""): "",  # nothing scored yet: one row for the file
        ("s1-round-won.json", "Anna"): "13", ("s1-round-won.json", "Ben"): "3",
        ("s2-not-over.json", "diver 3"): "5", ("s2-not-over.json", "diver 5"): "2",
    }  # fmt: skip


def test_a_broken_file_is_recorded_and_the_batch_goes_on(folder, tmp_path):
    out = tmp_path / "results.csv"
    summary = run_batch(folder, out, None, jobs=1)
    assert (summary.players_scored, summary.inputs_failed) == (14, 2)  # the bidding's row counts as scored
    failed = {Path(r["source"]).name: r["error"] for r in rows_of(out) if r["status"] == "failed"}
    assert set(failed) == {"broken.json", "s3-impossible.json"}
    assert failed["broken.json"].startswith("broken JSON")
    assert failed["s3-impossible.json"].startswith("impossible board")
    lines = {Path(line["source"]).name: line for line in map(json.loads, out.with_suffix(".jsonl").open())}
    assert "error" in lines["broken.json"]
    assert "report" in lines["s2-not-over.json"]  # a later file, still scored


def test_snorkeling_rows_have_the_top_card_points_and_the_verdict(folder, tmp_path):
    out = tmp_path / "results.csv"
    summary = run_batch(folder, out, None, jobs=1)
    table = out.with_name("results-snorkeling.csv")
    assert summary.tables == (table, out.with_name("results-mediatore.csv"))
    assert header_of(table) == FIELDS["snorkeling"]
    won = by_player(rows_of(table), "s1-round-won.json")
    anna = {k: won["Anna"][k] for k in ("kind", "mat", "top_card", "top_value", "top_color", "points")}
    assert anna == {
        "kind": "round",
        "mat": "1",
        "top_card": "ray",
        "top_value": "4",
        "top_color": "red",
        "points": "4",
    }
    assert (won["Anna"]["before"], won["Anna"]["total"], won["Anna"]["winner"]) == ("9", "13", "True")
    assert (won["Ben"]["top_card"], won["Ben"]["total"], won["Ben"]["winner"]) == ("beach", "3", "False")
    assert {(row["round_over"], row["game_over"]) for row in won.values()} == {("True", "True")}
    open_round = by_player(rows_of(table), "s2-not-over.json")
    assert (open_round["diver 3"]["top_card"], open_round["diver 3"]["top_color"]) == ("lanternfish", "")
    assert {row["round_over"] for row in open_round.values()} == {"False"}
    assert {row["winner"] for row in open_round.values()} == {"False"}
    assert not {Path(r["source"]).name for r in rows_of(table)} & {"s3-impossible.json", "broken.json"}


def test_mediatore_rows_have_the_sides_count_and_each_payment(folder, tmp_path):
    out = tmp_path / "results.csv"
    run_batch(folder, out, None, jobs=1)
    table = out.with_name("results-mediatore.csv")
    assert header_of(table) == FIELDS["mediatore"]
    rows = rows_of(table)
    solo = by_player(rows, "m1-solo-won.json")
    deal = {k: solo["Ben"][k] for k in ("kind", "bid", "bidder", "dealer", "side", "role")}
    assert deal == {
        "kind": "round",
        "bid": "solo",
        "bidder": "Ben",
        "dealer": "Anna",
        "side": "bidder",
        "role": "bidder",
    }
    ben, cleo = solo["Ben"], solo["Cleo"]
    assert (ben["side_cards"], ben["side_exact"], ben["side_points"]) == ("12", "7 2/3", "7")
    assert (ben["payment"], ben["winner"]) == ("36", "True")
    assert (cleo["side"], cleo["side_cards"], cleo["side_exact"]) == ("others", "28", "4")
    assert {solo[p]["payment"] for p in ("Anna", "Cleo", "Dino")} == {"-12"}
    lost = by_player(rows, "m2-chiamo-lost.json")
    assert {p: (r["role"], r["payment"], r["winner"]) for p, r in lost.items()} == {
        "Anna": ("bidder", "-5", "False"), "Ben": ("opponent", "4", "True"),
        "Cleo": ("partner", "-3", "False"), "Dino": ("opponent", "4", "True")}  # fmt: skip
    assert lost["Anna"]["side_exact"] == "4" and lost["Ben"]["side_exact"] == "7 2/3"
    bidding = [r for r in rows if Path(r["source"]).name == "m3-bidding.json"]
    assert [(r["kind"], r["player"], r["bid"], r["bidder"], r["total"]) for r in bidding] == [
        ("bidding", "", "solo", "Ben", "")
    ]
    assert sum(int(r["total"]) for r in rows if r["kind"] == "round") == 0  # stakes only change hands


def test_a_ledger_and_a_game_file_give_each_players_running_total(root, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("mediatore-ledger.json", "snorkeling-game.json"):
        shutil.copy(root / "samples/boards" / name, folder / name)
    out = tmp_path / "r.csv"
    run_batch(folder, out, None, jobs=1)
    ledger = by_player(rows_of(out.with_name("r-mediatore.csv")), "mediatore-ledger.json")
    balances = json.loads(main_report(root, "mediatore-ledger.json"))["balances"]
    assert {p: int(r["total"]) for p, r in ledger.items()} == balances and sum(balances.values()) == 0
    assert {p for p, r in ledger.items() if r["winner"] == "True"} == {max(balances, key=balances.get)}
    assert {r["kind"] for r in ledger.values()} == {"ledger"}
    game = by_player(rows_of(out.with_name("r-snorkeling.csv")), "snorkeling-game.json")
    assert {p: r["total"] for p, r in game.items()} == {"Anna": "14", "Ben": "5", "Cleo": "13"}  # its rounds
    assert [p for p, r in game.items() if r["winner"] == "True"] == ["Anna"]
    assert {r["rounds"] for r in game.values()} == {"4"}


def main_report(root, name: str) -> str:
    from scorecam.inputs import score_board_file

    return json.dumps(score_board_file(root / "samples/boards" / name))


def test_a_mondo_island_gives_the_row_it_always_gave_and_no_game_table(root, folder, tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(root / ISLAND, alone / "island.json")
    run_batch(alone, tmp_path / "alone.csv", None, jobs=1)
    assert sorted(p.name for p in tmp_path.glob("alone*")) == ["alone", "alone.csv", "alone.jsonl"]
    run_batch(folder, tmp_path / "mixed.csv", None, jobs=1)
    island_alone = rows_of(tmp_path / "alone.csv")[0]
    island_mixed = next(r for r in rows_of(tmp_path / "mixed.csv") if r["player"] == "island")
    assert island_mixed | {"source": ""} == island_alone | {"source": ""}
    assert island_alone["total"] == "46" and island_alone["points_landscapes"] == "46"


def test_resume_makes_the_tables_of_one_run_whatever_a_kill_left_in_them(folder, tmp_path):
    whole = tmp_path / "whole.csv"
    run_batch(folder, whole, None, jobs=1)
    tables = {game: whole.with_name(f"whole-{game}.csv").read_bytes() for game in ("snorkeling", "mediatore")}
    csv_lines = whole.read_bytes().splitlines(keepends=True)
    json_lines = whole.with_suffix(".jsonl").read_bytes().splitlines(keepends=True)
    out = tmp_path / "out.csv"
    # killed after the first two jobs (broken.json, island.json) were written whole and the third's
    # table rows: its rows are in the Mediatore table, cut short, but neither in the CSV nor the JSON lines
    out.write_bytes(b"".join(csv_lines[:3]))
    out.with_suffix(".jsonl").write_bytes(b"".join(json_lines[:2]))
    out.with_name("out-mediatore.csv").write_bytes(tables["mediatore"][: len(tables["mediatore"]) // 3])
    out.with_name("out-snorkeling.csv").write_bytes(b"source,kind\nstale,round\n")  # an older run's
    summary = run_batch(folder, out, None, jobs=1, resume=True)
    assert summary.skipped == 2
    for game, data in tables.items():
        assert out.with_name(f"out-{game}.csv").read_bytes() == data, game
    assert out.read_bytes() == whole.read_bytes()


def test_a_new_run_removes_the_table_an_earlier_run_left(folder, tmp_path):
    out = tmp_path / "results.csv"
    run_batch(folder, out, None, jobs=1)
    for path in folder.glob("s*.json"):
        path.unlink()
    summary = run_batch(folder, out, None, jobs=1)
    assert summary.tables == (out.with_name("results-mediatore.csv"),)
    assert not out.with_name("results-snorkeling.csv").exists()  # no Snorkeling row is in this run's CSV


def test_a_table_that_would_be_an_input_is_refused(folder, tmp_path):
    board = folder / "r-mediatore.json"
    board.write_text(json.dumps(BOARDS["m1-solo-won.json"]))
    with pytest.raises(InputError) as refused:
        run_batch(folder, folder / "r.json", tmp_path / "r.jsonl")  # its Mediatore table: the board
    assert refused.value.code == Exit.USAGE
    assert json.loads(board.read_text()) == BOARDS["m1-solo-won.json"]

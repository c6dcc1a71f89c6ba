"""`scorecam synth mediatore`: photos of a side's won cards with truth whose board scores with the
engine, the stress world, a contact sheet, and files that repeat from their seed."""

import json

import cv2
import pytest

from scorecam.cli import main
from scoring.mediatore import DECK, score_board
from vision.synth.dataset import write_photos

PLAYERS = ["Anna", "Ben", "Cleo", "Dino"]
LONG_SIDE = 480
# Card points in thirds, straight from the rulebook: Ace 1 point; 3, 2, Re, Cavallo, Fante 1/3 each.
RULEBOOK_THIRDS = {"1": 3, "2": 1, "3": 1, "re": 1, "cavallo": 1, "fante": 1, "4": 0, "5": 0, "6": 0, "7": 0}
DECK_CARD_THIRDS = 32  # 4 Aces (12) and 20 cards of a third; the last trick's point makes 11 2/3 = 35


def run_synth(tmp_path, capsys, *extra: str) -> tuple[list, str]:
    out = tmp_path / "photos"
    code = main(
        ["synth", "mediatore", "-n", "2", "-s", "31", "-o", str(out), "--long-side", str(LONG_SIDE), *extra]
    )
    assert code == 0
    return sorted(out.glob("*.jpg")), capsys.readouterr().out


@pytest.fixture(scope="module")
def everyday(tmp_path_factory):
    return write_photos("mediatore", 3, 31, tmp_path_factory.mktemp("mediatore"), long_side_px=LONG_SIDE)


def truth_of(photo):
    return json.loads(photo.with_suffix(".json").read_text())


def round_board(pile: list[str]) -> dict:
    """A Solo round in which the bidder's side won exactly ``pile``; the last trick goes where the
    piles allow it (its 4 cards and the monte's 4: a side holding under 8 cards cannot have taken it)."""
    return {
        "format": 1,
        "game": "mediatore",
        "players": PLAYERS,
        "dealer": "Dino",
        "bid": {"kind": "solo", "bidder": "Anna"},
        "bidder_side": pile,
        "others_side": None,
        "last_trick": "bidder" if len(pile) > 32 else "others",
    }


def test_each_photo_has_truth_naming_it_and_a_pile_tricks_can_make(everyday):
    for index, photo in enumerate(everyday):
        truth = truth_of(photo)
        assert (truth["photo"], truth["seed"], truth["index"]) == (photo.name, 31, index)
        assert truth["game"] == "mediatore"
        image = cv2.imread(str(photo))
        assert image is not None and max(image.shape[:2]) == LONG_SIDE
        cards = truth["board"]["cards"]
        assert len(cards) % 4 == 0 and 4 <= len(cards) <= 40 and len(set(cards)) == len(cards)
        assert set(cards) <= {c.id for c in DECK}
        assert set(truth["board"]["seen"]) <= set(cards)
        assert [c["card"] for c in truth["cards"]] == cards and truth["conditions"]["stress"] is False


def test_the_truth_board_scores_with_the_engine_as_the_rulebook_counts_it(everyday):
    for photo in everyday:
        truth = truth_of(photo)
        cards = truth["board"]["cards"]
        by_hand = sum(RULEBOOK_THIRDS[c.split("-")[0]] for c in cards)
        assert truth["report"]["card_thirds"] == by_hand and truth["report"]["cards"] == len(cards)
        report = score_board(round_board(cards))
        bidder, others = report["sides"]["bidder"], report["sides"]["others"]
        assert (bidder["cards"], bidder["card_thirds"]) == (len(cards), by_hand)
        assert (others["cards"], others["card_thirds"]) == (40 - len(cards), DECK_CARD_THIRDS - by_hand)
        assert bidder["thirds"] + others["thirds"] == 35
        if len(cards) <= 32:  # no last trick on the bidder's side: the truth's text is the side's own
            assert bidder["exact"] == truth["report"]["exact"]
        assert report["winner"] == ("bidder" if bidder["thirds"] >= 18 else "others")
        assert sum(report["payments"].values()) == 0


def test_the_command_writes_photos_truth_and_a_contact_sheet(tmp_path, capsys):
    sheet = tmp_path / "sheet.png"
    photos, out = run_synth(tmp_path, capsys, "--contact-sheet", str(sheet))
    assert "wrote 2 photos with truth" in out and f"contact sheet: {sheet}" in out
    assert [p.name for p in photos] == ["mediatore-s31-00000.jpg", "mediatore-s31-00001.jpg"]
    assert all(p.with_suffix(".json").exists() for p in photos)
    assert cv2.imread(str(sheet)).shape[1] == 4 * 480


def test_the_same_seed_gives_the_same_files_and_stress_draws_a_harder_world(tmp_path, capsys, everyday):
    photos, _ = run_synth(tmp_path, capsys)
    for mine, theirs in zip(photos, everyday, strict=False):  # seed 31 from the command and the library
        assert mine.read_bytes() == theirs.read_bytes()
        assert mine.with_suffix(".json").read_text() == theirs.with_suffix(".json").read_text()
    stressed, _ = run_synth(tmp_path / "stress", capsys, "--stress")
    assert all(truth_of(p)["conditions"]["stress"] is True for p in stressed)
    assert stressed[0].read_bytes() != photos[0].read_bytes()


def test_an_unknown_game_is_a_usage_error_that_names_mediatore(capsys):
    assert main(["synth", "mediatre", "--n", "1"]) == 2
    assert "Did you mean 'mediatore'?" in capsys.readouterr().err


def test_the_top_level_help_lists_every_command_once_under_its_heading(capsys):
    from scorecam.cli import SECTIONS, cli

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "Snorkeling rounds" in out and "Mediatore rounds" in out
    listed = [
        line.split()[0] for line in out.splitlines() if line.startswith("  ") and not line.startswith("   ")
    ]
    commands = [name for name in listed if name in cli.commands]
    assert sorted(commands) == sorted(cli.commands)  # each once: none lost, none twice
    headings = [title for title, _ in SECTIONS]
    assert all(f"\n{title}:\n" in out for title in headings)
    scoring = out.split(f"{headings[0]}:")[1].split(f"{headings[1]}:")[0]
    assert "mediatore" in scoring and "synth" not in scoring.split()
    assert main(["synth", "--help"]) == 0 and "mediatore" in capsys.readouterr().out

"""Mediatore in a batch: photos of a side's won cards, counted, and a round settled from them.

A photo cannot say that it shows Mediatore cards (``score`` is told so by ``--game mediatore``), nor
the bid, the bidder or who took the last trick. A batch is told by a ``mediatore.txt`` in the
photos' folder, or by ``batch --game mediatore`` (and ``--round``) for the whole run:

- an empty ``mediatore.txt`` (or ``--game mediatore``): each photo is one side's cards, counted
  alone (its cards, the thirds, the floor, the verdict);
- a ``mediatore.txt`` holding a round (or ``--round``), what ``scorecam mediatore round`` takes::

      bid=chiamo bidder=Anna called=3-denari partner=Cleo   # partner=none: the card lay in the monte
      players=Anna,Ben,Cleo,Dino dealer=Dino last-trick=bidder

  makes the folder one round: its photos are named after the side they show (``bidder.jpg``,
  ``others.jpg``; one is enough). Each photo is counted, and the round is settled from the bidder's
  count (the others hold the rest of the deck), or from the others' when only theirs was read.

A photo reader sees only the corners that show: a card wholly hidden is missing from a count, so a
count is at most what the side really has. Where the two photos of a round leave the winner open
(the cards neither shows could decide it), the round is flagged (``scorecam.mediatore_sides``
settles it, as `scorecam mediatore round` does). A photo that fails is a failed row
and the round is settled from the other one; a broken ``mediatore.txt`` fails each of its photos
with a one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorecam.batch.folder_text import folder_text
from scorecam.errors import InputError
from scorecam.mediatore_sides import SIDES, read_side, settle_round

MEDIATORE_FILE = "mediatore.txt"
MAX_FILE_BYTES = 2000  # a round's few words, not a document
BIDS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")  # as scoring.mediatore.BIDS
KEYS = ("bid", "bidder", "last-trick", "players", "dealer", "called", "partner", "giver")
NOBODY = "none"  # partner=none / giver=none: the called card lay in the monte


@dataclass(frozen=True)
class MediatoreInfo:
    """What a batch knows of the Mediatore photos of a folder (or of the run): that they are
    Mediatore sides, and the round they settle (``board``: a round board without its sides; None:
    count each photo alone). ``problem``: why the mediatore.txt cannot be used."""

    board: tuple[tuple[str, Any], ...] | None = None  # the round's keys, frozen (a Job is hashed)
    origin: str = ""  # the mediatore.txt, or the batch option
    problem: str = ""

    @property
    def is_round(self) -> bool:
        return self.board is not None and not self.problem

    def round_board(self) -> dict[str, Any]:
        return {key: (dict(value) if key == "bid" else value) for key, value in self.board or ()}


# ------------------------------------------------------------------------------- the round's words


def parse_round(words: list[str], origin: str) -> MediatoreInfo:
    """``bid=solo bidder=Anna last-trick=bidder ...`` (words split at spaces) as MediatoreInfo; no
    words: sides counted alone. A ValueError with a reason a person understands."""
    given: dict[str, str] = {}
    for word in (w for text in words for w in text.split() if w):
        key, sep, value = word.partition("=")
        key = key.lower().replace("_", "-")
        if not sep or not value:
            raise ValueError(f"{word!r}: write KEY=VALUE ({', '.join(KEYS)})")
        if key not in KEYS:
            raise ValueError(f"unknown key {key!r} (the keys: {', '.join(KEYS)})")
        if key in given:
            raise ValueError(f"{key} is given twice")
        given[key] = value
    if not given:
        return MediatoreInfo(origin=origin)
    return MediatoreInfo(_board(given), origin)


def _board(given: dict[str, str]) -> tuple[tuple[str, Any], ...]:
    from scoring.errors import BoardFormatError
    from scoring.mediatore import check_player, check_players
    from scoring.mediatore.round import bid_from_json

    missing = [k for k in ("bid", "bidder", "last-trick") if k not in given]
    if missing:
        hints = {
            "bid": f"bid={'|'.join(BIDS)}",
            "bidder": "bidder=NAME",
            "last-trick": "last-trick=bidder|others",
        }
        raise ValueError(
            "a round needs the bid, the bidder and who took the last trick; missing "
            + ", ".join(hints[k] for k in missing)
        )
    kind = given["bid"].lower()
    if kind not in BIDS:
        raise ValueError(f"bid={given['bid']}: the bids are {', '.join(BIDS)}")
    named = {"chiamo": "partner", "mediatore": "giver"}.get(kind)
    if named and "called" not in given:
        raise ValueError(f"a {kind} bid names a card: called=CARD (e.g. called=3-denari)")
    if named and named not in given:
        raise ValueError(
            f"a {kind} bid has a {named}: {named}=NAME ({named}=none: the card lay in the monte)"
        )
    last = given["last-trick"].lower()
    if last not in SIDES:
        raise ValueError(f"last-trick={given['last-trick']}: bidder or others")
    bidder = given["bidder"]
    try:
        players = check_players(
            given["players"].split(",")
            if "players" in given
            else (bidder, "Player 2", "Player 3", "Player 4")
        )
        dealer = check_player(given.get("dealer", players[-1]), players, "dealer")
        bid: dict[str, Any] = {"kind": kind, "bidder": bidder}
        for key in ("called", "partner", "giver"):
            if key in given:
                bid[key] = None if given[key].lower() == NOBODY and key != "called" else given[key]
        bid_from_json(bid, players)  # the engine's checks: known card, players, who may be named
    except BoardFormatError as error:
        raise ValueError(str(error)) from None
    board = {"players": players, "dealer": dealer, "bid": tuple(bid.items()), "last_trick": last}
    return tuple(board.items())


def mediatore_in(folder: Path) -> MediatoreInfo | None:
    """The ``mediatore.txt`` in ``folder`` (None: there is none); one that cannot be used gives
    MediatoreInfo with its ``problem``, so each photo it is for fails with that reason."""
    found = folder_text(folder, MEDIATORE_FILE, MAX_FILE_BYTES, "a round's bid")
    if found is None:
        return None
    if found.problem:
        return MediatoreInfo(origin=found.origin, problem=found.problem)
    origin = found.origin
    try:
        return parse_round(list(found.lines), origin)
    except ValueError as error:
        return MediatoreInfo(origin=origin, problem=f"{MEDIATORE_FILE}: {error}")


def run_mediatore(game: str | None, words: tuple[str, ...]) -> MediatoreInfo | None:
    """``batch --game mediatore`` and ``--round WORDS`` for the whole run (None: neither); a
    ValueError for a usage error."""
    if not words:
        return MediatoreInfo(origin="--game mediatore") if game == "mediatore" else None
    return parse_round(list(words), "--round")


def side_of(path: Path) -> str:
    """The side a photo of a round shows, by its name (``bidder.jpg``, ``Others.png``); "" for none."""
    stem = path.stem.lower()
    return stem if stem in SIDES else ""


# ------------------------------------------------------------------------------------ scoring


def score_side(path: Path, info: MediatoreInfo | None) -> dict[str, Any]:
    """One photo of a side's cards counted alone (``score --game mediatore``'s report, and the side
    its name gives); an InputError with the reader's or the mediatore.txt's reason."""
    from scorecam.batch.jobs import link_problem

    if info is not None and info.problem:
        raise InputError(str(path), info.problem)
    problem = link_problem(path)
    if problem:
        raise InputError(str(path), problem)
    return read_side(path, side_of(path))[0]


def score_round(photos: list[Path], info: MediatoreInfo) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The round of a folder's side photos: (its report, or None when no photo could be read;
    the photos that failed, with why)."""
    sides: dict[str, dict[str, Any]] = {}
    named: dict[str, Path] = {}
    failed: dict[str, str] = {}
    for path in photos:
        side = side_of(path)
        if not side:
            failed[path.name] = (
                f"which side does it show? {info.origin} holds a round: name its photos "
                f"bidder{path.suffix} and others{path.suffix}"
            )
        elif side in named:
            failed[path.name] = f"a second photo of the {side} side ({named[side].name}): one a side"
        else:
            named[side] = path
    for side, path in named.items():
        try:
            sides[side] = score_side(path, info)
        except InputError as error:
            failed[path.name] = error.reason
        except Exception as error:  # noqa: BLE001 - one photo's crash is that photo's failure
            failed[path.name] = f"internal error ({error.__class__.__name__}: {error})"
    if not sides:
        return None, failed
    return settle_round(info.round_board(), sides, failed), failed


# ------------------------------------------------------------------------------------ batch rows


def round_result(job: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(CSV rows, JSON line) of a round folder's job: a row per player with the payment, and a
    failed row per photo that could not be read (the round is settled from the other)."""
    from scorecam.batch.rows import failure_row, flags_cell, report_rows
    from scorecam.batch.text import one_line

    report, failed = score_round(list(job.files), job.mediatore)
    rows = [
        failure_row(job.source, job.turn, f"{file}: {why}", Path(file).stem) for file, why in failed.items()
    ]
    line: dict[str, Any] = {"source": job.source, "turn": job.turn}
    if failed:
        line["photos_failed"] = [{"file": file, "error": one_line(why)} for file, why in failed.items()]
    if report is None:
        return rows, line | {"error": "no photo of this round could be read"}
    for row in report_rows(report, job.source, job.turn):
        rows.append(row | {"status": report["status"], "flags": flags_cell(report["flags"])})
    return rows, line | {"report": report}


def side_row(photo: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    """The row of one photo's count in the Mediatore table (``players``: the side's, in a round)."""
    from scorecam.batch.rows import flags_cell

    return {
        "kind": "side",
        "source": photo.get("source"),
        "player": ", ".join(players or ()),
        "status": photo.get("status"),
        "total": photo.get("points"),
        "side": photo.get("side"),
        "side_cards": photo.get("cards_read"),
        "side_exact": photo.get("exact"),
        "side_points": photo.get("points"),
        "flags": flags_cell(photo.get("flags", [])),
    }

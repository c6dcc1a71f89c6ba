"""`scorecam mediatore round`: score a Mediatore round from the cards each side won, settle the bid,
and keep the game's running balances in a ledger file; and the tables of every Mediatore report.

A side's cards come from a file: a JSON list of ``RANK-SUIT`` ids (``["1-coppe", "re-spade"]``), the
whole pile, or a photo of them, read as `scorecam score --game mediatore` reads it (a card whose corner
is hidden is not seen). A round with a photo is settled by ``scorecam.mediatore_sides`` (as `batch`
settles one): counted from the list if one is given, else from the bidder's photo, else the others',
the other side holding the rest of the deck; the readings' flags and what the two sides say against
each other make its status ``check``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from scorecam.commands.options import json_switch, refuse_inputs
from scorecam.errors import Exit, InputError

SIDE_NAMES = ("bidder", "others")
BID_KINDS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")  # as scoring.mediatore.BIDS
NOBODY = "none"  # --partner none / --giver none: the called card lay in the monte


# ------------------------------------------------------------------------------- the side loader


def load_side(path: Path) -> list[str]:
    """The card ids of one side's won cards in ``path``: a JSON list of ``RANK-SUIT`` strings (a photo
    is read by `read_photos`). Checked for known, distinct cards; an InputError (one line, exit 3)
    names the file otherwise."""
    from scorecam.inputs import read_json
    from scoring.errors import BoardFormatError
    from scoring.mediatore import cards

    data = read_json(path)
    try:
        return [str(c) for c in cards(data, "the cards")]
    except BoardFormatError as error:
        raise InputError(str(path), str(error)) from None


# ------------------------------------------------------------------------------------- commands


@click.group("mediatore", short_help="score a Mediatore round and keep the game's balances")
def mediatore() -> None:
    """Mediatore: score a round from the cards each side won (`round`). Board files of rounds,
    played rounds (tricks), biddings and ledgers are scored by `scorecam score`."""


def _side_spec(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, Path]:
    sides: dict[str, Path] = {}
    for value in values:
        side, sep, path = value.partition("=")
        if not sep or side not in SIDE_NAMES or not path:
            raise click.BadParameter(f"{value!r}: write bidder=FILE or others=FILE", ctx, param)
        if side in sides:
            raise click.BadParameter(f"the {side} side is given twice", ctx, param)
        sides[side] = Path(path)
    if not sides:
        raise click.BadParameter("give at least one side: bidder=FILE or others=FILE", ctx, param)
    return sides


def _names(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = tuple(n.strip() for n in value.split(","))
    if len(names) != 4 or not all(names) or len(set(names)) != 4:
        raise click.BadParameter(
            f"{value!r}: four different names, comma-separated, in playing order", ctx, param
        )
    return names


@mediatore.command("round", short_help="score a round from each side's won cards; settle the bid")
@click.option("--bid", "kind", type=click.Choice(BID_KINDS), required=True, help="the winning bid")
@click.option("--bidder", required=True, metavar="NAME", help="who made it")
@click.option(
    "--last-trick",
    type=click.Choice(SIDE_NAMES),
    required=True,
    help="the side that took the last trick (and with it the monte)",
)
@click.option(
    "--side",
    "sides",
    multiple=True,
    callback=_side_spec,
    metavar="SIDE=FILE",
    help="bidder=FILE or others=FILE: a side's won cards, a JSON list of RANK-SUIT ids or a photo of "
    "them; with one side given the other holds the rest of the deck; two lists must make the 40 cards "
    "(with a photo the list decides, else the bidder's photo, and what they disagree on is flagged)",
)
@click.option(
    "--players",
    callback=_names,
    metavar="A,B,C,D",
    help="the four players in playing order, each next one to the right (default: the ledger's, "
    "else the bidder and Player 2..4)",
)
@click.option(
    "--dealer", metavar="NAME", help="who dealt (default: the ledger's next dealer, else the last player)"
)
@click.option("--called", metavar="CARD", help="the card a chiamo or mediatore bid names, e.g. 3-denari")
@click.option(
    "--partner", metavar="NAME|none", help="chiamo: who held the called card (none: it lay in the monte)"
)
@click.option(
    "--giver", metavar="NAME|none", help="mediatore: who gave the called card up (none: it lay in the monte)"
)
@click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="a game file of running balances: the round is added to it (created when missing)",
)
@click.option(
    "--annotate",
    "-a",
    type=click.Path(path_type=Path),
    metavar="PNG|DIR",
    help="draw each photo's reading: a .png/.jpg file for one photo, a folder for two "
    "(each PHOTO-annotated.png); never an input, never a file scorecam did not draw",
)
@json_switch("the round's report (with each photo's reading)")
def round_command(
    kind: str,
    bidder: str,
    last_trick: str,
    sides: dict[str, Path],
    players: tuple[str, ...] | None,
    dealer: str | None,
    called: str | None,
    partner: str | None,
    giver: str | None,
    ledger: Path | None,
    annotate: Path | None,
    as_json: bool,
):
    """Score one Mediatore round: each side's points in exact thirds (floored at the end), the side
    that reaches 6, and the payments of the bid. With --ledger, add it to the game's balances.

    A side given as a photo is read (every card whose corner shows) and the round settled from it;
    its status is `check` when a reading or the two sides leave it in doubt."""
    from scorecam.photos import is_photo

    _check_bid_options(kind, called, partner, giver)
    if ledger is not None:
        refuse_inputs("--ledger", ledger, sides.values())
    photo_sides = {side: path for side, path in sides.items() if is_photo(path)}
    pictures = _pictures(annotate, sides, photo_sides)  # refused here, before any photo is read
    game = _read_ledger(ledger) if ledger is not None and ledger.exists() else None
    players = _players(players, game, bidder)
    dealer = _dealer(dealer, game, players)
    for option, name in (("--bidder", bidder), ("--partner", partner), ("--giver", giver)):
        if name not in (None, NOBODY) and name not in players:
            hint = "" if game is not None else "; name them with --players"
            raise click.BadParameter(
                f"{name} is not one of the players ({', '.join(players)}){hint}", param_hint=option
            )
    piles = {side: load_side(path) for side, path in sides.items() if side not in photo_sides}
    if photo_sides:
        board = {
            "format": 1,
            "game": "mediatore",
            "players": list(players),
            "dealer": dealer,
            "bid": _bid(kind, bidder, called, partner, giver),
            "last_trick": last_trick,
        }
        report, board = _settle_photos(board, photo_sides, piles, sides, pictures, ledger is not None)
    else:
        board, report = _score_lists(
            players, dealer, _bid(kind, bidder, called, partner, giver), piles, last_trick, sides
        )
    if ledger is not None:
        report["ledger"] = _add_to_ledger(ledger, game, board)
    if as_json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        from scorecam.tables import show

        show(report_layout(report))
    return int(Exit.SCORED)


def _score_lists(
    players: tuple[str, ...],
    dealer: str,
    bid: dict[str, Any],
    piles: dict[str, list[str]],
    last_trick: str,
    sides: dict[str, Path],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(board, report) of a round whose sides are all lists."""
    board = {
        "format": 1,
        "game": "mediatore",
        "players": list(players),
        "dealer": dealer,
        "bid": bid,
        "bidder_side": piles.get("bidder"),
        "others_side": piles.get("others"),
        "last_trick": last_trick,
    }
    if board["bidder_side"] is None:  # only the others' cards given: the bidder's are the rest
        from scoring.mediatore import DECK

        board["bidder_side"] = [str(c) for c in DECK if str(c) not in set(piles["others"])]
        board["others_side"] = None
    return board, _score(board, sides)


def _pictures(annotate: Path | None, sides: dict[str, Path], photos: dict[str, Path]) -> dict[Path, Path]:
    """Each photo's annotated picture (``score --annotate``'s rules); a usage error without a photo."""
    if annotate is None:
        return {}
    if not photos:
        raise click.UsageError(f"--annotate {annotate}: it draws a photo's reading, and no side is a photo")
    from scorecam.commands.annotated import score_targets

    return score_targets(annotate, list(sides.values()), list(photos.values()))


def _settle_photos(
    board: dict[str, Any],
    photos: dict[str, Path],
    piles: dict[str, list[str]],
    sides: dict[str, Path],
    pictures: dict[Path, Path],
    for_ledger: bool,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(report, the board it counts) of a round with a side given as a photo: every photo read (one
    that fails stops the round with its one-line reason and exit code), the round settled from them
    and the lists, and each photo's picture drawn. A list is a whole pile, checked as a round board's
    side; so is a photo's count when the round goes into a ledger (which keeps only possible rounds)."""
    from scorecam.mediatore_sides import counted_board, counted_side, read_side, settle_round
    from scoring.errors import BoardFormatError
    from scoring.mediatore import round_from_json

    readings = {side: read_side(path, side) for side, path in photos.items()}
    reports = {side: report for side, (report, _) in readings.items()}
    lists = {side: (str(sides[side]), pile) for side, pile in piles.items()}
    counted = counted_board(board, reports, lists)
    try:
        report = settle_round(board, reports, {}, lists)
        if lists:
            round_from_json(counted)
    except BoardFormatError as error:
        files = [file for file, _ in lists.values()] or [str(p) for p in photos.values()]
        raise InputError(" + ".join(files), f"impossible round: {error}") from None
    if for_ledger and not lists:
        try:
            round_from_json(counted)
        except BoardFormatError as error:
            raise InputError(
                str(sides[counted_side(reports, lists)]),
                f"the ledger keeps only a possible round, and as read {error}: some corners are hidden "
                "or misread; check the cards (score --game mediatore --json) and give the side as a list",
            ) from None
    for side, path in photos.items():
        if path in pictures:
            from scorecam.mediatore_photos import write_side_annotation

            photo, reading = readings[side]
            photo["annotated"] = str(write_side_annotation(pictures[path], path, reading, photo))
    return report, counted


def _check_bid_options(kind: str, called: str | None, partner: str | None, giver: str | None) -> None:
    if kind in ("chiamo", "mediatore") and called is None:
        raise click.UsageError(f"a {kind} bid names a card: give --called CARD")
    if kind not in ("chiamo", "mediatore") and called is not None:
        raise click.UsageError(f"a {kind} bid names no card: leave out --called")
    if kind == "chiamo" and partner is None:
        raise click.UsageError(
            "a chiamo bid has a partner: give --partner NAME (--partner none: the card lay in the monte)"
        )
    if kind != "chiamo" and partner is not None:
        raise click.UsageError(f"only a chiamo bid has a partner, not {kind}: leave out --partner")
    if kind == "mediatore" and giver is None:
        raise click.UsageError(
            "a mediatore bid has a giver: give --giver NAME (--giver none: the card lay in the monte)"
        )
    if kind != "mediatore" and giver is not None:
        raise click.UsageError(f"only a mediatore bid has a giver, not {kind}: leave out --giver")


def _bid(
    kind: str, bidder: str, called: str | None, partner: str | None, giver: str | None
) -> dict[str, Any]:
    bid: dict[str, Any] = {"kind": kind, "bidder": bidder}
    if called is not None:
        from scoring.errors import BoardFormatError
        from scoring.mediatore import card

        try:
            bid["called"] = str(card(called))
        except BoardFormatError as error:
            raise click.BadParameter(str(error), param_hint="--called") from None
    if kind == "chiamo":
        bid["partner"] = None if partner == NOBODY else partner
    if kind == "mediatore":
        bid["giver"] = None if giver == NOBODY else giver
    return bid


def _players(given: tuple[str, ...] | None, game: Any, bidder: str) -> tuple[str, ...]:
    if game is not None:
        if given is not None and given != game.players:
            raise click.BadParameter(
                f"the ledger's players are {','.join(game.players)}, not {','.join(given)}",
                param_hint="--players",
            )
        return game.players
    if given is not None:
        return given
    return (bidder, "Player 2", "Player 3", "Player 4")


def _dealer(given: str | None, game: Any, players: tuple[str, ...]) -> str:
    expected = game.next_dealer() if game is not None else None
    if given is not None and given not in players:
        raise click.BadParameter(
            f"{given} is not one of the players ({', '.join(players)})", param_hint="--dealer"
        )
    if expected is not None and given is not None and given != expected:
        raise click.BadParameter(
            f"{given}: the deal passes to the right, and the ledger's next dealer is {expected}",
            param_hint="--dealer",
        )
    return given or expected or players[-1]


def _score(board: dict[str, Any], sides: dict[str, Path]) -> dict[str, Any]:
    """The round's report; an impossible round is named after the side files (exit 3)."""
    from scoring.errors import BoardFormatError
    from scoring.mediatore import score_board

    try:
        return score_board(board)
    except BoardFormatError as error:
        raise InputError(" + ".join(str(p) for p in sides.values()), f"impossible round: {error}") from None


def _read_ledger(path: Path):
    from scorecam.inputs import read_json
    from scoring.errors import BoardFormatError
    from scoring.mediatore import ledger_from_json

    data = read_json(path)
    try:
        return ledger_from_json(data)
    except BoardFormatError as error:
        raise InputError(str(path), f"not a Mediatore ledger: {error}") from None


def _add_to_ledger(path: Path, game: Any, board: dict[str, Any]) -> dict[str, Any]:
    """Add the round to the ledger file (a new one when ``game`` is None) and write it through a
    .part file, so a failed write never leaves half a ledger; returns where the game stands."""
    from scoring.mediatore import Ledger, ledger_report_to_json, ledger_to_json, record_round, round_from_json

    game = record_round(game if game is not None else Ledger(tuple(board["players"])), round_from_json(board))
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(ledger_to_json(game), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(part, path)
    report = ledger_report_to_json(game)
    return {
        "file": str(path),
        "round": len(game.rounds),
        "balances": report["balances"],
        "leaders": report["leaders"],
        "next_dealer": report["next_dealer"],
    }


# --------------------------------------------------------------------------------------- tables


def report_layout(report: dict[str, Any]) -> list:
    """The table of any Mediatore report: a round (with its tricks when played), a ledger, a bidding."""
    if "sides" in report:
        layout = trick_layout(report) if "tricks" in report else []
        layout += photo_lines(report)
        layout += round_layout(report)
        if "status" in report:  # settled from a photo: what to look at before anyone pays
            layout += settlement_lines(report)
        if "ledger" in report:
            layout += ledger_lines(report["ledger"], report["players"])
            if report.get("status") == "check":
                layout.append(
                    f"The ledger keeps the bidder's cards as counted here: a misread card is fixed in "
                    f"its round {report['ledger']['round']}, bidder_side"
                )
        return layout
    if "rounds" in report:
        return ledger_layout(report)
    return bidding_layout(report)


def _bid_text(bid: dict[str, Any]) -> str:
    text = f"{bid['kind'].capitalize()} by {bid['bidder']}"
    if bid["kind"] == "chiamo":
        text += f", calling the {bid['called']}: " + (
            f"partner {bid['partner']}" if bid.get("partner") else "it lay in the monte, alone"
        )
    if bid["kind"] == "mediatore":
        text += f", naming the {bid['called']}: " + (
            f"given by {bid['giver']}" if bid.get("giver") else "it lay in the monte"
        )
    return text


def round_layout(report: dict[str, Any]) -> list:
    from scorecam.tables import Rows, signed

    players = report["players"]
    rows = [[""] + [p["name"] for p in players]]
    rows.append(["Side"] + [p["side"] for p in players])
    rows.append(["Role"] + [p["role"] for p in players])
    rows.append(["Total"] + [signed(p["payment"]) for p in players])
    lines: list = [
        _bid_text(report["bid"]) + (f" (dealer {report['dealer']})" if report.get("dealer") else ""),
        "",
    ]
    lines += [Rows(rows), ""]
    from scoring.mediatore import thirds_text

    for name, side in report["sides"].items():
        counted = side["exact"]
        if side["last_trick"]:
            counted = f"{thirds_text(side['card_thirds'])} + 1 for the last trick = {counted}"
        verdict = "wins" if side["won"] else "loses"
        origin = f" ({_origin(side['from'])})" if "from" in side else ""
        lines.append(
            f"{'Bidder' if name == 'bidder' else 'Others'} ({', '.join(side['players'])}): {side['cards']} cards, "
            f"{counted} -> {side['points']} points: {verdict}{origin}"
        )
    if report["capot"]:
        lines.append("Every trick to one side: +2 on every payment")
    return lines


def _origin(source: str) -> str:
    return source if source == "the rest of the deck" else f"counted from {source}"


def photo_lines(report: dict[str, Any]) -> list:
    """Each photo of a round: the cards read with their points, the count, its flags and status."""
    from scorecam.mediatore_photos import side_layout

    lines: list = []
    for photo in report.get("photos", ()):
        # the flags the settlement rests on are listed once, below it
        own = [f for f in photo["flags"] if f"{photo['side']}: {f}" not in report["flags"]]
        lines += [f"== {photo['side']}: {photo['source']}", *side_layout(photo | {"flags": own})]
        if "annotated" in photo:
            lines.append(f"annotated picture: {photo['annotated']}")
        lines.append("")
    return lines


def settlement_lines(report: dict[str, Any]) -> list:
    """The round's flags and status: a settlement resting on a doubtful reading says so."""
    if report["status"] == "ok":
        return ["", "status: ok (no reading left in doubt)"]
    lines = ["", "To check before anyone pays:"]
    lines += [f"  {i}. {flag}" for i, flag in enumerate(report["flags"], start=1)]
    lines.append("status: check (a doubtful reading or a disagreement: the settlement may be wrong)")
    return lines


def trick_layout(report: dict[str, Any]) -> list:
    from scorecam.tables import Rows
    from scoring.mediatore import thirds_text

    names = [p["name"] for p in report["players"]]
    rows = [["Trick", "Leader"] + names + ["Winner", "Points"]]
    for t in report["tricks"]:
        rows.append(
            [str(t["trick"]), t["leader"]]
            + [t["cards"][n] for n in names]
            + [t["winner"], thirds_text(t["thirds"])]
        )
    return ["Every play keeps the rules.", "", Rows(rows), ""]


def ledger_lines(ledger: dict[str, Any], players: list[dict[str, Any]]) -> list:
    from scorecam.tables import Rows, signed

    names = [p["name"] for p in players]
    rows = [[""] + names, ["Balance"] + [signed(ledger["balances"][n]) for n in names]]
    return [
        "",
        f"Round {ledger['round']} added to {ledger['file']}:",
        "",
        Rows(rows),
        "",
        f"Next dealer: {ledger['next_dealer']}",
    ]


def ledger_layout(report: dict[str, Any]) -> list:
    from scorecam.tables import Rows, signed

    names = [p["name"] for p in report["players"]]
    rows = [["Round", "Dealer", "Bid", "Won by"] + names]
    for r in report["rounds"]:
        won = "bidder" if r["winner"] == "bidder" else "others"
        rows.append(
            [
                str(r["round"]),
                r["dealer"],
                f"{r['bid']['kind']} {r['bid']['bidder']}",
                won + (" (all)" if r["capot"] else ""),
            ]
            + [signed(r["payments"][n]) for n in names]
        )
    rows.append(["Total", "", "", ""] + [signed(report["balances"][n]) for n in names])
    lines: list = [Rows(rows), ""]
    if report["leaders"]:
        lines.append(f"Leading: {', '.join(report['leaders'])}")
    if report["next_dealer"]:
        lines.append(f"Next dealer: {report['next_dealer']}")
    return lines


def bidding_layout(report: dict[str, Any]) -> list:
    calls = ", ".join(f"{c['player']} {c['call']}" for c in report["bidding"])
    bid = report["bid"]
    outcome = (
        "everyone passed: the cards are redealt" if report["redeal"] else f"{bid['kind']} by {bid['bidder']}"
    )
    return [f"The bidding keeps the rules: {calls}.", f"Outcome: {outcome}"]

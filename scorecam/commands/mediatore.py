"""`scorecam mediatore round`: score a Mediatore round from the cards each side won, settle the bid,
and keep the game's running balances in a ledger file; and the tables of every Mediatore report.

A side's cards come from a file: for now a JSON list of ``RANK-SUIT`` ids (``["1-coppe", "re-spade"]``);
`load_side` is where a photo of the cards will be read once the reader exists.
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
    """The card ids of one side's won cards in ``path``: a JSON list of ``RANK-SUIT`` strings.
    Checked for known, distinct cards; an InputError (one line, exit 3) names the file otherwise."""
    from scorecam.inputs import read_json
    from scorecam.photos import is_photo
    from scoring.errors import BoardFormatError
    from scoring.mediatore import cards

    if is_photo(path):
        raise InputError(
            str(path),
            "a round takes a side's cards as a JSON list (such as '3-denari'), not a photo: read the photo "
            "with scorecam score PHOTO --game mediatore --json, check its cards, and save its board list",
        )
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
    help="bidder=FILE or others=FILE: a side's won cards, a JSON list of RANK-SUIT ids; with one side "
    "given the other holds the rest of the deck, two must make the 40 cards",
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
@json_switch("the round's report")
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
    as_json: bool,
):
    """Score one Mediatore round: each side's points in exact thirds (floored at the end), the side
    that reaches 6, and the payments of the bid. With --ledger, add it to the game's balances."""
    _check_bid_options(kind, called, partner, giver)
    if ledger is not None:
        refuse_inputs("--ledger", ledger, sides.values())
    game = _read_ledger(ledger) if ledger is not None and ledger.exists() else None
    players = _players(players, game, bidder)
    dealer = _dealer(dealer, game, players)
    for option, name in (("--bidder", bidder), ("--partner", partner), ("--giver", giver)):
        if name not in (None, NOBODY) and name not in players:
            hint = "" if game is not None else "; name them with --players"
            raise click.BadParameter(
                f"{name} is not one of the players ({', '.join(players)}){hint}", param_hint=option
            )
    piles = {side: load_side(path) for side, path in sides.items()}
    board = {
        "format": 1,
        "game": "mediatore",
        "players": list(players),
        "dealer": dealer,
        "bid": _bid(kind, bidder, called, partner, giver),
        "bidder_side": piles.get("bidder"),
        "others_side": piles.get("others"),
        "last_trick": last_trick,
    }
    if board["bidder_side"] is None:  # only the others' cards given: the bidder's are the rest
        from scoring.mediatore import DECK

        board["bidder_side"] = [str(c) for c in DECK if str(c) not in set(piles["others"])]
        board["others_side"] = None
    report = _score(board, sides)
    if ledger is not None:
        report["ledger"] = _add_to_ledger(ledger, game, board)
    if as_json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        from scorecam.tables import show

        show(report_layout(report))
    return int(Exit.SCORED)


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
        layout += round_layout(report)
        if "ledger" in report:
            layout += ledger_lines(report["ledger"], report["players"])
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
        lines.append(
            f"{'Bidder' if name == 'bidder' else 'Others'} ({', '.join(side['players'])}): {side['cards']} cards, "
            f"{counted} -> {side['points']} points: {verdict}"
        )
    if report["capot"]:
        lines.append("Every trick to one side: +2 on every payment")
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

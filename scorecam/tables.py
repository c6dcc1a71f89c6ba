"""Score reports as text tables a person reads at the table: players as columns, line items as rows,
like the rulebooks' scoring tables. Every function takes a report as DESIGN.md's JSON dict, so a
report read from a photo and one from a board file print the same way.

A table is built once as a *layout* (a list of ``Rows`` and lines of text) and drawn two ways: plain
text, aligned with spaces, when the output is a file, a pipe or ``NO_COLOR`` is set (no escape codes,
stable for scripts and tests); with rich, in colour, on a terminal. rich is imported only then.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from scoring.sides import SIDE_WORDS


@dataclass(frozen=True)
class Rows:
    """A table: the first row is the header, the first column the labels."""

    rows: list[list[str]]


Layout = list[Rows | str]

MONDO_ROWS = (
    ("Animals", ("animals",)),
    ("Landscapes", ("landscapes",)),
    ("Volcanoes", ("volcanoes",)),
    ("Empty Spaces / Misconnections", ("empty_spaces", "misconnections")),
    ("Jumped Out 1st", ("first_out",)),
)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def grid(rows: list[list[str]]) -> str:
    """Align a table: the first column left, the others right, two spaces apart."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _count(n: int, word: str, plural: str | None = None) -> str:
    if n == 0:
        return f"no {word}"
    return f"{n} {word if n == 1 else (plural or word + 's')}"


# ------------------------------------------------------------------------------------ layouts


def mondo_turn_layout(report: dict[str, Any]) -> Layout:
    players = report["players"]
    rows = [[""] + [p["name"] for p in players]]
    for label, keys in MONDO_ROWS:
        rows.append([label] + [signed(sum(p["points"][k] for k in keys)) for p in players])
    rows.append(["Sum"] + [signed(p["total"]) for p in players])
    return [Rows(rows), "", *(mondo_player_note(p) for p in players)]


def mondo_player_note(p: dict[str, Any]) -> str:
    """One line that says where the points come from, in the rulebook's words."""
    d = p["details"]
    if not p["valid"]:
        edges = "; ".join(
            f"row {e['row'] + 1}, tile {e['col'] + 1}, {SIDE_WORDS.get(e['side'], e['side'])} edge: {e['why']}"
            for e in d["invalid_edges"][:3]
        )  # counted from 1, as the picture labels them
        more = f" and {len(d['invalid_edges']) - 3} more" if len(d["invalid_edges"]) > 3 else ""
        return f"{p['name']}: invalid island, 0 points ({edges}{more})"
    counts = d["scoring_landscapes_by_terrain"]
    by_terrain = ", ".join(f"{counts[t]} {t}" for t in ("forest", "plains", "desert") if counts.get(t))
    parts = [
        _count(p["animals"], "animal"),
        _count(p["scoring_landscapes"], "enclosed landscape") + (f" ({by_terrain})" if by_terrain else ""),
        _count(p["volcanoes"], "volcano", "volcanoes")
        + (" (the most)" if d["volcano_majority"]["in_majority"] else ""),
        _count(p["empty_spaces"], "empty space"),
        _count(p["misconnections"], "misconnection"),
    ]
    if p["first_out"]:
        parts.append("jumped out first")
    floor = f"; {d['sum_before_floor']} raised to 0" if d["sum_before_floor"] < 0 else ""
    return f"{p['name']}: " + ", ".join(parts) + floor


def mondo_game_layout(report: dict[str, Any]) -> Layout:
    names = list(report["totals"])
    rows = [[""] + names]
    for number, turn in enumerate(report["turns"], start=1):
        by_name = {p["name"]: p["total"] for p in turn["players"]}
        rows.append([f"Turn {number}"] + [str(by_name[n]) if n in by_name else "-" for n in names])
    rows.append(["Total"] + [str(report["totals"][n]) for n in names])
    winners = " and ".join(report["winners"])
    verdict = (
        f"{'Winners' if len(report['winners']) > 1 else 'Winner'}: {winners}"
        if report["complete"]
        else f"Leading after {len(report['turns'])} of 3 turns: {winners}"
    )
    return [Rows(rows), "", verdict]


def mediterraneo_sea_layout(report: dict[str, Any]) -> Layout:
    players = report["players"]
    first = players[0]["name"]
    rows = [[""] + [p["name"] + (" (first)" if p["name"] == first else "") for p in players]]
    rows.append(["Objective"] + [f"+2 {p['plus']} / -1 {p['minus']}" for p in players])
    rows.append(["Plus"] + [signed(p["points"]["plus"]) for p in players])
    rows.append(["Minus"] + [signed(p["points"]["minus"]) for p in players])
    rows.append(["Total"] + [signed(p["total"]) for p in players])
    lines: Layout = [Rows(rows), ""]
    if report.get("objectives_from") == "read":  # a photo scored by the objective cards beside its sea
        lines.append("Objectives read from the objective cards in the photo (--objectives overrides them)")
    species = ", ".join(f"{n} {s}" for s, n in report["species"].items()) or "none"
    lines.append(f"Visible animals: {species}")
    for o in report["octopuses"]:
        becomes = o["becomes"] or "no species"
        lines.append(f"Octopus at ({o['x']}, {o['y']}): {becomes}, {o['why']}")
    if not report["objectives_legal"]:
        lines.append(f"Objectives break the choice rule: {report['objectives_why']}")
    outcome = {
        "in_play": "Round goes on",
        "won": f"Round over: {report['leader']} wins the round",
        "tie_play_on": "Round end reached on a tie: play goes on",
        "replay": "Round end reached on a tie with no cards left: the round is replayed",
    }[report["round_outcome"]]
    why = f" ({report['round_why']})" if report["round_why"] else ""
    leader = (
        f"; {report['leader']} leads" if report["round_outcome"] == "in_play" and report["leader"] else ""
    )
    lines.append(outcome + why + leader)
    return lines


ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def sea_rows(cells: list[dict[str, Any]]) -> list[list[str]]:
    """The visible cells as a small map: three letters a cell, octopuses with their arrow."""
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    at = {(c["x"], c["y"]): c for c in cells}
    rows = [["y\\x"] + [str(x) for x in range(min(xs), max(xs) + 1)]]
    for y in range(min(ys), max(ys) + 1):
        row = [str(y)]
        for x in range(min(xs), max(xs) + 1):
            cell = at.get((x, y))
            if cell is None:
                row.append(".")
            elif cell["content"] == "octopus":
                row.append("oc" + ARROWS[cell["points"]])
            else:
                row.append("gul" if cell["content"] == "seagull" else cell["content"][:3])
        rows.append(row)
    return rows


def sea_picture(cells: list[dict[str, Any]]) -> str:
    return grid(sea_rows(cells)) if cells else "(no cells)"


def mediterraneo_plays_layout(report: dict[str, Any]) -> Layout:
    cells = report["visible_cells"]
    intro = (
        f"All {report['plays']} plays keep the placement rules. The sea seen from above ({len(cells)} cells):"
    )
    return [intro, "", Rows(sea_rows(cells)) if cells else "(no cells)"]


def mediterraneo_match_layout(report: dict[str, Any]) -> Layout:
    players = report["players"]
    rows = [["Round", "First"] + players]
    for r in report["rounds"]:
        marks = [
            "replayed" if r["outcome"] == "replay" else ("won" if r["winner"] == p else "") for p in players
        ]
        rows.append([str(r["round"]), r["first"]] + marks)
    rows.append(["Rounds won", ""] + [str(report["rounds_won"][p]) for p in players])
    lines: Layout = [Rows(rows), ""]
    for c in report["removed"]:
        lines.append(f"Card {c['card']} ({c['player']}) left the game in round {c['round']}: {c['reason']}")
    if report["winner"]:
        lines.append(f"Match winner: {report['winner']}")
    else:
        lines.append(f"Next round starts with {report['first_next_round']}")
    return lines


def snorkeling_layout(report: dict[str, Any]) -> Layout:
    """A round (top cards, points, totals), a game (points per round) or a checked play sequence."""
    if "legal" in report:
        intro = (
            f"All {report['turns']} turns keep the rules ({report['variant']} game). The round they leave:"
        )
        return [intro, "", *snorkeling_layout(report["round"])]
    if "rounds" in report:
        names = report["players"]
        rows = [[""] + names]
        rows += [[f"Round {n}"] + [str(r[p]) for p in names] for n, r in enumerate(report["rounds"], start=1)]
        rows.append(["Total"] + [str(report["totals"][p]) for p in names])
        return [Rows(rows), "", f"Game to {report['target']}: {report['game_why']}"]
    players = report["players"]
    rows = [[""] + [f"{p['name']} (mat {p['mat']})" for p in players]]
    rows.append(["Top card"] + [_snorkeling_card(p["top"]) for p in players])
    rows.append(["Before"] + [str(p["before"]) for p in players])
    rows.append(["This round"] + [signed(p["points"]["top"]) for p in players])
    rows.append(["Total"] + [str(p["total"]) for p in players])
    lines: Layout = [Rows(rows), ""]
    if report["centre"]:
        lines.append(f"Centre: {_snorkeling_card(report['centre'] | {'card': ''})}".rstrip())
    lines.append(("Round over: " if report["round_over"] else "Round not over: ") + report["round_why"])
    if "totals" in report:  # --totals: the running game the round was added to
        return [*lines, "", f"Added to {report['totals']['file']}:", *snorkeling_layout(report["totals"])]
    if report["round_over"]:
        lines.append(f"Game to {report['target']}: {report['game_why']}")
    return lines


def _snorkeling_card(top: dict[str, Any]) -> str:
    colour = f" {top['color']}" if top.get("color") else ""
    return f"{top['value']}{colour} {top.get('card', '')}".rstrip()


def status_line(report: dict[str, Any]) -> str:
    """The verdict of a report read from photos: ``ok``, or ``check`` with how many readings."""
    if report["status"] == "ok":
        return "status: ok"
    n = len(report.get("flags", []))
    return f"status: {report['status']} ({n} reading{'' if n == 1 else 's'} to check)"


def report_layout(report: dict[str, Any]) -> Layout:
    """The table of any report."""
    if report["game"] == "mondo":
        layout = mondo_game_layout(report) if "turns" in report else mondo_turn_layout(report)
        return layout + ([status_line(report)] if "status" in report else [])
    if report["game"] == "snorkeling":
        return snorkeling_layout(report)
    if report["game"] == "mediatore":
        from scorecam.commands.mediatore import report_layout as mediatore_layout

        return mediatore_layout(report)
    if "species" in report:
        return mediterraneo_sea_layout(report)
    if "legal" in report:
        return mediterraneo_plays_layout(report)
    return mediterraneo_match_layout(report)


def plain(layout: Layout) -> str:
    return "\n".join(grid(item.rows) if isinstance(item, Rows) else item for item in layout)


def report_table(report: dict[str, Any]) -> str:
    """The table of any report as plain text."""
    return plain(report_layout(report))


# ------------------------------------------------------------- what is printed after the table


def check_lines(report: dict[str, Any]) -> list[str]:
    """The report's flags as they come; a flag whose second reading changes the score ends with the
    total it would give (the flag itself already says by how much)."""
    totals = {}
    for check in report.get("checks") or []:
        text, total, change = check.get("text"), check.get("total_if_second"), check.get("change")
        if isinstance(text, str) and total is not None and change:
            totals[text] = f" (total {total})"
    return [f"  {flag}{totals.get(flag, '')}" for flag in report.get("flags", [])]


def after_table(report: dict[str, Any]) -> list[str]:
    """Flags (with their what-ifs), notes and the reading time, each a line."""
    lines = check_lines(report)
    lines += [f"note: {note}" for note in report.get("notes", [])]
    t = report.get("timing_ms", {})
    if {"total", "decode", "locate", "model"} <= set(t):
        lines.append(
            f"read in {t['total']:.0f} ms (decode {t['decode']:.0f}, locate {t['locate']:.0f}, "
            f"tiles {t['model']:.0f})"
        )
    return lines


# -------------------------------------------------------------------------------------- output


def colour_wanted(stream: TextIO) -> bool:
    """Colour and rich tables only on a terminal, and never under NO_COLOR (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def show(layout: Layout, stream: TextIO | None = None) -> None:
    """Print a layout: plain text, or with rich on a terminal."""
    stream = stream or sys.stdout
    if not colour_wanted(stream):
        print(plain(layout), file=stream)
        return
    from rich.console import Console

    console = Console(file=stream, highlight=False)
    for item in layout:
        console.print(_rich_table(item.rows) if isinstance(item, Rows) else _rich_text(item))


def show_report(report: dict[str, Any], stream: TextIO | None = None) -> None:
    """A report's table, then its flags, notes and timing."""
    show(report_layout(report) + after_table(report), stream)


FINAL_ROWS = ("Sum", "Total", "Rounds won")


def _rich_table(rows: list[list[str]]):
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, title in enumerate(rows[0]):
        table.add_column(title, justify="left" if i == 0 else "right", header_style="bold")
    body = rows[1:]
    for n, row in enumerate(body):
        final = row[0] in FINAL_ROWS
        before_final = n + 1 < len(body) and body[n + 1][0] in FINAL_ROWS
        table.add_row(*(_rich_cell(cell, final, i) for i, cell in enumerate(row)), end_section=before_final)
    return table


def _rich_cell(cell: str, final: bool, column: int):
    from rich.text import Text

    style = "bold" if final else ""
    if column and cell[:1] == "+" and cell[1:].isdigit():
        style += " green"
    elif column and cell[:1] == "-" and cell[1:].isdigit():
        style += " red"
    return Text(cell, style=style.strip())


def _rich_text(line: str):
    from rich.text import Text

    if line.startswith("status: ok"):
        return Text(line, style="bold green")
    if line.startswith("status:"):
        return Text(line, style="bold yellow")
    if line.startswith("  "):  # a flag: a reading to check
        return Text(line, style="yellow")
    if line.startswith("note:"):
        return Text(line, style="cyan")
    return Text(line)

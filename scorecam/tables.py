"""Score reports as text tables a person reads at the table: players as columns, line items as rows,
like the rulebooks' scoring tables. Every function takes a report as DESIGN.md's JSON dict, so a
report read from a photo and one from a board file print the same way."""

from __future__ import annotations

from typing import Any

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


def mondo_turn_table(report: dict[str, Any]) -> str:
    players = report["players"]
    rows = [[""] + [p["name"] for p in players]]
    for label, keys in MONDO_ROWS:
        rows.append([label] + [signed(sum(p["points"][k] for k in keys)) for p in players])
    rows.append(["Sum"] + [signed(p["total"]) for p in players])
    notes = [mondo_player_note(p) for p in players]
    return grid(rows) + "\n\n" + "\n".join(notes)


def mondo_player_note(p: dict[str, Any]) -> str:
    """One line that says where the points come from, in the rulebook's words."""
    d = p["details"]
    if not p["valid"]:
        edges = "; ".join(f"({e['row']}, {e['col']}) {e['side']}: {e['why']}" for e in d["invalid_edges"][:3])
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


def mondo_game_table(report: dict[str, Any]) -> str:
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
    return grid(rows) + "\n\n" + verdict


def mediterraneo_sea_table(report: dict[str, Any]) -> str:
    players = report["players"]
    first = players[0]["name"]
    rows = [[""] + [p["name"] + (" (first)" if p["name"] == first else "") for p in players]]
    rows.append(["Objective"] + [f"+2 {p['plus']} / -1 {p['minus']}" for p in players])
    rows.append(["Plus"] + [signed(p["points"]["plus"]) for p in players])
    rows.append(["Minus"] + [signed(p["points"]["minus"]) for p in players])
    rows.append(["Total"] + [signed(p["total"]) for p in players])
    lines = [grid(rows), ""]
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
    return "\n".join(lines)


ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def sea_picture(cells: list[dict[str, Any]]) -> str:
    """The visible cells as a small map: three letters a cell, octopuses with their arrow."""
    if not cells:
        return "(no cells)"
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
    return grid(rows)


def mediterraneo_plays_table(report: dict[str, Any]) -> str:
    cells = report["visible_cells"]
    return (
        f"All {report['plays']} plays keep the placement rules. The sea seen from above "
        f"({len(cells)} cells):\n\n" + sea_picture(cells)
    )


def mediterraneo_match_table(report: dict[str, Any]) -> str:
    players = report["players"]
    rows = [["Round", "First"] + players]
    for r in report["rounds"]:
        marks = [
            "replayed" if r["outcome"] == "replay" else ("won" if r["winner"] == p else "") for p in players
        ]
        rows.append([str(r["round"]), r["first"]] + marks)
    rows.append(["Rounds won", ""] + [str(report["rounds_won"][p]) for p in players])
    lines = [grid(rows), ""]
    for c in report["removed"]:
        lines.append(f"Card {c['card']} ({c['player']}) left the game in round {c['round']}: {c['reason']}")
    if report["winner"]:
        lines.append(f"Match winner: {report['winner']}")
    else:
        lines.append(f"Next round starts with {report['first_next_round']}")
    return "\n".join(lines)


def status_line(report: dict[str, Any]) -> str:
    """The verdict of a report read from photos: ``ok``, or ``check`` with how many readings."""
    if report["status"] == "ok":
        return "status: ok"
    n = len(report.get("flags", []))
    return f"status: {report['status']} ({n} reading{'' if n == 1 else 's'} to check)"


def report_table(report: dict[str, Any]) -> str:
    """The table for any report."""
    if report["game"] == "mondo":
        table = mondo_game_table(report) if "turns" in report else mondo_turn_table(report)
        return table + ("\n" + status_line(report) if "status" in report else "")
    if "species" in report:
        return mediterraneo_sea_table(report)
    if "legal" in report:
        return mediterraneo_plays_table(report)
    return mediterraneo_match_table(report)

"""The ``scorecam`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from scorecam import __version__
from scorecam.errors import Exit, InputError
from scorecam.inputs import score_board_file
from scorecam.tables import report_table

DESCRIPTION = """\
Photograph the table, get the score.

scorecam scores tabletop games by their rulebooks: Mondo islands, turns and games, and
Mediterráneo seas, play sequences and matches. A board is a JSON file (formats in README.md); fix a
misread tile in it and score it again.
"""

EPILOG = """\
examples:
  scorecam score samples/boards/kathrin-peter-turn.json
  scorecam score --json my-island.json

exit codes: 0 scored, 1 some inputs failed (batch), 2 usage, 3 unreadable input, 4 no board found
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorecam",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"scorecam {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    score = commands.add_parser(
        "score",
        help="score boards: islands, turns, games, seas, play sequences, matches",
        description="Score each FILE and print a table per file (or the reports as JSON).",
    )
    score.add_argument("files", nargs="+", type=Path, metavar="FILE", help="a board JSON file")
    score.add_argument(
        "--json", action="store_true", help="print the score reports as JSON (DESIGN.md format)"
    )
    score.set_defaults(run=run_score)
    return parser


def fail(error: InputError) -> None:
    print(f"scorecam: {error}", file=sys.stderr)


def run_score(args: argparse.Namespace) -> int:
    reports = []
    code = Exit.SCORED
    for path in args.files:
        try:
            report = score_board_file(path)
        except InputError as error:
            fail(error)
            code = max(code, error.code)
            continue
        reports.append(report)
        if not args.json:
            if len(args.files) > 1 or reports[:-1]:
                print(f"== {path}")
            print(report_table(report))
            print()
    if args.json and reports:
        print(json.dumps(reports[0] if len(args.files) == 1 else reports, indent=2, ensure_ascii=False))
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except InputError as error:
        fail(error)
        return int(error.code)
    except KeyboardInterrupt:
        print("scorecam: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0

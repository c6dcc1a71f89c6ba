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
from scorecam.progress import Progress
from scorecam.tables import report_table

GAMES = ("mondo", "mediterraneo")

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
  scorecam kit mondo --out mondo-kit
  scorecam synth mediterraneo --n 16 --seed 7 --out photos --contact-sheet sheet.jpg

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

    kit = commands.add_parser(
        "kit",
        help="write a printable print-and-play kit: PNG faces, PDF cut sheets, manifest",
        description="Write scorecam's own edition of GAME: one PNG per component face at 300 dpi, "
        "GAME-kit.pdf (A4 cut sheets for double-sided printing) and manifest.json.",
    )
    kit.add_argument("game", choices=GAMES, metavar="GAME", help="mondo or mediterraneo")
    kit.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write into")
    kit.set_defaults(run=run_kit)

    synth = commands.add_parser(
        "synth",
        help="simulate phone photos of finished boards, each with its truth JSON",
        description="Write N simulated photos of GAME (JPEG) with a truth JSON beside each: the board, "
        "its score report, and where every component corner lies in the photo. The same seed gives "
        "the same files.",
    )
    synth.add_argument("game", choices=GAMES, metavar="GAME", help="mondo or mediterraneo")
    synth.add_argument("--n", type=positive_int, default=16, help="number of photos (default 16)")
    synth.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    synth.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write into")
    synth.add_argument(
        "--long-side",
        type=positive_int,
        default=4000,
        metavar="PX",
        help="photo size, long side (default 4000: 12 MP)",
    )
    synth.add_argument("--jobs", type=positive_int, default=1, help="processes to use (default 1)")
    synth.add_argument(
        "--contact-sheet", type=Path, metavar="FILE", help="also write a grid of the first 16 photos to FILE"
    )
    synth.set_defaults(run=run_synth)
    return parser


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def run_kit(args: argparse.Namespace) -> int:
    from vision.synth.kit import write_kit

    bar = Progress(f"kit {args.game}", 0)
    manifest = write_kit(args.game, args.out, progress=bar)
    count = len(json.loads(manifest.read_text())["components"])
    print(
        f"wrote {count} components ({2 * count} faces), {args.game}-kit.pdf and manifest.json to {args.out}"
    )
    return Exit.SCORED


def run_synth(args: argparse.Namespace) -> int:
    import cv2

    from vision.synth.dataset import contact_sheet, write_photos

    bar = Progress(f"synth {args.game}", args.n)
    photos = write_photos(
        args.game, args.n, args.seed, args.out, long_side_px=args.long_side, jobs=args.jobs, progress=bar
    )
    seconds = bar.elapsed
    print(
        f"wrote {len(photos)} photos with truth to {args.out} in {seconds:.1f} s "
        f"({len(photos) / seconds:.2f} photos/s, {args.jobs} process{'es' if args.jobs > 1 else ''})"
    )
    if args.contact_sheet:
        args.contact_sheet.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(args.contact_sheet), contact_sheet(photos), [cv2.IMWRITE_JPEG_QUALITY, 85]):
            raise InputError(str(args.contact_sheet), "cannot write an image there (use .jpg or .png)")
        print(f"contact sheet: {args.contact_sheet}")
    return Exit.SCORED


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
    except OSError as error:  # a folder that cannot be written, a full disk
        print(f"scorecam: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return int(Exit.UNREADABLE)

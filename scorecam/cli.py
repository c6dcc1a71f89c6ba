"""The ``scorecam`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scorecam import __version__
from scorecam.errors import Exit, InputError
from scorecam.inputs import score_board_file
from scorecam.photos import is_photo
from scorecam.progress import Progress
from scorecam.tables import report_table
from vision.errors import ModelFileError

GAMES = ("mondo", "mediterraneo")

DESCRIPTION = """\
Photograph the table, get the score.

scorecam reads a photo of a finished Mondo island and scores it by the rulebook, with a picture
that shows why. It also scores boards written as JSON (Mondo islands, turns and games;
Mediterráneo seas, play sequences and matches): the board a photo was read as can be fixed by
hand and scored again.
"""

EPILOG = """\
examples:
  scorecam score samples/mondo/mondo-s9900-00000.jpg --annotate island.png
  scorecam score samples/boards/kathrin-peter-turn.json
  scorecam turn --first Kathrin Kathrin=k.jpg Peter=p.jpg
  scorecam batch photos/ --out results.csv
  scorecam kit mondo --out mondo-kit
  scorecam synth mondo --n 500 --seed 9001 --out heldout && scorecam eval heldout

exit codes: 0 scored, 1 some inputs failed (batch), 2 usage, 3 unreadable input, 4 no board found
"""


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


LONG_SIDE_RANGE = (64, 4000)  # up to a 12 MP phone photo; below 64 px nothing is left to read


def long_side(text: str) -> int:
    value = int(text)
    lo, hi = LONG_SIDE_RANGE
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"must be {lo} to {hi}, not {value}")
    return value


def family_list(text: str) -> tuple[str, ...]:
    """'felt, cloth' -> ('felt', 'cloth'); World checks the names."""
    return tuple(name.strip().lower() for name in text.split(",") if name.strip())


def synth_world(args: argparse.Namespace):
    """The simulated world `scorecam synth` draws from, or None for the everyday one.
    Raises ValueError (unknown family, nothing left to draw from) for a usage message."""
    from vision.synth.world import HUED_FAMILIES, TABLE_FAMILIES, World

    if not (args.stress or args.tables is not None or args.exclude_tables or args.terrain_hues):
        return None
    world = World(
        stress=args.stress,
        tables=args.tables if args.tables is not None else TABLE_FAMILIES,
        exclude_tables=args.exclude_tables or (),
        terrain_hues=True if args.terrain_hues else None,
    )
    # World only finds this when the first photo is drawn, inside a worker: say it now.
    if world.terrain_hues and not set(world.families()) & HUED_FAMILIES:
        hued = ", ".join(f for f in TABLE_FAMILIES if f in HUED_FAMILIES)
        raise ValueError(f"--terrain-hues needs a table family whose colour is free ({hued})")
    return world


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
        help="score photos of Mondo islands, or board files of any kind",
        description="Score each FILE: a photo of one Mondo island, or a board JSON file (island, turn, "
        "game, sea, plays, match). Prints a table per file, or the reports as JSON.",
    )
    score.add_argument("files", nargs="+", type=Path, metavar="FILE", help="a photo or a board JSON file")
    score.add_argument(
        "--json", action="store_true", help="print the score reports as JSON (DESIGN.md format)"
    )
    score.add_argument(
        "--annotate",
        type=Path,
        metavar="PNG",
        help="write the annotated picture (a folder for several photos)",
    )
    score.add_argument(
        "--grid", type=int, choices=(3, 4), help="the island's grid size, when detection needs help"
    )
    score.add_argument(
        "--no-catalog", action="store_true", help="read tiles head by head, without the kit's catalog"
    )
    score.set_defaults(run=run_score)

    turn = commands.add_parser(
        "turn",
        help="score a turn: several players' islands, volcano majority, first-out bonus",
        description="Score one turn of Mondo: every PLAYER=FILE (a photo or an island JSON) together.",
    )
    turn.add_argument("players", nargs="+", metavar="NAME=FILE", help="a player's name and island")
    turn.add_argument("--first", metavar="NAME", help="the player who jumped out first (+4)")
    turn.add_argument("--json", action="store_true", help="print the report as JSON")
    turn.add_argument(
        "--annotate", type=Path, metavar="DIR", help="write each player's annotated picture into DIR"
    )
    turn.add_argument("--grid", type=int, choices=(3, 4), help="the islands' grid size")
    turn.set_defaults(run=run_turn)

    batch = commands.add_parser(
        "batch",
        help="score a whole folder of photos into CSV and JSON lines",
        description="Score every photo and board under DIR. A sub-folder with several photos is one turn "
        "(players named after the files; a first.txt naming a player gives the first-out bonus). "
        "Failures are recorded with their reason; the exit code is 1 if any input failed.",
    )
    batch.add_argument("folder", type=Path, metavar="DIR")
    batch.add_argument("--out", type=Path, required=True, metavar="CSV", help="results table")
    batch.add_argument(
        "--jsonl",
        type=Path,
        metavar="FILE",
        help="full reports, one JSON per line (default: CSV name .jsonl)",
    )
    batch.add_argument("--grid", type=int, choices=(3, 4), help="the islands' grid size")
    batch.set_defaults(run=run_batch)

    evaluate = commands.add_parser(
        "eval",
        help="measure the photo reader on simulated photos with truth",
        description="Read every Mondo photo under DIR that has a truth JSON beside it (scorecam synth "
        "writes them) and report islands found, per-head accuracy, islands read exactly, exact "
        "scores (with and without the catalog), wrong scores left unflagged, right scores flagged, "
        "the median time per photo, and the figures per condition of the simulated world.",
    )
    evaluate.add_argument("folder", type=Path, metavar="DIR")
    evaluate.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    evaluate.add_argument("--limit", type=positive_int, help="only the first N photos")
    evaluate.set_defaults(run=run_eval)

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
        type=long_side,
        default=4000,
        metavar="PX",
        help="photo size, long side, 64 to 4000 (default 4000: 12 MP)",
    )
    synth.add_argument("--jobs", type=positive_int, default=1, help="processes to use (default 1)")
    synth.add_argument(
        "--contact-sheet", type=Path, metavar="FILE", help="also write a grid of the first 16 photos to FILE"
    )
    synth.add_argument(
        "--stress", action="store_true", help="draw every condition from its hard end (the stress set)"
    )
    synth.add_argument(
        "--tables",
        type=family_list,
        metavar="FAMILY[,FAMILY...]",
        help="only these table families (wood, plain, felt, cloth, tablecloth, patterned, mat, stone, "
        "tiled, paper, photo, noise)",
    )
    synth.add_argument(
        "--exclude-tables", type=family_list, metavar="FAMILY[,FAMILY...]", help="never these table families"
    )
    synth.add_argument("--terrain-hues", action="store_true", help="only tables in the terrains' own colours")
    synth.set_defaults(run=run_synth)
    return parser


def fail(error: InputError) -> None:
    print(f"scorecam: {error}", file=sys.stderr)


def _annotation_path(target: Path, photo: Path, several: bool) -> Path:
    if several or target.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        return target / f"{photo.stem}-annotated.png"
    return target


def write_annotation(target: Path, photo_island, player: dict[str, Any]) -> Path:
    """Draw the reading on the photo, decoded at a size a person looks at, and write it."""
    import cv2

    from scorecam.annotate import annotate_island
    from vision.photo_io import read_photo

    view = read_photo(photo_island.path, min_long_side=1600)
    quads = photo_island.reading.cell_quads / view.scale
    picture = annotate_island(view.image, photo_island.island, quads, player, photo_island.reading.flags)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(target), picture):
        raise InputError(str(target), "cannot write an image there (use .png or .jpg)", Exit.USAGE)
    return target


def print_photo_report(report: dict[str, Any]) -> None:
    print(report_table(report))
    for flag in report.get("flags", []):
        print(f"  {flag}")
    t = report.get("timing_ms", {})
    if t:
        print(
            f"read in {t['total']:.0f} ms (decode {t['decode']:.0f}, locate {t['locate']:.0f}, tiles {t['model']:.0f})"
        )


def run_score(args: argparse.Namespace) -> int:
    reports = []
    code = Exit.SCORED
    several = len(args.files) > 1
    for path in args.files:
        try:
            if is_photo(path):
                from scorecam.photos import score_photo_file

                report, photo = score_photo_file(path, grid=args.grid, use_catalog=not args.no_catalog)
                if args.annotate:
                    written = write_annotation(
                        _annotation_path(args.annotate, path, several), photo, report["players"][0]
                    )
                    report["annotated"] = str(written)
            else:
                report = score_board_file(path)
        except InputError as error:
            fail(error)
            code = max(code, error.code)
            continue
        reports.append(report)
        if not args.json:
            if several:
                print(f"== {path}")
            print_photo_report(report) if "source" in report else print(report_table(report))
            if "annotated" in report:
                print(f"annotated picture: {report['annotated']}")
            print()
    if args.json and reports:
        print(json.dumps(reports[0] if not several else reports, indent=2, ensure_ascii=False))
    return code


def run_turn(args: argparse.Namespace) -> int:
    from scorecam.photos import read_island_photo
    from scoring.mondo import PlayerIsland, Turn, score_turn, turn_score_to_json
    from scoring.mondo.island import island_from_json

    entries = []
    for spec in args.players:
        name, sep, file = spec.partition("=")
        if not sep or not name or not file:
            print(f"scorecam: turn: {spec!r} is not NAME=FILE", file=sys.stderr)
            return Exit.USAGE
        entries.append((name, Path(file)))
    names = [n for n, _ in entries]
    if args.first and args.first not in names:
        print(
            f"scorecam: turn: --first {args.first!r} is not one of the players ({', '.join(names)})",
            file=sys.stderr,
        )
        return Exit.USAGE
    players, photos, flags = [], {}, []
    for name, path in entries:
        if is_photo(path):
            photo = read_island_photo(path, grid=args.grid)  # an InputError ends the turn: main() reports it
            island = photo.island
            photos[name] = photo
            flags += [f"{name}: {f}" for f in photo.reading.flags]
        else:
            from scorecam.inputs import read_json
            from scoring.errors import BoardFormatError

            try:
                island = island_from_json(read_json(path))
            except BoardFormatError as error:
                raise InputError(str(path), f"impossible island: {error}") from None
        players.append(PlayerIsland(name, island, name == args.first))
    report = turn_score_to_json(score_turn(Turn(tuple(players))))
    report["source"] = {name: str(path) for name, path in entries}
    report["flags"] = flags
    if photos:
        from scorecam.photos import photo_status

        report["status"] = photo_status(flags)
    if args.annotate:
        for player in report["players"]:
            if player["name"] in photos:
                write_annotation(
                    args.annotate / f"{player['name']}-annotated.png", photos[player["name"]], player
                )
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(report_table(report))
        for flag in flags:
            print(f"  {flag}")
    return Exit.SCORED


def run_batch(args: argparse.Namespace) -> int:
    from scorecam.batch import run_batch as batch

    if not args.folder.is_dir():
        raise InputError(str(args.folder), "not a folder", Exit.USAGE)
    scored, failed = batch(args.folder, args.out, args.jsonl, args.grid)
    jsonl = args.jsonl or args.out.with_suffix(".jsonl")
    print(f"scored {scored} player(s), {failed} input(s) failed; results in {args.out} and {jsonl}")
    return Exit.SOME_FAILED if failed else Exit.SCORED


def run_eval(args: argparse.Namespace) -> int:
    from scorecam.evaluate import eval_table, evaluate

    try:
        result = evaluate(args.folder, limit=args.limit)
    except ValueError as error:
        raise InputError(
            str(args.folder), str(error).replace(f" under {args.folder}", ""), Exit.NO_BOARD
        ) from None
    print(eval_table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return Exit.SCORED


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

    try:
        world = synth_world(args)
    except ValueError as error:  # before any folder is made
        print(f"scorecam: synth: {error}", file=sys.stderr)
        return Exit.USAGE
    bar = Progress(f"synth {args.game}", args.n)
    photos = write_photos(
        args.game,
        args.n,
        args.seed,
        args.out,
        long_side_px=args.long_side,
        jobs=args.jobs,
        progress=bar,
        world=world,
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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except InputError as error:
        fail(error)
        return int(error.code)
    except ModelFileError as error:  # an installation problem: say which file
        print(f"scorecam: {error}", file=sys.stderr)
        return int(Exit.UNREADABLE)
    except KeyboardInterrupt:
        print("scorecam: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:  # a folder that cannot be written, a full disk
        print(f"scorecam: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return int(Exit.UNREADABLE)

"""A seeded generator of broken and hostile inputs for `scorecam score` and `scorecam batch`.

Every case is a file (or a folder, a link, a pipe) written under a folder, with what the error
contract promises for it: the exit codes it may end with and, where the reason is known, words the
one-line reason must hold. Board files are cheap, so most cases are boards; images come from a
sample photo (truncated, bit-flipped, header-corrupted, re-encoded) and from nothing (garbage under
image names, tiny, empty, bombs, floating-point). The same seed writes the same cases.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import signal
import struct
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
BOARDS = sorted((ROOT / "samples" / "boards").glob("*.json"))
SAMPLE_PHOTO = ROOT / "samples" / "mondo" / "mondo-s9900-00002.jpg"

SCORED, UNREADABLE, NO_BOARD = 0, 3, 4
ANY_PHOTO_OUTCOME = frozenset({SCORED, UNREADABLE, NO_BOARD})  # damage may or may not matter
BOARD_OUTCOME = frozenset({SCORED, UNREADABLE})  # a mutation may leave the board valid
SURROGATE = "Pe\ud800ter"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".heic")


@dataclass
class Case:
    name: str  # file name (unique stem, so batch never takes one for another's truth JSON)
    codes: frozenset[int]
    reason: str = ""  # words the one-line reason must hold ("" when any reason will do)
    path: Path = field(default=Path())
    in_batch: bool = True  # a batch of the folder must record it (a pipe or a folder is not a file)
    cost: int = 0  # 1: decodes and reads a real photo (slow, so few of these)
    total: int | None = None  # the photo's true total, when it must still be scored right


# --- hostile JSON values ------------------------------------------------------------------------

HOSTILE_VALUES: list[Callable[[random.Random], Any]] = [
    lambda r: None,
    lambda r: True,
    lambda r: False,
    lambda r: 0,
    lambda r: -1,
    lambda r: r.choice([10**18, -(10**18), 2**63, 10**29]),
    lambda r: r.choice([0.5, -0.0, 1e308, 3.0]),
    lambda r: "",
    lambda r: " ",
    lambda r: "x" * r.choice([81, 999, 1000]),
    lambda r: SURROGATE,
    lambda r: "Ölçü \U0001f419 \u202edlrow",
    lambda r: "\x00\n\r\t\x1b[31m",
    lambda r: {},
    lambda r: [],
    lambda r: {"a": 1},
    lambda r: {SURROGATE: SURROGATE},
    lambda r: [[[[[[["deep"]]]]]]],
    lambda r: list(range(r.choice([3, 100]))),
    lambda r: [None, {}, []],
    # the board's own vocabulary, so well-typed but impossible boards reach the engines' rules
    lambda r: r.choice(["water", "forest", "desert", "plains", "lava"]),
    lambda r: r.choice(["N", "E", "S", "W", "X"]),
    lambda r: r.choice(["fish", "ray", "turtle", "octopus", "seagull", "octopus:E", "octopus:Q"]),
    lambda r: r.choice(["circle", "square", "sea", "seagull", "won", "replay", "mondo", "mediterraneo"]),
    lambda r: r.choice(["C1", "S2", "C4", "Kathrin", "Peter"]),
    lambda r: r.choice([1, 2, 3, 4, 5, 90, 180, 270, 360]),
    lambda r: [r.choice("NESW") for _ in range(r.randint(0, 5))],
]


def _paths(value: Any, here: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value, as a path of keys and indexes."""
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*here, index))


def _parent(value: Any, path: tuple) -> Any:
    for step in path[:-1]:
        value = value[step]
    return value


def mutated_board(board: Any, rng: random.Random) -> Any:
    """``board`` with one to three random changes: a value replaced, a key dropped or added, an item
    repeated, a list made huge or an object put where a text goes."""
    board = copy.deepcopy(board)
    for _ in range(rng.randint(1, 3)):
        paths = list(_paths(board))[1:]
        if not paths:
            return rng.choice(HOSTILE_VALUES)(rng)
        path = rng.choice(paths)
        parent, step = _parent(board, path), path[-1]
        action = rng.random()
        if action < 0.6:
            parent[step] = rng.choice(HOSTILE_VALUES)(rng)
        elif action < 0.7 and isinstance(parent, dict):
            del parent[step]
        elif action < 0.8 and isinstance(parent, dict):
            parent[rng.choice(["extra", SURROGATE, "", "format"])] = rng.choice(HOSTILE_VALUES)(rng)
        elif action < 0.9 and isinstance(parent, list):
            parent.insert(step, copy.deepcopy(parent[step]))
        elif isinstance(parent, list):
            parent.extend(copy.deepcopy(parent[step]) for _ in range(rng.choice([10, 60])))
        else:
            parent[step] = {"name": parent[step]} if rng.random() < 0.5 else [parent[step]]
    return board


def _sample_boards() -> list[Any]:
    """The sample boards, a simulator's truth JSON and a photo report (`score` takes both back)."""
    truth = json.loads(SAMPLE_PHOTO.with_suffix(".json").read_text())
    report = {
        **truth["report"],
        "source": SAMPLE_PHOTO.name,
        "board": truth["board"],
        "flags": [],
        "status": "ok",
    }
    return [json.loads(path.read_text()) for path in BOARDS] + [truth, report]


def _island(tiles: int = 0) -> dict[str, Any]:
    edges = {"N": "forest", "E": "forest", "S": "forest", "W": "forest"}
    return {"grid": 3, "tiles": [{"row": 1, "col": 1, "edges": edges}][:tiles]}


def hostile_board_texts() -> list[tuple[str, bytes, frozenset[int], str]]:
    """(name, bytes, exit codes, reason words): each of the hostile board files the issue names."""
    deep = "[" * 10_000 + "]" * 10_000
    turn = {"format": 1, "game": "mondo", "players": [{"name": "Anna", "island": _island()}]}
    many = {
        "format": 1,
        "game": "mondo",
        "players": [{"name": f"p{i}", "island": _island()} for i in range(8000)],
    }
    plays = json.loads((ROOT / "samples/boards/mediterraneo-plays.json").read_text())
    play = plays["plays"][0]
    bad = frozenset({UNREADABLE})
    cases = [
        ("deep-array", deep.encode(), bad, "nested too deep"),
        ("deep-object", ('{"a":' * 10_000 + "1" + "}" * 10_000).encode(), bad, "nested too deep"),
        (
            "deep-tiles",
            f'{{"format": 1, "game": "mondo", "grid": 3, "tiles": {deep}}}'.encode(),
            bad,
            "nested too deep",
        ),
        (
            "deep-name",
            json.dumps(turn).replace('"Anna"', deep).encode(),
            bad,
            "nested too deep",
        ),
        ("deep-40", ("[" * 40 + "]" * 40).encode(), bad, "nested too deep"),
        (
            "digits-5000",
            ('{"format": 1, "game": "mondo", "grid": ' + "9" * 5000 + ', "tiles": []}').encode(),
            bad,
            "5,000 digits",
        ),
        ("digits-alone", ("-" + "1" * 4301).encode(), bad, "digits"),
        ("nan", b'{"format": 1, "game": "mondo", "grid": NaN, "tiles": []}', bad, "NaN is not a JSON number"),
        ("infinity", b'{"format": 1, "game": "mondo", "grid": -Infinity, "tiles": []}', bad, "Infinity"),
        ("float-overflow", b'{"format": 1, "game": "mondo", "grid": 1e999, "tiles": []}', bad, "too large"),
        ("grid-float", b'{"format": 1, "game": "mondo", "grid": 3.0, "tiles": []}', bad, "grid"),
        ("surrogate-key", json.dumps({SURROGATE: 1}).encode(), bad, "impossible board"),
        (
            "match-player-object",
            json.dumps(
                {
                    "format": 1,
                    "game": "mediterraneo",
                    "match": {"players": [{"a": 1}, "b"], "cards": {}, "first": "b"},
                }
            ).encode(),
            bad,
            "two differently named players",
        ),
        (
            "turn-8000-players",
            json.dumps(many).encode(),
            bad,
            "at most 50 players",
        ),
        (
            "tiles-100000",
            json.dumps({"format": 1, "game": "mondo", "grid": 3, "tiles": [{}] * 100_000}).encode(),
            bad,
            "at most 9 tiles",
        ),
        (
            "plays-5000",
            json.dumps({**plays, "plays": [play] * 5000}).encode(),
            bad,
            "plays",
        ),
        (
            "text-1mb",
            json.dumps({"format": 1, "game": "x" * 1_000_000}).encode(),
            bad,
            "1,000,000 characters",
        ),
        ("not-utf8", b'{"format": 1, "game": "mondo\xff"}', bad, "not a text file"),
        ("empty", b"", bad, "empty file"),
        ("blank", b" \n\t\n", bad, "empty file"),
        ("nul", b"\x00" * 64, bad, "broken JSON"),
        (
            "bom",
            b"\xef\xbb\xbf" + (ROOT / "samples/boards/mediterraneo-plays.json").read_bytes(),
            frozenset({SCORED}),
            "",
        ),
        ("array", b"[1, 2, 3]", bad, "a board must be a JSON object"),
        ("string", json.dumps(SURROGATE).encode(), bad, "a board must be a JSON object"),
        ("number", b"12", bad, "a board must be a JSON object"),
        ("null", b"null", bad, "a board must be a JSON object"),
    ]
    # a turn of 50 players is a turn (DESIGN.md's report, bounded: 50 x 50 names at most)
    fifty = {**many, "players": many["players"][:50]}
    cases.append(("turn-50-players", json.dumps(fifty).encode(), frozenset({SCORED}), ""))
    lone = {"format": 1, "game": "mondo", "players": [{"name": SURROGATE, "island": _island(1)}]}
    cases.append(("surrogate-player", json.dumps(lone).encode(), frozenset({SCORED}), ""))
    return cases


# --- images -------------------------------------------------------------------------------------


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_declaring(width: int, height: int, pixels: bytes = b"") -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (8-bit grey), with ``pixels`` compressed."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", zlib.compress(pixels, 9))
        + _png_chunk(b"IEND", b"")
    )


def png_bomb(side: int) -> bytes:
    """A real decompression bomb: ``side`` x ``side`` grey pixels of zeros in a few hundred kB."""
    compressor = zlib.compressobj(9)
    row = b"\x00" * (side + 1)  # filter byte + pixels
    body = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", body)
        + _png_chunk(b"IEND", b"")
    )


def encoded(image: np.ndarray, suffix: str) -> bytes:
    ok, buffer = cv2.imencode(suffix, image)
    assert ok, suffix
    return buffer.tobytes()


def pillow_encoded(array: np.ndarray, fmt: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format=fmt, **options)
    return buffer.getvalue()


def fixed_image_cases() -> list[tuple[str, bytes, frozenset[int], str]]:
    """The cheap image cases: nothing in them takes a real photo to decode."""
    bad, none = frozenset({UNREADABLE}), frozenset({NO_BOARD})
    grey = np.full((48, 64, 3), 128, np.uint8)
    cases = [
        ("zero.jpg", b"", bad, "empty file"),
        ("zero.png", b"", bad, "empty file"),
        ("zero.heic", b"", bad, "empty file"),
        ("text.jpg", b"shopping list: milk, eggs\n", bad, "not an image"),
        ("json.png", b'{"format": 1}', bad, "not an image"),
        ("bomb-header.png", png_declaring(100_000, 100_000), bad, "too large"),
        ("bomb-wide.png", png_declaring(2**31 - 1, 1), bad, "too large"),
        ("empty-0x0.png", png_declaring(0, 0), bad, "empty image (0 x 0 px)"),
        (
            "float.tif",
            pillow_encoded(np.random.default_rng(0).random((64, 80), np.float32), "TIFF"),
            bad,
            "floating-point",
        ),
        ("dot.png", encoded(np.zeros((1, 1, 3), np.uint8), ".png"), none, "too small"),
        ("dot.jpg", encoded(np.zeros((1, 1, 3), np.uint8), ".jpg"), none, "too small"),
        ("dot.bmp", encoded(np.zeros((1, 1, 3), np.uint8), ".bmp"), none, "too small"),
        ("dot.webp", encoded(np.zeros((1, 1, 3), np.uint8), ".webp"), none, "too small"),
        ("dot.tif", encoded(np.zeros((1, 1, 3), np.uint8), ".tiff"), none, "too small"),
        ("grey-alpha.png", encoded(np.full((48, 64, 4), 200, np.uint8), ".png"), frozenset({NO_BOARD}), ""),
        (
            "grey-16bit.png",
            encoded(np.full((48, 64, 3), 40000, np.uint16), ".png"),
            frozenset({NO_BOARD}),
            "",
        ),
        ("grey.gif", pillow_encoded(grey[:, :, 0], "GIF"), bad | none, ""),
        ("grey-cut.png", encoded(grey, ".png")[:60], bad, "truncated PNG"),
        ("grey-cut.jpg", encoded(grey, ".jpg")[:200], bad, "truncated JPEG"),
        ("heic-garbage.heic", b"\x00\x00\x00\x18ftypheic" + bytes(200), bad, ""),
    ]
    return cases


def _flipped(data: bytes, rng: random.Random, count: int, start: int = 0, end: int | None = None) -> bytes:
    out = bytearray(data)
    end = len(data) if end is None else min(end, len(data))
    for _ in range(count):
        i = rng.randrange(start, end)
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def photo_cases(rng: random.Random, count: int) -> list[tuple[str, bytes, frozenset[int], str, int]]:
    """``count`` damaged versions of the sample photo: (name, bytes, codes, reason, cost)."""
    data = SAMPLE_PHOTO.read_bytes()
    cases = []
    for i in range(count):
        kind = i % 4
        if kind == 0:  # cut anywhere: no end-of-image marker left
            cut = rng.randrange(1, len(data) - 4096)
            cases.append((f"photo-cut-{i}.jpg", data[:cut], frozenset({UNREADABLE}), "truncated JPEG", 0))
        elif kind == 1:  # cut, with the end marker glued back on: libjpeg's "premature end"
            cut = rng.randrange(600, len(data) // 2)
            cases.append((f"photo-glued-{i}.jpg", data[:cut] + b"\xff\xd9", ANY_PHOTO_OUTCOME, "", 1))
        elif kind == 2:  # bits flipped in the pixels
            flipped = _flipped(data, rng, rng.choice([1, 8, 64]), start=1000)
            cases.append((f"photo-flip-{i}.jpg", flipped, ANY_PHOTO_OUTCOME, "", 1))
        else:  # bits flipped in the header (markers, tables, EXIF)
            flipped = _flipped(data, rng, rng.choice([1, 4, 16]), start=2, end=700)
            cases.append((f"photo-header-{i}.jpg", flipped, ANY_PHOTO_OUTCOME, "", 1))
    return cases


def sample_truth_total() -> int:
    truth = json.loads(SAMPLE_PHOTO.with_suffix(".json").read_text())
    return truth["report"]["players"][0]["total"]


def reencoded_photos() -> list[tuple[str, bytes]]:
    """The sample photo as an alpha PNG and as a 16-bit PNG: both must score the true total."""
    image = cv2.imread(str(SAMPLE_PHOTO))
    alpha = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    deep = image.astype(np.uint16) * 257
    return [("photo-alpha.png", encoded(alpha, ".png")), ("photo-16bit.png", encoded(deep, ".png"))]


# --- writing the cases --------------------------------------------------------------------------


def write_cases(folder: Path, seed: int, boards: int, photos: int, slow_extras: bool = False) -> list[Case]:
    """Write the fixed hostile cases, ``boards`` mutated boards and ``photos`` damaged photos."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    cases: list[Case] = []

    def add(name: str, data: bytes, codes: frozenset[int], reason: str = "", cost: int = 0) -> Case:
        case = Case(name, codes, reason, folder / name, cost=cost)
        case.in_batch = case.path.suffix in (*IMAGE_SUFFIXES, ".json")  # a batch looks at these only
        case.path.write_bytes(data)
        cases.append(case)
        return case

    for name, data, codes, reason in hostile_board_texts():
        add(f"hostile-{name}.json", data, codes, reason)
    for name, data, codes, reason in fixed_image_cases():
        add(name, data, codes, reason)
    huge = add("huge-50mb.json", b"", frozenset({UNREADABLE}), "too large for a board file")
    os.truncate(huge.path, 50_000_000)  # sparse: 50 MB to stat, nothing to write

    samples = _sample_boards()
    for i in range(boards):
        base = rng.choice(samples)
        roll = rng.random()
        if roll < 0.75:
            text = json.dumps(mutated_board(base, rng), ensure_ascii=rng.random() < 0.9)
            data = text.encode("utf-8", "surrogatepass")  # a lone surrogate written raw is not UTF-8
            add(f"board-{i}.json", data, BOARD_OUTCOME)
        elif roll < 0.85:  # cut anywhere
            text = json.dumps(base).encode()
            add(f"board-cut-{i}.json", text[: rng.randrange(len(text))], frozenset({UNREADABLE}))
        else:  # bytes flipped
            text = json.dumps(base).encode()
            add(f"board-flip-{i}.json", _flipped(text, rng, rng.choice([1, 3, 10])), BOARD_OUTCOME)

    for i in range(max(0, boards // 10)):  # garbage under image names
        size = rng.choice([1, 2, 3, 16, 1000, 20_000])
        garbage = rng.randbytes(size)
        if rng.random() < 0.5:  # a real magic number, then garbage
            garbage = (
                rng.choice(
                    [b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBP", b"II*\x00", b"BM"]
                )
                + garbage
            )
        add(f"garbage-{i}{rng.choice(IMAGE_SUFFIXES)}", garbage, ANY_PHOTO_OUTCOME - {SCORED})

    for name, data, codes, reason, cost in photo_cases(rng, photos):
        add(name, data, codes, reason, cost)
    if photos:
        truth = sample_truth_total()
        for name, data in reencoded_photos()[: max(1, photos // 4)]:
            add(name, data, frozenset({SCORED}), cost=1).total = truth
        good = add("photo-good.jpg", SAMPLE_PHOTO.read_bytes(), frozenset({SCORED}), cost=1)
        good.total = truth
    if slow_extras:
        add("bomb-real.png", png_bomb(12_000), ANY_PHOTO_OUTCOME - {SCORED}, cost=1)

    cases += special_cases(folder, photos)
    return cases


def special_cases(folder: Path, photos: int) -> list[Case]:
    """A folder, links to nowhere and to themselves, file names that are not UTF-8, a pipe."""
    cases = []
    directory = Case(
        "a-folder.jpg", frozenset({UNREADABLE}), "folder", folder / "a-folder.jpg", in_batch=False
    )
    directory.path.mkdir()
    cases.append(directory)
    board_dir = Case(
        "a-folder.json", frozenset({UNREADABLE}), "folder", folder / "a-folder.json", in_batch=False
    )
    board_dir.path.mkdir()
    cases.append(board_dir)
    for name, reason in (("loop.jpg", "symbolic links"), ("loop.json", "symbolic links")):
        case = Case(name, frozenset({UNREADABLE}), reason, folder / name)
        os.symlink(name, case.path)
        cases.append(case)
    for name in ("dangling.jpg", "dangling.json"):
        case = Case(name, frozenset({UNREADABLE}), "broken link", folder / name)
        os.symlink("nowhere-" + name, case.path)
        cases.append(case)
    if hasattr(os, "mkfifo"):
        pipe = Case(
            "pipe.json", frozenset({UNREADABLE}), "not a regular file", folder / "pipe.json", in_batch=False
        )
        os.mkfifo(pipe.path)
        cases.append(pipe)
    # a name that is not UTF-8 (Latin-1 "Anna-ä"), holding a board that is fine and one that is not
    raw = os.fsencode(folder)
    good = Case("Anna-\udce4.json", frozenset({SCORED}), "", Path(os.fsdecode(raw + b"/Anna-\xe4.json")))
    good.path.write_bytes(BOARDS[0].read_bytes())
    bad = Case(
        "Bert-\udce4.jpg", frozenset({UNREADABLE}), "not an image", Path(os.fsdecode(raw + b"/Bert-\xe4.jpg"))
    )
    bad.path.write_bytes(b"not a photo")
    cases += [good, bad]
    if photos:  # a photo so named: its player (named after the file) reaches the report and the CSV
        named = Case(
            "Cleo-\udce4.jpg", frozenset({SCORED}), "", Path(os.fsdecode(raw + b"/Cleo-\xe4.jpg")), cost=1
        )
        named.path.write_bytes(SAMPLE_PHOTO.read_bytes())
        named.total = sample_truth_total()
        cases.append(named)
    return cases


# --- running the command line on them ----------------------------------------------------------


class Hang(BaseException):
    """Raised by the alarm when one input takes too long (a BaseException: no handler swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _descriptor_sink(fd: int) -> Iterator[Callable[[], str]]:
    """What C code writes straight to descriptor ``fd`` (libjpeg, libtiff, OpenCV's log)."""
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(fd)
        os.dup2(sink.fileno(), fd)
        try:
            yield lambda: (sink.seek(0), sink.read().decode("utf-8", "replace"))[1]
        finally:
            os.dup2(saved, fd)
            os.close(saved)


@dataclass
class Outcome:
    code: int | None
    out: str  # what Python printed to stdout (strict UTF-8, as a terminal or a pipe takes it)
    err: str  # what Python printed to stderr (with backslashreplace, as Python's own stderr)
    noise: str  # what reached descriptors 1 and 2 around Python: library chatter
    crash: str  # the traceback of an exception that left main(), or the hang
    seconds: float


def run_cli(argv: list[str], seconds: float) -> Outcome:
    """``scorecam.cli.main(argv)`` in this process, its output captured the way a terminal takes it."""
    from scorecam.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    code, crash = None, ""
    start = time.perf_counter()
    sys.stdout.flush()
    sys.stderr.flush()
    with _descriptor_sink(1) as fd_out, _descriptor_sink(2) as fd_err:
        try:
            with time_limit(seconds), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except Hang as hang:
            crash = f"hang: {hang}"
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 2
        except BaseException:  # noqa: BLE001 - the test reports it as the traceback a user would see
            crash = traceback.format_exc()
        noise = fd_out() + fd_err()
    seconds = time.perf_counter() - start
    text = lambda stream: stream.buffer.getvalue().decode("utf-8", "replace")  # noqa: E731
    return Outcome(code, text(out), text(err), noise, crash, seconds)


def score_problems(case: Case, outcome: Outcome) -> list[str]:
    """How ``scorecam score --json FILE`` broke the error contract on ``case`` (empty: it kept it)."""
    problems = []
    if outcome.crash:
        problems.append(outcome.crash.strip().splitlines()[-1])
    if "Traceback" in outcome.err or "internal error" in outcome.err or "(unexpected " in outcome.err:
        problems.append(f"a traceback, or a bug caught at the top: {outcome.err.strip()[-200:]!r}")
    if outcome.noise.strip():
        problems.append(f"library output around the reason: {outcome.noise.strip()[:120]!r}")
    if outcome.code not in case.codes:
        problems.append(f"exit {outcome.code}, expected {sorted(case.codes)}: {outcome.err.strip()[:160]!r}")
    elif outcome.code != SCORED:
        lines = outcome.err.splitlines()
        if len(lines) != 1 or not lines[0].startswith("scorecam: "):
            problems.append(f"not one line 'scorecam: FILE: reason': {outcome.err[:200]!r}")
        elif case.reason and case.reason not in lines[0]:
            problems.append(f"reason lacks {case.reason!r}: {lines[0][:200]!r}")
        elif len(lines[0]) > 900:
            problems.append(f"a reason of {len(lines[0])} characters")
    elif case.total is not None:
        try:
            total = json.loads(outcome.out)["players"][0]["total"]
        except (ValueError, KeyError, IndexError, TypeError):
            total = None
        if total != case.total:
            problems.append(f"total {total}, the truth is {case.total}")
    return problems

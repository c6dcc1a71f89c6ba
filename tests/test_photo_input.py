"""Bad photo files: one line naming the file and the reason, the right exit code, no traceback."""

import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest

from scorecam.cli import main
from vision.errors import PhotoError
from vision.photo_io import decode_photo, read_photo


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims a size in its header and holds no pixels: nothing to decode."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
    )


def jpeg(width: int, height: int) -> bytes:
    image = np.full((height, width, 3), 120, np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


CASES = [
    ("empty.jpg", b"", 3, "empty file"),
    ("notes.jpg", b"shopping list: milk, eggs", 3, "not an image"),
    ("cut.jpg", jpeg(800, 600)[:3000], 3, "truncated JPEG file"),
    ("huge.png", png_header_only(20000, 15000), 3, "too large: 20000x15000 px"),
    (
        "dot.png",
        cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes(),
        4,
        "too small to show a board: 1x1 px",
    ),
]


@pytest.mark.parametrize("name,data,code,reason", CASES, ids=[c[0] for c in CASES])
def test_bad_photo_files(tmp_path, capsys, name, data, code, reason):
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["score", str(path)]) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"scorecam: {path}: ")
    assert reason in err


def test_a_missing_photo(tmp_path, capsys):
    assert main(["score", str(tmp_path / "gone.jpg")]) == 3
    assert "gone.jpg: no such file" in capsys.readouterr().err


def test_decoding_is_reduced_for_big_jpegs():
    photo = decode_photo(jpeg(4000, 3000))
    assert photo.image.shape[:2] == (750, 1000)
    assert photo.scale == 4.0 and photo.size == (4000, 3000)
    small = decode_photo(jpeg(640, 480))
    assert small.image.shape[:2] == (480, 640) and small.scale == 1.0


def test_read_photo_takes_a_path_or_a_string(tmp_path):
    (tmp_path / "p.jpg").write_bytes(jpeg(640, 480))
    for where in (tmp_path / "p.jpg", str(tmp_path / "p.jpg")):
        assert read_photo(where).size == (640, 480)


def test_photo_error_kinds():
    with pytest.raises(PhotoError) as error:
        decode_photo(b"")
    assert error.value.kind == "unreadable"
    with pytest.raises(PhotoError) as error:
        decode_photo(cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))[1].tobytes())
    assert error.value.kind == "no_board"


def test_no_traceback_from_the_console_script(tmp_path):
    path = tmp_path / "broken.jpg"
    path.write_bytes(jpeg(300, 200)[:500])
    result = subprocess.run(
        [sys.executable, "-m", "scorecam", "score", str(path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 3
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"scorecam: {path}: truncated JPEG file (it ends before the image does)"


def test_a_missing_model_is_one_line_not_a_traceback(root, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCORECAM_MODELS", str(tmp_path))  # a folder without the models
    photo = sorted((root / "samples/mondo").glob("*.jpg"))[0]
    assert main(["score", str(photo)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".onnx: model file missing" in err

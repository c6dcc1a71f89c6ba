"""What a photo scored from the command line loads: nothing it does not use (the runtime never loads
torch; numpy.ma, Pillow and the sea modules cost a start-up some 50 ms and a JPEG island needs none
of them), and the stand-ins that keep them out give the very numbers the libraries give."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.geometry import median
from vision.photo_io import _jpeg_size, photo_header

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "samples" / "mondo" / "mondo-s9900-00000.jpg"
NOT_LOADED = (
    "torch",
    "numpy.ma",
    "PIL",
    "importlib.resources",
    "scorecam.sea_photos",
    "scoring.mediterraneo",
)


def test_scoring_a_jpeg_island_loads_only_what_it_uses():
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['scorecam', 'score', {str(PHOTO)!r}]\n"
        "try:\n    runpy.run_module('scorecam', run_name='__main__')\n"
        "except SystemExit as done:\n    code = done.code\n"
        f"print('LOADED', [m for m in {NOT_LOADED!r} if m in sys.modules], 'EXIT', code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "Sum" in done.stdout and "status: ok" in done.stdout, done.stdout  # scored, not refused
    assert done.stdout.strip().splitlines()[-1] == "LOADED [] EXIT 0", done.stdout[-400:]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_median_gives_numpys_numbers(dtype):
    rng = np.random.default_rng(7)
    for n in range(1, 30):
        for shape in ((n,), (n, 2)):
            values = (rng.normal(size=shape) * 300).astype(dtype)
            ours, numpys = median(values, 0), np.median(values, 0)
            assert np.array_equal(ours, numpys) and np.asarray(ours).dtype == np.asarray(numpys).dtype
    with pytest.raises(ValueError):
        median([])


def _jpeg(width: int, height: int, **options) -> bytes:
    pixels = (np.random.default_rng(width).random((height, width, 3)) * 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", **options)
    return out.getvalue()


def test_jpeg_size_from_the_frame_header_is_pillows():
    exif = Image.Exif()
    exif[0x0112] = 6  # turned: the header gives the stored size, as Pillow does; decoding turns it
    for data in (
        _jpeg(53, 37),
        _jpeg(37, 53, progressive=True),
        _jpeg(64, 48, exif=exif.tobytes()),
        _jpeg(40, 41, quality=5, optimize=True),
        PHOTO.read_bytes(),
    ):
        with Image.open(io.BytesIO(data)) as image:
            assert _jpeg_size(data) == image.size
            assert photo_header(data) == ("JPEG", image.size)


def test_a_jpeg_header_the_walk_cannot_read_goes_to_pillow_for_its_reason():
    data = _jpeg(53, 37)
    assert _jpeg_size(data[:20]) is None  # cut before the frame header
    assert _jpeg_size(data[:2] + b"\xff\xda\x00\x08" + data[4:]) is None  # scan data before any frame
    with pytest.raises(Exception, match="JPEG"):
        photo_header(data[:20])

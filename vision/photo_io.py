"""Reading photo files: checked, and decoded no larger than the readers need.

JPEG decoding at 1/2, 1/4 or 1/8 scale happens inside libjpeg (IMREAD_REDUCED_*), so a 12 MP phone
photo costs a fraction of a full decode. Every way a file can be wrong ends in a PhotoError with a
reason a person understands, never in an OpenCV assertion.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from vision.errors import PhotoError

MAX_PIXELS = 200_000_000  # beyond this a file is no phone photo; refuse before decoding
MIN_SIDE = 32  # smaller than this cannot show a board
MAGIC = {
    b"\xff\xd8\xff": "JPEG",
    b"\x89PNG": "PNG",
    b"RIFF": "WebP",
    b"BM": "BMP",
    b"II*": "TIFF",
    b"MM\x00*": "TIFF",
}

# Pillow only reads headers here; the size check is MAX_PIXELS below, so its own bomb guard
# (which would misname a huge photo "not an image") is switched off.
Image.MAX_IMAGE_PIXELS = None
REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


@dataclass(frozen=True, eq=False)
class Photo:
    image: np.ndarray  # BGR, decoded at reduced size
    scale: float  # full-size px per px of `image`
    size: tuple[int, int]  # full size (width, height)
    format: str
    # What finer views are made from: the JPEG bytes (libjpeg decodes them at 1/1, 1/2, 1/4, 1/8) or
    # the whole decoded image of another format; finer views are kept once made.
    source: bytes | np.ndarray | None = field(default=None, repr=False)
    _finer: dict = field(default_factory=dict, repr=False)

    def at_scale(self, scale: float) -> tuple[np.ndarray, float]:
        """The photo with at most `scale` full-size px per px where the file allows it, else as fine as
        it has: (image, its scale). A small island is read from here, at the resolution its tiles
        need, while the whole photo is searched at reduced size."""
        if scale >= self.scale or self.source is None:
            return self.image, self.scale
        if isinstance(self.source, np.ndarray):
            return self.source, 1.0
        factor = 1
        while factor * 2 <= scale and factor < 8:
            factor *= 2
        if factor >= self.scale:
            return self.image, self.scale
        if factor not in self._finer:
            image = cv2.imdecode(np.frombuffer(self.source, np.uint8), REDUCED[factor])
            if image is None:  # the reduced view decoded; a finer one may still fail on damage
                return self.image, self.scale
            self._finer[factor] = image
        image = self._finer[factor]
        return image, self.size[0] / image.shape[1]


def photo_header(data: bytes) -> tuple[str, tuple[int, int]]:
    """(format, (width, height)) from the file header, without decoding the pixels."""
    if not data:
        raise PhotoError("empty file")
    try:
        with Image.open(io.BytesIO(data)) as header:
            return str(header.format), (int(header.width), int(header.height))
    except Exception:  # a broken header: Pillow raises many kinds
        fmt = next((name for magic, name in MAGIC.items() if data.startswith(magic)), None)
        if fmt:
            raise PhotoError(f"truncated {fmt} file (it ends before the image does)") from None
        raise PhotoError("not an image (a photo must be JPEG, PNG, WebP, BMP or TIFF)") from None


def _looks_truncated(data: bytes, fmt: str) -> bool:
    if fmt == "JPEG":
        return b"\xff\xd9" not in data[-4096:]  # the end-of-image marker (trailing bytes allowed)
    if fmt == "PNG":
        return b"IEND" not in data[-64:]
    return False


def decode_photo(data: bytes, min_long_side: int = 1000) -> Photo:
    """Decode ``data`` at the smallest scale whose long side is still ``min_long_side`` or more."""
    fmt, (width, height) = photo_header(data)
    if width * height > MAX_PIXELS:
        raise PhotoError(f"too large: {width}x{height} px is over {MAX_PIXELS // 1_000_000} megapixels")
    if min(width, height) < MIN_SIDE:
        raise PhotoError(f"too small to show a board: {width}x{height} px", kind="no_board")
    if _looks_truncated(data, fmt):
        raise PhotoError(f"truncated {fmt} file (it ends before the image does)")
    factor = 1
    if fmt == "JPEG":
        while factor < 8 and max(width, height) // (factor * 2) >= min_long_side:
            factor *= 2
    buffer = np.frombuffer(data, np.uint8)
    image = cv2.imdecode(buffer, REDUCED[factor])
    if image is None:
        raise PhotoError(f"cannot decode this {fmt} file")
    source: bytes | np.ndarray | None = data if fmt == "JPEG" and factor > 1 else None
    if factor == 1 and max(image.shape[:2]) > 2 * min_long_side:  # PNG and friends: shrink after decoding
        source = image
        shrink = 2 * min_long_side / max(image.shape[:2])
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return Photo(image, width / image.shape[1], (width, height), fmt, source)


def read_photo(path: Path, min_long_side: int = 1000) -> Photo:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PhotoError("no such file") from None
    except IsADirectoryError:
        raise PhotoError("is a folder, not a photo") from None
    except PermissionError:
        raise PhotoError("permission denied") from None
    return decode_photo(data, min_long_side)

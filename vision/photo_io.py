"""Reading photo files: checked, and decoded no larger than the readers need.

JPEG decoding at 1/2, 1/4 or 1/8 scale happens inside libjpeg (IMREAD_REDUCED_*), so a 12 MP phone
photo costs a fraction of a full decode. HEIC/HEIF (many phones' default) goes through pillow-heif,
loaded only when such a file is met. Every way a file can be wrong ends in a PhotoError with a
reason a person understands, never in an OpenCV assertion; what libjpeg, libtiff, OpenCV and Pillow
say about a damaged file is caught (it never reaches the terminal around that one line) and becomes
part of the reason, or a note on the photo when the decode still gave pixels.
"""

from __future__ import annotations

import io
import os
import re
import stat
import struct
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import PhotoError

MAX_PIXELS = 200_000_000  # beyond this a file is no phone photo; refuse before decoding
MAX_FILE_BYTES = 300_000_000  # a 200 MP photo as a JPEG or HEIC is far smaller; refuse before reading
MIN_SIDE = 32  # smaller than this cannot show a board
MAGIC = {
    b"\xff\xd8\xff": "JPEG",
    b"\x89PNG": "PNG",
    b"RIFF": "WebP",
    b"BM": "BMP",
    b"II*": "TIFF",
    b"MM\x00*": "TIFF",
}
KNOWN_FORMATS = "JPEG, PNG, HEIC, WebP, BMP or TIFF"
# ISO-BMFF brands of HEIF still images (an ``ftyp`` box at offset 4 names one of them)
HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"}
# TIFFs of measurements, not a photo's light: Pillow's mode, or the SampleFormat tag (339) of a kind
# Pillow cannot even open (floating-point colour)
MEASUREMENT_MODES = {"F": "floating-point", "I": "32-bit integer"}
SAMPLE_FORMATS = {2: "signed integer", 3: "floating-point"}
MESSAGE_CHARS = 120  # a library's message quoted in a reason
SOFTEN_MIN = 0.3  # px of a decode: a finer view's softening under this is left out (it changes nothing)

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
    # What the decoder said about damage it decoded through (e.g. "damaged JPEG data: premature end
    # of data segment"): the pixels may be partly grey, so a reading from them deserves a look.
    notes: tuple[str, ...] = ()
    # A Gaussian of this sigma (full-size px) over every finer view as it is made: a grainy photo's
    # sensor noise softened for a reader whose models read such a photo better softened (the view
    # itself, decoded small, has little grain left: libjpeg's reduced decode averages it away)
    soften: float = 0.0

    def at_scale(self, scale: float) -> tuple[np.ndarray, float]:
        """The photo with at most `scale` full-size px per px where the file allows it, else as fine as
        it has: (image, its scale). A small island is read from here, at the resolution its tiles
        need, while the whole photo is searched at reduced size."""
        if scale >= self.scale or self.source is None:
            return self.image, self.scale
        if isinstance(self.source, np.ndarray):
            return self._softened(self.source, 1), 1.0
        factor = 1
        while factor * 2 <= scale and factor < 8:
            factor *= 2
        if factor >= self.scale:
            return self.image, self.scale
        if factor not in self._finer:
            image, _ = _quiet_decode(lambda: _imdecode(self.source, REDUCED[factor]))
            if image is None:  # the reduced view decoded; a finer one may still fail on damage
                return self.image, self.scale
            self._finer[factor] = image
        image = self._softened(self._finer[factor], factor)
        return image, self.size[0] / image.shape[1]

    def with_soften(self, sigma: float) -> Photo:
        """This photo with its finer views softened by ``sigma`` full-size px (``soften``); the finer
        views already decoded are carried over, to be softened as they are asked for."""
        decoded = {k: v for k, v in self._finer.items() if isinstance(k, int)}
        return replace(self, soften=sigma, _finer=decoded)

    def _softened(self, image: np.ndarray, factor: int) -> np.ndarray:
        """``image`` (the photo decoded at 1/``factor``) under ``soften``'s Gaussian, made once; as it
        is where that comes to under SOFTEN_MIN of its px."""
        sigma = self.soften / factor
        if sigma < SOFTEN_MIN:
            return image
        key = ("softened", factor)
        if key not in self._finer:
            self._finer[key] = cv2.GaussianBlur(image, (0, 0), sigma)
        return self._finer[key]


# --- what the libraries say ---------------------------------------------------------------------

_STDERR_LOCK = threading.Lock()
_LOG_PREFIX = re.compile(r"^\[\s*(?:WARN|ERROR|INFO|DEBUG)[^\]]*\]\s*(?:global\s+\S+\s+\S+\s+)?")


@contextmanager
def _library_messages() -> Iterator[list[str]]:
    """Collect what C libraries write to file descriptor 2 (libjpeg's "Corrupt JPEG data", libtiff,
    OpenCV's log) and what Pillow warns, instead of letting it reach the terminal.

    The descriptor is process-wide: one decode at a time holds it, and a line that is not a library
    message (another thread's progress bar: control characters) is written back where it belonged.
    """
    messages: list[str] = []
    with _STDERR_LOCK, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError, AttributeError):  # no descriptor 2 to borrow: nothing to hide
            yield messages
            messages += [str(w.message) for w in caught]
            return
        sink = _anonymous_file()
        os.dup2(sink, 2)
        try:
            yield messages
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.lseek(sink, 0, os.SEEK_SET)
            text = os.read(sink, 1_000_000).decode("utf-8", "replace")
            os.close(sink)
        others = []
        for line in text.splitlines():
            if "\x1b" in line or "\r" in line:
                others.append(line)
            elif line.strip():
                messages.append(_LOG_PREFIX.sub("", line.strip()))
        if others:
            sys.stderr.write("\n".join(others) + "\n")
        messages += [" ".join(str(w.message).split()) for w in caught]


def _anonymous_file() -> int:
    """A descriptor of a file with no name, to write to and read back (memfd: no tempfile import)."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("scorecam-decoder-messages")
    import tempfile

    descriptor, name = tempfile.mkstemp()
    os.unlink(name)
    return descriptor


def _quiet_decode(decode: Callable[[], Any]) -> tuple[Any, list[str]]:
    """(decode(), the library messages it caused); a cv2.error counts as a failed decode."""
    with _library_messages() as messages:
        try:
            result = decode()
        except cv2.error as error:  # OpenCV 5 raises where 4 returned None
            messages.append(str(error).strip().splitlines()[-1] if str(error).strip() else "cv2 error")
            result = None
    return result, messages


def _imdecode(data: bytes, flags: int) -> np.ndarray | None:
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


def _said(messages: list[str]) -> str:
    """The libraries' messages as a short clause of a reason: ``(libjpeg: ...)``, or ""."""
    unique = list(dict.fromkeys(m for m in messages if m))
    if not unique:
        return ""
    text = "; ".join(unique)
    text = text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"
    return f" (the decoder said: {text})"


def _damage_notes(fmt: str, messages: list[str]) -> tuple[str, ...]:
    """Notes for a decode that gave pixels although the library saw damage."""
    damaged = [m for m in messages if "corrupt" in m.lower() or "premature" in m.lower()]
    if not damaged:
        return ()
    what = "; ".join(dict.fromkeys(m.removeprefix("Corrupt JPEG data: ") for m in damaged))
    return (f"damaged {fmt} data: {what[:MESSAGE_CHARS]}; parts of the photo may be missing",)


# --- headers ------------------------------------------------------------------------------------


def _is_heif(data: bytes) -> bool:
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


_heif_registered = False


def _pillow() -> Any:
    """Pillow's Image module, imported when first needed: a JPEG's header is read without it (see
    `_jpeg_size`), and the import costs a photo scored from the command line some 20 ms. Pillow only
    reads headers and HEIC here; the size check is MAX_PIXELS, so its own bomb guard (which would
    misname a huge photo "not an image") is switched off."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None
    return Image


# JPEG start-of-frame markers (they carry the size); C4, C8 and CC are other segments
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's start-of-frame segment, walking the segments from the start;
    None where the walk does not reach a well-formed one (then Pillow reads the header and names
    what is wrong)."""
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if length < 2:
            return None
        if marker in _SOF:
            if length < 8 or at + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return (width, height) if width and height else None
        if marker == 0xDA or 0xD0 <= marker <= 0xD9:  # scan data before any frame: not a JPEG we know
            return None
        at += 2 + length
    return None


def _register_heif() -> None:
    """pillow-heif's opener, registered the first time a HEIC file is met (it costs start-up time)."""
    global _heif_registered
    if not _heif_registered:
        import pillow_heif

        pillow_heif.register_heif_opener()
        _heif_registered = True


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


def _unreadable_header(data: bytes, messages: list[str]) -> PhotoError:
    """Why Pillow could not read the header of ``data``, in words: truncated only when it is."""
    if _is_heif(data):
        return PhotoError(f"damaged HEIC file (its header cannot be read){_said(messages)}")
    fmt = next((name for magic, name in MAGIC.items() if data.startswith(magic)), None)
    if fmt is None:
        return PhotoError(f"not an image (a photo must be {KNOWN_FORMATS})")
    if fmt == "PNG" and _png_size(data) is not None and 0 in _png_size(data):
        width, height = _png_size(data)
        return PhotoError(f"an empty image ({width} x {height} px)")
    if len(data) < 64 or _looks_truncated(data, fmt):
        return PhotoError(f"truncated {fmt} file (it ends before the image does)")
    if fmt == "TIFF" and _tiff_sample_format(data) in SAMPLE_FORMATS:
        return PhotoError(f"a {SAMPLE_FORMATS[_tiff_sample_format(data)]} TIFF (measurements, not a photo)")
    return PhotoError(f"damaged {fmt} file (its header cannot be read){_said(messages)}")


def _tiff_sample_format(data: bytes) -> int | None:
    """The SampleFormat of a TIFF's first image (1 unsigned, 2 signed, 3 floating point), if stated."""
    try:
        order = "<" if data[:2] == b"II" else ">"
        (offset,) = struct.unpack(order + "I", data[4:8])
        (count,) = struct.unpack(order + "H", data[offset : offset + 2])
        for entry in range(min(count, 512)):
            at = offset + 2 + 12 * entry
            tag, kind, number = struct.unpack(order + "HHI", data[at : at + 8])
            if tag == 339 and kind == 3:  # SHORTs: inline when they fit in 4 bytes
                start = at + 8 if number <= 2 else struct.unpack(order + "I", data[at + 8 : at + 12])[0]
                return struct.unpack(order + "H", data[start : start + 2])[0]
    except struct.error:  # cut short: no tag to read
        return None
    return None


def photo_header(data: bytes) -> tuple[str, tuple[int, int]]:
    """(format, (width, height)) from the file header, without decoding the pixels."""
    if not data:
        raise PhotoError("empty file")
    if data.startswith(b"\xff\xd8\xff"):
        size = _jpeg_size(data)
        if size is not None:
            return "JPEG", size
    if _is_heif(data):
        _register_heif()
    Image = _pillow()
    with _library_messages() as messages:
        try:
            with Image.open(io.BytesIO(data)) as header:
                fmt, width, height, mode = str(header.format), header.width, header.height, header.mode
        except Exception:  # a broken header: Pillow raises many kinds
            fmt = ""
    if not fmt:
        raise _unreadable_header(data, messages)
    fmt = "JPEG" if fmt == "MPO" else fmt  # many phones' JPEGs carry a second picture: still a JPEG
    if width == 0 or height == 0:
        raise PhotoError(f"an empty image ({width} x {height} px)")
    if fmt == "TIFF" and mode in MEASUREMENT_MODES:
        raise PhotoError(f"a {MEASUREMENT_MODES[mode]} TIFF (measurements, not a photo)")
    return fmt, (width, height)


def _looks_truncated(data: bytes, fmt: str) -> bool:
    if fmt == "JPEG":
        return b"\xff\xd9" not in data[-4096:]  # the end-of-image marker (trailing bytes allowed)
    if fmt == "PNG":
        return b"IEND" not in data[-64:]
    return False


# --- decoding -----------------------------------------------------------------------------------


def _decode_heif(data: bytes) -> tuple[np.ndarray | None, list[str]]:
    def decode() -> np.ndarray:
        with _pillow().open(io.BytesIO(data)) as image:
            return np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])

    with _library_messages() as messages:
        try:
            image = decode()
        except Exception as error:  # pillow-heif raises its own kinds on damaged data
            messages.append(" ".join(str(error).split()))
            image = None
    return image, messages


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
    if fmt == "HEIF":
        image, messages = _decode_heif(data)
    else:
        image, messages = _quiet_decode(lambda: _imdecode(data, REDUCED[factor]))
    if image is None or image.size == 0:
        raise PhotoError(f"cannot decode this {fmt} file{_said(messages)}")
    source: bytes | np.ndarray | None = data if fmt == "JPEG" and factor > 1 else None
    if factor == 1 and max(image.shape[:2]) > 2 * min_long_side:  # PNG and friends: shrink after decoding
        source = image
        shrink = 2 * min_long_side / max(image.shape[:2])
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return Photo(
        image, width / image.shape[1], (width, height), fmt, source, notes=_damage_notes(fmt, messages)
    )


def read_photo(path: Path | str, min_long_side: int = 1000) -> Photo:
    return decode_photo(_read_file(Path(path)), min_long_side)


def as_photo(image: Photo | np.ndarray | str | Path) -> Photo:
    """A `Photo` of a decoded one (itself), a BGR array (read as its PNG file would be) or a path."""
    if isinstance(image, Photo):
        return image
    if isinstance(image, np.ndarray):
        ok, data = cv2.imencode(".png", image)
        if not ok:
            raise PhotoError("cannot encode this image")
        return decode_photo(data.tobytes())
    return read_photo(image)


def _read_file(path: Path) -> bytes:
    """The bytes of a regular file of a photo's size; a PhotoError for anything else (a folder, a
    device or pipe that never ends, a link to itself or to nothing, a file too big to be a photo)."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise PhotoError("is a folder, not a photo")
        if not stat.S_ISREG(info.st_mode):
            raise PhotoError("not a regular file (a device, pipe or socket)")
        if info.st_size > MAX_FILE_BYTES:
            raise PhotoError(f"too large for a photo file ({info.st_size:,} bytes)")
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise PhotoError(
            "a broken link (what it points to is missing)" if path.is_symlink() else "no such file"
        ) from None
    except PermissionError:
        raise PhotoError("permission denied") from None
    except OSError as error:  # a link to itself, a name too long, an I/O error
        raise PhotoError((error.strerror or str(error)).lower()) from None
    if len(data) > MAX_FILE_BYTES:
        raise PhotoError(f"too large for a photo file (more than {MAX_FILE_BYTES:,} bytes)")
    return data

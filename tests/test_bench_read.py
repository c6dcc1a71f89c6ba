"""The readers' speed benches time what a user waits for: the photo decoded from its file bytes and
read, a refusal included (``vision.bench_read``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.bench_read import from_bytes
from vision.photo_io import Photo, PhotoError


def _jpeg(width: int = 1600, height: int = 1200) -> bytes:
    image = np.full((height, width, 3), 128, np.uint8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def test_the_reader_gets_the_photo_decoded_as_the_cli_decodes_it():
    seen = []
    from_bytes(seen.append)(_jpeg())
    (photo,) = seen
    assert isinstance(photo, Photo) and photo.size == (1600, 1200)


def test_a_refusal_is_timed_like_a_reading_and_a_bug_is_not_hidden():
    def refuses(photo: Photo) -> None:
        raise PhotoError("no cards found")

    def breaks(photo: Photo) -> None:
        raise ValueError("a bug")

    assert from_bytes(refuses)(_jpeg()) is None
    with pytest.raises(ValueError):
        from_bytes(breaks)(_jpeg())

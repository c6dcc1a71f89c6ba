"""A second look at each mat's number: the numeral in its header, read by a model of its own.

The card model reads a mat's number from a crop of the whole mat, where the header's numerals are
~7 px tall: it tells the look-alike colours (orange 1 / yellow 4, sky 2 / blue 5) apart mostly by
colour, and faded prints and coloured light move them (on the development photos the largest
cause of wrong rounds, read surely). The header model (``models/snorkeling-headers.onnx``) reads
the numeral itself, ~20 px tall, in each of the four places a mat's header discs may lie
(``crops.header_spots``: both ends, as a mat's axis has no way up; both corners), trained on crops
whose colours were shuffled so that the numeral's shape is what counts.

Its evidence multiplies the card model's: P(number | a mat) is proportional to the card model's
times the header's (``header_evidence``: the header at one end and no numeral at the other, or
hidden); a header it cannot see leaves the card model's reading as it was.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo
from vision.snorkeling.crops import Spot, header_crops

HEADER_MODEL = "snorkeling-headers.onnx"
DISCS = 4  # header_spots per mat
HIDDEN = 0.1  # how likely a header is hidden, against its showing at one end
FLOOR = 0.02  # the least evidence for a number, as a share of the likeliest's


def load_header_model(path: str | Path | None = None) -> OnnxModel | None:
    """The header model (loaded once per path), or None where the models folder has none (a folder
    of older models: the card model's reading alone)."""
    file = Path(path) if path is not None else models_dir() / HEADER_MODEL
    return load_model(file) if file.is_file() else None


def header_evidence(photo: Photo, mats: list[Spot], model: OnnxModel, labels: tuple[str, ...]) -> np.ndarray:
    """Per mat spot, the header's evidence for each of ``labels`` (the card model's mat labels;
    "none" gets 1): rows of len(labels), the numbers' summing to 1.

    The header lies at one end of the mat (the other shows no numeral), or is hidden (a hand, a
    messy pile): the evidence for number n is q_a(n) q_b(none) + q_b(n) q_a(none) + HIDDEN q_a(none)
    q_b(none), q_e being what end e's two discs read together; at least FLOOR of the likeliest
    number's, so that a numeral misread cannot outvote any card model reading by more than 1 / FLOOR."""
    out = np.ones((len(mats), len(labels)))
    if not mats:
        return out
    p = model.run(header_crops(photo, mats, model))["number"].reshape(len(mats), 2, DISCS // 2, -1)
    a, b = p.mean(2).transpose(1, 0, 2)  # each end's two discs together
    none = list(model.heads["number"]).index("none")
    hidden = HIDDEN * a[:, none] * b[:, none]
    numbers = [j for j, label in enumerate(labels) if label != "none"]
    for j in numbers:
        k = list(model.heads["number"]).index(labels[j])
        out[:, j] = a[:, k] * b[:, none] + b[:, k] * a[:, none] + hidden
    e = out[:, numbers]
    e = np.maximum(e, FLOOR * e.max(1, keepdims=True))
    out[:, numbers] = e / e.sum(1, keepdims=True)
    return out


def with_headers(mat_probs: np.ndarray, evidence: np.ndarray, none: int) -> np.ndarray:
    """The card model's mat probabilities (rows: none, then the numbers) with the header's evidence
    multiplied into the numbers; the share of "not a mat" is kept as the card model read it."""
    out = mat_probs.copy()
    numbers = [j for j in range(mat_probs.shape[1]) if j != none]
    joint = mat_probs[:, numbers] * evidence[:, numbers]
    share = mat_probs[:, numbers].sum(1, keepdims=True)
    out[:, numbers] = share * joint / np.maximum(joint.sum(1, keepdims=True), 1e-12)
    return out

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
hidden); a header it cannot see leaves the card model's reading as it was. Where the mat's spot
misses its header (a region's rectangle sized to the pile's cards, or turned), the header is looked
for on spots round it (``search_spots``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.onnx_model import OnnxModel, load_model, models_dir
from vision.photo_io import Photo
from vision.snorkeling.closer_look import spots_round
from vision.snorkeling.crops import MAT_MM, Spot, header_crops

HEADER_MODEL = "snorkeling-headers.onnx"
DISCS = 4  # header_spots per mat
HIDDEN = 0.1  # how likely a header is hidden, against its showing at one end
FLOOR = 0.02  # the least evidence for a number, as a share of the likeliest's
# A pile's spot is its region's rectangle, which cards peeking out, a hand of cards or a slant move
# off the mat, size to its pile's cards or turn a quarter round (sized to the mat's width): its header
# crops then miss the header discs (on dev photos the commonest cause of a wrong mat number). So a
# mat whose header numeral does not read surely on its spot (``seen`` under SEARCH_BELOW) is read again on
# spots round it: larger (SEARCH_SIZES), moved along and across its axis (SEARCH_SHIFTS, of the
# spot's long side), and turned a quarter round (as long as the spot's long side makes the mat's
# width, TURNED_LONG); where a header shows more surely on one of them (by SEARCH_MARGIN), that
# spot's reading is taken. A header's two discs read the same numeral and the other end none, which
# a card's corner indices seldom do; and only a number the card model gives SEARCH_PRIOR of its
# mat numbers' share counts there (``prior``): the search tells look-alike colours apart (orange 1 /
# yellow 4, sky 2 / blue 5), and the best of 36 looks at a pile's cards or a plain patch of a mat
# can read surely as a numeral that is none of them.
SEARCH_BELOW = 0.8
SEARCH_SIZES = (1.0, 1.2, 1.45)
SEARCH_SHIFTS = (-0.12, 0.0, 0.12)
TURNED_LONG = MAT_MM[1] / MAT_MM[0]
SEARCH_MARGIN = 0.2
SEARCH_PRIOR = 0.02


def load_header_model(path: str | Path | None = None) -> OnnxModel | None:
    """The header model (loaded once per path), or None where the models folder has none (a folder
    of older models: the card model's reading alone)."""
    file = Path(path) if path is not None else models_dir() / HEADER_MODEL
    return load_model(file) if file.is_file() else None


def header_evidence(
    photo: Photo,
    mats: list[Spot],
    model: OnnxModel,
    labels: tuple[str, ...],
    prior: np.ndarray | None = None,
) -> np.ndarray:
    """Per mat spot, the header's evidence for each of ``labels`` (the card model's mat labels;
    "none" gets 1): rows of len(labels), the numbers' summing to 1.

    The header lies at one end of the mat (the other shows no numeral), or is hidden (a hand, a
    messy pile): the evidence for number n is q_a(n) q_b(none) + q_b(n) q_a(none) + HIDDEN q_a(none)
    q_b(none), q_e being what end e's two discs read together; at least FLOOR of the likeliest
    number's, so that a numeral misread cannot outvote any card model reading by more than 1 / FLOOR.
    A header that does not show surely on a mat's spot is looked for round it (``search_spots``),
    a numeral counting there only where ``prior`` (rows of ``labels``: the card model's reading of
    each spot) gives its number SEARCH_PRIOR of the numbers' share; any, without a prior."""
    out = np.ones((len(mats), len(labels)))
    if not mats:
        return out
    none = list(model.heads["number"]).index("none")
    ends = _ends(photo, mats, model)
    best = seen(ends, none)
    look = np.nonzero(best < SEARCH_BELOW)[0]
    if len(look):
        grid = [(int(i), g) for i in look for g in search_spots(mats[int(i)])]
        got = _ends(photo, [g for _, g in grid], model)
        heads = list(model.heads["number"])
        allowed = np.ones((len(mats), len(heads)), bool)
        if prior is not None:
            numbers = [j for j, label in enumerate(labels) if label != "none"]
            share = prior[:, numbers] / np.maximum(prior[:, numbers].sum(1, keepdims=True), 1e-12)
            for j, q in zip(numbers, share.T, strict=True):
                allowed[:, heads.index(labels[j])] = q >= SEARCH_PRIOR
        sure = seen(got, none, allowed[[i for i, _ in grid]])
        for i in look:
            rows = [k for k, (j, _) in enumerate(grid) if j == i]
            k = max(rows, key=lambda r: sure[r])
            if sure[k] > best[i] + SEARCH_MARGIN:
                ends[i] = got[k]
    a, b = ends.transpose(1, 0, 2)
    hidden = HIDDEN * a[:, none] * b[:, none]
    numbers = [j for j, label in enumerate(labels) if label != "none"]
    for j in numbers:
        k = list(model.heads["number"]).index(labels[j])
        out[:, j] = a[:, k] * b[:, none] + b[:, k] * a[:, none] + hidden
    e = out[:, numbers]
    e = np.maximum(e, FLOOR * e.max(1, keepdims=True))
    out[:, numbers] = e / e.sum(1, keepdims=True)
    return out


def _ends(photo: Photo, spots: list[Spot], model: OnnxModel) -> np.ndarray:
    """What each end of each spot's header reads (spot, end, label): its two discs averaged."""
    p = model.run(header_crops(photo, spots, model))["number"]
    return p.reshape(len(spots), 2, DISCS // 2, -1).mean(2)


def search_spots(mat: Spot) -> list[Spot]:
    """The spots round ``mat`` its header is looked for on (``SEARCH_SIZES`` x ``SEARCH_SHIFTS``
    along and across, on its axis and a quarter round)."""
    shifts = tuple((along, across) for along in SEARCH_SHIFTS for across in SEARCH_SHIFTS)
    return [
        *spots_round(mat.x, mat.y, mat.long, [mat.angle], SEARCH_SIZES, shifts),
        *spots_round(mat.x, mat.y, mat.long * TURNED_LONG, [mat.angle + 90.0], (1.0,), shifts),
    ]


def seen(ends: np.ndarray, none: int, allowed: np.ndarray | None = None) -> np.ndarray:
    """How surely one numeral shows on each mat's header (``ends``: mat, end, label probabilities):
    one number at one end and none at the other, the likelier way round; ``allowed`` (mat, label):
    the numerals that count."""
    a, b = ends[:, 0], ends[:, 1]
    numeral = np.broadcast_to(np.arange(ends.shape[2]) != none, a.shape)
    if allowed is not None:
        numeral = numeral & allowed
    a_n, b_n = np.where(numeral, a, 0.0).max(1), np.where(numeral, b, 0.0).max(1)
    return np.maximum(a_n * b[:, none], b_n * a[:, none])


def with_headers(mat_probs: np.ndarray, evidence: np.ndarray, none: int) -> np.ndarray:
    """The card model's mat probabilities (rows: none, then the numbers) with the header's evidence
    multiplied into the numbers; the share of "not a mat" is kept as the card model read it."""
    out = mat_probs.copy()
    numbers = [j for j in range(mat_probs.shape[1]) if j != none]
    joint = mat_probs[:, numbers] * evidence[:, numbers]
    share = mat_probs[:, numbers].sum(1, keepdims=True)
    out[:, numbers] = share * joint / np.maximum(joint.sum(1, keepdims=True), 1e-12)
    return out

"""Procedural art for scorecam's print-and-play Italian deck (Mediatore; see catalogs/mediatore.json).

A card is 58 x 90 mm, portrait. The art is made for a camera as much as for people: in a photo of
won cards most cards show only a corner, so each corner alone says the card. The top-left corner
holds the rank index (1-7, F for Fante, C for Cavallo, R for Re) above a suit symbol, and the
bottom-right corner is the same corner turned half round, pixel for pixel. Each suit has its own
silhouette and its own hue, far apart: coppe a red cup, denari a golden coin, spade a blue sword,
bastoni a green club. The body between the corners shows the pips (1-7) or a simple figure.

Shapes are drawn in *symbol units* (a symbol is 2 x 2, origin at its centre, x right, y down) and
placed in millimetres, so the same drawing serves any resolution.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

CARD_MM: tuple[int, int] = (58, 90)
DEFAULT_PX_PER_MM = 300 / 25.4
SUITS: tuple[str, ...] = ("coppe", "denari", "spade", "bastoni")
RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")
INDEX: dict[str, str] = {**{r: r for r in RANKS[:7]}, "fante": "F", "cavallo": "C", "re": "R"}

# The corner: rank index centred at INDEX_AT (mm from the top-left), INDEX_MM tall; suit symbol
# centred at SYMBOL_AT, SYMBOL_MM tall. CORNER_MM is the box both lie in, repeated turned at the
# bottom right; the body keeps out of both boxes.
CORNER_MM: tuple[float, float] = (13.0, 27.0)  # width, height
INDEX_AT: tuple[float, float] = (6.5, 8.5)
INDEX_MM = 8.0
SYMBOL_AT: tuple[float, float] = (6.5, 20.0)
SYMBOL_MM = 9.5
BODY_MM: tuple[float, float, float, float] = (14.5, 6.0, 43.5, 84.0)  # x0, y0, x1, y1
BORDER_MM = 1.2

BGR = tuple[int, int, int]


def _hex(code: str) -> BGR:
    r, g, b = (int(code[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


# Suit hues a quarter of the wheel apart (red, gold, blue, green); the index is the suit's dark
# shade, which keeps gold readable on paper.
SUIT_COLOURS: dict[str, BGR] = {
    "coppe": _hex("#d0202e"),
    "denari": _hex("#f0b400"),
    "spade": _hex("#1d5bbf"),
    "bastoni": _hex("#2e8b3a"),
}
INDEX_COLOURS: dict[str, BGR] = {
    "coppe": _hex("#9e0f1b"),
    "denari": _hex("#8a5a00"),
    "spade": _hex("#123a80"),
    "bastoni": _hex("#1b5e25"),
}
INK = _hex("#1a1a1a")
PAPER = _hex("#fbf7ee")
BACK = _hex("#7a1f2b")
BACK_LINE = _hex("#c9a24a")
SKIN = _hex("#f2c9a0")

_AA = cv2.LINE_AA
_SHIFT = 4
_ONE = 1 << _SHIFT


def _px(points: np.ndarray, cx: float, cy: float, scale: float, turned: bool = False) -> np.ndarray:
    """Symbol-unit points as fixed-point pixels around (cx, cy); ``turned``: a half turn."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if turned:
        p = -p
    return np.round((p * scale + (cx, cy)) * _ONE).astype(np.int32)


def _fill(img, pts, colour: BGR, outline: int = 0) -> None:
    cv2.fillPoly(img, [pts], colour, _AA, _SHIFT)
    if outline:
        cv2.polylines(img, [pts], True, INK, outline, _AA, _SHIFT)


def _ellipse(x: float, y: float, rx: float, ry: float, n: int = 48, a0: float = 0.0, a1: float = 2 * np.pi):
    t = np.linspace(a0, a1, n)
    return np.stack([x + rx * np.cos(t), y + ry * np.sin(t)], axis=1)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)


# ---------------------------------------------------------------- suit symbols (symbol units)


def _cup() -> list[tuple[np.ndarray, str]]:
    bowl = np.concatenate([[(-0.72, -0.72), (0.72, -0.72)], _ellipse(0, -0.72, 0.72, 0.8, 24, 0, np.pi)])
    return [
        (_rect(-0.13, 0.0, 0.13, 0.62), "body"),
        (
            np.concatenate([[(-0.55, 0.92), (0.55, 0.92)], _ellipse(0, 0.92, 0.55, 0.32, 20, 0, -np.pi)]),
            "body",
        ),
        (bowl, "body"),
        (_ellipse(0, -0.72, 0.72, 0.16, 32), "dark"),
    ]


def _coin() -> list[tuple[np.ndarray, str]]:
    star = [(0.42 * np.sin(a) * (1 if i % 2 == 0 else 0.45), -0.42 * np.cos(a) * (1 if i % 2 == 0 else 0.45))
            for i, a in enumerate(np.linspace(0, 2 * np.pi, 16, endpoint=False))]  # fmt: skip
    return [(_ellipse(0, 0, 0.92, 0.92, 64), "body"), (_ellipse(0, 0, 0.62, 0.62, 64), "dark"),
            (_ellipse(0, 0, 0.52, 0.52, 64), "body"), (np.array(star), "dark")]  # fmt: skip


def _sword() -> list[tuple[np.ndarray, str]]:
    blade = np.array([(0, -1.0), (0.17, -0.72), (0.17, 0.34), (-0.17, 0.34), (-0.17, -0.72)])
    return [
        (blade, "body"),
        (_rect(-0.6, 0.34, 0.6, 0.5), "dark"),
        (_rect(-0.1, 0.5, 0.1, 0.86), "dark"),
        (_ellipse(0, 0.9, 0.14, 0.12, 24), "dark"),
    ]


def _club() -> list[tuple[np.ndarray, str]]:
    stick = np.concatenate(
        [[(-0.14, 0.98), (0.14, 0.98)], [(0.3, -0.7)], _ellipse(0, -0.7, 0.3, 0.3, 20, 0, -np.pi)]
    )
    knots = [(_ellipse(sx * 0.3, y, 0.13, 0.1, 20), "body") for sx, y in ((1, -0.2), (-1, 0.15), (1, 0.5))]
    return [(stick, "body"), *knots, (_rect(-0.06, -0.72, 0.06, 0.8), "dark")]


SYMBOLS = {"coppe": _cup, "denari": _coin, "spade": _sword, "bastoni": _club}


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, height: float, turned: bool = False) -> None:
    """The suit's symbol, ``height`` pixels tall, centred at (cx, cy) in pixels."""
    scale = height / 2
    outline = max(1, round(height * 0.03))
    body, dark = SUIT_COLOURS[suit], INDEX_COLOURS[suit]
    for points, part in SYMBOLS[suit]():
        _fill(
            img,
            _px(points, cx, cy, scale, turned),
            body if part == "body" else dark,
            outline if part == "body" else 0,
        )


def _draw_index(img: np.ndarray, text: str, suit: str, px_per_mm: float) -> None:
    """Rank index and suit symbol of the top-left corner."""
    font = cv2.FONT_HERSHEY_DUPLEX
    height = INDEX_MM * px_per_mm
    (_, h0), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / h0
    thick = max(1, round(height * 0.14))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    cx, cy = INDEX_AT[0] * px_per_mm, INDEX_AT[1] * px_per_mm
    cv2.putText(
        img, text, (round(cx - w / 2), round(cy + h / 2)), font, scale, INDEX_COLOURS[suit], thick, _AA
    )
    draw_suit(img, suit, SYMBOL_AT[0] * px_per_mm, SYMBOL_AT[1] * px_per_mm, SYMBOL_MM * px_per_mm)


# ---------------------------------------------------------------- the body: pips and figures

# Pip centres in body units (x -1..1 across, y -1..1 down); pips below the middle are turned.
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(0, -0.55), (0, 0.55)],
    3: [(0, -0.62), (0, 0), (0, 0.62)],
    4: [(-0.5, -0.55), (0.5, -0.55), (-0.5, 0.55), (0.5, 0.55)],
    5: [(-0.5, -0.6), (0.5, -0.6), (0, 0), (-0.5, 0.6), (0.5, 0.6)],
    6: [(-0.5, -0.66), (0.5, -0.66), (-0.5, 0), (0.5, 0), (-0.5, 0.66), (0.5, 0.66)],
    7: [(-0.5, -0.72), (0.5, -0.72), (0, -0.36), (-0.5, 0), (0.5, 0), (-0.5, 0.72), (0.5, 0.72)],
}


def _draw_pips(img: np.ndarray, suit: str, count: int, px_per_mm: float) -> None:
    x0, y0, x1, y1 = (v * px_per_mm for v in BODY_MM)
    cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    size = (30.0 if count == 1 else 15.0 if count <= 3 else 11.0) * px_per_mm
    for x, y in PIPS[count]:
        draw_suit(img, suit, cx + x * hw, cy + y * hh * 0.92, size, turned=y > 0)


def _draw_figure(img: np.ndarray, suit: str, rank: str, px_per_mm: float) -> None:
    """A framed figure in the suit's colours: the Re crowned, the Cavallo beside a horse's head,
    the Fante in a cap; the figure holds the suit's symbol."""
    x0, y0, x1, y1 = (v * px_per_mm for v in BODY_MM)
    colour, dark = SUIT_COLOURS[suit], INDEX_COLOURS[suit]
    tint = tuple(int(c + (255 - c) * 0.82) for c in colour)
    cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), tint, -1, _AA)
    cv2.rectangle(
        img, (round(x0), round(y0)), (round(x1), round(y1)), dark, max(1, round(0.6 * px_per_mm)), _AA
    )
    cx = (x0 + x1) / 2
    s = (x1 - x0) / 2  # figure units: the panel is 2 wide
    top = y0 + 0.45 * s

    def at(points):
        return _px(points, cx, top, s)

    line = max(1, round(0.35 * px_per_mm))
    _fill(img, at(np.array([(-0.55, 1.9), (0.55, 1.9), (0.8, 4.1), (-0.8, 4.1)])), colour, line)  # robe
    _fill(img, at(_rect(-0.8, 4.1, 0.8, 4.3)), dark)
    _fill(img, at(_ellipse(0, 1.25, 0.42, 0.5, 40)), SKIN, line)  # head
    if rank == "re":
        crown = np.array(
            [(-0.45, 0.85), (-0.45, 0.3), (-0.22, 0.55), (0, 0.2), (0.22, 0.55), (0.45, 0.3), (0.45, 0.85)]
        )
        _fill(img, at(crown), _hex("#f0b400"), line)
    elif rank == "fante":
        _fill(
            img,
            at(np.concatenate([[(-0.5, 0.95)], _ellipse(0, 0.95, 0.5, 0.4, 20, np.pi, 2 * np.pi)])),
            dark,
            line,
        )
    else:  # cavallo: a horse's head beside the rider
        head = np.array(
            [(0.3, 3.3), (0.38, 2.3), (0.52, 1.55), (0.62, 1.78), (0.78, 1.82), (0.97, 2.45), (0.86, 2.62),
             (0.72, 2.5), (0.8, 3.3)]
        )  # fmt: skip
        _fill(img, at(head), _hex("#8b5a2b"), line)
    draw_suit(img, suit, cx - 0.35 * s, top + 2.9 * s, 0.9 * s)
    height = 9.0 * px_per_mm  # the figure's name, in the suit's dark shade, at the foot of the panel
    word = {"re": "RE", "cavallo": "CAVALLO", "fante": "FANTE"}[rank]
    font = cv2.FONT_HERSHEY_DUPLEX
    (w0, h0), _ = cv2.getTextSize(word, font, 1.0, 1)
    scale = min(height * 0.5 / h0, (x1 - x0) * 0.86 / w0)
    (w, h), _ = cv2.getTextSize(word, font, scale, 2)
    cv2.putText(
        img,
        word,
        (round(cx - w / 2), round(y1 - 2.2 * px_per_mm)),
        font,
        scale,
        dark,
        max(1, round(scale * 1.6)),
        _AA,
    )


# ---------------------------------------------------------------- faces


def _card_size(px_per_mm: float) -> tuple[int, int]:
    return round(CARD_MM[1] * px_per_mm), round(CARD_MM[0] * px_per_mm)


def corner_box_px(px_per_mm: float) -> tuple[int, int]:
    """(width, height) in pixels of the corner box, at the top left and turned at the bottom right."""
    return round(CORNER_MM[0] * px_per_mm), round(CORNER_MM[1] * px_per_mm)


@lru_cache(maxsize=96)
def _front(rank: str, suit: str, px_per_mm: float) -> np.ndarray:
    h, w = _card_size(px_per_mm)
    img = np.full((h, w, 3), PAPER, np.uint8)
    _draw_index(img, INDEX[rank], suit, px_per_mm)
    cw, ch = corner_box_px(px_per_mm)
    img[h - ch :, w - cw :] = img[:ch, :cw][::-1, ::-1]  # the same corner, turned half round
    if rank in INDEX and rank.isdigit():
        _draw_pips(img, suit, int(rank), px_per_mm)
    else:
        _draw_figure(img, suit, rank, px_per_mm)
    _edge(img, px_per_mm, INK)
    return img


@lru_cache(maxsize=4)
def _back(px_per_mm: float) -> np.ndarray:
    """One back for every card: a lattice of gold lines on dark red, the same turned half round."""
    h, w = _card_size(px_per_mm)
    img = np.full((h, w, 3), BACK, np.uint8)
    step = 6.0 * px_per_mm
    width = max(1, round(0.5 * px_per_mm))
    for k in range(-int(h / step) - 2, int((w + h) / step) + 2):
        x = k * step
        cv2.line(img, (round(x), 0), (round(x + h), h), BACK_LINE, width, _AA)
        cv2.line(img, (round(x), h), (round(x + h), 0), BACK_LINE, width, _AA)
    inset = round(4 * px_per_mm)
    cv2.rectangle(img, (inset, inset), (w - inset, h - inset), BACK_LINE, max(1, round(1.0 * px_per_mm)), _AA)
    cx, cy = w / 2, h / 2
    cv2.ellipse(
        img, (round(cx), round(cy)), (round(16 * px_per_mm), round(12 * px_per_mm)), 0, 0, 360, BACK, -1, _AA
    )
    cv2.ellipse(
        img,
        (round(cx), round(cy)),
        (round(16 * px_per_mm), round(12 * px_per_mm)),
        0,
        0,
        360,
        BACK_LINE,
        width,
        _AA,
    )
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize("scorecam", font, 1.0, 1)
    scale = 24 * px_per_mm / tw
    (tw, th), _ = cv2.getTextSize("scorecam", font, scale, 2)
    cv2.putText(
        img,
        "scorecam",
        (round(cx - tw / 2), round(cy + th / 2)),
        font,
        scale,
        BACK_LINE,
        max(1, round(scale)),
        _AA,
    )
    img[h // 2 + h % 2 :] = img[: h // 2][::-1, ::-1]  # symmetric: a back shows no way up
    _edge(img, px_per_mm, PAPER)
    return img


def _edge(img: np.ndarray, px_per_mm: float, colour: BGR) -> None:
    b = max(1, round(BORDER_MM * px_per_mm))
    cv2.rectangle(img, (0, 0), (img.shape[1] - 1, img.shape[0] - 1), colour, b)


def render_card(rank: str, suit: str, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """The front of one card as BGR, 58 x 90 mm, portrait, upright."""
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"no such card {rank}-{suit}")
    return _front(rank, suit, float(px_per_mm)).copy()


def render_back(px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    return _back(float(px_per_mm)).copy()


def render_card_face(component: dict, face: str, px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """One face ('front' or 'back') of a catalog component as BGR."""
    data = component["faces"][face]
    if data["kind"] == "back":
        return render_back(px_per_mm)
    return render_card(data["rank"], data["suit"], px_per_mm)

"""Paper lying on the table: newspaper columns, maps and posters, some sheets on top of others."""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.tables.common import (
    _ONE,
    _SHIFT,
    _WHITE,
    _any_colour,
    _apply_shade,
    _bgr_hsv,
    _blend,
    _companion,
    _fine_grain,
    _fit,
    _fractal,
    _hsv_bgr,
    _line_ink,
    _main_colour,
    _px,
    _square_grid,
    _terrain_colour,
    _towards,
    _u8,
    _work_res,
    smooth_noise,
)

# ---------------------------------------------------------------------------------------------- paper

_SHEETS_MM = ((210, 297), (297, 420), (280, 430), (380, 580), (500, 700))  # A4, A3, tabloid, broadsheet, map


def _paper(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    img = _sheet(rng, h, w, p, terrain)  # the sheet under all others covers the table
    budget = 1.5 * h * w  # pixels of further sheets, to bound the time
    for _ in range(int(rng.choice(4, p=(0.35, 0.3, 0.2, 0.15)))):
        sw_mm, sh_mm = _SHEETS_MM[int(rng.integers(len(_SHEETS_MM)))]
        if rng.random() < 0.5:
            sw_mm, sh_mm = sh_mm, sw_mm
        sh, sw = max(2, round(sh_mm * p)), max(2, round(sw_mm * p))
        angle = float(rng.uniform(-35, 35))
        centre = rng.uniform(-0.1, 1.1, 2) * (w, h)
        off = rng.uniform(0.5, 3.0, 2) * p  # the sheet's shadow, px
        soft = max(1, round(rng.uniform(0.5, 3.0) * p))
        if sh * sw > budget:
            continue
        M = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, 1.0)
        M[:, 2] += centre - (sw / 2, sh / 2)
        corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float64) @ M.T
        pad = int(np.abs(off).max()) + 3 * soft + 2
        x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + pad, (w, h))
        if x1 <= x0 or y1 <= y0:
            continue
        budget -= sh * sw
        sheet = _sheet(rng, sh, sw, p, terrain)
        M[:, 2] -= (x0, y0)
        size = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpAffine(sheet, M, size, flags=cv2.INTER_LINEAR)
        ones = np.full((sh, sw), 255, np.uint8)
        alpha = cv2.warpAffine(ones, M, size, flags=cv2.INTER_LINEAR).astype(np.float32) * np.float32(1 / 255)
        M[:, 2] += off
        shadow = cv2.warpAffine(ones, M, size, flags=cv2.INTER_LINEAR)
        for _ in range(2):  # two box blurs: a soft, cheap shadow edge
            shadow = cv2.blur(shadow, (2 * soft + 1, 2 * soft + 1))
        keep = cv2.convertScaleAbs(shadow, alpha=-rng.uniform(0.1, 0.3), beta=255).astype(np.float32)
        under = _apply_shade(img[y0:y1, x0:x1], keep * np.float32(1 / 255))
        img[y0:y1, x0:x1] = cv2.blendLinear(warped, under, alpha, 1.0 - alpha)
    return img


def _sheet(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    """One printed sheet, (h, w) px: newspaper, map or poster, with soft paper shading and grain."""
    r = rng.random()
    img = (
        _newsprint(rng, h, w, p, terrain)
        if r < 0.45
        else _map(rng, h, w, p, terrain)
        if r < 0.75
        else _poster(rng, h, w, p, terrain)
    )
    hq, wq, q = _work_res(h, w, p, 0.2, 100_000)
    cell = rng.uniform(80, 300) * q
    shade = _fit(1.0 + np.float32(rng.uniform(0.01, 0.04)) * smooth_noise(rng, (hq, wq), (cell, cell)), h, w)
    shade *= _fine_grain(rng, h, w, 0.03)
    return _apply_shade(img, shade)


def _text_rects(
    rng: np.random.Generator, x0: float, y0: float, width: float, n_lines: int, pitch: float, xh: float
) -> np.ndarray:
    """Words of a paragraph as dark dashes: (n, 4) rectangles x0, y0, x1, y1 in mm."""
    k = int(width / 2.5) + 2
    lens = rng.uniform(1.5, 12.0, (n_lines, k))
    gaps = rng.uniform(1.0, 2.2, (n_lines, k))
    ends = np.cumsum(lens + gaps, axis=1) - gaps
    limit = np.full((n_lines, 1), width)
    limit[-1] = width * rng.uniform(0.15, 0.9)  # the paragraph's last line stops short
    keep = ends <= limit
    rows = np.broadcast_to((y0 + np.arange(n_lines) * pitch)[:, None], ends.shape)
    return np.stack([x0 + (ends - lens)[keep], rows[keep], x0 + ends[keep], rows[keep] + xh], -1)


def _rect_polys(rects: np.ndarray, p: float) -> np.ndarray:
    """(n, 4) rectangles x0, y0, x1, y1 in mm -> (n, 4, 2) fixed-point polygons for cv2.fillPoly."""
    rects = np.asarray(rects, np.float64).reshape(-1, 4)
    pts = np.empty((len(rects), 4, 2))
    pts[:, :, 0] = rects[:, [0, 2, 2, 0]]
    pts[:, :, 1] = rects[:, [1, 1, 3, 3]]
    return _px(pts, p)


def _fill_rects(img: np.ndarray, rects: list, colour: np.ndarray, p: float) -> None:
    if rects:
        cv2.fillPoly(img, _rect_polys(np.concatenate(rects), p), _u8(colour), cv2.LINE_AA, _SHIFT)


_TEXT_PX = 6.0  # text lines closer than this (px) are drawn as their mean tone


def _text_tone(paper: np.ndarray, ink: np.ndarray, pitch: float, xh: float) -> np.ndarray:
    """The mean colour of text: used instead of dashes where lines are under ~6 px apart (dashes two
    pixels high would alias)."""
    return _towards(paper, ink, 0.75 * xh / pitch)


def _draw_text(
    img: np.ndarray,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
    p: float,
    ink: np.ndarray,
    paper: np.ndarray,
    pitch: float,
    xh: float,
) -> None:
    """Paragraphs of text filling box (x0, y0, x1, y1, mm)."""
    x0, y0, x1, y1 = box
    if pitch * p < _TEXT_PX:
        _fill_rects(img, [np.array([box])], _text_tone(paper, ink, pitch, xh), p)
        return
    rects = []
    y = y0
    while y < y1 - pitch:
        n = int(min(rng.integers(3, 25), (y1 - y) // pitch))
        if n <= 0:
            break
        rects.append(_text_rects(rng, x0, y, x1 - x0, n, pitch, xh))
        y += (n + rng.uniform(0.5, 1.5)) * pitch
    _fill_rects(img, rects, ink, p)


def _newsprint(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    if terrain:  # coloured paper in a terrain's hue
        paper = _towards(_terrain_colour(rng), _WHITE, rng.uniform(0.0, 0.35))
    else:
        paper = _hsv_bgr(rng.uniform(30, 60), rng.uniform(0.0, 0.12), rng.uniform(0.78, 0.97))
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.25), rng.uniform(0.05, 0.22))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(paper, 0, 255).astype(np.uint8)
    W, H = w / p, h / p
    col_w, gutter = float(rng.uniform(35, 90)), float(rng.uniform(3, 8))
    pitch = float(rng.uniform(2.8, 5.0))
    xh = pitch * float(rng.uniform(0.35, 0.55))
    rule = bool(rng.random() < 0.5)
    flat = pitch * p < _TEXT_PX
    boxes, heads, text = [], [], []
    for cx in np.arange(rng.uniform(-col_w, 15), W, col_w + gutter):
        y = float(rng.uniform(-60, 15))
        while y < H:
            r = rng.random()
            if r < 0.1:  # headline: a few thick bars
                lh = float(rng.uniform(5, 12))
                n = int(rng.integers(1, 4))
                heads.append(_text_rects(rng, cx, y, col_w, n, lh, lh * 0.6))
                y += (n + 0.5) * lh
            elif r < 0.18:  # a photograph
                ph = float(rng.uniform(30, 100))
                boxes.append((cx, y, cx + col_w, y + ph))
                y += ph + pitch
            else:  # a paragraph
                n = int(rng.integers(3, 25))
                if flat:
                    text.append(np.array([[cx, y, cx + col_w, y + n * pitch]]))
                else:
                    text.append(_text_rects(rng, cx, y, col_w, n, pitch, xh))
                y += (n + float(rng.uniform(0.5, 1.5))) * pitch
        if rule:
            colour, thick = _line_ink(ink, paper, 0.25 * p)
            xr = _px(np.array([[cx + col_w + gutter / 2, -5.0], [cx + col_w + gutter / 2, H + 5]]), p)
            cv2.polylines(img, [xr], False, colour, thick, cv2.LINE_AA, _SHIFT)
    _fill_rects(img, text, _text_tone(paper, ink, pitch, xh) if flat else ink, p)
    _fill_rects(img, heads, ink, p)
    for x0, y0, x1, y1 in boxes:  # a printed photo: a blurry grey picture
        a, b = max(0, int(y0 * p)), min(h, int(y1 * p))
        c, d = max(0, int(x0 * p)), min(w, int(x1 * p))
        if b - a < 2 or d - c < 2:
            continue
        pic = np.clip(0.5 + 0.3 * smooth_noise(rng, (b - a, d - c), (8 * p, 8 * p)), 0, 1)
        img[a:b, c:d] = _blend(pic, ink, paper)
    return img


def _map(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    k = int(rng.integers(2, 6))
    if terrain:  # land and sea in the terrains' own colours
        colours = [_terrain_colour(rng) for _ in range(k)]
    else:  # pastel regions
        colours = [
            _towards(_any_colour(rng, (0.2, 0.8), (0.5, 0.95)), _WHITE, rng.uniform(0.2, 0.6))
            for _ in range(k)
        ]
    W, H = w / p, h / p
    hq, wq, q = _work_res(h, w, p, 0.5, 300_000)
    field = _fit(_fractal(rng, (hq, wq), q, (400, 150, 60, 25), (1.0, 0.5, 0.3, 0.15)), h, w)
    sample = field[:: max(1, h // 64), :: max(1, w // 64)]
    idx = np.zeros((h, w), np.uint8)
    for t in np.quantile(sample, np.sort(rng.uniform(0.1, 0.9, k - 1))):
        idx += field > t
    palette = np.stack(colours)
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.4), rng.uniform(0.1, 0.4))
    if rng.random() < 0.7:  # outlines of the regions (one pixel, faded where a pixel is wide)
        edge = cv2.morphologyEx(idx, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)) > 0
        a = np.float32(min(1.0, 0.4 * p) * rng.uniform(0.4, 0.9))
        palette = np.concatenate([palette, palette * (1 - a) + ink * a])  # region k's outline is k + n
        idx += edge.view(np.uint8) * np.uint8(k)
    lut = np.zeros((256, 3), np.uint8)
    lut[: len(palette)] = np.clip(palette, 0, 255)
    img = cv2.merge([cv2.LUT(idx, np.ascontiguousarray(lut[:, c])) for c in range(3)])
    if rng.random() < 0.4:  # a grid of the map's squares
        pitch = float(rng.uniform(50, 150))
        colour, thick = _line_ink(ink, colours[0], rng.uniform(0.2, 0.5) * p)
        cv2.polylines(
            img,
            _px(_square_grid(W, H, pitch, 0.0, rng.uniform(0, pitch, 2)), p),
            False,
            colour,
            thick,
            cv2.LINE_AA,
            _SHIFT,
        )
    for _ in range(int(rng.integers(2, 9))):  # roads and rivers
        n = int(rng.integers(20, 80))
        heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.25, n))
        steps = rng.uniform(5, 25, n)[:, None] * np.stack([np.cos(heading), np.sin(heading)], -1)
        path = rng.uniform(0, 1, 2) * (W, H) + np.cumsum(steps, 0)
        road = _hsv_bgr(float(rng.choice((0, 30, 55, 210))), rng.uniform(0.3, 0.9), rng.uniform(0.3, 0.95))
        if terrain:  # rivers and paths in the terrains' colours, so they stay the map's hues
            road = _companion(rng, colours[0], True)
        colour, thick = _line_ink(road, colours[0], rng.uniform(0.4, 2.5) * p)
        cv2.polylines(img, [_px(path, p)], False, colour, thick, cv2.LINE_AA, _SHIFT)
    labels = [
        _text_rects(rng, *rng.uniform(0, 1, 2) * (W, H), rng.uniform(10, 40), 1, 4.0, rng.uniform(1.5, 3))
        for _ in range(int(rng.integers(5, 30)))
    ]
    if p >= 1.5:  # place names, where they are a few pixels high
        cv2.fillPoly(img, _rect_polys(np.concatenate(labels), p), _u8(ink), cv2.LINE_AA, _SHIFT)
    return img


def _poster(rng: np.random.Generator, h: int, w: int, p: float, terrain: bool) -> np.ndarray:
    bg = _main_colour(rng, terrain, (0.0, 0.9), (0.3, 0.97))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(bg, 0, 255).astype(np.uint8)
    W, H = w / p, h / p
    for _ in range(int(rng.integers(2, 9))):  # big coloured blocks and discs
        colour = _u8(_companion(rng, bg, terrain))
        c = rng.uniform(-0.1, 1.1, 2) * (W, H)
        size = rng.uniform(30, 300, 2)
        if rng.random() < 0.6:
            cv2.fillPoly(
                img,
                _rect_polys(np.array([[c[0], c[1], c[0] + size[0], c[1] + size[1]]]), p),
                colour,
                cv2.LINE_AA,
                _SHIFT,
            )
        else:
            cc = _px(c, p)
            cv2.circle(
                img, (int(cc[0]), int(cc[1])), int(size[0] / 2 * p * _ONE), colour, -1, cv2.LINE_AA, _SHIFT
            )
    ink = _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.08 if terrain else 0.6), rng.uniform(0.05, 0.3))
    if _bgr_hsv(bg)[2] < 0.4:  # light text on a dark poster
        ink = _towards(bg, _WHITE, 0.85)
    x0 = float(rng.uniform(-50, W * 0.6))
    y0 = float(rng.uniform(-20, H * 0.5))
    lh = float(rng.uniform(10, 35))
    heads = _text_rects(rng, x0, y0, float(rng.uniform(100, 400)), int(rng.integers(1, 4)), lh, lh * 0.65)
    cv2.fillPoly(img, _rect_polys(heads, p), _u8(ink), cv2.LINE_AA, _SHIFT)
    pitch = float(rng.uniform(3.5, 6))
    top = y0 + 4 * lh
    _draw_text(
        img,
        rng,
        (x0, top, x0 + float(rng.uniform(60, 250)), top + float(rng.uniform(20, 150))),
        p,
        ink,
        bg,
        pitch,
        pitch * 0.45,
    )
    return img

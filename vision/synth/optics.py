"""Lens, light and sensor for the photo simulator: what happens to the rendered scene on its way to
a phone's JPEG. Lens distortion maps, depth of field and motion blur, the light's gain field (ramps,
vignetting, hand and hard cast shadows, white balance, exposure, glare), sensor noise, and the
phone's tone curve, saturation and sharpening. Functions take and return images; `photo.photograph`
runs them in order.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.synth.camera import Camera
    from vision.synth.photo_style import PhotoStyle

REFERENCE_LONG_SIDE = 4000  # px sizes in a style are for a photo of this long side (12 MP)
SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT
_SHIFT, _ONE = SHIFT, ONE


def _hard_shadow_mask(shape: tuple[int, int], rng: np.random.Generator, scale: float) -> np.ndarray:
    """A sharp-edged cast shadow (a person, a lamp's arm) over part of the frame: 0..1, full size.
    Its edge is a gently bent line across the frame, sometimes with a limb-like bar."""
    h, w = shape
    k = 2
    sh, sw = max(1, h // k), max(1, w // k)
    m = np.zeros((sh, sw), np.float32)
    a = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    centre = np.array([sw, sh]) / 2 + n * rng.uniform(-0.3, 0.3) * min(sw, sh)
    big = 2.0 * max(sw, sh)
    ts = np.linspace(-1, 1, 9)
    bend = np.cumsum(rng.normal(0, 0.04, len(ts))) * min(sw, sh)
    edge = centre + np.outer(ts * big, d) + np.outer(bend, n)
    poly = np.vstack([edge, edge[::-1] + n * big])
    cv2.fillPoly(m, [np.round(poly * _ONE).astype(np.int32)], 1.0, cv2.LINE_AA, _SHIFT)
    if rng.random() < 0.5:  # a bar reaching out of the shadow (an arm, a lamp's stem)
        start = centre + d * rng.uniform(-0.3, 0.3) * min(sw, sh)
        end = start - n * rng.uniform(0.2, 0.5) * min(sw, sh)
        thick = int(rng.uniform(0.04, 0.1) * min(sw, sh))
        cv2.line(
            m,
            tuple(int(v * _ONE) for v in start),
            tuple(int(v * _ONE) for v in end),
            1.0,
            max(1, thick),
            cv2.LINE_AA,
            _SHIFT,
        )
    m = cv2.GaussianBlur(m, (0, 0), max(0.5, rng.uniform(0.5, 3.0) * scale * 4 / k))
    return cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR)


def _lens_maps(cam: Camera, render: Camera, step: int = 15) -> tuple[np.ndarray, np.ndarray]:
    """Remap maps: for each final (distorted) pixel, where to read in the undistorted render. Computed on a
    coarse grid and interpolated (the map is a smooth polynomial; the error is far below a pixel)."""
    w, h = cam.size
    gx = np.arange(0, w + 2 * step, step, dtype=np.float64)
    gy = np.arange(0, h + 2 * step, step, dtype=np.float64)
    uv = np.stack(np.meshgrid(gx, gy), -1).reshape(-1, 2)
    src = cam.undistort(uv) + (render.K[:2, 2] - cam.K[:2, 2])
    mx = src[:, 0].reshape(len(gy), len(gx)).astype(np.float32)
    my = src[:, 1].reshape(len(gy), len(gx)).astype(np.float32)
    # cv2.resize by an integer factor puts input node k at output (k + 0.5) * step - 0.5; with an odd
    # step, node k (which belongs at pixel k * step) lands at output k * step + (step - 1) / 2: a slice.
    big = (len(gx) * step, len(gy) * step)
    off = (step - 1) // 2
    mx = cv2.resize(mx, big, interpolation=cv2.INTER_LINEAR)[off : off + h, off : off + w]
    my = cv2.resize(my, big, interpolation=cv2.INTER_LINEAR)[off : off + h, off : off + w]
    return mx, my  # row-strided views: cv2 takes them as they are


def _blur_levels(img: np.ndarray, sigma_map: np.ndarray) -> np.ndarray:
    """Spatially varying Gaussian blur: blurred copies at sigmas 0, 0.7, 1.4, 2.8, ... px, blended by the
    per-pixel sigma. `sigma_map` is small (it is smooth) and is interpolated to the image. Each stronger
    level is computed only over the region that needs it (usually the far side of a tilted view)."""
    h, w = img.shape[:2]
    smin, smax = float(sigma_map.min()), float(sigma_map.max())
    if smax < 0.3:
        return img
    if smax - smin < 0.6:  # nearly uniform: one blur looks the same
        return _gauss(img, 0.5 * (smin + smax))
    levels = [0.0, 0.7] if smin < 0.35 else [smin]
    while levels[-1] < smax:
        levels.append(levels[-1] * 2)
    small = np.interp(sigma_map, levels, np.arange(len(levels))).astype(np.float32)
    first = int(math.floor(float(small.min())))
    out = img.copy() if first == 0 else _gauss(img, levels[first])
    index = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sh, sw = small.shape
    for i in range(first + 1, len(levels)):
        ys, xs = np.nonzero(small > i - 1 - 0.5)  # half a level of slack: the map is interpolated
        if len(xs) == 0:
            break
        x0, x1 = max(0, int((xs.min() - 1) * w / sw)), min(w, int((xs.max() + 2) * w / sw))
        y0, y1 = max(0, int((ys.min() - 1) * h / sh)), min(h, int((ys.max() + 2) * h / sh))
        pad = int(3 * levels[i]) + 2
        px0, py0, px1, py1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        blurred = _gauss(img[py0:py1, px0:px1], levels[i])[y0 - py0 : y1 - py0, x0 - px0 : x1 - px0]
        t = np.clip(index[y0:y1, x0:x1] - (i - 1), 0.0, 1.0)
        out[y0:y1, x0:x1] = cv2.blendLinear(blurred, out[y0:y1, x0:x1], t, 1.0 - t)
    return out


def _gauss(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; large sigmas are computed at reduced size (same look, a fraction of the time)."""
    h, w = img.shape[:2]
    k = 1
    while sigma / k > 5 and min(h, w) // (2 * k) > 16:
        k *= 2
    if k == 1:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    small = cv2.resize(img, (w // k, h // k), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), math.sqrt(max(sigma**2 - (0.5 * k) ** 2, 0.25)) / k)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _motion_blur(img: np.ndarray, length: float, angle_deg: float) -> np.ndarray:
    """Linear motion blur: turn the image so the motion is horizontal, box-blur rows, turn back."""
    if length < 1.5:
        return img
    h, w = img.shape[:2]
    a = math.radians(angle_deg)
    cw = int(abs(w * math.cos(a)) + abs(h * math.sin(a))) + 4
    ch = int(abs(w * math.sin(a)) + abs(h * math.cos(a))) + 4
    M = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle_deg, 1.0)
    M[:, 2] += ((cw - w) / 2, (ch - h) / 2)
    turned = cv2.warpAffine(img, M, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    k = max(2, int(round(length)))
    turned = cv2.blur(turned, (k, 1), borderType=cv2.BORDER_REFLECT)
    return cv2.warpAffine(
        turned, M, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REFLECT
    )


def _depth_blur_map(cam: Camera, style: PhotoStyle, focus_depth: float, scale: float) -> np.ndarray:
    """Per-pixel blur sigma (px) at 1/16 size: optical softness plus depth of field. 1/depth of the table
    plane is affine in the image, so it is cheap to evaluate."""
    w, h = cam.size
    sw, sh = max(2, w // 16), max(2, h // 16)
    xs = (np.arange(sw) + 0.5) * w / sw
    ys = (np.arange(sh) + 0.5) * h / sh
    uv = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    rays = np.column_stack([uv, np.ones(len(uv))]) @ np.linalg.inv(cam.K).T @ cam.R  # world directions
    C = cam.center
    lam = -C[2] / np.where(np.abs(rays[:, 2]) > 1e-9, rays[:, 2], 1e-9)  # hits Z = 0
    depth = lam * (rays @ cam.R[2])  # along the optical axis
    depth = np.where(lam > 0, depth, 1e6).reshape(sh, sw)
    # Blur circle ~ f_mm * f_px / N * |1/s - 1/d| for a phone main camera (f ~ 6 mm, f/1.8); as sigma.
    f_px = cam.K[0, 0]
    coef = 6.0 * f_px / 1.8 * 0.4 * style.aperture
    s = focus_depth * (1.0 + style.focus_error)
    dof = coef * np.abs(1.0 / s - 1.0 / depth)
    soft = style.softness_px * scale
    return np.sqrt(dof**2 + soft**2).astype(np.float32)


def _lighting(img: np.ndarray, style: PhotoStyle, rng: np.random.Generator) -> np.ndarray:
    """Gain field (gradient, vignetting, hand shadow, white balance, exposure), then glare; uint8 in and
    out. The fields are smooth, so they are built at 1/8 size."""
    h, w = img.shape[:2]
    sw, sh = max(8, w // 8), max(8, h // 8)
    x = (np.arange(sw, dtype=np.float32) + 0.5) / sw * 2 - 1
    y = (np.arange(sh, dtype=np.float32)[:, None] + 0.5) / sh * 2 - 1
    aspect = h / w
    a = math.radians(style.gradient_angle_deg)
    ramp = math.cos(a) * x + math.sin(a) * y * aspect
    gain = 1.0 + style.gradient * np.tanh(1.2 * ramp) / math.tanh(1.2)
    gain = gain + 0.04 * style.gradient * _smooth((sh, sw), rng, 4)
    r2 = (x**2 + (y * aspect) ** 2) / (1 + aspect**2)
    gain = gain * (1.0 - style.vignette * (0.7 * r2 + 0.3 * r2 * r2))
    gain = np.broadcast_to(gain, (sh, sw)).astype(np.float32)
    gains = [gain * (style.exposure * wb) for wb in style.white_balance]
    if style.hand_shadow > 0:
        mask = _hand_mask((sh, sw), rng)
        for c, tint in enumerate((0.85, 0.95, 1.0)):  # the shadow is lit by bluer ambient light
            gains[c] = gains[c] * (1.0 - style.hand_shadow * tint * mask)
    small = cv2.merge(gains)
    if np.all(np.abs(small - 1.0) < 1e-6):
        out = img
    else:
        out = cv2.multiply(img, cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), dtype=cv2.CV_8U)
    if style.hard_shadow > 0:
        mask = _hard_shadow_mask((h, w), rng, w / REFERENCE_LONG_SIDE)
        # lit by the bluer sky light only: blue darkens least
        gain3 = [1.0 - style.hard_shadow * tint * mask for tint in (0.85, 0.95, 1.0)]
        out = cv2.multiply(out, cv2.merge(gain3), dtype=cv2.CV_8U)
    if style.glare > 0:
        cx, cy = rng.uniform(0.1, 0.9) * sw, rng.uniform(0.1, 0.9) * sh
        sx, sy = rng.uniform(0.04, 0.18) * sw, rng.uniform(0.04, 0.18) * sw
        th = rng.uniform(0, math.pi)
        xx, yy = np.meshgrid(np.arange(sw) - cx, np.arange(sh) - cy)
        u = (math.cos(th) * xx + math.sin(th) * yy) / sx
        v = (-math.sin(th) * xx + math.cos(th) * yy) / sy
        blob = np.exp(-0.5 * (u * u + v * v)) + 0.6 * np.exp(-2.5 * (u * u + v * v))
        add = np.clip(style.glare * 200 * blob, 0, 255).astype(np.uint8)
        add = cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.add(out, cv2.cvtColor(add, cv2.COLOR_GRAY2BGR))  # white light: washes colour out
    return out


def _smooth(shape: tuple[int, int], rng: np.random.Generator, cells: int) -> np.ndarray:
    g = rng.standard_normal((cells + 2, cells + 2)).astype(np.float32)
    return cv2.resize(g, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _hand_mask(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A blurred forearm-and-hand (or phone) silhouette entering from a frame edge, 0..1."""
    sh, sw = shape
    m = np.zeros(shape, np.float32)
    edge = int(rng.integers(4))
    along = rng.uniform(0.15, 0.85)
    start = {0: (along * sw, -5), 1: (sw + 5, along * sh), 2: (along * sw, sh + 5), 3: (-5, along * sh)}[edge]
    inward = {0: (0, 1), 1: (-1, 0), 2: (0, -1), 3: (1, 0)}[edge]
    ang = math.atan2(inward[1], inward[0]) + rng.normal(0, 0.35)
    d = np.array([math.cos(ang), math.sin(ang)])
    n = np.array([-d[1], d[0]])
    size = min(sh, sw)
    reach = rng.uniform(0.25, 0.6) * size
    width = rng.uniform(0.12, 0.22) * size
    p0 = np.array(start)
    p1 = p0 + d * reach
    if rng.random() < 0.7:  # forearm and hand
        arm = np.array([p0 + n * width / 2, p1 + n * width / 2, p1 - n * width / 2, p0 - n * width / 2])
        cv2.fillConvexPoly(m, np.round(arm * _ONE).astype(np.int32), 1.0, cv2.LINE_AA, _SHIFT)
        hand = p1 + d * width * 0.5
        ax = (int(width * 0.75 * _ONE), int(width * 0.55 * _ONE))
        cv2.ellipse(
            m,
            (int(hand[0] * _ONE), int(hand[1] * _ONE)),
            ax,
            math.degrees(ang),
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
            _SHIFT,
        )
        for k in range(4):  # fingers
            tip = hand + d * width * rng.uniform(0.8, 1.15) + n * width * (k - 1.5) * 0.3
            base = hand + n * width * (k - 1.5) * 0.3
            cv2.line(
                m,
                (int(base[0] * _ONE), int(base[1] * _ONE)),
                (int(tip[0] * _ONE), int(tip[1] * _ONE)),
                1.0,
                max(1, int(width * 0.18)),
                cv2.LINE_AA,
                _SHIFT,
            )
    else:  # the phone itself, held high: a rounded slab
        ph = np.array(
            [p0 + n * width * 0.4, p1 + n * width * 0.4, p1 - n * width * 0.4, p0 - n * width * 0.4]
        )
        cv2.fillConvexPoly(m, np.round(ph * _ONE).astype(np.int32), 1.0, cv2.LINE_AA, _SHIFT)
    return cv2.GaussianBlur(m, (0, 0), rng.uniform(0.03, 0.08) * size)


def _tone_lut(style: PhotoStyle) -> np.ndarray:
    """The phone's tone curve as a 256-entry LUT: gamma and an S-curve around mid grey."""
    x = np.arange(256, dtype=np.float64) / 255.0
    y = x ** (1.0 / style.gamma)
    s = 0.5 - 0.5 * np.cos(np.pi * y)  # smooth S with the same end points
    y = (1 - style.contrast) * y + style.contrast * s
    return np.clip(np.round(y * 255), 0, 255).astype(np.uint8)


_GAUSS_LUT = np.array([NormalDist().inv_cdf((k + 0.5) / 256) for k in range(256)], np.float32)


def _add_noise(img: np.ndarray, style: PhotoStyle, rng: np.random.Generator) -> np.ndarray:
    """Luminance grain (per pixel) plus chroma blotches (low resolution), as a phone leaves them after
    its own denoising; uint8 in and out. Gaussian values come from random bytes through an inverse-CDF
    table: fast, deterministic, and the tails (beyond 2.9 sigma) hardly matter for grain."""
    h, w = img.shape[:2]
    out = img
    if style.noise > 0:
        lut = np.clip(np.round(128 + style.noise * _GAUSS_LUT), 0, 255).astype(np.uint8)
        lum = cv2.LUT(rng.integers(0, 256, (h, w), dtype=np.uint8), lut)
        out = cv2.addWeighted(out, 1.0, cv2.cvtColor(lum, cv2.COLOR_GRAY2BGR), 1.0, -128.0)
    if style.chroma_noise > 0:
        k = 4
        sh, sw = max(1, h // k), max(1, w // k)
        ch = _GAUSS_LUT[rng.integers(0, 256, (sh, sw, 3), dtype=np.uint8)] * np.float32(style.chroma_noise)
        ch -= ch.mean(axis=2, keepdims=True)  # colour only
        ch = cv2.GaussianBlur(ch, (0, 0), 0.7)
        ch = np.clip(ch + 128.0, 0, 255).astype(np.uint8)
        out = cv2.addWeighted(out, 1.0, cv2.resize(ch, (w, h), interpolation=cv2.INTER_LINEAR), 1.0, -128.0)
    return out


def _saturate(img: np.ndarray, s: float) -> np.ndarray:
    if abs(s - 1.0) < 1e-3:
        return img
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return cv2.addWeighted(img, s, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), 1.0 - s, 0.0)


def _sharpen(img: np.ndarray, amount: float, scale: float) -> np.ndarray:
    if amount <= 0.02:
        return img
    blur = cv2.GaussianBlur(img, (0, 0), max(0.6, 1.2 * scale))
    return cv2.addWeighted(img, 1.0 + amount, blur, -amount, 0.0)

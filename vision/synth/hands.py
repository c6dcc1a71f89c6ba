"""A player's hand entering the photo: forearm, palm and fingers (or only fingertips, or a hand holding a
pencil) reaching in from a frame edge, with its soft shadow on the table.

`draw_hand` draws into a BGR photo in place and returns the hand's alpha mask. The hand is built as a
union of convex pieces (tapered tubes for the arm and the phalanges, hulls for the palm and the sleeve) in
hand units (the palm is 1 wide, u runs from the wrist toward the fingers, v across toward the thumb),
placed in the image and checked against an optional keep-out polygon (the game board) with a
separating-axis test. It is then rendered part by part, back to front, into a patch around it: each part is
shaded as a rounded solid from the distance to its outline (computed exactly from its pieces, so that it
is smooth, rather than by a distance transform of the rasterised mask, whose integer steps band the
shading), with Lambert light and a soft sheen; it casts a little ambient occlusion on the parts under it
and gets its details (nails, knuckle creases). Big photos are rendered at a reduced resolution and the
patch is scaled up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.hand_pose import _hull, _Look, _Part, _perp, _pose, _random_look, _Shape, _unit

_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT
_WORK_PALM_PX = 200.0  # palm width at which parts are rendered at most; larger hands are drawn scaled down
_TRIES = 20

# Skin tones across the human range, very light to very dark (RGB as photographed in indoor light).
# ---------------------------------------------------------------------------------------------- placement


def _clip_to_rect(poly: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Sutherland-Hodgman: a convex polygon clipped to an axis-aligned rectangle."""
    out = [tuple(p) for p in poly]
    for axis, bound, keep_less in ((0, x0, False), (0, x1, True), (1, y0, False), (1, y1, True)):
        if not out:
            break
        src, out = out, []
        for i in range(len(src)):
            p, q = src[i], src[(i + 1) % len(src)]
            pin = p[axis] <= bound if keep_less else p[axis] >= bound
            qin = q[axis] <= bound if keep_less else q[axis] >= bound
            if pin:
                out.append(p)
            if pin != qin:
                t = (bound - p[axis]) / (q[axis] - p[axis])
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return np.array(out, np.float64).reshape(-1, 2)


def _axes(polys: np.ndarray) -> np.ndarray:
    """Unit edge normals of padded polygons (..., M, 2); zero for repeated (padding) vertices."""
    e = np.roll(polys, -1, axis=-2) - polys
    nrm = np.stack([-e[..., 1], e[..., 0]], -1)
    length = np.linalg.norm(nrm, axis=-1, keepdims=True)
    return np.where(length > 1e-9, nrm / np.maximum(length, 1e-9), 0.0)


class _Clearance:
    """Separating-axis test of a set of convex pieces, translated by an offset, against the keep-out
    polygon grown by a margin. Conservative near corners (it may see a conflict that is not there)."""

    def __init__(self, pieces: list[np.ndarray], keep: np.ndarray, margin: float) -> None:
        m = max(len(p) for p in pieces)
        q = np.stack([np.vstack([p, np.repeat(p[-1:], m - len(p), 0)]) for p in pieces])  # (P, M, 2)
        ah = _axes(q)
        proj = np.einsum("pad,pmd->pam", ah, q)
        self.h_min, self.h_max = proj.min(-1), proj.max(-1)  # (P, M)
        kp = np.einsum("pad,kd->pak", ah, keep)
        self.kh_min, self.kh_max = kp.min(-1), kp.max(-1)
        ak = _axes(keep)
        hk = np.einsum("kd,pmd->pkm", ak, q)
        self.hk_min, self.hk_max = hk.min(-1), hk.max(-1)  # (P, K)
        kk = keep @ ak.T
        self.kk_min, self.kk_max = kk.min(0), kk.max(0)  # (K,)
        self.ah, self.ak, self.margin = ah, ak, margin

    def conflicts(self, offsets: np.ndarray) -> np.ndarray:
        """For each offset (N, 2): whether the moved pieces come within the margin of the keep-out."""
        sh = self.ah @ offsets.T  # (P, M, N)
        m = self.margin
        sep_h = (self.h_min[..., None] + sh > self.kh_max[..., None] + m) | (
            self.kh_min[..., None] > self.h_max[..., None] + sh + m
        )
        sk = (self.ak @ offsets.T)[None]  # (1, K, N)
        sep_k = (self.hk_min[..., None] + sk > self.kk_max[:, None] + m) | (
            self.kk_min[:, None] > self.hk_max[..., None] + sk + m
        )
        return (~(sep_h.any(1) | sep_k.any(1))).any(0)


@dataclass
class _Placement:
    parts: list[_Part]  # image px
    width: float


def _place(
    rng: np.random.Generator,
    look: _Look,
    shape: tuple[int, int],
    width: float,
    keep: np.ndarray | None,
    margin: float,
) -> _Placement | None:
    h, w = shape
    arm_len = 3.0 + 1.6 * max(h, w) / width
    mode = str(rng.choice(["hand", "tips", "pencil"], p=[0.6, 0.2, 0.2]))
    parts, tip_u = _pose(rng, look, mode, arm_len)
    pitch = math.cos(math.radians(rng.uniform(0.0, 30.0)))
    side = 1.0 if rng.random() < 0.5 else -1.0

    edge = int(rng.integers(4))
    along = float(rng.uniform(0.12, 0.88))
    inward = np.array([(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][edge])
    entry = np.array(
        [
            (along * (w - 1), -0.5),
            (w - 0.5, along * (h - 1)),
            (along * (w - 1), h - 0.5),
            (-0.5, along * (h - 1)),
        ][edge]
    )
    depth = h if edge in (0, 2) else w
    ang = math.atan2(inward[1], inward[0]) + float(np.clip(rng.normal(0, 0.3), -0.7, 0.7))
    u_dir = _unit(ang)
    v_dir = side * _perp(u_dir)
    lin = width * np.stack([u_dir * pitch, v_dir])  # local (u, v) -> image, rows

    def to_img(p: np.ndarray) -> np.ndarray:
        return np.asarray(p, np.float64) @ lin

    shapes = [[q.mapped(to_img, width) for q in p.shapes] for p in parts]
    pieces = [q.outline() for sh in shapes for q in sh]
    deepest = max(float((q @ inward).max()) for q in pieces)
    along_in = float(u_dir @ inward)
    if mode == "tips":
        reach = float(rng.uniform(0.3, 0.75)) * (tip_u - 1.0) * width * pitch
        reach = min(max(reach, 0.06 * depth), 0.3 * depth)
    else:
        reach = float(rng.uniform(0.10, 0.45)) * depth
        reach = min(reach, (tip_u + 2.5) * width)
    # Slide the hand along its axis until its deepest point is `reach` px inside the frame edge; when it
    # comes too near the keep-out, shrink the reach.
    steps = max(1, math.ceil(math.log(0.04 * depth / reach) / math.log(0.82)))
    reaches = reach * 0.82 ** np.arange(steps)
    offsets = entry + np.outer((reaches - deepest) / along_in, u_dir)
    ok = np.ones(len(offsets), bool) if keep is None else ~_Clearance(pieces, keep, margin).conflicts(offsets)
    if not ok.any():
        return None
    offset = offsets[int(np.argmax(ok))]
    return _Placement([_placed(p, sh, lin, offset) for p, sh in zip(parts, shapes, strict=True)], width)


def _placed(p: _Part, shapes: list[_Shape], lin: np.ndarray, offset: np.ndarray) -> _Part:
    """The part `p` (hand units) in image px: local (u, v) @ lin + offset; `shapes` are already mapped by
    lin."""

    def to_img(q: np.ndarray) -> np.ndarray:
        return np.asarray(q, np.float64) @ lin + offset

    fade = None
    if p.fade is not None:
        pt, d, s0, s1 = p.fade
        dd = np.asarray(d, np.float64) @ lin
        scale = float(np.linalg.norm(dd))
        fade = (to_img(pt), dd / scale, s0 * scale, s1 * scale)
    moved = [_Shape(q.kind, q.pts + offset, q.r0, q.r1) for q in shapes]
    return _Part(
        moved,
        p.colour,
        p.radius * float(np.linalg.norm(lin[1])),
        p.ao,
        p.gloss,
        [to_img(c) for c in p.creases],
        p.crease_strength,
        [to_img(nl) for nl in p.nails],
        fade,
        p.poly_colours,
        [q.outline() for q in moved],
    )


# ---------------------------------------------------------------------------------------------- rendering


def _work_scale(width: float) -> float:
    """The resolution the hand is rendered at, relative to the photo's: 1 or 1 / n (an integer factor
    makes the final upscaling cheap)."""
    return 1.0 if width <= 1.25 * _WORK_PALM_PX else 1.0 / math.ceil(width / _WORK_PALM_PX)


def _fill(img: np.ndarray, pts: np.ndarray, value: int = 255) -> None:
    cv2.fillConvexPoly(img, np.round(pts * _ONE).astype(np.int32), value, cv2.LINE_AA, _SHIFT)


def _render(
    image: np.ndarray, pl: _Placement, look: _Look, light: np.ndarray, rng: np.random.Generator
) -> np.ndarray | None:
    h, w = image.shape[:2]
    width = pl.width
    f = _work_scale(width)
    shadow_off = -light * look.shadow_offset * width
    shadow_pad = float(np.abs(shadow_off).max()) + 3.0 * look.shadow_sigma * width + 4.0 * look.edge_sigma + 3
    allp = np.vstack([q for p in pl.parts for q in p.polys])
    x0 = int(max(0, math.floor(allp[:, 0].min() - shadow_pad)))
    y0 = int(max(0, math.floor(allp[:, 1].min() - shadow_pad)))
    x1 = int(min(w, math.ceil(allp[:, 0].max() + shadow_pad) + 1))
    y1 = int(min(h, math.ceil(allp[:, 1].max() + shadow_pad) + 1))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    n = round(1.0 / f)
    ww, wh = max(2, -(-(x1 - x0) // n)), max(2, -(-(y1 - y0) // n))
    scale = np.array([f, f])
    org = np.array([x0, y0], np.float64)

    def work(p: np.ndarray) -> np.ndarray:
        return (p - org + 0.5) * scale - 0.5

    fw = float(scale.mean())
    lz = math.cos(look.elevation)
    lx, ly = (float(c) * math.sin(look.elevation) for c in light)
    hn = math.sqrt(lx * lx + ly * ly + (lz + 1.0) ** 2)
    hx, hy, hz = lx / hn, ly / hn, (lz + 1.0) / hn
    P = np.zeros((wh, ww, 3), np.float32)
    A = np.zeros((wh, ww), np.float32)
    g = rng.standard_normal((5, 5)).astype(np.float32)  # a faint low-frequency mottling of the light
    mottle = 1.0 + 0.05 * cv2.resize(g, (ww, wh), interpolation=cv2.INTER_CUBIC)
    ao_sigma = max(0.8, 0.045 * width * fw)
    detail_px = max(1, round(0.008 * width * fw))
    box = max(1, round(math.sqrt(6.0 * ao_sigma * ao_sigma + 1.0))) | 1

    for part in pl.parts:
        polys = [work(q) for q in part.polys]
        pts = np.vstack(polys)
        r = max(1.0, part.radius * fw)
        pad = math.ceil(3 * ao_sigma) + 2
        ext = math.ceil(r) + pad
        rx0 = max(int(math.floor(pts[:, 0].min())) - pad, -ext)
        ry0 = max(int(math.floor(pts[:, 1].min())) - pad, -ext)
        rx1 = min(int(math.ceil(pts[:, 0].max())) + pad + 1, ww + ext)
        ry1 = min(int(math.ceil(pts[:, 1].max())) + pad + 1, wh + ext)
        cx0, cy0, cx1, cy1 = max(rx0, 0), max(ry0, 0), min(rx1, ww), min(ry1, wh)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        o = np.array([rx0, ry0], np.float64)
        m = np.zeros((ry1 - ry0, rx1 - rx0), np.uint8)
        for q in polys:
            _fill(m, q - o)
        sl = (slice(cy0 - ry0, cy1 - ry0), slice(cx0 - rx0, cx1 - rx0))
        tgt = (slice(cy0, cy1), slice(cx0, cx1))
        xs = np.arange(rx0, rx1, dtype=np.float32)[None, :]
        ys = np.arange(ry0, ry1, dtype=np.float32)[:, None]
        dt = None
        for q in part.shapes:
            d = q.mapped(work, fw).inside(xs, ys)
            dt = d if dt is None else np.maximum(dt, d, out=dt)
        if len(part.shapes) > 1 or part.shapes[0].kind == "poly":  # round off the creases of the field
            k = max(1, round(0.5 * r)) | 1  # two box passes: about a Gaussian of 0.2 r
            dt = cv2.blur(cv2.blur(dt, (k, k)), (k, k))
        np.clip(dt, 0.0, 1.5 * r, out=dt)
        gx = cv2.Sobel(dt, cv2.CV_32F, 1, 0, ksize=3)[sl]
        gy = cv2.Sobel(dt, cv2.CV_32F, 0, 1, ksize=3)[sl]
        # A rounded solid: at distance dt inside its outline the surface is a circle of radius r seen edge
        # on, its normal tilted outward (against the distance gradient) by (1 - t).
        t = dt[sl] * (1.0 / r)
        np.minimum(t, 1.0, out=t)
        nz = np.sqrt(t * (2.0 - t))
        mag = cv2.magnitude(gx, gy)
        np.maximum(mag, 8.0, out=mag)  # a 3x3 Sobel of a unit slope is 8; flatter near the ridge
        k = cv2.divide(1.0 - t, mag)
        lam = cv2.addWeighted(nz, lz, cv2.multiply(k, cv2.addWeighted(gx, lx, gy, ly, 0.0)), -1.0, 0.0)
        np.maximum(lam, 0.0, out=lam)
        lam = cv2.multiply(lam, mottle[tgt])
        spec = cv2.addWeighted(nz, hz, cv2.multiply(k, cv2.addWeighted(gx, hx, gy, hy, 0.0)), -1.0, 0.0)
        np.maximum(spec, 0.0, out=spec)
        spec = cv2.pow(spec, look.power)
        spec *= 255.0 * look.gloss * part.gloss
        if part.poly_colours is None:
            c = part.colour * look.exposure
            shade_m = np.array(
                [
                    [0.62 * c[0], 1.0, look.ambient * c[0]],
                    [0.62 * c[1], 1.0, look.ambient * c[1]],
                    [0.62 * c[2], 1.0, look.ambient * c[2]],
                ],
                np.float32,
            )
            col = cv2.transform(cv2.merge([lam, spec]), shade_m)  # (ambient + 0.62 lambert) colour + sheen
        else:
            albedo = np.zeros((*m.shape, 3), np.float32)
            for q, c in zip(polys, part.poly_colours, strict=True):
                cv2.fillConvexPoly(
                    albedo,
                    np.round((q - o) * _ONE).astype(np.int32),
                    tuple(float(v) for v in c),
                    cv2.LINE_8,
                    _SHIFT,
                )
            shade = lam * (0.62 * look.exposure) + look.ambient * look.exposure
            col = cv2.add(cv2.multiply(albedo[sl], cv2.merge([shade] * 3)), cv2.merge([spec] * 3))
        a = m.astype(np.float32) * (1.0 / 255.0)
        if part.fade is not None:
            pt, d, s0, s1 = part.fade
            pw, dw = work(pt) - o, d * scale
            dw /= np.linalg.norm(dw)
            span = float((s1 - s0) * fw)
            xs = (np.arange(rx1 - rx0, dtype=np.float32) - float(pw[0])) * float(dw[0] / span)
            ys = (np.arange(ry1 - ry0, dtype=np.float32) - float(pw[1])) * float(dw[1] / span)
            ramp = xs[None, :] + (ys[:, None] - float(s0 * fw / span))
            a *= np.clip(ramp, 0.0, 1.0)
        ac = a[sl]
        keep = 1.0 - ac
        if part.ao > 0:
            occ = cv2.blur(cv2.blur(a, (box, box)), (box, box))[sl]  # about a Gaussian of ao_sigma
            keep *= 1.0 - part.ao * occ
        P[tgt] = cv2.add(cv2.multiply(P[tgt], cv2.merge([keep] * 3)), cv2.multiply(col, cv2.merge([ac] * 3)))
        A[tgt] = A[tgt] * (1.0 - ac) + ac
        if part.creases:
            cm = np.zeros_like(m)
            lines = [np.round((work(c) - o) * _ONE).astype(np.int32) for c in part.creases]
            cv2.polylines(cm, lines, False, 255, detail_px, cv2.LINE_AA, _SHIFT)
            cmf = 1.0 - cm[sl].astype(np.float32) * (part.crease_strength / 255.0) * ac
            P[tgt] = cv2.multiply(P[tgt], cv2.merge([cmf] * 3))
        if part.nails:
            nm = np.zeros_like(m)
            for q in part.nails:
                _fill(nm, work(q) - o)
            nmf = nm[sl].astype(np.float32) * (1.0 / 255.0) * ac
            ratio = look.nail / np.maximum(part.colour, 1.0) - 1.0
            tint = cv2.merge([1.0 + nmf * float(ratio[i]) for i in range(3)])
            P[tgt] = cv2.add(cv2.multiply(P[tgt], tint), cv2.merge([nmf * spec * 0.8] * 3))

    # Soft silhouette edges; the colour in 8 bits.
    es = look.edge_sigma * fw
    A = cv2.GaussianBlur(A, (0, 0), es)
    _, A = cv2.threshold(A, 1.0 / 512, 0, cv2.THRESH_TOZERO)
    if not A.any():
        return None
    P8 = cv2.GaussianBlur(cv2.convertScaleAbs(P), (0, 0), es)
    drawn = cv2.convertScaleAbs(cv2.threshold(A, 0.0, 255.0, cv2.THRESH_BINARY)[1])
    P8 = cv2.bitwise_and(P8, P8, mask=drawn)
    # The shadow: the silhouette moved away from the light and blurred, at a quarter of the resolution.
    q = 4 if min(ww, wh) >= 64 else 1
    small = cv2.resize(A, (max(1, ww // q), max(1, wh // q)), interpolation=cv2.INTER_AREA)
    sw = np.array([small.shape[1] / ww, small.shape[0] / wh])
    off = shadow_off * scale * sw
    M = np.array([[1.0, 0.0, off[0]], [0.0, 1.0, off[1]]], np.float32)
    S = cv2.warpAffine(small, M, (small.shape[1], small.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    S = cv2.GaussianBlur(S, (0, 0), max(0.5, look.shadow_sigma * width * fw * float(sw.mean())))
    S = cv2.resize(S, (ww, wh), interpolation=cv2.INTER_LINEAR)
    # What stays of the photo under the shadow and the hand, and the hand's own light, in 8 bits.
    keep = cv2.multiply(1.0 - look.shadow_dark * S, 1.0 - A)
    keep8 = cv2.convertScaleAbs(keep, alpha=255.0)
    # Back to the photo's resolution band by band, each only as wide as what it touches there (an arm
    # crossing the frame diagonally leaves most of its bounding box alone).
    touched = (keep8 < 255) | (A > 0)
    mask = np.zeros((h, w), np.float32)
    band = max(1, 64 // n)
    for b0 in range(0, wh, band):
        b1 = min(wh, b0 + band)
        near = touched[max(0, b0 - 1) : b1 + 1]
        cols = np.flatnonzero(near.any(0))
        if cols.size == 0:
            continue
        c0, c1 = max(0, int(cols[0]) - 1), min(ww, int(cols[-1]) + 2)
        if n == 1:
            parts8 = [keep8[b0:b1, c0:c1], P8[b0:b1, c0:c1], A[b0:b1, c0:c1]]
        else:  # scale up with a pixel of margin, so that the band matches a whole-patch resize exactly
            m0, m1, k0, k1 = max(0, b0 - 1), min(wh, b1 + 1), max(0, c0 - 1), min(ww, c1 + 1)
            cut = (slice((b0 - m0) * n, (b1 - m0) * n), slice((c0 - k0) * n, (c1 - k0) * n))
            size = ((k1 - k0) * n, (m1 - m0) * n)
            parts8 = [
                cv2.resize(x[m0:m1, k0:k1], size, interpolation=cv2.INTER_LINEAR)[cut] for x in (keep8, P8, A)
            ]
        ry0, ry1 = y0 + b0 * n, min(y1, y0 + b1 * n)
        rx0, rx1 = x0 + c0 * n, min(x1, x0 + c1 * n)
        kb, pb, ab = (x[: ry1 - ry0, : rx1 - rx0] for x in parts8)
        region = cv2.multiply(image[ry0:ry1, rx0:rx1], cv2.cvtColor(kb, cv2.COLOR_GRAY2BGR), scale=1.0 / 255)
        image[ry0:ry1, rx0:rx1] = cv2.add(region, pb)
        np.minimum(ab, 1.0, out=mask[ry0:ry1, rx0:rx1])
    return mask


def draw_hand(
    image: np.ndarray,
    rng: np.random.Generator,
    keep_out: np.ndarray | None = None,
    light_dir: tuple[float, float] = (0.0, -1.0),
    scale_px: float | None = None,
) -> np.ndarray | None:
    """Draw a hand (forearm, palm and fingers; only fingertips; or a hand holding a pencil) reaching into
    the BGR uint8 `image` from one of its edges, in place, with its soft shadow on the table.

    `keep_out`: a convex polygon (N, 2) in image px the hand must not cover (the game board); placements
    are tried and the reach shrunk until the hand clears it, and when none does in a few tries nothing is
    drawn. `light_dir`: the direction in the image the light comes from (the shadow falls the other way).
    `scale_px`: the palm's width in px (a hand is about 85 mm wide; default 12-22% of the short side).
    Returns the hand's alpha mask (float32 0..1, H x W; the hand, what it holds and the sleeve, not the
    shadow), or None when nothing was drawn."""
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"draw_hand wants a BGR uint8 image, got {image.dtype} {image.shape}")
    h, w = image.shape[:2]
    width = float(scale_px) if scale_px is not None else float(rng.uniform(0.12, 0.22) * min(h, w))
    width = max(width, 6.0)
    light = np.asarray(light_dir, np.float64).reshape(2)
    norm = float(np.linalg.norm(light))
    light = light / norm if norm > 1e-9 else np.array([0.0, -1.0])
    look = _random_look(rng)
    f = _work_scale(width)
    margin = 3.0 + 4.0 * look.edge_sigma + 3.0 / f  # anti-aliasing, edge blur and upscaling
    keep = None
    if keep_out is not None:
        ko = np.asarray(keep_out, np.float64).reshape(-1, 2)
        if len(ko) >= 3:
            ko = _clip_to_rect(_hull(ko), -0.5, -0.5, w - 0.5, h - 0.5)
            if len(ko) >= 3:
                keep = ko
    for _ in range(_TRIES):
        pl = _place(rng, look, (h, w), width, keep, margin)
        if pl is not None:
            return _render(image, pl, look, light, rng)
    return None

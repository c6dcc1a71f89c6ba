"""What a simulated photo is made of and how it looks: the pieces on the table (`Piece`), the
camera's and the light's look drawn for a photo (`PhotoStyle`, `draw_style`, from the world's
conditions), and a finished shot (`Shot`). `vision.synth.photo` renders them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.synth.tables import TABLE_KINDS
from vision.synth.world import Conditions

# ---------------------------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Piece:
    """A flat component lying on the table."""

    image: np.ndarray  # BGR face, upright: image top = the piece's N side
    size_mm: tuple[float, float]  # (width, height)
    center_mm: tuple[float, float]  # on the table plane; x right, y down as seen from the player
    angle_deg: float = 0.0  # clockwise turn on the table
    thickness_mm: float = 1.8  # cardboard: its edge shows in tilted views
    corner_radius_mm: float = 1.5
    layer: int = 0  # drawing order: higher lies on top (overlapping cards)
    curl_mm: float = 0.0  # cardboard curl: two opposite edges lift off the table by this much
    curl_axis: int = 0  # 0: the N and S edges lift (bent about the E-W line), 1: the E and W edges
    printed: bool = True  # a printed component (print run variation applies), not a note or paper


@dataclass(frozen=True)
class PhotoStyle:
    """Every parameter that sets a photo's look. The defaults are a clean render: straight down, even
    light, no shadows, no blur, no noise, no distortion, plain table, no clutter objects."""

    # Camera.
    portrait: bool = False
    focal_equiv_mm: float = 26.0
    tilt_deg: float = 0.0  # angle of the optical axis from straight down, 0..40
    tilt_dir_deg: float = 0.0  # direction of the tilt in the image; 0: the image top is farther away
    roll_deg: float = 0.0  # in-plane rotation: the table's x axis appears turned clockwise by this
    fill: float = 0.5  # subject box area / frame area, 0.25..0.85 (used when span is 0)
    span: float = 0.0  # subject's longer side / frame's shorter side (0.1..0.95); 0: frame by fill
    offset: tuple[float, float] = (0.0, 0.0)  # subject position in the frame's free space, -1..1
    k1: float = 0.0  # radial distortion (OpenCV model)
    k2: float = 0.0
    # Table and clutter.
    table: str = "plain"
    table_terrain_hue: bool = False  # the table takes one of the terrains' own colours
    clutter_objects: int = 0  # mugs, dice, pencils, pens, notes near the frame edges
    # Light.
    light_azimuth_deg: float = 45.0  # direction toward the light, on the table
    light_elevation_deg: float = 60.0
    shadow_strength: float = 0.0  # darkening under a piece's shadow, 0..1
    shadow_softness_mm: float = 1.0
    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R gains
    gradient: float = 0.0  # strength of a smooth illumination ramp across the frame
    gradient_angle_deg: float = 0.0
    vignette: float = 0.0  # darkening at the corners
    hand_shadow: float = 0.0  # darkening of a hand/phone shadow entering from an edge, 0: none
    glare: float = 0.0  # strength of a soft specular blob, 0: none
    hard_shadow: float = 0.0  # darkening under a sharp-edged cast shadow (a lamp, a person), 0: none
    gloss: float = 0.0  # glossy print: the light's reflection on the pieces, 0: matte
    hand: bool = False  # a player's hand enters the frame (never over the subject)
    # Print.
    print_jitter: float = 0.0  # per-piece colour variation (brightness, saturation, hue)
    print_fade: float = 0.0  # the whole print run: < 0 faded (towards the paper), > 0 over-inked
    print_saturation: float = 1.0  # the whole print run's saturation gain
    print_hue: float = 0.0  # the whole print run's hue drift, degrees
    edge_tone: float = 1.0  # brightness of the cardboard edge
    paper_grain: float = 0.0  # fine texture of the printed surface (relative amplitude)
    sheen: float = 0.0  # light reflected off each piece's coating: a gentle ramp across it
    # Optics, sensor, phone processing.
    softness_px: float = 0.0  # optical blur sigma, in pixels of a 4000 px photo
    aperture: float = 0.0  # depth-of-field strength, 0: everything sharp
    focus_error: float = 0.0  # focus distance off the subject by this fraction (defocus)
    motion_px: float = 0.0  # motion blur length, in pixels of a 4000 px photo
    motion_angle_deg: float = 0.0
    sharpen: float = 0.0  # unsharp-mask amount
    contrast: float = 0.0  # S-curve strength
    gamma: float = 1.0
    saturation: float = 1.0
    noise: float = 0.0  # luminance noise sigma, grey levels
    chroma_noise: float = 0.0  # colour blotch noise sigma, grey levels


@dataclass(frozen=True)
class Shot:
    """A photograph and its truth."""

    image: np.ndarray  # BGR uint8
    corners: tuple[np.ndarray, ...]  # per piece (input order): 4x2 float32 image xy of TL, TR, BR, BL
    homography: np.ndarray  # table mm -> image px before lens distortion (apply camera["dist"] after)
    camera: dict = field(default_factory=dict)  # camera and style parameters, JSON-ready
    clutter_corners: tuple[np.ndarray, ...] = ()  # caller's clutter pieces that were placed, same form
    edge_corners: tuple[np.ndarray, ...] = ()  # the edge groups' pieces that were placed, same form


# ---------------------------------------------------------------------------------------------- styles


def draw_style(rng: np.random.Generator, conditions: Conditions | None = None) -> PhotoStyle:
    """A random phone-photo look; with `conditions` (vision.synth.world), the one those ask for:
    framing by span, tilt, table family and hue, and the light and print they name."""
    u = rng.random
    tilt_dir = float(rng.normal(0, 25)) if u() < 0.7 else float(rng.uniform(0, 360))
    temp = float(rng.normal(0, 0.07))  # white balance: + warm, - cool
    tint = float(rng.normal(0, 0.025))
    exposure = float(np.exp(rng.uniform(np.log(0.55), np.log(1.25))))
    dark = 1.0 / exposure
    style = PhotoStyle(
        portrait=bool(u() < 0.35),
        focal_equiv_mm=float(rng.uniform(23, 28)),
        tilt_deg=float(40 * u() ** 1.2),
        tilt_dir_deg=tilt_dir,
        roll_deg=float(rng.uniform(0, 360)),
        fill=float(rng.uniform(0.27, 0.83)),
        offset=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
        k1=float(rng.uniform(-0.05, 0.03)),  # what a phone leaves after its own correction
        k2=float(rng.uniform(-0.01, 0.01)),
        table=str(TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]),
        clutter_objects=int(rng.choice([0, 1, 2, 3, 4], p=[0.25, 0.25, 0.2, 0.15, 0.15])),
        light_azimuth_deg=float(rng.uniform(0, 360)),
        light_elevation_deg=float(rng.uniform(25, 85)),
        shadow_strength=float(rng.uniform(0.15, 0.5)),
        shadow_softness_mm=float(rng.uniform(0.4, 3.0)),
        exposure=exposure,
        white_balance=(1.0 - temp + 0.5 * tint, 1.0 - tint, 1.0 + temp + 0.5 * tint),
        gradient=float(rng.uniform(0, 0.35)),
        gradient_angle_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.45)),
        hand_shadow=float(rng.uniform(0.2, 0.55)) if u() < 0.3 else 0.0,
        glare=float(rng.uniform(0.2, 0.6)) if u() < 0.2 else 0.0,
        print_jitter=float(rng.uniform(0.02, 0.07)),
        edge_tone=float(rng.uniform(0.8, 1.15)),
        paper_grain=float(rng.uniform(0.003, 0.012)),
        sheen=float(rng.uniform(0.0, 0.08)),
        softness_px=float(rng.uniform(0.5, 1.4)),
        aperture=float(rng.uniform(0.2, 1.0)),
        focus_error=float(rng.normal(0, 0.2)) if u() < 0.2 else float(rng.normal(0, 0.02)),
        motion_px=float(rng.uniform(2, 14)) if u() < 0.15 else 0.0,
        motion_angle_deg=float(rng.uniform(0, 180)),
        sharpen=float(rng.uniform(0, 0.9)),
        contrast=float(rng.uniform(0, 0.3)),
        gamma=float(rng.uniform(0.85, 1.15)),
        saturation=float(rng.uniform(0.95, 1.3)),
        noise=float(rng.uniform(0.6, 2.4) * dark),
        chroma_noise=float(rng.uniform(0.4, 2.0) * dark),
    )
    return style if conditions is None else _style_for(style, conditions, rng)


def _style_for(style: PhotoStyle, c: Conditions, rng: np.random.Generator) -> PhotoStyle:
    """`style` bent to the conditions: their framing, table, light and print; the rest as drawn."""
    u = rng.random
    changes: dict = {
        "span": c.span,
        "tilt_deg": c.tilt_deg,
        "table": c.table,
        "table_terrain_hue": c.terrain_hue,
        "hand": c.hand,
        "glare": 0.0,
        "hand_shadow": style.hand_shadow if c.light == "normal" else 0.0,
    }
    if c.light == "dim":  # the phone lifts a dark scene: grain and blotches, washed colour
        changes.update(
            exposure=float(rng.uniform(0.45, 0.75)),
            noise=float(rng.uniform(5.0, 11.0)),
            chroma_noise=float(rng.uniform(3.0, 7.0)),
            saturation=float(rng.uniform(0.75, 0.95)),
            softness_px=float(rng.uniform(1.0, 2.2)),
        )
    elif c.light == "overexposed":
        changes.update(exposure=float(rng.uniform(1.3, 1.6)), contrast=float(rng.uniform(0.0, 0.15)))
    elif c.light == "colour cast":  # white balance far off: tungsten, shade, fluorescent
        temp = float(rng.choice([-1, 1]) * rng.uniform(0.15, 0.32))
        tint = float(rng.choice([-1, 1]) * rng.uniform(0.03, 0.1))
        changes["white_balance"] = (1.0 - temp + 0.5 * tint, 1.0 - tint, 1.0 + temp + 0.5 * tint)
    elif c.light == "hard shadow":
        changes.update(
            hard_shadow=float(rng.uniform(0.35, 0.65)),
            shadow_strength=float(rng.uniform(0.4, 0.7)),
            shadow_softness_mm=float(rng.uniform(0.2, 0.8)),
        )
    elif c.light == "glare":
        changes.update(glare=float(rng.uniform(0.3, 0.6)), gloss=float(rng.uniform(0.2, 0.5)))
    if c.print == "faded":
        changes.update(
            print_fade=float(-rng.uniform(0.15, 0.35)), print_saturation=float(rng.uniform(0.8, 0.9))
        )
    elif c.print == "over-inked":
        changes.update(
            print_fade=float(rng.uniform(0.15, 0.35)), print_saturation=float(rng.uniform(1.1, 1.2))
        )
    elif c.print == "glossy":
        changes["gloss"] = max(changes.get("gloss", 0.0), float(rng.uniform(0.25, 0.55)))
    if c.print != "normal":
        changes["print_hue"] = float(rng.normal(0, 6))
    if c.stress and u() < 0.5:  # and a second hard light on top, now and then
        changes["vignette"] = float(rng.uniform(0.4, 0.6))
        changes["gradient"] = float(rng.uniform(0.35, 0.5))
    return replace(style, **changes)

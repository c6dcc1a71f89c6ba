"""The simulated world a photo is drawn from: every family of conditions a switch.

A reader is only as good as the world it was trained in, so the simulator draws each photo's
conditions from wide families (island size in the frame, tilt, table family and hue, loose tiles
touching the island, placement mess, back-side tiles, light, print, hands, other islands at the
frame edge). `World` says which part of that world to draw from:

- `World()`: the normal world, every family at its everyday mix;
- `World(stress=True)`: every family drawn from its hard end (`scorecam synth --stress`);
- `World(tables=(...))` / `World(exclude_tables=(...))`: only, or never, these table families
  (the unseen-family evaluation trains without one family and measures on it alone);
- `World(span=(lo, hi))`: the island's size in the frame pinned to a range (training data);
- `World(lights=(...))`: the light drawn from these only (a light named twice drawn twice as often;
  training data weighed towards a light the readers read worst).

`draw_conditions` turns a World and a generator into one photo's `Conditions`; the truth JSON keeps
them, and `condition_buckets` names the bucket of each family that `scorecam eval` reports by.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

# Table families (vision.synth.tables draws each); "terrain hues" is a colour switch on top of them.
TABLE_FAMILIES: tuple[str, ...] = (
    "wood",
    "plain",
    "felt",
    "cloth",
    "tablecloth",
    "patterned",
    "mat",
    "stone",
    "tiled",
    "paper",
    "photo",
    "noise",
)
# Families whose colour is free: they can take the terrains' own hues (water blue, forest and
# plains green, desert sand and ochre).
HUED_FAMILIES: frozenset[str] = frozenset(
    {"plain", "felt", "cloth", "tablecloth", "patterned", "mat", "noise", "stone", "paper"}
)
LIGHTS: tuple[str, ...] = ("normal", "dim", "overexposed", "colour cast", "hard shadow", "glare")
PRINTS: tuple[str, ...] = ("normal", "faded", "over-inked", "glossy")

SPAN_RANGE = (0.15, 0.9)  # the island's longer side over the photo's shorter side
STRESS_SPAN = (0.15, 0.35)
MAX_TILT = 40.0


@dataclass(frozen=True)
class World:
    stress: bool = False
    tables: tuple[str, ...] = TABLE_FAMILIES  # families drawn from
    exclude_tables: tuple[str, ...] = ()  # families never drawn
    terrain_hues: bool | None = None  # None: either; True: only tables in the terrains' hues; False: never
    span: tuple[float, float] | None = None  # pin the island's size in the frame (training)
    lights: tuple[str, ...] | None = None  # None: the world's own mix; else drawn from these, uniformly

    def __post_init__(self) -> None:
        unknown = (set(self.tables) | set(self.exclude_tables)) - set(TABLE_FAMILIES)
        if unknown:
            raise ValueError(f"unknown table families {sorted(unknown)}; known: {', '.join(TABLE_FAMILIES)}")
        if not self.families():
            raise ValueError("no table family left to draw from")
        if self.lights is not None and (not self.lights or set(self.lights) - set(LIGHTS)):
            raise ValueError(f"lights must be some of {', '.join(LIGHTS)}; got {self.lights}")

    def families(self) -> tuple[str, ...]:
        return tuple(f for f in self.tables if f not in self.exclude_tables)


@dataclass(frozen=True)
class Conditions:
    """One photo's draw from the world: what the scene and the camera must show."""

    span: float  # island's longer side / photo's shorter side, wanted (the truth records the real one)
    tilt_deg: float
    table: str  # family
    terrain_hue: bool  # the table takes a terrain's hue
    light: str  # one of LIGHTS
    print: str  # one of PRINTS
    hand: bool  # a hand enters the frame
    neighbours: bool  # another island's tiles at the frame edge
    loose_far: int  # loose tiles near the frame edges
    loose_near: int  # loose tiles within a few cm of the island
    loose_touching: int  # of those, lying against the island's outline (0-1 mm)
    gap_mm: float  # most gap between neighbouring tiles
    angle_deg: float  # most turn of a tile on the table
    pushes: int  # tiles pushed out of line (up to a third of a cell)
    backs: int  # tiles turned to their cloud side, beyond what the layout chose
    curl_mm: float  # most lift of a tile's corner off the table (cardboard curl)
    stress: bool = False

    def to_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def _log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def draw_conditions(rng: np.random.Generator, world: World | None = None) -> Conditions:
    """One photo's conditions. Everyday mix, or with `world.stress` the hard end of every family."""
    world = world or World()
    u = rng.random
    families = world.families()
    table = str(families[int(rng.integers(len(families)))])
    hue_p = 0.7 if world.stress else 0.3
    terrain_hue = table in HUED_FAMILIES and (
        world.terrain_hues if world.terrain_hues is not None else bool(u() < hue_p)
    )
    if world.terrain_hues and table not in HUED_FAMILIES:
        hued = [f for f in families if f in HUED_FAMILIES]
        if not hued:
            raise ValueError("terrain_hues=True needs a family whose colour is free")
        table, terrain_hue = str(hued[int(rng.integers(len(hued)))]), True
    span_range = world.span or (STRESS_SPAN if world.stress else SPAN_RANGE)
    span = _log_uniform(rng, *span_range)
    if world.stress:
        tilt = float(rng.uniform(25.0, MAX_TILT))
        light = str(rng.choice(LIGHTS[1:] if world.lights is None else world.lights))
        printing = str(rng.choice(PRINTS[1:]))
        hand, neighbours = bool(u() < 0.5), bool(u() < 0.5)
        loose_near = int(rng.integers(2, 5))
        loose_touching = int(rng.integers(1, min(loose_near, 3) + 1))
        loose_far = int(rng.integers(0, 3))
        gap, angle, pushes = float(rng.uniform(3, 6)), float(rng.uniform(6, 10)), int(rng.integers(1, 3))
        backs = int(rng.integers(1, 4))
        curl = float(rng.uniform(0.6, 2.0))
    else:
        tilt = float(MAX_TILT * u() ** 1.2)
        light = str(
            rng.choice(LIGHTS, p=[0.7, 0.06, 0.06, 0.06, 0.06, 0.06])
            if world.lights is None
            else rng.choice(world.lights)
        )
        printing = str(rng.choice(PRINTS, p=[0.8, 0.07, 0.07, 0.06]))
        hand, neighbours = bool(u() < 0.1), bool(u() < 0.1)
        loose_near = int(rng.choice([0, 1, 2], p=[0.65, 0.25, 0.1]))
        loose_touching = int(u() < 0.4) if loose_near else 0
        loose_far = int(rng.integers(0, 4))
        messy = u() < 0.25
        gap = float(rng.uniform(3, 6)) if messy else float(rng.uniform(0.5, 3))
        angle = float(rng.uniform(5, 10)) if messy else float(rng.uniform(1, 5))
        pushes = int(rng.integers(1, 3)) if messy and u() < 0.5 else 0
        backs = int(u() < 0.1)
        curl = float(rng.uniform(0.0, 1.0))
    return Conditions(
        span=span,
        tilt_deg=tilt,
        table=table,
        terrain_hue=bool(terrain_hue),
        light=light,
        print=printing,
        hand=hand,
        neighbours=neighbours,
        loose_far=loose_far,
        loose_near=loose_near,
        loose_touching=loose_touching,
        gap_mm=gap,
        angle_deg=angle,
        pushes=pushes,
        backs=backs,
        curl_mm=curl,
        stress=world.stress,
    )


# -------------------------------------------------------------------------------------- reporting


def _bucket(value: float, edges: tuple[float, ...], labels: tuple[str, ...]) -> str:
    for edge, label in zip(edges, labels, strict=False):
        if value < edge:
            return label
    return labels[-1]


def condition_buckets(truth: dict) -> dict[str, str]:
    """The bucket of every condition family of one photo's truth, by which `scorecam eval` breaks
    its figures down. Measured from the truth (the island's real span and tilt), not the wish."""
    c = truth.get("conditions") or {}
    scene = truth.get("scene") or {}
    out: dict[str, str] = {}
    span = scene.get("span")
    if span is not None:  # a Mediterráneo truth's board is a sea
        size = "sea size in frame" if truth.get("game") == "mediterraneo" else "island size in frame"
        out[size] = _bucket(span, (0.25, 0.40, 0.55), ("under 25%", "25-40%", "40-55%", "55% or more"))
    tilt = (truth.get("camera") or {}).get("tilt_deg")
    if tilt is not None:
        out["tilt"] = _bucket(tilt, (20.0, 30.0), ("under 20°", "20-30°", "30° or more"))
    if "table" in c:
        out["table family"] = c["table"]
        out["table hue"] = "terrain hues" if c.get("terrain_hue") else "other hues"
    if "light" in c:
        out["light"] = c["light"]
        out["print"] = c["print"]
        out["hand in frame"] = "yes" if c.get("hand") else "no"
    if "neighbours" in c:  # a sea's truth has none: no other island is photographed beside a sea
        out["other island at the edge"] = "yes" if c["neighbours"] else "no"
    if "loose_touching" in scene:
        n = scene["loose_touching"]
        out["loose tiles touching"] = "none" if n == 0 else "1" if n == 1 else "2 or more"
    if "messy" in scene:
        out["placement"] = "messy" if scene["messy"] else "neat"
    if "backs" in scene:
        n = scene["backs"]
        out["back-side tiles"] = "none" if n == 0 else "1" if n == 1 else "2 or more"
    board = truth.get("board") or {}
    if truth.get("game") == "mondo" and "grid" in board:
        # an island left unfinished when the timer ran out: fewer tiles to lay the grid by
        n = board["grid"] ** 2 - len(board.get("tiles", ()))
        out["empty spaces"] = "none" if n == 0 else "3 or more" if n >= 3 else str(n)
    return out

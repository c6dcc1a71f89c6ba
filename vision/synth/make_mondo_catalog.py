"""Writes vision/catalogs/mondo.json: the 48 double-sided tiles of scorecam's own Mondo edition.

Run ``python -m vision.synth.make_mondo_catalog``; the result depends only on SEED, so re-running it
rewrites the same file. Fronts are 18 corner tiles (water on two adjacent edges), 18 side tiles (water on
one edge) and 12 centre tiles (no water): enough for four 3x3 islands (16 corners, 16 sides, 4 centres)
or two 4x4 islands (8, 16, 8). Backs are one land terrain under clouds.

Each front's drawing is checked here at two resolutions before it is accepted: every area one connected
region reaching exactly its sides, corridors wide enough to read, touching areas of different terrains,
patches and badges clear of the edges and of each other. A face that fails gets the next art seed.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import cv2
import numpy as np

from vision.synth.mondo_art import (
    BADGE_RADIUS_MM,
    DEFAULT_PX_PER_MM,
    EDGE_STRIP_MM,
    LAND_TERRAINS,
    PATCH_EDGE_MARGIN_MM,
    PATCH_SHAPE_MAX,
    SIDE_SEGMENTS_MM,
    SIDES,
    SPECIES,
    TILE_MM,
    mondo_face_regions,
    mondo_seed_curves,
    mondo_side_regions,
)

SEED = 20240611
CATALOG_PATH = Path(__file__).resolve().parents[1] / "catalogs" / "mondo.json"

# Joinings of the land sides, as blocks of positions relative to the tile's turn (see _front_sides).
CORNER_JOININGS = [("joined", [[0, 1]])] * 9 + [("separate", [[0], [1]])] * 9
SIDE_JOININGS = (
    [("all", [[0, 1, 2]])] * 4
    + [("pair+1", [[0, 1], [2]])] * 4
    + [("1+pair", [[0], [1, 2]])] * 3
    + [("opposite+1", [[0, 2], [1]])] * 3
    + [("each", [[0], [1], [2]])] * 4
)
CENTRE_JOININGS = (
    [("all", [[0, 1, 2, 3]])] * 2
    + [("three+1", [[0, 1, 2], [3]])] * 2
    + [("pair+1+1", [[0, 1], [2], [3]])] * 3
    + [("pair+pair", [[0, 1], [2, 3]])] * 2
    + [("opposite+1+1", [[0, 2], [1], [3]])] * 2
    + [("each", [[0], [1], [2], [3]])] * 1
)
PATCHED_FRONTS = {"corner": 4, "side": 4, "centre": 2}  # 10 of 48 fronts, about 1 in 5
ANIMALS_PER_FRONT = [1] * 18 + [2] * 6 + [0] * 24  # animals on half the fronts
VOLCANOES_PER_FRONT = [1] * 9 + [2] * 3 + [0] * 36  # volcanoes on a quarter
MIN_SEED_GAP_MM = 6.0  # seeds of different areas keep apart: every corridor is at least this wide
MIN_AREA_BODY_MM = 2.5  # every area holds a disc of this radius
BADGE_ZONE = (EDGE_STRIP_MM + BADGE_RADIUS_MM + 1.0, TILE_MM - EDGE_STRIP_MM - BADGE_RADIUS_MM - 1.0)
CHECK_PX_PER_MM = (4.0, DEFAULT_PX_PER_MM)


def _turned(side_index: int) -> str:
    return SIDES[side_index % 4]


def _front_sides(kind: str, turn: int) -> tuple[list[str], list[str]]:
    """(water sides, land sides in cyclic order) of a front turned ``turn`` quarter turns."""
    water_count = {"corner": 2, "side": 1, "centre": 0}[kind]
    water = [_turned(turn + k) for k in range(water_count)]
    land = [_turned(turn + k) for k in range(water_count, 4)]
    return water, land


def _adjacent(a: str, b: str) -> bool:
    return (SIDES.index(a) - SIDES.index(b)) % 4 in (1, 3)


def _terrain_options(blocks: list[list[str]]) -> list[tuple[str, ...]]:
    """Terrain choices for the land blocks: blocks meeting at a corner differ, and as many terrains as fit."""
    options = []
    for choice in itertools.product(LAND_TERRAINS, repeat=len(blocks)):
        clash = any(
            choice[i] == choice[j] and any(_adjacent(a, b) for a in blocks[i] for b in blocks[j])
            for i in range(len(blocks))
            for j in range(i + 1, len(blocks))
        )
        if not clash and len(set(choice)) >= min(3, len(blocks)):
            options.append(choice)
    return options


def _balance_terrains(fronts: list[dict], rng: np.random.Generator) -> list[tuple[str, ...]]:
    """Picks each front's block terrains so that every kind shows each land terrain on as many edges."""
    options = [_terrain_options(f["blocks"]) for f in fronts]
    pick = [int(rng.integers(len(o))) for o in options]

    def cost(pick: list[int]) -> float:
        edges: dict[tuple[str, str], int] = {}
        areas: dict[str, int] = {}
        for f, opts, k in zip(fronts, options, pick, strict=True):
            for block, terrain in zip(f["blocks"], opts[k], strict=True):
                edges[f["kind"], terrain] = edges.get((f["kind"], terrain), 0) + len(block)
                areas[terrain] = areas.get(terrain, 0) + 1
        total = 0.0
        for kind in ("corner", "side", "centre"):
            counts = [edges.get((kind, t), 0) for t in LAND_TERRAINS]
            total += sum((c - sum(counts) / 3) ** 2 for c in counts)
        counts = [areas.get(t, 0) for t in LAND_TERRAINS]
        return total + 0.3 * sum((c - sum(counts) / 3) ** 2 for c in counts)

    best = cost(pick)
    for _ in range(4000):
        i = int(rng.integers(len(fronts)))
        trial = list(pick)
        trial[i] = int(rng.integers(len(options[i])))
        c = cost(trial)
        if c <= best:
            pick, best = trial, c
    return [opts[k] for opts, k in zip(options, pick, strict=True)]


def _front_structures(rng: np.random.Generator) -> list[dict]:
    fronts = []
    for kind, joinings in (("corner", CORNER_JOININGS), ("side", SIDE_JOININGS), ("centre", CENTRE_JOININGS)):
        for i, (name, rel_blocks) in enumerate(joinings):
            turn = i % 4
            water, land = _front_sides(kind, turn)
            blocks = [[land[k] for k in block] for block in rel_blocks]
            fronts.append({"kind": kind, "joining": name, "water": water, "blocks": blocks})
    for front, terrains in zip(fronts, _balance_terrains(fronts, rng), strict=True):
        front["terrains"] = terrains
    return fronts


def _sorted_sides(sides: list[str]) -> list[str]:
    return sorted(sides, key=SIDES.index)


def _areas(front: dict) -> list[dict]:
    areas = []
    if front["water"]:
        areas.append({"terrain": "water", "sides": _sorted_sides(front["water"])})
    for block, terrain in sorted(
        zip(front["blocks"], front["terrains"], strict=True),
        key=lambda bt: min(SIDES.index(s) for s in bt[0]),
    ):
        areas.append({"terrain": terrain, "sides": _sorted_sides(block)})
    return areas


def _edges(areas: list[dict]) -> dict[str, str]:
    return {side: next(a["terrain"] for a in areas if side in a["sides"]) for side in SIDES}


def _plan_extras(fronts: list[dict], rng: np.random.Generator) -> None:
    """Chooses which fronts get a patch, animals (with species) and volcanoes."""
    for kind, count in PATCHED_FRONTS.items():
        # A centre front of one land area gets a patch first: else it would look like a back without clouds.
        plain = [f for f in fronts if f["kind"] == kind and len(f["blocks"]) == 1 and kind == "centre"]
        others = [
            f
            for f in fronts
            if f["kind"] == kind and len(f["blocks"]) <= 3 and all(f is not p for p in plain)
        ]
        chosen = plain + list(rng.permutation(np.array(others, dtype=object)))
        for f in chosen[:count]:
            f["patch"] = True
    for f in fronts:
        f.setdefault("patch", False)
    while True:
        animals = list(rng.permutation(ANIMALS_PER_FRONT))
        volcanoes = list(rng.permutation(VOLCANOES_PER_FRONT))
        # Room in the middle of a tile: at most three badges, two when a patch is there too.
        if all(a + v <= (2 if f["patch"] else 3) for f, a, v in zip(fronts, animals, volcanoes, strict=True)):
            break
    species = list(
        rng.permutation([s for s in SPECIES for _ in range(sum(ANIMALS_PER_FRONT) // len(SPECIES))])
    )
    for f, a, v in zip(fronts, animals, volcanoes, strict=True):
        f["species"] = [str(species.pop()) for _ in range(int(a))]
        f["volcanoes"] = int(v)


# ------------------------------------------------------------------------------------------ checks


def _segment_distance(points: np.ndarray, polyline: np.ndarray) -> np.ndarray:
    """Distance (mm) from each point to a polyline."""
    a, b = polyline[:-1], polyline[1:]
    ab = b - a
    t = np.clip(
        np.einsum("pkd,kd->pk", points[:, None, :] - a[None], ab) / (np.sum(ab * ab, 1) + 1e-12), 0, 1
    )
    closest = a[None] + t[..., None] * ab[None]
    return np.min(np.linalg.norm(points[:, None, :] - closest, axis=2), axis=1)


def _densify(polyline: np.ndarray, step: float = 0.5) -> np.ndarray:
    out = [polyline[0]]
    for p, q in itertools.pairwise(polyline):
        k = max(1, int(np.linalg.norm(q - p) / step))
        out += [p + (q - p) * (i / k) for i in range(1, k + 1)]
    return np.array(out)


def seed_gap_mm(face: dict) -> float:
    """Smallest distance between one area's interior seed curves and any seed of another area."""
    curves = mondo_seed_curves(face)
    side_lines = {s: np.array(seg) for s, seg in SIDE_SEGMENTS_MM.items()}
    gap = math.inf
    for i, area_curves in enumerate(curves):
        if not area_curves:
            continue
        pts = np.concatenate([_densify(c) for c in area_curves])
        # Spines start on their own side: only points a little inside can come near another area.
        for j, other in enumerate(face["areas"]):
            if j == i:
                continue
            lines = [side_lines[s] for s in other["sides"]] + curves[j]
            for line in lines:
                gap = min(gap, float(np.min(_segment_distance(pts, line))))
    return gap


def _touching_pairs(labels: np.ndarray) -> set[tuple[int, int]]:
    pairs = set()
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = a != b
        for x, y in set(zip(a[diff].tolist(), b[diff].tolist(), strict=True)):
            pairs.add((min(x, y), max(x, y)))
    return pairs


def region_problems(face: dict, labels: np.ndarray, px_per_mm: float) -> list[str]:
    """What is wrong with a face's label map: connectivity, sides reached, edge strips, touching twins."""
    problems = []
    n = labels.shape[0]
    # The corner pixels belong to two sides at once: they decide nothing.
    rims = {"N": labels[0, 1:-1], "E": labels[1:-1, -1], "S": labels[-1, 1:-1], "W": labels[1:-1, 0]}
    for i, area in enumerate(face["areas"]):
        mask = (labels == i).astype(np.uint8)
        count, _ = cv2.connectedComponents(mask, connectivity=4)
        if count != 2:
            problems.append(f"area {i} has {count - 1} pieces")
        reached = {s for s, rim in rims.items() if np.any(rim == i)}
        if reached != set(area["sides"]):
            problems.append(f"area {i} reaches {sorted(reached)} not {area['sides']}")
        body = cv2.distanceTransform(np.pad(mask, 1), cv2.DIST_L2, 5).max() / px_per_mm
        if body < MIN_AREA_BODY_MM:
            problems.append(f"area {i} is thin ({body:.1f} mm)")
    depth = max(1, int(round(EDGE_STRIP_MM * px_per_mm)))
    lo, hi = int(n * 0.1), int(math.ceil(n * 0.9))
    strips = {
        "N": labels[:depth, lo:hi],
        "E": labels[lo:hi, -depth:],
        "S": labels[-depth:, lo:hi],
        "W": labels[lo:hi, :depth],
    }
    for side, strip in strips.items():
        owners = {i for i, a in enumerate(face["areas"]) if side in a["sides"]}
        if not set(np.unique(strip).tolist()) <= owners:
            problems.append(f"edge strip {side} shows another area")
    for a, b in _touching_pairs(labels):
        if face["areas"][a]["terrain"] == face["areas"][b]["terrain"]:
            problems.append(f"areas {a} and {b} touch with the same terrain")
    return problems


# ------------------------------------------------------------------------------------------ placing


def _place_patch(face: dict, patch_index: int, rng: np.random.Generator, used: dict[str, int]) -> bool:
    """Adds an interior patch (area and art) inside one land area; False when none fits."""
    ppm = 4.0
    labels = mondo_side_regions(face, ppm)
    hosts = [i for i, a in enumerate(face["areas"]) if a["terrain"] != "water"]
    mm = (np.arange(labels.shape[0]) + 0.5) / ppm
    inside = np.minimum(mm, TILE_MM - mm)
    edge_dist = np.minimum(inside[:, None], inside[None, :])
    rooms = {
        int(h): cv2.distanceTransform((labels == h).astype(np.uint8), cv2.DIST_L2, 5) / ppm
        for h in rng.permutation(hosts)
    }
    best = None
    # As large a patch as fits, somewhere in a land area with a ring of host terrain all round it; among
    # the places that fit, a random one (roomier places likelier) so patches do not all sit alike.
    for radius in float(rng.uniform(4.4, 5.6)) * np.array([1.0, 0.85, 0.72]):
        reach = radius * PATCH_SHAPE_MAX
        for host, room in rooms.items():
            fits = (room >= reach + 2.0) & (edge_dist >= reach + PATCH_EDGE_MARGIN_MM + 1.0)
            if not fits.any():
                continue
            score = np.where(fits, np.minimum(room, edge_dist) + rng.uniform(0, 4.0, room.shape), -1.0)
            i, j = np.unravel_index(np.argmax(score), score.shape)
            best = (host, mm[j], mm[i])
            break
        if best is not None:
            break
    if best is None:
        return False
    host, x, y = best
    host_terrain = face["areas"][host]["terrain"]
    choices = [t for t in LAND_TERRAINS if t != host_terrain]
    terrain = min(choices, key=lambda t: (used.get(t, 0), rng.random()))
    used[terrain] = used.get(terrain, 0) + 1
    face["areas"].append({"terrain": terrain, "sides": []})
    face["art"]["patches"] = [
        {"area": patch_index, "x": round(float(x), 1), "y": round(float(y), 1), "r": round(radius, 1)}
    ]
    return True


def _place_badges(
    face: dict, kinds: list[str], rng: np.random.Generator
) -> list[tuple[str, float, float]] | None:
    """Badge centres (mm) for the given kinds, each as deep inside one area as room allows; None if crowded."""
    ppm = 4.0
    labels = mondo_face_regions(face, ppm)
    edge = np.zeros(labels.shape, bool)
    edge[:, :-1] |= labels[:, :-1] != labels[:, 1:]
    edge[:-1, :] |= labels[:-1, :] != labels[1:, :]
    clear = cv2.distanceTransform(np.where(edge, 0, 255).astype(np.uint8), cv2.DIST_L2, 5) / ppm
    land = np.array([a["terrain"] != "water" for a in face["areas"]])[labels]
    grid = np.arange(BADGE_ZONE[0], BADGE_ZONE[1] + 0.01, 0.5)
    xs, ys = np.meshgrid(grid, grid)
    cand = np.stack([xs.ravel(), ys.ravel()], 1)
    idx = np.clip((cand * ppm).astype(int), 0, labels.shape[0] - 1)
    cand_clear = clear[idx[:, 1], idx[:, 0]]
    cand_land = land[idx[:, 1], idx[:, 0]]
    blocked = [
        (p["x"], p["y"], p["r"] * PATCH_SHAPE_MAX + BADGE_RADIUS_MM + 0.8)
        for p in face["art"].get("patches", [])
    ]
    placed: list[tuple[str, float, float]] = []
    for kind in kinds:
        free = np.ones(len(cand), bool)
        for bx, by, gap in blocked:
            free &= np.hypot(cand[:, 0] - bx, cand[:, 1] - by) >= gap
        if not free.any():
            return None
        on_land = cand_land if kind not in ("turtle", "parrot") else np.ones(len(cand), bool)
        score = np.minimum(cand_clear, BADGE_RADIUS_MM + 1.5) + 1.5 * on_land + rng.uniform(0, 1.2, len(cand))
        score = np.where(free, score, -np.inf)
        k = int(np.argmax(score))
        if cand_clear[k] < 0.5 * BADGE_RADIUS_MM:
            return None
        x, y = float(cand[k, 0]), float(cand[k, 1])
        placed.append((kind, round(x, 1), round(y, 1)))
        blocked.append((x, y, 2 * BADGE_RADIUS_MM + 1.0))
    return placed


def _build_front(front: dict, seed_base: int, used_patch_terrains: dict[str, int]) -> dict:
    for attempt in range(400):
        seed = seed_base + attempt
        rng = np.random.default_rng(seed)
        areas = _areas(front)
        face = {
            "edges": _edges(areas),
            "areas": areas,
            "animals": len(front["species"]),
            "volcanoes": front["volcanoes"],
            "art": {"seed": seed},
        }
        if seed_gap_mm(face) < MIN_SEED_GAP_MM:
            continue
        if any(region_problems(face, mondo_side_regions(face, ppm), ppm) for ppm in CHECK_PX_PER_MM):
            continue
        trial_used = dict(used_patch_terrains)
        if front["patch"] and not _place_patch(face, len(areas), rng, trial_used):
            continue
        if any(region_problems(face, mondo_face_regions(face, ppm), ppm) for ppm in CHECK_PX_PER_MM):
            continue
        badges = _place_badges(face, ["volcano"] * front["volcanoes"] + front["species"], rng)
        if badges is None:
            continue
        face["art"]["animals"] = [{"species": k, "x": x, "y": y} for k, x, y in badges if k != "volcano"]
        face["art"]["volcanoes"] = [{"x": x, "y": y} for k, x, y in badges if k == "volcano"]
        face["art"] = {k: v for k, v in face["art"].items() if v != []}
        used_patch_terrains.update(trial_used)
        return face
    raise RuntimeError(f"no drawable art for {front}")


def _back(terrain: str, seed: int) -> dict:
    return {
        "edges": dict.fromkeys(SIDES, terrain),
        "areas": [{"terrain": terrain, "sides": list(SIDES)}],
        "animals": 0,
        "volcanoes": 0,
        "art": {"seed": seed, "clouds": True},
    }


def build_catalog(seed: int = SEED) -> dict:
    """The whole catalog as a dict (the content of mondo.json)."""
    rng = np.random.default_rng(seed)
    fronts = _front_structures(rng)
    _plan_extras(fronts, rng)
    back_terrains = list(rng.permutation([t for t in LAND_TERRAINS for _ in range(len(fronts) // 3)]))
    used: dict[str, int] = {}
    components = []
    for i, front in enumerate(fronts):
        faces = {
            "front": _build_front(front, seed + 1000 * (i + 1), used),
            "back": _back(str(back_terrains[i]), seed + 1000 * (i + 1) + 500),
        }
        components.append({"id": f"T{i + 1:02d}", "faces": faces})
    return {"format": 1, "game": "mondo", "tile_mm": int(TILE_MM), "components": components}


def catalog_json(catalog: dict) -> str:
    """One component per line group, one face per line: short diffs when the art changes."""
    head = {k: v for k, v in catalog.items() if k != "components"}
    lines = [json.dumps(head)[:-1] + ', "components": [']
    for n, comp in enumerate(catalog["components"]):
        faces = ",\n".join(f'    "{name}": {json.dumps(face)}' for name, face in comp["faces"].items())
        tail = "," if n < len(catalog["components"]) - 1 else ""
        lines.append(f'  {{"id": "{comp["id"]}", "faces": {{\n{faces}}}}}{tail}')
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main() -> None:
    catalog = build_catalog()
    CATALOG_PATH.parent.mkdir(parents=True, exist_ok=True)
    CATALOG_PATH.write_text(catalog_json(catalog), encoding="utf-8")
    print(f"wrote {CATALOG_PATH} ({len(catalog['components'])} tiles)")


if __name__ == "__main__":
    main()

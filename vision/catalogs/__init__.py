"""Component catalogs: what every face of a game's components shows, as committed data (the JSON
files beside this module), and what a Mondo face lying in a cell is for the scoring engine.

The readers (which decode against a catalog) and the simulator (which draws and lays the faces) both
use this package, so a reader never imports the simulator. A catalog is the kit manifest without the
image names (DESIGN.md, "Component kits"):
``{"format": 1, "game": ..., "components": [{"id": ..., "faces": {"front": {...}, "back": {...}}}]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from scoring.mondo import Area, Component, Island, Tile
from scoring.sides import SIDES, turned_clockwise


def load_catalog(game: str) -> dict:
    """The catalog of ``game`` (vision/catalogs/{game}.json); FileNotFoundError names the file."""
    if not game or any(c in game for c in "/\\.") or game != game.strip():
        raise ValueError(f"not a game name: {game!r}")
    path = Path(__file__).with_name(f"{game}.json")  # not importlib.resources: 9 ms of imports a photo
    if not path.is_file():
        raise FileNotFoundError(f"no component catalog for {game!r} ({path})")
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class PlacedTile:
    component: str  # catalog id
    face: str  # "front" or "back"
    rotation: int  # degrees clockwise: 0, 90, 180, 270
    row: int
    col: int


def turned_face(face: dict, rotation: int) -> tuple[dict[str, str], list[tuple[str, tuple[str, ...]]]]:
    """Edges and areas of a catalog face turned clockwise by ``rotation`` degrees."""
    q = rotation // 90
    edges = {turned_clockwise(side, q): terrain for side, terrain in face["edges"].items()}
    areas = [
        (a["terrain"], tuple(s for s in SIDES if s in {turned_clockwise(x, q) for x in a["sides"]}))
        for a in face["areas"]
    ]
    return edges, areas


def tile_of(placed: PlacedTile, catalog: dict) -> Tile:
    """The engine's tile for a catalog face lying in a cell."""
    face = component_by_id(catalog, placed.component)["faces"][placed.face]
    edges, areas = turned_face(face, placed.rotation)
    return Tile(
        placed.row,
        placed.col,
        tuple(edges[s] for s in SIDES),  # type: ignore[arg-type]
        tuple(Area(t, s) for t, s in areas),
        int(face["animals"]),
        int(face["volcanoes"]),
        Component(placed.component, placed.face, placed.rotation),
    )


def island_of(layout: list[PlacedTile], catalog: dict, grid: int) -> Island:
    tiles = sorted((tile_of(p, catalog) for p in layout), key=lambda t: t.cell)
    return Island(grid, tuple(tiles))


def component_by_id(catalog: dict, component_id: str) -> dict:
    """The catalog's component with this id (KeyError names it); 48 entries: a scan is cheap."""
    for component in catalog["components"]:
        if component["id"] == component_id:
            return component
    raise KeyError(f"no component {component_id!r} in the catalog")

"""The Mondo island model and its JSON format (see DESIGN.md, "Board formats").

An :class:`Island` is a square grid of cells; a cell holds a :class:`Tile` or is an empty space.
A tile shows one terrain along each of its four edges and is split into :class:`Area` s: connected
patches of one terrain. Every side is reached by exactly one area, of that edge's terrain; an area
that reaches no side is an interior patch. The reader of photos and a person typing JSON build the
same values, so every check a person could get wrong is made here, with a message that names it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.sides import SIDES, mirrored_left_right, turned_clockwise

TERRAINS: tuple[str, ...] = ("water", "forest", "desert", "plains")
LAND: tuple[str, ...] = ("forest", "desert", "plains")
GRID_SIZES: tuple[int, ...] = (3, 4)
MAX_AREAS = 16  # a printed tile shows at most 4 patches; far more is not a tile (and would flood the report)
FACES: tuple[str, ...] = ("front", "back")


@dataclass(frozen=True)
class Area:
    """One connected patch of one terrain on a tile; ``sides`` are the edges it reaches (SIDES order)."""

    terrain: str
    sides: tuple[str, ...] = ()

    @property
    def interior(self) -> bool:
        return not self.sides


@dataclass(frozen=True)
class Component:
    """Which physical piece a tile is: kit id, face up, and its clockwise turn in degrees."""

    id: str
    face: str
    rotation: int = 0


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    edges: tuple[str, str, str, str]  # terrain on N, E, S, W
    areas: tuple[Area, ...]
    animals: int = 0
    volcanoes: int = 0
    component: Component | None = None
    # A reader's certainty: one number, or (head, probability) pairs.
    confidence: float | tuple[tuple[str, float], ...] | None = None

    @property
    def cell(self) -> tuple[int, int]:
        return (self.row, self.col)

    def edge(self, side: str) -> str:
        return self.edges[SIDES.index(side)]

    def area_index(self, side: str) -> int:
        """Index into ``areas`` of the one area that reaches ``side``."""
        for index, area in enumerate(self.areas):
            if side in area.sides:
                return index
        raise ValueError(f"no area reaches side {side}")  # unreachable for a checked tile


@dataclass(frozen=True)
class Island:
    grid: int
    tiles: tuple[Tile, ...]  # sorted by (row, col)

    def __post_init__(self) -> None:
        _check_island(self)

    def tile_at(self, row: int, col: int) -> Tile | None:
        return self._by_cell.get((row, col))

    @cached_property
    def _by_cell(self) -> dict[tuple[int, int], Tile]:
        # made once: the scorer and the reader look tiles up thousands of times a photo (the
        # island is frozen, so the map never goes stale)
        return {tile.cell: tile for tile in self.tiles}

    def cells(self) -> Iterator[tuple[int, int]]:
        for row in range(self.grid):
            for col in range(self.grid):
                yield (row, col)

    @property
    def empty_cells(self) -> tuple[tuple[int, int], ...]:
        taken = self._by_cell
        return tuple(cell for cell in self.cells() if cell not in taken)


def make_tile(
    row: int,
    col: int,
    edges: Mapping[str, str],
    areas: Iterable[tuple[str, Iterable[str]]] | None = None,
    animals: int = 0,
    volcanoes: int = 0,
) -> Tile:
    """A tile from plain values; without ``areas`` every side is its own area.

    ``make_tile(0, 0, {"N": "water", "E": "forest", "S": "forest", "W": "water"},
    [("water", "NW"), ("forest", "ES")])``
    """
    edge_tuple = tuple(edges[side] for side in SIDES)
    if areas is None:
        area_list = [Area(edges[side], (side,)) for side in SIDES]
    else:
        area_list = [Area(terrain, _ordered_sides(sides)) for terrain, sides in areas]
    tile = Tile(row, col, edge_tuple, tuple(area_list), animals, volcanoes)  # type: ignore[arg-type]
    _check_tile(tile)
    return tile


def _ordered_sides(sides: Iterable[str]) -> tuple[str, ...]:
    wanted = set(sides)
    return tuple(side for side in SIDES if side in wanted)


# --- checks -------------------------------------------------------------------------------------


def _where(tile: Tile) -> str:
    return f"tile ({tile.row}, {tile.col})"


def _check_tile(tile: Tile) -> None:
    where = _where(tile)
    for side, terrain in zip(SIDES, tile.edges, strict=True):
        if terrain not in TERRAINS:
            raise BoardFormatError(f"{where}: edge {side} has unknown terrain {shown(terrain)}")
    if not tile.areas:
        raise BoardFormatError(f"{where}: has no areas")
    if len(tile.areas) > MAX_AREAS:
        raise BoardFormatError(f"{where}: has {len(tile.areas):,} areas; a tile has at most {MAX_AREAS}")
    reached: dict[str, list[Area]] = {side: [] for side in SIDES}
    for area in tile.areas:
        if area.terrain not in TERRAINS:
            raise BoardFormatError(f"{where}: an area has unknown terrain {shown(area.terrain)}")
        for side in area.sides:
            if side not in SIDES:
                raise BoardFormatError(f"{where}: an area reaches unknown side {shown(side)}")
            reached[side].append(area)
    for side in SIDES:
        areas = reached[side]
        if not areas:
            raise BoardFormatError(f"{where}: side {side} is reached by no area")
        if len(areas) > 1:
            terrains = ", ".join(area.terrain for area in areas)
            raise BoardFormatError(f"{where}: side {side} is reached by {len(areas)} areas ({terrains})")
        if areas[0].terrain != tile.edge(side):
            raise BoardFormatError(
                f"{where}: the area reaching side {side} is {areas[0].terrain} but edge {side} is "
                f"{tile.edge(side)}"
            )
    for name, count in (("animals", tile.animals), ("volcanoes", tile.volcanoes)):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BoardFormatError(f"{where}: {name} must be a whole number 0 or more, not {shown(count)}")


def _check_island(island: Island) -> None:
    if type(island.grid) is not int or island.grid not in GRID_SIZES:
        raise BoardFormatError(
            f"grid must be one of {', '.join(map(str, GRID_SIZES))}, not {shown(island.grid)}"
        )
    seen: set[tuple[int, int]] = set()
    for tile in island.tiles:
        if not (0 <= tile.row < island.grid and 0 <= tile.col < island.grid):
            raise BoardFormatError(f"{_where(tile)} lies outside the {island.grid}x{island.grid} grid")
        if tile.cell in seen:
            raise BoardFormatError(f"two tiles in one cell ({tile.row}, {tile.col})")
        seen.add(tile.cell)
        _check_tile(tile)


# --- symmetry (the score of an island does not depend on how it is turned) ----------------------


def rotated_island(island: Island, quarter_turns: int = 1) -> Island:
    """The island turned clockwise by quarter turns, as if the photo were taken from another side."""
    result = island
    for _ in range(quarter_turns % 4):
        n = result.grid
        result = _remapped(result, lambda r, c, n=n: (c, n - 1 - r), lambda s: turned_clockwise(s), turn=90)
    return result


def mirrored_island(island: Island) -> Island:
    """The island mirrored left to right (not a legal move at the table, but scores the same)."""
    n = island.grid
    return _remapped(island, lambda r, c: (r, n - 1 - c), mirrored_left_right, turn=None)


def _remapped(island: Island, move_cell, move_side, turn: int | None) -> Island:
    """Tiles moved and their sides renamed; a turn keeps each tile's component (turned along),
    a mirror drops it (no physical tile is a mirror image)."""
    tiles = []
    for tile in island.tiles:
        row, col = move_cell(tile.row, tile.col)
        edges = {move_side(side): tile.edge(side) for side in SIDES}
        areas = tuple(Area(a.terrain, _ordered_sides(move_side(s) for s in a.sides)) for a in tile.areas)
        component = None
        if tile.component is not None and turn is not None:
            component = replace(tile.component, rotation=(tile.component.rotation + turn) % 360)
        tiles.append(
            replace(
                tile, row=row, col=col, edges=tuple(edges[s] for s in SIDES), areas=areas, component=component
            )
        )
    return Island(island.grid, tuple(sorted(tiles, key=lambda t: t.cell)))


# --- JSON ---------------------------------------------------------------------------------------


def _expect_keys(obj: Any, where: str, required: set[str], optional: set[str]) -> dict:
    if not isinstance(obj, dict):
        raise BoardFormatError(f"{where} must be a JSON object, not {type(obj).__name__}")
    missing = sorted(required - obj.keys())
    if missing:
        raise BoardFormatError(f"{where} lacks {', '.join(shown(k) for k in missing)}")
    unknown = sorted(obj.keys() - required - optional)
    if unknown:
        raise BoardFormatError(f"{where} has unknown key {', '.join(shown(k) for k in unknown)}")
    return obj


def check_header(data: Mapping[str, Any], game: str, *, required: bool = True) -> None:
    """The ``format`` and ``game`` keys every board file starts with."""
    if (required or "format" in data) and data.get("format") != 1:
        raise BoardFormatError(f"'format' must be 1, not {shown(data.get('format'))}")
    if (required or "game" in data) and data.get("game") != game:
        raise BoardFormatError(f"'game' must be {shown(game)}, not {shown(data.get('game'))}")


def _whole_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardFormatError(f"{what} must be a whole number, not {shown(value)}")
    return value


def tile_from_json(data: Any, index: int) -> Tile:
    where = f"tile #{index + 1}"
    data = _expect_keys(
        data, where, {"row", "col", "edges"}, {"areas", "animals", "volcanoes", "component", "confidence"}
    )
    row = _whole_number(data["row"], f"{where}: row")
    col = _whole_number(data["col"], f"{where}: col")
    where = f"tile ({row}, {col})"
    edges = _expect_keys(data["edges"], f"{where}: edges", set(SIDES), set())
    edge_tuple = tuple(edges[side] for side in SIDES)
    if "areas" in data:
        if not isinstance(data["areas"], list):
            raise BoardFormatError(f"{where}: areas must be a list")
        if len(data["areas"]) > MAX_AREAS:
            raise BoardFormatError(f"{where}: {len(data['areas']):,} areas; a tile has at most {MAX_AREAS}")
        areas = []
        for area in data["areas"]:
            area = _expect_keys(area, f"{where}: an area", {"terrain", "sides"}, set())
            sides = area["sides"]
            if not isinstance(sides, list):
                raise BoardFormatError(f"{where}: an area's sides must be a list of N, E, S, W")
            unknown = [s for s in sides if s not in SIDES]  # before set(): a side may be any JSON value
            if unknown:
                raise BoardFormatError(f"{where}: an area reaches unknown side {shown(unknown[0])}")
            if len(set(sides)) != len(sides):
                raise BoardFormatError(f"{where}: an area's sides must be a list without repeats")
            areas.append(Area(area["terrain"], _ordered_sides(sides)))
    else:  # a hand-typed shortcut: each side its own area
        areas = [Area(edges[side], (side,)) for side in SIDES]
    component = None
    if "component" in data:
        comp = _expect_keys(data["component"], f"{where}: component", {"id", "face"}, {"rotation"})
        if comp["face"] not in FACES:
            raise BoardFormatError(
                f"{where}: component face must be front or back, not {shown(comp['face'])}"
            )
        rotation = comp.get("rotation", 0)
        if type(rotation) is not int or rotation not in (0, 90, 180, 270):
            raise BoardFormatError(
                f"{where}: component rotation must be 0, 90, 180 or 270, not {shown(rotation)}"
            )
        component = Component(str(comp["id"]), comp["face"], rotation)
    confidence = _confidence_from_json(data.get("confidence"), where)
    tile = Tile(
        row,
        col,
        edge_tuple,  # type: ignore[arg-type]
        tuple(areas),
        data.get("animals", 0),
        data.get("volcanoes", 0),
        component,
        confidence,
    )
    _check_tile(tile)
    return tile


def _confidence_from_json(value: Any, where: str) -> float | tuple[tuple[str, float], ...] | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    if isinstance(value, dict) and all(
        isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1 for v in value.values()
    ):
        return tuple((str(k), float(v)) for k, v in value.items())
    raise BoardFormatError(f"{where}: confidence must be a probability or an object of probabilities")


def island_from_json(data: Any, *, header_required: bool = True) -> Island:
    """An island from its JSON object; ``header_required=False`` inside a turn file."""
    data = _expect_keys(data, "the island", {"grid", "tiles"}, {"format", "game"})
    check_header(data, "mondo", required=header_required)
    grid = data["grid"]
    if not isinstance(data["tiles"], list):
        raise BoardFormatError("'tiles' must be a list")
    side = grid if type(grid) is int and grid in GRID_SIZES else max(GRID_SIZES)
    if len(data["tiles"]) > side * side:  # said before reading them all, however many a file lists
        raise BoardFormatError(
            f"{len(data['tiles']):,} tiles: a {side}x{side} island holds at most {side * side} tiles"
        )
    tiles = [tile_from_json(tile, i) for i, tile in enumerate(data["tiles"])]
    return Island(grid, tuple(sorted(tiles, key=lambda t: t.cell)))


def tile_to_json(tile: Tile) -> dict[str, Any]:
    out: dict[str, Any] = {
        "row": tile.row,
        "col": tile.col,
        "edges": {side: tile.edge(side) for side in SIDES},
        "areas": [{"terrain": a.terrain, "sides": list(a.sides)} for a in tile.areas],
        "animals": tile.animals,
        "volcanoes": tile.volcanoes,
    }
    if tile.component is not None:
        out["component"] = {
            "id": tile.component.id,
            "face": tile.component.face,
            "rotation": tile.component.rotation,
        }
    if isinstance(tile.confidence, float):
        out["confidence"] = tile.confidence
    elif tile.confidence is not None:
        out["confidence"] = dict(tile.confidence)
    return out


def island_to_json(island: Island) -> dict[str, Any]:
    return {
        "format": 1,
        "game": "mondo",
        "grid": island.grid,
        "tiles": [tile_to_json(tile) for tile in island.tiles],
    }

"""Small builders for hand-made Mondo islands in tests."""

from scoring.mondo import Island, make_tile

W, F, D, P = "water", "forest", "desert", "plains"


def edges(n: str, e: str, s: str, w: str) -> dict[str, str]:
    return {"N": n, "E": e, "S": s, "W": w}


def tile(row, col, n, e, s, w, areas=None, animals=0, volcanoes=0):
    """A tile whose water sides form one area and every land side its own, unless ``areas`` says."""
    sides = edges(n, e, s, w)
    if areas is None:
        water = [side for side in "NESW" if sides[side] == W]
        areas = ([(W, water)] if water else []) + [(sides[x], [x]) for x in "NESW" if sides[x] != W]
    return make_tile(row, col, sides, areas, animals, volcanoes)


def full_forest_island(grid: int = 3, animals_at=(), volcanoes_at=()) -> Island:
    """Every tile forest inside, water outside, each land side its own area: a valid island whose
    landscapes are exactly the inner facing pairs (2 * grid * (grid - 1) of them)."""
    tiles = []
    for r in range(grid):
        for c in range(grid):
            n = W if r == 0 else F
            s = W if r == grid - 1 else F
            w = W if c == 0 else F
            e = W if c == grid - 1 else F
            tiles.append(
                tile(
                    r, c, n, e, s, w, animals=int((r, c) in animals_at), volcanoes=int((r, c) in volcanoes_at)
                )
            )
    return Island(grid, tuple(tiles))

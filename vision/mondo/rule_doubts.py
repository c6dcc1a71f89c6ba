"""What the rules of Mondo say of a reading of a whole island, for the reader to weigh its grid:
how well a reading fits them (`place_rank`), whether it breaks them as a misplaced grid does rather
than as players do (`doubts_grid`), and how many of its tiles lie back side up (`backs_of`). Each
takes an `Island` and reads no pixels; `vision.mondo.reader` turns the answers into its choices and
flags.
"""

from __future__ import annotations

from scoring.mondo import Island
from scoring.mondo.score import EdgeProblem, analyse_island, neighbour
from vision.mondo.empty_spaces import back_side_up

# An island read as breaking the water rule on this many edges or more says its grid is uncertain,
# so the further looks are made: a grid a cell off cuts every tile along one side of the island, and
# breaks the rule there, where a player who breaks it mostly does so with one tile (a tile turned half
# round breaks it on two sides, at a corner on four). The stress sets' wrong readings with nothing
# asked (9518-00350, 9538-00282, 9539-00114, 9539-00190) broke it on 6-9 edges, their truths on none
# (each a 0 below zero, read as 0 again); truths breaking it on 6 or more: 4 of 1,900 islands
# (stress 9518, 9538, 9539, everyday 9042). Development, stress 9538 / 9539 (grid detected): exact
# 97.4 -> 97.6% / 97.8 -> 98.2%, wrong and unflagged 0.2 / 0.4 -> 0.0%; of 9539's two such truths,
# read right, 00059 is now asked about and 00437 asked once more. None: never.
MANY_BROKEN_EDGES: int | None = 6
# A 3x3 island read with land facing out on this many outer edges or more, and no water facing in,
# says its grid is uncertain too: it may be a 3x3 window of a 4x4 island (fresh stress 9540-00406,
# grid detected: a 4x4 island spanning 17% of the frame read as 3x3, land facing out on 3 edges,
# nothing asked). A player's tile turned the wrong way faces water in as well, and a back at the
# border faces land out on one or two edges. Truths so: 1 of 2,400 (stress 9518, 9538-9540, everyday
# 9042, 9043). Development, stress 9540 / 9539 (grid detected): 00406 wrong and unflagged -> wrong and
# asked, 9540-00441 right -> right and asked (a look read it so, and a later one was kept); 9539 no
# record changed. None: never.
MANY_LAND_OUT: int | None = 3


def place_rank(island: Island) -> tuple[int, int]:
    """How well a reading fits the rules, larger is better: the tiles it holds, then the fewer
    edges that break the island (water facing in, land facing out)."""
    return len(island.tiles), -len(analyse_island(island).invalid_edges)


def doubts_grid(island: Island) -> bool:
    """Whether the rules doubt the grid the island was read on: it breaks the water rule on
    MANY_BROKEN_EDGES edges or more, or, 3x3, faces land out on MANY_LAND_OUT outer edges or more
    and water in on none (the island analysed once)."""
    edges = analyse_island(island).invalid_edges
    return _broken_widely(edges) or _land_out(island, edges)


def breaks_water_widely(island: Island) -> bool:
    """Whether the island breaks the water rule on MANY_BROKEN_EDGES edges or more."""
    return _broken_widely(analyse_island(island).invalid_edges)


def faces_land_out(island: Island) -> bool:
    """Whether a 3x3 island faces land out on MANY_LAND_OUT outer edges or more, and water in on none."""
    return _land_out(island, analyse_island(island).invalid_edges)


def _broken_widely(edges: tuple[EdgeProblem, ...]) -> bool:
    return MANY_BROKEN_EDGES is not None and len(edges) >= MANY_BROKEN_EDGES


def _land_out(island: Island, edges: tuple[EdgeProblem, ...]) -> bool:
    if MANY_LAND_OUT is None or island.grid != 3:
        return False
    out = sum(neighbour(island, e.row, e.col, e.side)[0] == "outside" for e in edges)
    return out >= MANY_LAND_OUT and out == len(edges)


def backs_of(island: Island) -> int:
    """How many of the island's tiles were read back side up."""
    return sum(back_side_up(t) for t in island.tiles)

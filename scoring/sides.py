"""Sides of a cell and what turning or mirroring does to them.

Sides are N E S W: up, right, down, left in the rectified view; y (row) grows downwards.
"""

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
# A side as a player names it, looking at the photo of the board (the rectified view).
SIDE_WORDS: dict[str, str] = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
# (dx, dy) of one step towards a side: x is the column, y the row.
STEP: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def turned_clockwise(side: str, quarter_turns: int = 1) -> str:
    """The side that ``side`` ends up on after turning the piece clockwise by quarter turns."""
    return SIDES[(SIDES.index(side) + quarter_turns) % 4]


def mirrored_left_right(side: str) -> str:
    """The side that ``side`` ends up on after mirroring the view left to right."""
    return {"E": "W", "W": "E"}.get(side, side)

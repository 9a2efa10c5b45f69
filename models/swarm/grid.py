"""Cell codes, directions and symbols shared by every swarm task (docs/worlds/swarm.md)."""

from __future__ import annotations

EMPTY, WALL, PREY, FOOD, NEST = 0, 1, 2, 3, 4
#: the paper's symbols for terrain codes; agents render as their id, self as Y, the box as B
SYMBOL = {EMPTY: ".", WALL: "W", PREY: "P", FOOD: "F", NEST: "N"}
BOX, SELF, OFF_MAP = "B", "Y", "*"

MOVES = ("UP", "DOWN", "LEFT", "RIGHT")
#: (drow, dcol) per move; rows grow downward
DELTA = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
OPPOSITE = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
#: the one list of primary actions every task offers (task actions are appended per task)
BASE_ACTIONS = (*MOVES, "STAY")


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])

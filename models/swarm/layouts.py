"""Seeded procedural layouts: wall rings, the Foraging maze, the Transport box and its gap."""

from __future__ import annotations

import random

import numpy as np

from mam_bench.models.swarm.grid import EMPTY, WALL


def walled(size: int) -> np.ndarray:
    """An empty size x size grid with the outer wall ring every task has."""
    t = np.full((size, size), EMPTY, dtype=np.int8)
    t[0, :] = t[-1, :] = t[:, 0] = t[:, -1] = WALL
    return t


def free_cells(
    terrain: np.ndarray, blocked: set[tuple[int, int]] = frozenset(), region: tuple[int, int, int, int] | None = None
) -> list[tuple[int, int]]:
    """Empty cells in row-major order, optionally inside (r0, r1, c0, c1) inclusive."""
    rows, cols = np.nonzero(terrain == EMPTY)
    out = []
    for r, c in zip(rows.tolist(), cols.tolist()):
        if (r, c) in blocked:
            continue
        if region and not (region[0] <= r <= region[1] and region[2] <= c <= region[3]):
            continue
        out.append((r, c))
    return out


def place(cells: list[tuple[int, int]], n: int, rng: np.random.Generator) -> np.ndarray:
    """n distinct cells drawn without replacement (falls back to fewer if the region is small)."""
    if n > len(cells):
        raise ValueError(f"cannot place {n} agents on {len(cells)} free cells")
    idx = rng.choice(len(cells), size=n, replace=False)
    return np.array([cells[i] for i in idx], dtype=np.int64).reshape(n, 2)


def foraging_maze(
    size: int, rng: np.random.Generator
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """Serpentine internal walls every 4 rows (or columns), alternating open sides (upstream).

    Returns terrain (without F/N marks), the 2x2 food cells and the 2x2 nest cells.
    """
    t = walled(size)
    vertical = bool(rng.integers(2))
    gap = max(1, (size - 2) // 3)
    lines = [k for k in range(4, size - 2, 4)]
    for n_line, k in enumerate(lines):
        t[k, 1 : size - 1] = WALL
        if n_line % 2 == 0:
            t[k, size - 1 - gap : size - 1] = EMPTY
        else:
            t[k, 1 : 1 + gap] = EMPTY
    lo, hi = 1, size - 3
    food = [(lo + dr, lo + dc) for dr in (0, 1) for dc in (0, 1)]
    nest_col = lo if len(lines) % 2 == 1 else hi
    nest = [(hi + dr, nest_col + dc) for dr in (0, 1) for dc in (0, 1)]
    if vertical:
        t = t.T.copy()
        food = [(c, r) for r, c in food]
        nest = [(c, r) for r, c in nest]
    return t, food, nest


def transport_layout(
    size: int, rng: np.random.Generator, box: str = "irregular"
) -> tuple[np.ndarray, list[tuple[int, int]], str, list[tuple[int, int]]]:
    """A box in a corner against a wall with the wall's gap behind it.

    Returns terrain, the box cells, the push direction toward the gap, and the gap cells.
    The box's gap-facing line is full, so nothing slips past it; the rest grows to 13 cells
    (irregular) or fills the footprint (square).
    """
    t = walled(size)
    side = ("UP", "DOWN", "LEFT", "RIGHT")[int(rng.integers(4))]
    depth, breadth = ((4, 5), (5, 4))[int(rng.integers(2))]
    depth = min(depth, size - 4)
    breadth = min(breadth, size - 2)
    low_corner = bool(rng.integers(2))
    # build in a frame where the gap is on the RIGHT: rows = breadth, cols = depth
    r0 = 1 if low_corner else size - 1 - breadth
    c0 = size - 1 - depth
    footprint = [(r0 + i, c0 + j) for i in range(breadth) for j in range(depth)]
    front = [(r0 + i, c0 + depth - 1) for i in range(breadth)]
    if box == "square":
        cells = list(footprint)
    else:
        want = min(13, len(footprint))
        cells = list(front)
        chosen = set(cells)
        while len(cells) < want:
            frontier = sorted(
                {
                    (r + dr, c + dc)
                    for r, c in cells
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if (r + dr, c + dc) in set(footprint) and (r + dr, c + dc) not in chosen
                }
            )
            pick = frontier[int(rng.integers(len(frontier)))]
            chosen.add(pick)
            cells.append(pick)
    gap = [(r0 + i, size - 1) for i in range(breadth)]
    cells = sorted(cells)

    # rotate the frame so the gap lies on `side`
    def rot(cell: tuple[int, int]) -> tuple[int, int]:
        r, c = cell
        if side == "RIGHT":
            return r, c
        if side == "LEFT":
            return r, size - 1 - c
        if side == "DOWN":
            return c, r
        return size - 1 - c, r  # UP

    cells = sorted(rot(x) for x in cells)
    gap = sorted(rot(x) for x in gap)
    for g in gap:
        t[g] = EMPTY
    return t, cells, side, gap


#: upstream's Flocking ignores the run's seed: its generator is always Python's Random(42)
UPSTREAM_FLOCKING_SEED = 42


def upstream_flocking(terrain: np.ndarray, n: int) -> np.ndarray:
    """Upstream's one Flocking layout: `spread` over the interior with Random(42), x drawn first.

    Upstream builds `Flocking(seed)` but calls `super().__init__()` without the seed, so every run
    starts here (at 10x10 with 10 agents the init distance is 11). Reproducing that generator is
    the only way to get upstream's layout; it draws nothing from the run's streams.
    """
    size = terrain.shape[0]
    rng = random.Random(UPSTREAM_FLOCKING_SEED)
    cells: list[tuple[int, int]] = []
    while len(cells) < n:
        x, y = rng.randint(1, size - 2), rng.randint(1, size - 2)
        if (y, x) not in cells and terrain[y, x] == EMPTY:
            cells.append((y, x))
    return np.array(cells, dtype=np.int64).reshape(n, 2)


#: upstream's 8 Transport boxes (13 cells each) as (rows, top-left offset, gap slice), read from
#: `Transport.boxes` in `swarmbench/task.py` @ c164678. An offset or slice bound < 0 counts from
#: the far edge; the gap is cut out of the wall ring and 4 box cells sit in it.
TRANSPORT_BOXES: tuple[tuple[tuple[str, ...], tuple[int, int], tuple[tuple[int | None, int | None], ...]], ...] = (
    (("BBB..", "BBB..", "BBB..", ".BBBB"), (-4, -5), ((-1, None), (-4, None))),
    (("..BBB", "..BBB", "..BBB", "BBBB."), (-4, 0), ((-1, None), (None, 4))),
    (("...B", "...B", "BBBB", "BBBB", "BBB."), (0, -4), ((None, 4), (-1, None))),
    (("BBB.", "BBBB", "BBBB", "...B", "...B"), (-5, -4), ((-4, None), (-1, None))),
    (("B...", "B...", "BBBB", "BBBB", ".BBB"), (0, 0), ((None, 4), (None, 1))),
    ((".BBB", "BBBB", "BBBB", "B...", "B..."), (-5, 0), ((-4, None), (None, 1))),
    (("BBBB.", "..BBB", "..BBB", "..BBB"), (0, 0), ((None, 1), (None, 4))),
    ((".BBBB", "BBB..", "BBB..", "BBB.."), (0, -5), ((None, 1), (-4, None))),
)


def upstream_transport(size: int, shape: int) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """Terrain (wall ring with the gap cut), box cells and gap cells of upstream box `shape`."""
    rows, (r0, c0), (rs, cs) = TRANSPORT_BOXES[shape]
    t = walled(size)
    gap_mask = np.zeros((size, size), dtype=bool)
    gap_mask[slice(*rs), slice(*cs)] = True
    gap_mask &= t == WALL
    t[gap_mask] = EMPTY
    top, left = r0 % size, c0 % size
    cells = [(top + i, left + j) for i, line in enumerate(rows) for j, ch in enumerate(line) if ch == "B"]
    gap = [tuple(int(x) for x in c) for c in np.argwhere(gap_mask).tolist()]
    return t, sorted(cells), sorted(gap)


def upstream_foraging(
    size: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """Upstream's Foraging maze and its 4 food/nest placements (`Foraging.reset` @ c164678).

    Food's 2x2 corner is drawn (row 1 or size-3, column 1 or size-3), the nest takes the opposite
    one; wall lines every 4 rows (or columns, 50/50) at 4, 8, .. < size-4, alternately open on
    the far and the near side. With an odd number of lines F and N share column (row) 1.
    """
    t = walled(size)
    food_r = (1, size - 3)[int(rng.integers(2))]
    food_c = (1, size - 3)[int(rng.integers(2))]
    nest_r = size - 3 if food_r == 1 else 1
    nest_c = size - 3 if food_c == 1 else 1
    rows_first = int(rng.integers(2)) == 0
    lines = list(range(4, size - 4, 4))
    stop = (-size) // 3 + 1  # upstream's `:-width // 3 + 1`
    for k, line in enumerate(lines):
        part = slice(None, stop) if k % 2 == 0 else slice(size // 3, None)
        if rows_first:
            t[line, part] = WALL
        else:
            t[part, line] = WALL
    if len(lines) % 2 == 1:
        if rows_first:
            food_c = nest_c = 1
        else:
            food_r = nest_r = 1
    food = [(food_r + dr, food_c + dc) for dr in (0, 1) for dc in (0, 1)]
    nest = [(nest_r + dr, nest_c + dc) for dr in (0, 1) for dc in (0, 1)]
    for c in food + nest:
        t[c] = EMPTY
    return t, food, nest

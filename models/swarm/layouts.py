"""Seeded procedural layouts: wall rings, the Foraging maze, the Transport box and its gap."""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.grid import EMPTY, WALL


def walled(size: int) -> np.ndarray:
    """An empty size x size grid with the outer wall ring every task has."""
    t = np.full((size, size), EMPTY, dtype=np.int8)
    t[0, :] = t[-1, :] = t[:, 0] = t[:, -1] = WALL
    return t


def free_cells(terrain: np.ndarray, blocked: set[tuple[int, int]] = frozenset(), region: tuple[int, int, int, int] | None = None) -> list[tuple[int, int]]:
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


def foraging_maze(size: int, rng: np.random.Generator) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
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


def transport_layout(size: int, rng: np.random.Generator, box: str = "irregular") -> tuple[np.ndarray, list[tuple[int, int]], str, list[tuple[int, int]]]:
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
            frontier = sorted({
                (r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if (r + dr, c + dc) in set(footprint) and (r + dr, c + dc) not in chosen
            })
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

"""The prey under `rules=swarmbench`: upstream's flight and respawn, quirks included.

Read from upstream's `Pursuit.update` (`swarmbench/task.py` @ c164678):
- flight: the baseline is H of the cell to the prey's LEFT (a loop variable left over from the
  capture test), not of its own cell; a two-step move needs its final cell and BOTH cells of the
  L (first step alone, second step alone) empty; moves are tried RIGHT, LEFT, DOWN, UP for each
  step, and a candidate replaces the best only if strictly lower;
- respawn: draw interior cells until width x height of them were empty, keep the first with the
  least H; the old cell counts as empty (the prey was lifted first).
H = agents + 0.9 walls over grid[i-4:i+4, j-4:j+4] (clipped at 0), the cell itself included.
"""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.grid import EMPTY, WALL

#: upstream's (drow, dcol) order for each of the two steps
FLIGHT_ORDER = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _window_counts(grid: np.ndarray) -> np.ndarray:
    """Integral image: entry [r, c] counts the true cells of grid[:r, :c]."""
    s = np.zeros((grid.shape[0] + 1, grid.shape[1] + 1), dtype=np.int64)
    s[1:, 1:] = grid.cumsum(axis=0).cumsum(axis=1)
    return s


def threat_map(agents: np.ndarray, terrain: np.ndarray) -> np.ndarray:
    """H for every cell at once (integral images over the 8 x 8 upstream window)."""
    H, W = terrain.shape
    out = np.zeros((H, W), dtype=float)
    r0, r1 = np.maximum(np.arange(H) - 4, 0), np.minimum(np.arange(H) + 4, H)
    c0, c1 = np.maximum(np.arange(W) - 4, 0), np.minimum(np.arange(W) + 4, W)
    for grid, weight in ((agents > 0, 1.0), (terrain == WALL, 0.9)):
        s = _window_counts(grid)
        count = s[r1][:, c1] - s[r0][:, c1] - s[r1][:, c0] + s[r0][:, c0]
        out = out + count * weight
    return out


_WALL_TERMS: dict[tuple[tuple[int, ...], bytes], list[list[float]]] = {}


def _wall_terms(terrain: np.ndarray) -> list[list[float]]:
    """0.9 x the walls in each cell's window (threat_map's wall term), once per terrain: the
    terrain stands still while the agents move, and the flight looks at a dozen cells only."""
    key = (terrain.shape, terrain.tobytes())
    terms = _WALL_TERMS.get(key)
    if terms is None:
        if len(_WALL_TERMS) > 64:
            _WALL_TERMS.clear()
        terms = _WALL_TERMS[key] = threat_map(np.zeros(terrain.shape, dtype=np.int64), terrain).tolist()
    return terms


def flee(prey: tuple[int, int], agents: np.ndarray, terrain: np.ndarray) -> tuple[int, int]:
    """Where the prey ends up this round (it stays when no move beats the left cell's H)."""
    i, j = prey
    walls = _wall_terms(terrain)

    def threat(cell: tuple[int, int]) -> float:
        """H of one cell: its window's occupied cells, plus the walls' term kept per terrain."""
        r, c = cell
        return int(np.count_nonzero(agents[max(r - 4, 0) : r + 4, max(c - 4, 0) : c + 4])) + walls[r][c]

    # the empty cells within two steps (a 5 x 5 block clipped to the map), the prey's own excluded
    r0, c0 = max(i - 2, 0), max(j - 2, 0)
    block = ((terrain[r0 : i + 3, c0 : j + 3] == EMPTY) & (agents[r0 : i + 3, c0 : j + 3] == 0)).tolist()
    empty = {(r0 + dr, c0 + dc) for dr, row in enumerate(block) for dc, ok in enumerate(row) if ok} - {prey}

    best = threat((i, j - 1))
    target = prey
    for a in FLIGHT_ORDER:
        for b in FLIGHT_ORDER:
            r, c = i + a[0] + b[0], j + a[1] + b[1]
            if not ((r, c) in empty and (i + a[0], j + a[1]) in empty and (i + b[0], j + b[1]) in empty):
                continue
            h = threat((r, c))
            if h < best:
                best, target = h, (r, c)
    return target


def respawn(agents: np.ndarray, terrain: np.ndarray, rng: np.random.Generator) -> tuple[int, int] | None:
    """The first least-H cell among width x height empty interior draws (None if none is empty)."""
    H, W = terrain.shape
    free = (terrain == EMPTY) & (agents == 0)
    if not free[1 : H - 1, 1 : W - 1].any():
        return None
    want = H * W
    cells: list[np.ndarray] = []
    got = 0
    while got < want:
        draw = np.stack([rng.integers(1, H - 1, size=want), rng.integers(1, W - 1, size=want)], axis=1)
        draw = draw[free[draw[:, 0], draw[:, 1]]]
        cells.append(draw)
        got += len(draw)
    picks = np.concatenate(cells)[:want]
    h = threat_map(agents, terrain)[picks[:, 0], picks[:, 1]]
    k = int(np.argmin(h))  # the first minimum, as upstream's strict `<`
    return int(picks[k, 0]), int(picks[k, 1])

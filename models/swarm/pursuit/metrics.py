"""Pursuit scoring: capture test and the prey's threat heuristic H = N_A + 0.9 N_W (docs/worlds/swarm.md, "Pursuit")."""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.grid import EMPTY, WALL


def threat(cell: tuple[int, int], agents: np.ndarray, terrain: np.ndarray) -> float:
    """H over the upstream subview grid[i-4:i+4, j-4:j+4] (clipped at 0)."""
    i, j = cell
    r0, c0 = max(i - 4, 0), max(j - 4, 0)
    return float(agents[r0 : i + 4, c0 : j + 4].sum() + 0.9 * (terrain[r0 : i + 4, c0 : j + 4] == WALL).sum())


def captured(prey: tuple[int, int], agents: np.ndarray, terrain: np.ndarray) -> bool:
    """All four orthogonal neighbours are agents or walls."""
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        t = (prey[0] + dr, prey[1] + dc)
        if agents[t] == 0 and terrain[t] == EMPTY:
            return False
    return True

"""The board as arrays: a size x size grid of actor ids (-1 vacant), cells as flat row-major
indices. What the metrics, the observations and every path of the rule read."""

from __future__ import annotations

import numpy as np

_OFFSETS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def type_grid(grid: np.ndarray, types: np.ndarray) -> np.ndarray:
    """Cell -> group (0/1) or -1 for a vacancy, from a cell -> actor id grid."""
    return np.where(grid >= 0, types[np.maximum(grid, 0)], -1)


def neighbour_counts(tgrid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: how many Moore neighbours (torus) are of group A and of group B."""
    a = (tgrid == 0).astype(np.int16)
    b = (tgrid == 1).astype(np.int16)
    ca = np.zeros_like(a)
    cb = np.zeros_like(b)
    for dr, dc in _OFFSETS8:
        ca += np.roll(a, (dr, dc), axis=(0, 1))
        cb += np.roll(b, (dr, dc), axis=(0, 1))
    return ca, cb


def satisfied_cells(tgrid: np.ndarray, ca: np.ndarray, cb: np.ndarray, num: int, den: int) -> np.ndarray:
    """Occupied cells whose same-group share meets the threshold; isolated agents are satisfied."""
    same = np.where(tgrid == 0, ca, cb).astype(np.int64)
    occ = (ca + cb).astype(np.int64)
    return (tgrid >= 0) & ((occ == 0) | (same * den >= num * occ))


def settle(grid: np.ndarray, pos: np.ndarray, moves: list[tuple[int, int, int]]) -> None:
    """All reserved moves at once: origins empty, destinations fill."""
    flat = grid.reshape(-1)
    for _, origin, _ in moves:
        flat[origin] = -1
    for aid, _, dest in moves:
        flat[dest] = aid
        pos[aid] = dest

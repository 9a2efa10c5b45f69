"""Schelling boards from record rows: who is where, who is satisfied, each agent's local share.

Everything is read from a row's snapshot (`positions`, `groups`, `satisfied` by actor id, and the
`threshold`), as the world wrote it, so live runs, recordings and the GIF export draw the same
picture and nothing is recomputed here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from mam_bench.models.schelling.metrics import local_share  # noqa: F401 - the pillar field's height

#: group colours (A, B); dissatisfied agents are drawn with DIM alpha
COLOURS = ((0.16, 0.47, 0.78), (0.93, 0.53, 0.13))
DIM = 0.28
BACKGROUND = (0.12, 0.12, 0.14)


def threshold_of(row: dict[str, Any]) -> Fraction:
    """The threshold the world wrote into the snapshot (exact)."""
    return Fraction(row["threshold"])


def grid_of(row: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(grid of actor ids, -1 for empty; group by actor id, 0 = A), from the snapshot."""
    size = int(row["size"])
    pos = np.asarray(row["positions"], dtype=np.int64)
    grid = np.full(size * size, -1, dtype=np.int64)
    grid[pos] = np.arange(len(pos))
    return grid.reshape(size, size), np.asarray(row["groups"], dtype=np.int64)


def satisfied_grid(row: dict[str, Any]) -> np.ndarray:
    """Per cell: the world's own satisfied flag for the agent there (False where empty)."""
    size = int(row["size"])
    sat = np.zeros(size * size, dtype=bool)
    sat[np.asarray(row["positions"], dtype=np.int64)] = np.asarray(row["satisfied"], dtype=bool)
    return sat.reshape(size, size)


def board_rgba(row: dict[str, Any]) -> np.ndarray:
    """size x size x 4 image: group colour, dimmed where dissatisfied, dark where empty."""
    grid, types = grid_of(row)
    sat = satisfied_grid(row)
    img = np.zeros(grid.shape + (4,))
    img[...] = (*BACKGROUND, 1.0)
    for g, colour in enumerate(COLOURS):
        cells = (grid >= 0) & (types[np.maximum(grid, 0)] == g)
        img[cells] = (*colour, 1.0)
        dim = cells & ~sat
        img[dim] = (*(DIM * np.array(colour) + (1 - DIM) * np.array(BACKGROUND)), 1.0)
    return img

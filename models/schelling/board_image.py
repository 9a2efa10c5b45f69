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

#: group colours (A, B): Okabe-Ito blue and orange, apart under colour-blindness and in greyscale
#: (dark and mid grey); dissatisfied agents are their light tint (DIM of the colour) and carry a dot
#: (renderer), vacancies are the white background, so no two meanings share a shade
COLOURS = ((0.0, 0.447, 0.698), (0.902, 0.624, 0.0))
DIM = 0.45
BACKGROUND = (1.0, 1.0, 1.0)
#: the mark on a dissatisfied agent's cell
DISSATISFIED_MARK = (0.0, 0.0, 0.0)


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
    """size x size x 4 image: group colour, a light tint where dissatisfied, white where empty."""
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

"""Schelling boards from record rows: who is where, who is satisfied, each agent's local share.

Everything is derived from a row's `positions` (flat cell per actor id) and the parameters, so
live runs, recordings and the GIF export draw the same picture.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from mam_bench.params import parse_fraction
from mam_bench.models.schelling.agents import neighbour_counts, satisfied_cells, type_grid
from mam_bench.models.schelling.metrics import local_share  # noqa: F401 - the pillar field's height

#: group colours (A, B); dissatisfied agents are drawn with DIM alpha
COLOURS = ((0.16, 0.47, 0.78), (0.93, 0.53, 0.13))
DIM = 0.28
BACKGROUND = (0.12, 0.12, 0.14)


def threshold_of(params: dict[str, Any]) -> Fraction:
    return parse_fraction(params.get("threshold", "3/4"))


def grid_of(row: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(grid of actor ids, -1 for empty; types by id: 0 = A for the lower half of ids)."""
    size = int(row["size"])
    pos = np.asarray(row["positions"], dtype=np.int64)
    grid = np.full(size * size, -1, dtype=np.int64)
    grid[pos] = np.arange(len(pos))
    n_a = (len(pos) + 1) // 2
    types = (np.arange(len(pos)) >= n_a).astype(np.int64)
    return grid.reshape(size, size), types


def satisfied(grid: np.ndarray, types: np.ndarray, threshold: Fraction) -> np.ndarray:
    """Per cell: satisfied, by the world's own rule (exact fractions, isolated agents satisfied)."""
    tg = type_grid(grid, types)
    ca, cb = neighbour_counts(tg)
    return satisfied_cells(tg, ca, cb, threshold.numerator, threshold.denominator)


def board_rgba(row: dict[str, Any], params: dict[str, Any]) -> np.ndarray:
    """size x size x 4 image: group colour, dimmed where dissatisfied, dark where empty."""
    grid, types = grid_of(row)
    sat = satisfied(grid, types, threshold_of(params))
    img = np.zeros(grid.shape + (4,))
    img[...] = (*BACKGROUND, 1.0)
    for g, colour in enumerate(COLOURS):
        cells = (grid >= 0) & (types[np.maximum(grid, 0)] == g)
        img[cells] = (*colour, 1.0)
        dim = cells & ~sat
        img[dim] = (*(DIM * np.array(colour) + (1 - DIM) * np.array(BACKGROUND)), 1.0)
    return img

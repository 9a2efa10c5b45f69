"""Outcome metrics: ordinary edge homophily (masked) and binary satisfaction.

OEH counts each undirected Moore pair once among scored agents only; influence identities are
left out in both runs, so they can move OEH only by moving ordinary agents.
"""

from __future__ import annotations

import numpy as np

from mam_bench.models.schelling.board import neighbour_counts, satisfied_cells, type_grid

_HALF_OFFSETS = ((0, 1), (1, -1), (1, 0), (1, 1))


def edge_homophily(grid: np.ndarray, types: np.ndarray, scored: np.ndarray) -> float:
    """Same-group pairs / all pairs between two scored agents (raises when there are none)."""
    tg = type_grid(grid, types)
    ok = (grid >= 0) & scored[np.maximum(grid, 0)]
    tg = np.where(ok, tg, -1)
    same = pairs = 0
    for dr, dc in _HALF_OFFSETS:
        other = np.roll(tg, (-dr, -dc), axis=(0, 1))
        both = (tg >= 0) & (other >= 0)
        pairs += int(both.sum())
        same += int((both & (tg == other)).sum())
    if pairs == 0:
        raise ValueError("edge homophily is undefined: no pair of scored agents are neighbours")
    return same / pairs


def satisfaction(grid: np.ndarray, types: np.ndarray, scored: np.ndarray, num: int, den: int) -> float:
    """Share of scored agents satisfied; every agent (influence too) counts as a typed neighbour."""
    tg = type_grid(grid, types)
    ca, cb = neighbour_counts(tg)
    return satisfied_share(grid, scored, satisfied_cells(tg, ca, cb, num, den))


def satisfied_share(grid: np.ndarray, scored: np.ndarray, sat: np.ndarray) -> float:
    """Share of scored agents whose cell is satisfied in `sat` (1.0 with nobody scored)."""
    ok = (grid >= 0) & scored[np.maximum(grid, 0)]
    n = int(ok.sum())
    return float((sat & ok).sum()) / n if n else 1.0


def local_share(grid: np.ndarray, types: np.ndarray) -> np.ndarray:
    """Per cell same-group share of occupied neighbours; NaN for vacancies and isolated agents."""
    tg = type_grid(grid, types)
    ca, cb = neighbour_counts(tg)
    same = np.where(tg == 0, ca, cb).astype(float)
    occ = (ca + cb).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where((tg >= 0) & (occ > 0), same / occ, np.nan)
    return share

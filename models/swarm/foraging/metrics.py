"""Foraging scoring: automatic pick-up next to F and delivery next to N (docs/worlds/swarm.md, "Foraging")."""

from __future__ import annotations

import numpy as np


def beside(cells: list[tuple[int, int]], shape: tuple[int, int]) -> np.ndarray:
    """Cells 4-adjacent to any of `cells`."""
    m = np.zeros(shape, dtype=bool)
    for r, c in cells:
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < shape[0] and 0 <= c + dc < shape[1]:
                m[r + dr, c + dc] = True
    return m


def within_reach(cells: list[tuple[int, int]], reach: int, shape: tuple[int, int]) -> np.ndarray:
    """Cells within Chebyshev distance `reach` of any of `cells` (where an agent sees one)."""
    m = np.zeros(shape, dtype=bool)
    for r, c in cells:
        m[max(r - reach, 0) : r + reach + 1, max(c - reach, 0) : c + reach + 1] = True
    return m


def settle(
    pos: np.ndarray,
    active: np.ndarray,
    carrying: np.ndarray,
    near_food: np.ndarray,
    near_nest: np.ndarray,
    upstream: bool = False,
) -> np.ndarray:
    """Deliver, then pick up, in place (upstream: pick up, then deliver, in one update).

    Each agent settles on its own cell and load, so all active agents settle at once.
    Returns a bool per agent: did it deliver this round.
    """
    delivered = np.zeros(len(pos), dtype=bool)
    live = np.flatnonzero(active)
    at_food = near_food[pos[live, 0], pos[live, 1]]
    at_nest = near_nest[pos[live, 0], pos[live, 1]]
    load = carrying[live]
    if upstream:
        load = load | at_food
        done = load & at_nest
        carrying[live] = load & ~done
    else:
        done = load & at_nest  # a carrier beside N delivers; an empty agent beside F picks up
        carrying[live] = (load & ~done) | (~load & at_food)
    delivered[live] = done
    return delivered

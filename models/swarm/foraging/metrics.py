"""Foraging scoring: automatic pick-up next to F and delivery next to N (spec section 5)."""

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


def settle(
    pos: np.ndarray,
    active: np.ndarray,
    carrying: np.ndarray,
    near_food: np.ndarray,
    near_nest: np.ndarray,
    upstream: bool = False,
) -> np.ndarray:
    """Deliver, then pick up, in place (upstream: pick up, then deliver, in one update).

    Returns a bool per agent: did it deliver this round.
    """
    delivered = np.zeros(len(pos), dtype=bool)
    for i in np.flatnonzero(active):
        cell = (int(pos[i, 0]), int(pos[i, 1]))
        if upstream:
            carrying[i] |= bool(near_food[cell])
            if near_nest[cell] and carrying[i]:
                carrying[i] = False
                delivered[i] = True
        elif carrying[i] and near_nest[cell]:
            carrying[i] = False
            delivered[i] = True
        elif not carrying[i] and near_food[cell]:
            carrying[i] = True
    return delivered

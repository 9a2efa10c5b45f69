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


def settle(pos: np.ndarray, active: np.ndarray, carrying: np.ndarray, near_food: np.ndarray, near_nest: np.ndarray) -> int:
    """Deliver, then pick up, in place; returns the number of deliveries."""
    delivered = 0
    for i in np.flatnonzero(active):
        cell = (int(pos[i, 0]), int(pos[i, 1]))
        if carrying[i] and near_nest[cell]:
            carrying[i] = False
            delivered += 1
        elif not carrying[i] and near_food[cell]:
            carrying[i] = True
    return delivered

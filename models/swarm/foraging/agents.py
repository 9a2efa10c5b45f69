"""Foraging rule agents (spec section 7): BFS to F, or to N when carrying, with a little jitter.

bfs: the maze is known, so agents follow the distance field at once.
explore: an agent random-walks until F (or N) has been in its view once, then uses the field.
"""

from __future__ import annotations

import numpy as np
from mam_bench.models.swarm.navigation import FAR, LazyRng, downhill, wander


def forage_rule(
    here: tuple[int, int],
    carrying: bool,
    knows_goal: bool,
    to_food: np.ndarray,
    to_nest: np.ndarray,
    passable: np.ndarray,
    jitter: float,
    rng: LazyRng,
    recent,
) -> str:
    field = to_nest if carrying else to_food
    if not knows_goal or field[here] >= FAR:
        return wander(here, recent, passable, rng)
    if jitter and rng().random() < jitter:
        return wander(here, (), passable, rng)
    return downhill(here, field, rng)

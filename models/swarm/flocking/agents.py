"""Flocking rule agents: three seeded strategies.

local (default) and nearest (the spec's human-baseline heuristic): the square is anchored at the
top-left of the bounding box of the agents one sees (local) or of the whole swarm (nearest);
an agent on a slot stays, the others step toward the nearest slot no agent
holds. assign: the optimal placement and Hungarian assignment of the dissimilarity metric,
restricted to placements inside the walls; each agent steps toward its own slot.
"""

from __future__ import annotations

import numpy as np
from mam_bench.models.swarm.grid import manhattan
from mam_bench.models.swarm.navigation import LazyRng, toward


def nearest_rule(
    here: tuple[int, int], slots: list[tuple[int, int]], taken: set[tuple[int, int]], passable: np.ndarray, rng: LazyRng
) -> str:
    if here in slots:
        return "STAY"
    free = [s for s in slots if s not in taken]
    if not free:
        return "STAY"
    best = min(manhattan(here, s) for s in free)
    goals = [s for s in free if manhattan(here, s) == best]
    goal = goals[0] if len(goals) == 1 else goals[int(rng().integers(len(goals)))]
    return toward(here, goal, passable, rng)


def assign_rule(here: tuple[int, int], goal: tuple[int, int] | None, passable: np.ndarray, rng: LazyRng) -> str:
    if goal is None or goal == here:
        return "STAY"
    return toward(here, goal, passable, rng)

"""Pursuit rule agents: two seeded strategies (spec section 7).

hungarian: agents are assigned to the prey's free neighbour cells by a Hungarian assignment on
BFS distances, then take a BFS step; the rest close in to two steps and wait.
greedy: each agent uses only its own view and memory: it heads for the nearest neighbour cell of
the prey it last saw that no visible agent holds, and random-walks while it has no sighting.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from mam_bench.models.swarm.grid import DELTA, MOVES, manhattan
from mam_bench.models.swarm.navigation import FAR, LazyRng, bfs, downhill, toward, wander
from scipy.optimize import linear_sum_assignment


@dataclass
class PursuitPlan:
    slots: list[tuple[int, int]]
    fields: list[np.ndarray]
    nearest: np.ndarray | None
    assigned: dict[int, int] = field(default_factory=dict)
    passable: np.ndarray | None = None


def prey_slots(prey: tuple[int, int], terrain: np.ndarray) -> list[tuple[int, int]]:
    return [
        (prey[0] + dr, prey[1] + dc) for dr, dc in (DELTA[m] for m in MOVES) if terrain[prey[0] + dr, prey[1] + dc] == 0
    ]


def hungarian_plan(
    prey: tuple[int, int], terrain: np.ndarray, passable: np.ndarray, pos: np.ndarray, active: np.ndarray
) -> PursuitPlan:
    slots = prey_slots(prey, terrain)
    fields = [bfs(passable, [s]) for s in slots]
    ids = np.flatnonzero(active)
    assigned: dict[int, int] = {}
    nearest = np.minimum.reduce(fields) if fields else None
    if slots and len(ids):
        cost = np.array([[f[tuple(pos[i])] for f in fields] for i in ids], dtype=float)
        rows, cols = linear_sum_assignment(cost)
        assigned = {int(ids[r]): int(c) for r, c in zip(rows, cols) if cost[r, c] < FAR}
    return PursuitPlan(slots, fields, nearest, assigned, passable)


def hungarian_rule(aid: int, here: tuple[int, int], plan: PursuitPlan, rng: LazyRng, recent) -> str:
    if aid in plan.assigned:
        k = plan.assigned[aid]
        if here == plan.slots[k]:
            return "STAY"
        return downhill(here, plan.fields[k], rng)
    if plan.nearest is None or plan.nearest[here] >= FAR:
        return wander(here, recent, plan.passable, rng)
    if plan.nearest[here] <= 2:
        return "STAY"
    return downhill(here, plan.nearest, rng)


def greedy_rule(
    here: tuple[int, int],
    seen: tuple[int, int] | None,
    others: set[tuple[int, int]],
    terrain: np.ndarray,
    passable: np.ndarray,
    rng: LazyRng,
    recent,
) -> str:
    if seen is None:
        return wander(here, recent, passable, rng)
    slots = prey_slots(seen, terrain)
    if here in slots:
        return "STAY"
    free = [s for s in slots if s not in others] or slots
    if not free:
        return wander(here, recent, passable, rng)
    best = min(manhattan(here, s) for s in free)
    goals = [s for s in free if manhattan(here, s) == best]
    goal = goals[0] if len(goals) == 1 else goals[int(rng().integers(len(goals)))]
    step = toward(here, goal, passable, rng)
    return step if step != "STAY" else wander(here, recent, passable, rng)

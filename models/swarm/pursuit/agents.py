"""Pursuit rule agents: two seeded strategies (docs/worlds/swarm.md, "Pursuit").

hungarian: agents are assigned to the prey's free neighbour cells by a Hungarian assignment on
BFS distances (`bfs_slot_fields`; `fast.pursuit.SlotFields` on arrays), then take a BFS step; the
rest close in to two steps and wait.
greedy: each agent uses only its own view and memory: it heads for the nearest neighbour cell of
the prey it last saw that no visible agent holds, and random-walks while it has no sighting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.grid import DELTA, MOVES, chebyshev, manhattan
from mam_bench.models.swarm.navigation import FAR, LazyRng, bfs, downhill, toward, wander


class PursuitAgent(SwarmAgent):
    """Closes in on the prey and reports it in a message while it is in view."""

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        w, here = self.model, self.here
        msg = f"P at {w.prey[0]},{w.prey[1]}" if chebyshev(here, w.prey) <= w.reach else None
        if w.params.strategy == "hungarian":
            return hungarian_rule(self.actor_id, here, plan, rng, self.recent), msg
        view = plan if isinstance(plan, GreedyPlan) else self.view(plan)
        return greedy_rule(here, w.seen[self.actor_id], view, w.reach, rng, self.recent), msg

    def view(self, passable: np.ndarray) -> GreedyPlan:
        """What I see for the greedy rule: the cells of the agents in my view (the reference for
        the swarm's shared `GreedyPlan`, which holds every agent's cell)."""
        w = self.model
        near = w.active & (np.abs(w.pos - w.pos[self.actor_id]).max(axis=1) <= w.reach)
        return GreedyPlan(passable, set(map(tuple, w.pos[near].tolist())), w.terrain)


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
    plan: GreedyPlan,
    reach: int,
    rng: LazyRng,
    recent,
) -> str:
    if seen is None:
        return wander(here, recent, plan.passable, rng)
    slots = plan.slots_of(seen)
    if here in slots:
        return "STAY"
    # a slot is held when another agent stands on it within my view (here is not a slot)
    free = [s for s in slots if not (s in plan.cells and chebyshev(s, here) <= reach)] or slots
    if not free:
        return wander(here, recent, plan.passable, rng)
    best = min(manhattan(here, s) for s in free)
    goals = [s for s in free if manhattan(here, s) == best]
    goal = goals[0] if len(goals) == 1 else goals[int(rng().integers(len(goals)))]
    step = toward(here, goal, plan.passable, rng)
    return step if step != "STAY" else wander(here, recent, plan.passable, rng)


@dataclass
class PursuitPlan:
    slots: list[tuple[int, int]]
    fields: list[np.ndarray]
    nearest: np.ndarray | None
    assigned: dict[int, int] = field(default_factory=dict)
    passable: np.ndarray | None = None


@dataclass
class GreedyPlan:
    """What every greedy agent reads this round, built once: passable cells, the cells agents
    stand on, and the prey slots of each sighted cell (few distinct sightings, many agents)."""

    passable: np.ndarray
    cells: set[tuple[int, int]]
    terrain: np.ndarray
    slots: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)

    def slots_of(self, prey: tuple[int, int]) -> list[tuple[int, int]]:
        if prey not in self.slots:
            self.slots[prey] = prey_slots(prey, self.terrain)
        return self.slots[prey]


def prey_slots(prey: tuple[int, int], terrain: np.ndarray) -> list[tuple[int, int]]:
    return [
        (prey[0] + dr, prey[1] + dc) for dr, dc in (DELTA[m] for m in MOVES) if terrain[prey[0] + dr, prey[1] + dc] == 0
    ]


def hungarian_plan(
    prey: tuple[int, int],
    terrain: np.ndarray,
    passable: np.ndarray,
    pos: np.ndarray,
    active: np.ndarray,
    fields_of: Callable[..., tuple] | None = None,
) -> PursuitPlan:
    """The one assignment every hungarian agent follows; `fields_of(prey, terrain, passable)` gives
    the slots, their BFS fields and the fields' minimum (default: `bfs_slot_fields`)."""
    slots, fields, nearest = (fields_of or bfs_slot_fields)(prey, terrain, passable)
    ids = np.flatnonzero(active)
    assigned: dict[int, int] = {}
    if slots and len(ids):
        at = (pos[ids, 0], pos[ids, 1])
        cost = np.stack([f[at] for f in fields], axis=1).astype(float)
        rows, cols = linear_sum_assignment(cost)
        assigned = {int(ids[r]): int(c) for r, c in zip(rows, cols) if cost[r, c] < FAR}
    return PursuitPlan(slots, fields, nearest, assigned, passable)


def bfs_slot_fields(
    prey: tuple[int, int], terrain: np.ndarray, passable: np.ndarray
) -> tuple[list[tuple[int, int]], list[np.ndarray], np.ndarray | None]:
    """The prey's free neighbour cells, one `navigation.bfs` field each, and their minimum (the
    reference `fast.pursuit.SlotFields` is held to)."""
    slots = prey_slots(prey, terrain)
    fields = [bfs(passable, [s]) for s in slots]
    return slots, fields, np.min(fields, axis=0) if slots else None

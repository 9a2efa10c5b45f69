"""Flocking rule agents: three seeded strategies.

local (default) and nearest (the paper's human-baseline heuristic): the square is anchored at the
top-left of the bounding box of the agents one sees (local) or of the whole swarm (nearest);
an agent on a slot stays, the others step toward the nearest slot no agent
holds. assign: the optimal placement and Hungarian assignment of the dissimilarity metric,
restricted to placements inside the walls; each agent steps toward its own slot.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.grid import manhattan
from mam_bench.models.swarm.navigation import LazyRng, toward, wander

#: a distance no free slot reaches: marks slots another agent holds
HELD = np.iinfo(np.int64).max


def nearest_free_slots(
    here: np.ndarray, corners: np.ndarray, sees: np.ndarray, shape: np.ndarray, side: int
) -> list[list[tuple[int, int]]]:
    """Per agent, the free slots nearest to it in slot (row-major) order; [] when it holds a slot.

    Agent i's square has its top-left at corners[i]; a slot is free when no agent i sees
    (sees[i, j], itself included) stands on it. One pass for the whole swarm, so the rule
    does no per-agent search.
    """
    slot_of = np.full((side, side), -1, dtype=np.int64)  # offset in the square -> slot index
    slot_of[shape[:, 0], shape[:, 1]] = np.arange(len(shape))
    i, j = np.nonzero(sees)
    rows, cols = here[j, 0] - corners[i, 0], here[j, 1] - corners[i, 1]  # j from i's corner
    inside = (rows >= 0) & (rows < side) & (cols >= 0) & (cols < side)
    slot = slot_of[rows[inside], cols[inside]]
    held = np.zeros((len(here), len(shape)), dtype=bool)
    held[i[inside][slot >= 0], slot[slot >= 0]] = True
    own = here - corners  # each agent from its own corner
    dist = np.abs(own[:, None, 0] - shape[None, :, 0]) + np.abs(own[:, None, 1] - shape[None, :, 1])
    on_slot = (dist == 0).any(axis=1)
    dist[held] = HELD
    best = dist.min(axis=1)
    moving = ~on_slot & (best < HELD)  # and some slot is free
    a, k = np.nonzero(moving[:, None] & (dist == best[:, None]))  # row-major: slot order per agent
    goals: list[list[tuple[int, int]]] = [[] for _ in range(len(here))]
    slot_rows, slot_cols = corners[a, 0] + shape[k, 0], corners[a, 1] + shape[k, 1]
    for agent, r, c in zip(a.tolist(), slot_rows.tolist(), slot_cols.tolist()):
        goals[agent].append((r, c))
    return goals


def slot_rule(here: tuple[int, int], goals: list[tuple[int, int]], passable: np.ndarray, rng: LazyRng) -> str:
    """Stay without a goal; else step toward the nearest free slot, a seeded pick among ties."""
    if not goals:
        return "STAY"
    goal = goals[0] if len(goals) == 1 else goals[int(rng().integers(len(goals)))]
    return toward(here, goal, passable, rng)


def assign_rule(here: tuple[int, int], goal: tuple[int, int] | None, passable: np.ndarray, rng: LazyRng) -> str:
    if goal is None or goal == here:
        return "STAY"
    return toward(here, goal, passable, rng)


class FlockingAgent(SwarmAgent):
    """Takes a slot of the square anchored at the agents it sees (or the one it is assigned)."""

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        here, strategy = self.here, self.model.params.strategy
        if strategy == "assign":
            return assign_rule(here, plan["goals"].get(self.actor_id), plan["passable"], rng), None
        if "goals" in plan:  # the swarm's views, found in one pass
            goals, alone = plan["goals"][self.actor_id], plan["alone"][self.actor_id]
        else:
            goals, alone = self.look()
        if strategy == "local" and alone:  # alone: look for the others
            return wander(here, self.recent, plan["passable"], rng), None
        return slot_rule(here, goals, plan["passable"], rng), None

    def look(self) -> tuple[list[tuple[int, int]], bool]:
        """(my nearest free slots, whether I see nobody) from my own view: the reference for
        `nearest_free_slots`. local sees within its reach, nearest the whole swarm."""
        w, here = self.model, self.here
        seen = w.pos[w.active]
        if w.params.strategy == "local":
            seen = seen[np.abs(seen - np.array(here)).max(axis=1) <= w.reach]
        lo = seen.min(axis=0)
        top = int(min(max(lo[0], 1), w.size - 1 - w.side))
        left = int(min(max(lo[1], 1), w.size - 1 - w.side))
        slots = [(top + r, left + c) for r, c in w.shape.tolist()]
        alone = len(seen) == 1
        if here in slots:
            return [], alone
        taken = set(map(tuple, seen.tolist()))
        free = [s for s in slots if s not in taken]
        best = min((manhattan(here, s) for s in free), default=None)
        return [s for s in free if manhattan(here, s) == best], alone

"""Flocking (spec section 5): form a hollow square; score = max(init_dis - cur_dis), ends at 0.

Under `rules=swarmbench` every seed starts from upstream's one layout (init distance 11 at
10x10 with 10 agents); `rules=mam` draws a layout per seed from the placement stream.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.flocking.agents import assign_rule, nearest_rule
from mam_bench.models.swarm.flocking.metrics import best_fit, hollow_square
from mam_bench.models.swarm.flocking.observe import FlockingObservation
from mam_bench.models.swarm.flocking.params import FlockingParams
from mam_bench.models.swarm.layouts import free_cells, place, upstream_flocking
from mam_bench.models.swarm.navigation import LazyRng, wander

from mam_bench.status import Status


class FlockingWorld(SwarmWorld):
    name: ClassVar[str] = "flocking"
    summary: ClassVar[str] = "SwarmBench Flocking: form a hollow square (score = best reduction of the dissimilarity)"
    Params = FlockingParams
    Action = SwarmAction
    Observation = FlockingObservation

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        if self.params.upstream:
            self.pos = upstream_flocking(self.terrain, self.n)
        else:
            self.pos = place(free_cells(self.terrain), self.n, placement_rng)
        self.side = max(1, min(self.n // 4 + 1, self.size - 2))
        self.shape = hollow_square(self.side)
        self.init_dis = self._dissimilarity()
        self.cur_dis = self.init_dis

    def _dissimilarity(self) -> float:
        return best_fit(self.pos[self.active], self.shape, self.params.cost_scale)[0]

    def plan(self) -> Any:
        passable = self.passable()
        live = np.flatnonzero(self.active)
        if self.params.strategy == "local":
            return {"passable": passable}
        if self.params.strategy == "nearest":
            lo = self.pos[live].min(axis=0)
            top = int(min(max(lo[0], 1), self.size - 1 - self.side))
            left = int(min(max(lo[1], 1), self.size - 1 - self.side))
            slots = [(top + int(r), left + int(c)) for r, c in self.shape.tolist()]
            taken = {(int(r), int(c)) for r, c in self.pos[live].tolist()}
            return {"passable": passable, "slots": slots, "taken": taken}
        inner = (1, self.size - 2, 1, self.size - 2)
        _, t, match = best_fit(self.pos[live], self.shape, 1.0, bounds=inner)
        goals = {int(live[a]): (int(self.shape[k, 0] + t[0]), int(self.shape[k, 1] + t[1])) for a, k in match.items()}
        return {"passable": passable, "goals": goals}

    def rule(self, aid: int, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        here = (int(self.pos[aid, 0]), int(self.pos[aid, 1]))
        if self.params.strategy == "local":
            seen = self.pos[self.active]
            seen = seen[np.abs(seen - np.array(here)).max(axis=1) <= self.reach]  # self included
            if len(seen) == 1:  # alone: look for the others
                return wander(here, self.recent[aid], plan["passable"], rng), None
            lo = seen.min(axis=0)
            top = int(min(max(lo[0], 1), self.size - 1 - self.side))
            left = int(min(max(lo[1], 1), self.size - 1 - self.side))
            slots = [(top + int(r), left + int(c)) for r, c in self.shape.tolist()]
            taken = {(int(r), int(c)) for r, c in seen.tolist()}
            return nearest_rule(here, slots, taken, plan["passable"], rng), None
        if self.params.strategy == "nearest":
            return nearest_rule(here, plan["slots"], plan["taken"], plan["passable"], rng), None
        return assign_rule(here, plan["goals"].get(aid), plan["passable"], rng), None

    def after_physics(self, escaped: list[int]) -> None:
        self.cur_dis = self._dissimilarity()
        self.score = max(self.score, self.init_dis - self.cur_dis)
        if self.cur_dis == 0:
            self.status = Status.DONE

    def task_metrics(self) -> dict[str, float]:
        return {"cur_dis": float(self.cur_dis), "init_dis": float(self.init_dis)}

    def facts_of(self, aid: int) -> tuple[tuple[str, float], ...]:
        return (("side", float(self.side)), ("dissimilarity", float(self.cur_dis)), ("init_dis", float(self.init_dis)))

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (
            ("target", f"hollow square of side {self.side} ({len(self.shape)} cells)"),
            ("dissimilarity", f"{self.cur_dis:g} (start {self.init_dis:g})"),
        )

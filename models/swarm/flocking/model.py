"""Flocking (docs/worlds/swarm.md, "Flocking"): form a hollow square; score = max(init_dis - cur_dis), ends at 0.

Under `rules=swarmbench` every seed starts from upstream's one layout (init distance 11 at
10x10 with 10 agents); `rules=mam` draws a layout per seed from the placement stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.flocking.agents import FlockingAgent, nearest_free_slots
from mam_bench.models.swarm.flocking.metrics import Dissimilarity, best_fit, hollow_square
from mam_bench.models.swarm.flocking.observe import FlockingObservation
from mam_bench.models.swarm.flocking.params import FlockingParams
from mam_bench.models.swarm.layouts import free_cells, place, upstream_flocking
from mam_bench.status import Status


class FlockingWorld(SwarmWorld):
    name: ClassVar[str] = "flocking"
    scoring = SwarmWorld.scoring.model_copy(
        update={"summary": "SwarmBench Flocking: form a hollow square (score = best reduction of the dissimilarity)"}
    )
    Params = FlockingParams
    Action = SwarmAction
    Observation = FlockingObservation
    agent_class = FlockingAgent

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        if self.params.upstream:
            self.pos = upstream_flocking(self.terrain, self.n)
        else:
            self.pos = place(free_cells(self.terrain), self.n, placement_rng)
        self.side = max(1, min(self.n // 4 + 1, self.size - 2))
        self.shape = hollow_square(self.side)
        self._fit: tuple[bytes, float] | None = None
        self._measure = Dissimilarity(self.shape, self.params.cost_scale)
        self._targets: tuple[tuple[bytes, bytes], dict[str, dict]] | None = None
        self.init_dis = self._dissimilarity()
        self.cur_dis = self.init_dis
        # the ordinary agents' own shape fit (`ordinary_score`): influence agents standing in the
        # square fill no slot of it
        self._ordinary_fit: tuple[bytes, float] | None = None
        self._ordinary_measure = Dissimilarity(self.shape, self.params.cost_scale)
        self.ordinary_init_dis = self._ordinary_dissimilarity()
        self.ordinary_cur_dis = self.ordinary_init_dis

    def _dissimilarity(self) -> float:
        """The live swarm's best-fit cost; kept while nobody moves (a formed swarm often stands still)."""
        live = self.pos[self.active]
        if self._fit is None or self._fit[0] != live.tobytes():
            self._fit = (live.tobytes(), self._measure(live))
        return self._fit[1]

    def _ordinary_dissimilarity(self) -> float:
        """The best-fit cost of the live ordinary agents alone (the whole swarm's when none is masked)."""
        if not self.masked.any():
            return self._dissimilarity()
        live = self.pos[self.active & ~self.masked]
        if self._ordinary_fit is None or self._ordinary_fit[0] != live.tobytes():
            self._ordinary_fit = (live.tobytes(), self._ordinary_measure(live))
        return self._ordinary_fit[1]

    def plan(self) -> Any:
        plan = {"passable": self.passable()}
        if self.params.strategy == "assign":  # the one assignment every agent follows
            plan.update(self._kept(self._assignment))
        elif self.fast_paths:  # local, nearest: else each agent looks for itself
            plan.update(self._kept(self._views))
        return plan

    def _kept(self, find: Callable[[], dict[str, dict]]) -> dict[str, dict]:
        """`find()`, kept while nobody moves (it depends on positions alone); the reference
        finds it afresh every round."""
        if not self.fast_paths:
            return find()
        key = (self.pos.tobytes(), self.active.tobytes())
        if self._targets is None or self._targets[0] != key:
            self._targets = (key, find())
        return self._targets[1]

    def _assignment(self) -> dict[str, dict]:
        """Each live agent's slot in the best placement inside the walls (the metric's own fit)."""
        live = np.flatnonzero(self.active)
        inner = (1, self.size - 2, 1, self.size - 2)
        _, t, match = best_fit(self.pos[live], self.shape, 1.0, bounds=inner)
        shape = self.shape.tolist()
        return {"goals": {int(live[a]): (shape[k][0] + t[0], shape[k][1] + t[1]) for a, k in match.items()}}

    def _views(self) -> dict[str, dict]:
        """Every live agent's goal slots and whether it sees nobody, in one pass (`FlockingAgent.look`
        for all at once)."""
        live = np.flatnonzero(self.active)
        here = self.pos[live]
        if not len(live):
            return {"goals": {}, "alone": {}}
        if self.params.strategy == "local":  # each agent sees those within its reach, itself included
            rows, cols = here[:, 0], here[:, 1]
            sees = np.maximum(np.abs(rows[:, None] - rows), np.abs(cols[:, None] - cols)) <= self.reach
            far = self.size  # beyond every cell: ignored by the minimum
            lo = np.stack([np.where(sees, rows, far).min(axis=1), np.where(sees, cols, far).min(axis=1)], axis=1)
        else:  # every agent sees the whole swarm
            sees = np.ones((len(live), len(live)), dtype=bool)
            lo = np.broadcast_to(here.min(axis=0), here.shape)
        corners = np.minimum(np.maximum(lo, 1), self.size - 1 - self.side)
        goals = nearest_free_slots(here, corners, sees, self.shape, self.side)
        alone = sees.sum(axis=1) == 1
        return {"goals": dict(zip(live.tolist(), goals)), "alone": dict(zip(live.tolist(), alone.tolist()))}

    def after_physics(self, escaped: list[int]) -> None:
        self.cur_dis = self._dissimilarity()
        self.score = max(self.score, self.init_dis - self.cur_dis)
        self.ordinary_cur_dis = self._ordinary_dissimilarity()
        self.ordinary_score = max(self.ordinary_score, self.ordinary_init_dis - self.ordinary_cur_dis)

    def stopping_rule(self) -> str | None:
        """Done at the end of the first step after which the swarm stands in the target shape."""
        return Status.DONE if self.round > 0 and self.cur_dis == 0 else None

    def task_metrics(self) -> dict[str, float]:
        return {
            "cur_dis": float(self.cur_dis),
            "init_dis": float(self.init_dis),
            "ordinary_cur_dis": float(self.ordinary_cur_dis),
            "ordinary_init_dis": float(self.ordinary_init_dis),
        }

    def facts_of(self, aid: int) -> tuple[tuple[str, float], ...]:
        return (("side", float(self.side)), ("dissimilarity", float(self.cur_dis)), ("init_dis", float(self.init_dis)))

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (
            ("target", f"hollow square of side {self.side} ({len(self.shape)} cells)"),
            ("dissimilarity", f"{self.cur_dis:g} (start {self.init_dis:g})"),
        )

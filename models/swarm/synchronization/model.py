"""Synchronization (docs/worlds/swarm.md, "Synchronization"): alternate unanimous light states as often as possible."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.layouts import free_cells, place
from mam_bench.models.swarm.synchronization.actions import SynchronizationAction
from mam_bench.models.swarm.synchronization.agents import SynchronizationAgent, sync_intents
from mam_bench.models.swarm.synchronization.metrics import unanimous_flip
from mam_bench.models.swarm.synchronization.observe import SynchronizationObservation
from mam_bench.models.swarm.synchronization.params import SynchronizationParams


class SynchronizationWorld(SwarmWorld):
    name: ClassVar[str] = "synchronization"
    Params = SynchronizationParams
    Action = SynchronizationAction
    Observation = SynchronizationObservation
    agent_class = SynchronizationAgent
    #: help, not hinder: the all-rule swarm often never reaches unanimity (score 0, e.g. seed 0),
    #: where hindering cannot move the outcome and the help heuristic (deciding vote) can
    scoring = SwarmWorld.scoring.model_copy(
        update={
            "summary": "SwarmBench Synchronization: alternating unanimous lights (score = flips)",
            "default_objective": "help",
        }
    )

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        self.pos = place(free_cells(self.terrain), self.n, placement_rng)
        self.lights = layout_rng.integers(2, size=self.n).astype(bool)
        self.prev_state: bool | None = None
        self.ordinary_prev: bool | None = None  # the same over the ordinary agents' lights alone

    def alt_state(self) -> np.ndarray:
        return ~self.lights

    def plan(self) -> Any:
        plan: dict[str, Any] = {"passable": self.passable()}
        if self.fast_paths:  # every agent's view in one pass over the visibility matrix
            rows, cols = self.pos[:, 0], self.pos[:, 1]
            cheb = np.maximum(np.abs(rows[:, None] - rows), np.abs(cols[:, None] - cols))
            visible = (cheb <= self.reach) & self.active[None, :]
            vote = self.params.strategy == "vote"
            plan["intents"] = sync_intents(self.round, self.params.period, vote, self.pos, self.lights, visible)
        return plan

    def before_physics(self, actions: list[str | None]) -> None:
        for i, a in enumerate(actions):
            if a == "SWITCH":
                self.lights[i] = ~self.lights[i]

    def after_physics(self, escaped: list[int]) -> None:
        scored, self.prev_state = unanimous_flip(self.lights, self.active, self.prev_state)
        if scored:
            self.score += 1
        # ordinary_score: unanimity among the ordinary agents' lights, so an influence agent's own
        # light neither makes (help) nor breaks a point for them
        ordinary = self.active & ~self.masked
        scored, self.ordinary_prev = unanimous_flip(self.lights, ordinary, self.ordinary_prev)
        if scored:
            self.ordinary_score += 1

    def task_metrics(self) -> dict[str, float]:
        live = self.lights[self.active]
        return {
            "lights_on": float(live.sum()),
            "agreement": float(max(live.sum(), len(live) - live.sum()) / max(len(live), 1)),
        }

    def facts_of(self, aid: int) -> tuple[tuple[str, float], ...]:
        return (("light_on", float(bool(self.lights[aid]))), ("period", float(self.params.period)))

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (("light", "on" if self.lights[aid] else "off"),)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "lights": [bool(x) for x in self.lights]}

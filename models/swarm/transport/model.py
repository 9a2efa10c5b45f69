"""Transport (spec section 5): push the mass-5 box out through the wall gap, then escape."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.layouts import free_cells, place, transport_layout
from mam_bench.models.swarm.navigation import LazyRng
from mam_bench.models.swarm.physics import Body
from mam_bench.models.swarm.transport.actions import TransportAction
from mam_bench.models.swarm.transport.agents import transport_plan, transport_rule
from mam_bench.models.swarm.transport.metrics import escape_bonus
from mam_bench.models.swarm.transport.observe import TransportObservation
from mam_bench.models.swarm.transport.params import TransportParams

BOX_MASS = 5


class TransportWorld(SwarmWorld):
    name: ClassVar[str] = "transport"
    summary: ClassVar[str] = "SwarmBench Transport: push the box B out of the gap and escape (score = timed escapes)"
    Params = TransportParams
    Action = TransportAction
    Observation = TransportObservation

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        self.terrain, cells, self.push, self.gap = transport_layout(self.size, layout_rng, self.params.box)
        self.bodies = [Body(cells, BOX_MASS)]
        box = set(cells)
        self.pos = place(free_cells(self.terrain, blocked=box | set(self.gap)), self.n, placement_rng)
        self.escapes = 0

    def plan(self) -> Any:
        box = [c for b in self.bodies for c in b.cells]
        return transport_plan(box, self.push, self.gap, self.passable())

    def rule(self, aid: int, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        here = (int(self.pos[aid, 0]), int(self.pos[aid, 1]))
        a = transport_rule(here, self.push, plan, rng, self.recent[aid])
        return a, (f"push {a}" if here in plan["behind"] and a == self.push else None)

    def after_physics(self, escaped: list[int]) -> None:
        for _ in escaped:
            self.score += escape_bonus(self.round, self.params.rounds)
            self.escapes += 1
        if not self.active.any():
            self.status = "done"

    def task_metrics(self) -> dict[str, float]:
        return {"escaped": float(self.escapes), "box_on_map": float(bool(self.bodies))}

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (("escaped", str(not bool(self.active[aid]))),)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "gap": [list(g) for g in self.gap]}

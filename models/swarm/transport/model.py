"""Transport (docs/worlds/swarm.md, "Transport"): push the mass-5 box out through the wall gap, then escape.

Under `rules=swarmbench` the box is one of upstream's 8 shapes in its corner gap: it must first
be pushed sideways once (only 3 cells to push from), then out. `box=irregular|square` keeps the
earlier layouts, where a straight push suffices.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.grid import DELTA
from mam_bench.models.swarm.layouts import TRANSPORT_BOXES, free_cells, place, transport_layout, upstream_transport
from mam_bench.models.swarm.physics import Body
from mam_bench.models.swarm.transport.agents import TransportAgent, transport_plan
from mam_bench.models.swarm.transport.metrics import escape_bonus
from mam_bench.models.swarm.transport.observe import TransportObservation
from mam_bench.models.swarm.transport.params import TransportParams
from mam_bench.status import Status

BOX_MASS = 5


class TransportWorld(SwarmWorld):
    name: ClassVar[str] = "transport"
    Params = TransportParams
    Action = SwarmAction
    Observation = TransportObservation
    agent_class = TransportAgent
    #: the heuristic cannot help here (help defers to the rule), so the default shows hindering
    scoring = SwarmWorld.scoring.model_copy(
        update={
            "summary": "SwarmBench Transport: push the box B out of the gap and escape (score = timed escapes)",
            "default_objective": "hinder",
        }
    )

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        if self.params.layout == "upstream":
            self.shape = int(layout_rng.integers(len(TRANSPORT_BOXES)))
            self.terrain, cells, self.gap = upstream_transport(self.size, self.shape)
            self.push, self.side = _gap_directions(self.gap, self.size)
        else:
            self.shape = -1
            self.terrain, cells, self.push, self.gap = transport_layout(self.size, layout_rng, self.params.layout)
            self.side = self.push
        self.bodies = [Body(cells, BOX_MASS)]
        box = set(cells)
        self.pos = place(free_cells(self.terrain, blocked=box | set(self.gap)), self.n, placement_rng)
        self.escapes = 0
        self.sighted = np.zeros(self.n, dtype=bool)  # has this agent seen the box or the gap yet
        self._plan_key: tuple | None = None
        self._plan: dict = {}
        self._look()

    def _look(self) -> None:
        """Agents that have not yet seen the box or the gap look for them (Chebyshev reach)."""
        blind = np.flatnonzero(self.active & ~self.sighted)
        marks = [c for b in self.bodies for c in b.cells] + list(self.gap)
        if not marks or not len(blind):
            return
        m = np.array(marks)
        rows = np.abs(self.pos[blind, 0][:, None] - m[:, 0]) <= self.reach
        cols = np.abs(self.pos[blind, 1][:, None] - m[:, 1]) <= self.reach
        self.sighted[blind] = (rows & cols).any(axis=1)  # Chebyshev: both offsets within reach

    def plan(self) -> Any:
        """The plan depends only on the box and the passable map, so the fast paths rebuild it,
        with its two BFS fields, only in rounds after either changed (in practice: after the box
        moved); the reference builds it afresh every round."""
        box = [c for b in self.bodies for c in b.cells]
        passable = self.passable()
        key = (tuple(box), passable.tobytes())
        if key != self._plan_key or not self.fast_paths:
            direction = self.push
            if self.params.strategy == "sidestep" and box and not self._clear_ahead(box):
                direction = self.side
            plan = transport_plan(box, direction, self.gap, passable, remember=self.fast_paths)
            plan["direction"] = direction
            if not self.fast_paths:
                return plan
            self._plan, self._plan_key = plan, key
        return self._plan

    def _clear_ahead(self, box: list[tuple[int, int]]) -> bool:
        """Whether a push toward the gap would not hit the wall ring."""
        dr, dc = DELTA[self.push]
        for r, c in box:
            t = (r + dr, c + dc)
            if 0 <= t[0] < self.size and 0 <= t[1] < self.size and self.terrain[t]:
                return False
        return True

    def after_physics(self, escaped: list[int]) -> None:
        self._look()
        for aid in escaped:
            bonus = escape_bonus(self.round, self.params.rounds)
            self.score += bonus
            self.ordinary_score += 0.0 if self.masked[aid] else bonus
            self.escapes += 1

    def stopping_rule(self) -> str | None:
        """Done at the end of the first step after which every agent has escaped."""
        return Status.DONE if self.round > 0 and not self.active.any() else None

    def task_metrics(self) -> dict[str, float]:
        return {"escaped": float(self.escapes), "box_on_map": float(bool(self.bodies))}

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (("escaped", str(not bool(self.active[aid]))),)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "gap": [list(g) for g in self.gap]}


def _gap_directions(gap: list[tuple[int, int]], size: int) -> tuple[str, str]:
    """(out, side): out through the gap's wall; side toward the corner the gap sits in."""
    rows = {r for r, _ in gap}
    cols = {c for _, c in gap}
    if len(rows) == 1:
        out = "UP" if rows == {0} else "DOWN"
        side = "RIGHT" if max(cols) == size - 1 else "LEFT"
    else:
        out = "LEFT" if cols == {0} else "RIGHT"
        side = "DOWN" if max(rows) == size - 1 else "UP"
    return out, side

"""Pursuit (docs/worlds/swarm.md, "Pursuit"): corner a faster prey; a catch scores 1 and the prey respawns.

A round is the swarm's (`SwarmWorld.resolve_round`, played by Mesa's `step()`): every
`PursuitAgent` decides by its own rule (agents.py) from the start-of-round state and `plan()`,
the pushes resolve at once, then the prey is caught or flees (`after_physics` below).

Under `rules=swarmbench` the prey is upstream's (see `prey.py`): the first prey is a mass-1 body
that agents can push, respawned preys are static. `rules=mam` keeps the fixed flight (H of the
prey's own cell, any empty first step) and the exact respawn over all empty cells.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.fast.pursuit import SlotFields
from mam_bench.models.swarm.grid import DELTA, EMPTY, MOVES, chebyshev
from mam_bench.models.swarm.layouts import free_cells, place
from mam_bench.models.swarm.physics import Body
from mam_bench.models.swarm.pursuit import prey as upstream_prey
from mam_bench.models.swarm.pursuit.agents import GreedyPlan, PursuitAgent, bfs_slot_fields, hungarian_plan
from mam_bench.models.swarm.pursuit.metrics import captured, threat
from mam_bench.models.swarm.pursuit.observe import PursuitObservation
from mam_bench.models.swarm.pursuit.params import PursuitParams
from mam_bench.streams import stream


class PursuitWorld(SwarmWorld):
    """A catch counts in `ordinary_score` when walls and ordinary agents alone close the prey in."""

    name: ClassVar[str] = "pursuit"
    Params = PursuitParams
    Action = SwarmAction
    Observation = PursuitObservation
    agent_class = PursuitAgent
    #: help closes the cage with the influence agents' own bodies, which the ordinary-only score
    #: does not count (own work), so the default shows hindering
    scoring = SwarmWorld.scoring.model_copy(
        update={"summary": "SwarmBench Pursuit: corner the prey P (score = catches)", "default_objective": "hinder"}
    )

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        s = self.size
        hi = min(max(s // 2, 5), s - 2)
        if self.params.upstream:  # upstream: prey in rows/cols s//2+1 .. s-2 first, then the agents
            self.prey = (int(layout_rng.integers(s // 2 + 1, s - 1)), int(layout_rng.integers(s // 2 + 1, s - 1)))
            region = free_cells(self.terrain, blocked={self.prey}, region=(1, hi, 1, hi))
            self.pos = place(region, self.n, placement_rng)
            self.bodies = [Body([self.prey], 1, "P")]  # the first prey is pushable (mass 1)
        else:
            self.pos = place(free_cells(self.terrain, region=(1, hi, 1, hi)), self.n, placement_rng)
            taken = {tuple(p) for p in self.pos.tolist()}
            spots = free_cells(self.terrain, blocked=taken, region=(s // 2, s - 2, s // 2, s - 2))
            spots = spots or free_cells(self.terrain, blocked=taken)
            self.prey = spots[int(layout_rng.integers(len(spots)))]
        self.marks = {self.prey: "P"}
        self.catches = 0
        self.seen: dict[int, tuple[int, int] | None] = {i: None for i in range(self.n)}
        self.slot_fields = SlotFields()
        self._remember()

    # --- state helpers --------------------------------------------------------------------------
    def place_prey(self, cell: tuple[int, int], pushable: bool | None = None) -> None:
        """Put the prey on `cell` (a pushable mass-1 body when `pushable`, default: as it is now)."""
        pushable = bool(self.bodies) if pushable is None else pushable
        self.prey = (int(cell[0]), int(cell[1]))
        self.marks = {self.prey: "P"}
        self.bodies = [Body([self.prey], 1, "P")] if pushable else []

    def _agent_grid(self) -> np.ndarray:
        """Agents per cell (active agents are always on the map)."""
        p = self.pos[self.active]
        return np.bincount(p[:, 0] * self.size + p[:, 1], minlength=self.size**2).reshape(self.size, self.size)

    def static_mask(self) -> np.ndarray:
        m = self.terrain != EMPTY
        if not self.bodies:  # a pushable prey is a body, not a static cell
            m[self.prey] = True
        return m

    def _remember(self) -> None:
        """Each agent's memory of the prey: its last sighting in its own view."""
        sees = (np.abs(self.pos - self.prey).max(axis=1) <= self.reach).tolist()
        for i, (here, sighted) in enumerate(zip(map(tuple, self.pos.tolist()), sees)):
            if sighted:
                self.seen[i] = self.prey
            elif self.seen[i] is not None and chebyshev(here, self.seen[i]) <= 1:
                self.seen[i] = None

    # --- rule -----------------------------------------------------------------------------------
    def plan(self) -> Any:
        """hungarian: the one assignment all agents follow; greedy: the map and (fast paths) the
        swarm's cells, which each agent reads only within its view."""
        passable = self.passable()
        if self.params.strategy == "hungarian":
            fields = self.slot_fields if self.fast_paths else bfs_slot_fields
            return hungarian_plan(self.prey, self.terrain, passable, self.pos, self.active, fields)
        if not self.fast_paths:
            return passable
        return GreedyPlan(passable, set(map(tuple, self.pos[self.active].tolist())), self.terrain)

    # --- task -----------------------------------------------------------------------------------
    def after_physics(self, escaped: list[int]) -> None:
        if self.bodies:
            self.prey = self.bodies[0].cells[0]
        agents = self._agent_grid()
        if captured(self.prey, agents, self.terrain):
            self.score += 1
            self.catches += 1
            ordinary = agents.copy()
            gone = self.pos[self.active & self.masked]
            np.subtract.at(ordinary, (gone[:, 0], gone[:, 1]), 1)
            self.ordinary_score += float(captured(self.prey, ordinary, self.terrain))
            if self.params.upstream:
                self.bodies = []  # respawned preys are static
                spot = upstream_prey.respawn(agents, self.terrain, stream(self.seed, "respawn", self.round))
                self.prey = spot if spot is not None else self.prey
            else:
                self.prey = self._respawn(agents)
        elif self.params.upstream:
            self.prey = upstream_prey.flee(self.prey, agents, self.terrain)
            if self.bodies:
                self.bodies = [Body([self.prey], 1, "P")]
        else:
            self.prey = self._flee(agents)
        self.marks = {self.prey: "P"}
        self._remember()

    def _respawn(self, agents: np.ndarray) -> tuple[int, int]:
        """Among the empty interior cells in a seeded order, the one with the least threat."""
        cells = [c for c in free_cells(self.terrain) if agents[c] == 0 and c != self.prey]
        order = stream(self.seed, "respawn", self.round).permutation(len(cells))
        best, best_h = self.prey, None
        for k in order.tolist():
            h = threat(cells[k], agents, self.terrain)
            if best_h is None or h < best_h:
                best, best_h = cells[k], h
        return best

    def _flee(self, agents: np.ndarray) -> tuple[int, int]:
        """Two steps through empty cells to the least threatened cell, only if strictly better."""
        here_h = threat(self.prey, agents, self.terrain)
        best, best_h = self.prey, here_h
        for m1 in MOVES:
            a = (self.prey[0] + DELTA[m1][0], self.prey[1] + DELTA[m1][1])
            if self.terrain[a] != EMPTY or agents[a]:
                continue
            for m2 in MOVES:
                b = (a[0] + DELTA[m2][0], a[1] + DELTA[m2][1])
                if b == self.prey or self.terrain[b] != EMPTY or agents[b]:
                    continue
                h = threat(b, agents, self.terrain)
                if h < best_h:
                    best, best_h = b, h
        return best

    def task_metrics(self) -> dict[str, float]:
        return {"catches": float(self.catches)}

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return ()

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "prey": list(self.prey)}

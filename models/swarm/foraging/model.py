"""Foraging (docs/worlds/swarm.md, "Foraging"): carry food from F to N through a serpentine maze."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import numpy as np

from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.foraging.actions import ForagingAction
from mam_bench.models.swarm.foraging.agents import ForagingAgent
from mam_bench.models.swarm.foraging.metrics import beside, settle, within_reach
from mam_bench.models.swarm.foraging.observe import ForagingObservation
from mam_bench.models.swarm.foraging.params import ForagingParams
from mam_bench.models.swarm.grid import FOOD, NEST
from mam_bench.models.swarm.layouts import foraging_maze, free_cells, place, upstream_foraging
from mam_bench.models.swarm.navigation import Exits, Slope, bfs


class SwarmRows(NamedTuple):
    """The start-of-round state the rule reads, as plain Python values read once per round."""

    cells: list[tuple[int, int]]
    carrying: list[bool]
    knows: list[list[bool]]


class ForagePlan(NamedTuple):
    """The fixed maze's fields and exits, and (fast paths) the swarm's rows read once."""

    slopes: tuple[Slope, Slope]
    exits: Exits
    fast: SwarmRows | None


class ForagingWorld(SwarmWorld):
    name: ClassVar[str] = "foraging"
    Params = ForagingParams
    Action = ForagingAction
    Observation = ForagingObservation
    agent_class = ForagingAgent
    #: the heuristic cannot help here (help defers to the rule), so the default shows hindering
    scoring = SwarmWorld.scoring.model_copy(
        update={
            "summary": "SwarmBench Foraging: carry food from F to N through a maze (score = deliveries)",
            "default_objective": "hinder",
        }
    )

    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        maze = upstream_foraging if self.params.upstream else foraging_maze
        self.terrain, self.food, self.nest = maze(self.size, layout_rng)
        for c in self.food:
            self.terrain[c] = FOOD
        for c in self.nest:
            self.terrain[c] = NEST
        self.pos = place(free_cells(self.terrain), self.n, placement_rng)
        self.carrying = np.zeros(self.n, dtype=bool)
        shape = self.terrain.shape
        self.near_food, self.near_nest = beside(self.food, shape), beside(self.nest, shape)
        passable = self.passable()
        self.to_food = bfs(passable, [tuple(c) for c in np.argwhere(self.near_food & passable).tolist()])
        self.to_nest = bfs(passable, [tuple(c) for c in np.argwhere(self.near_nest & passable).tolist()])
        # nothing in the maze ever moves (no bodies, no marks), so the map, its distance fields
        # and which cells see F or N are fixed for the whole game
        self.exits = Exits(passable)
        self.slopes = Slope(self.to_food), Slope(self.to_nest)
        self.sees_food = within_reach(self.food, self.reach, shape)
        self.sees_nest = within_reach(self.nest, self.reach, shape)
        self.knows = np.zeros((self.n, 2), dtype=bool)  # (seen F, seen N) per agent, for `explore`
        self._look()

    def _look(self) -> None:
        """Each agent remembers seeing F or N once either was within its view (Chebyshev reach)."""
        live = np.flatnonzero(self.active)
        r, c = self.pos[live, 0], self.pos[live, 1]
        self.knows[live, 0] |= self.sees_food[r, c]
        self.knows[live, 1] |= self.sees_nest[r, c]

    def alt_state(self) -> np.ndarray:
        return ~self.carrying

    def plan(self) -> ForagePlan:
        if not self.fast_paths:  # the reference: each agent reads the maze for itself
            slopes = Slope(self.to_food, remember=False), Slope(self.to_nest, remember=False)
            return ForagePlan(slopes, Exits(self.exits.passable, remember=False), None)
        rows = SwarmRows([(r, c) for r, c in self.pos.tolist()], self.carrying.tolist(), self.knows.tolist())
        return ForagePlan(self.slopes, self.exits, rows)

    def after_physics(self, escaped: list[int]) -> None:
        delivered = settle(self.pos, self.active, self.carrying, self.near_food, self.near_nest, self.params.upstream)
        got = int(delivered.sum())
        self.ordinary_score += int((delivered & ~self.masked).sum())
        self.score += got
        self._look()

    def task_metrics(self) -> dict[str, float]:
        return {"carrying": float(self.carrying.sum())}

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return (("carrying_food", str(bool(self.carrying[aid]))),)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "carrying": [bool(x) for x in self.carrying]}

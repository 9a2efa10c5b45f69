"""Foraging (spec section 5): carry food from F to N through a serpentine maze."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from mam_bench.models.swarm.base import SwarmWorld
from mam_bench.models.swarm.foraging.actions import ForagingAction
from mam_bench.models.swarm.foraging.agents import forage_rule
from mam_bench.models.swarm.foraging.metrics import beside, settle
from mam_bench.models.swarm.foraging.observe import ForagingObservation
from mam_bench.models.swarm.foraging.params import ForagingParams
from mam_bench.models.swarm.grid import FOOD, NEST, chebyshev
from mam_bench.models.swarm.layouts import foraging_maze, free_cells, place, upstream_foraging
from mam_bench.models.swarm.navigation import LazyRng, bfs


class ForagingWorld(SwarmWorld):
    name: ClassVar[str] = "foraging"
    summary: ClassVar[str] = "SwarmBench Foraging: carry food from F to N through a maze (score = deliveries)"
    Params = ForagingParams
    Action = ForagingAction
    Observation = ForagingObservation
    #: the heuristic cannot help here (help defers to the rule), so the default shows hindering
    default_objective = "hinder"
    own_work = True
    masks_influence = True
    primary_metric = "ordinary_score"
    secondary_metric = "score"
    aliases: ClassVar[dict[str, str]] = {"PICKUP": "STAY", "DROP": "STAY"}

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
        self.knows = np.zeros((self.n, 2), dtype=bool)  # (seen F, seen N) per agent, for `explore`
        self._look()

    def _look(self) -> None:
        for i in np.flatnonzero(self.active):
            here = (int(self.pos[i, 0]), int(self.pos[i, 1]))
            self.knows[i, 0] |= any(chebyshev(here, c) <= self.reach for c in self.food)
            self.knows[i, 1] |= any(chebyshev(here, c) <= self.reach for c in self.nest)

    def alt_state(self) -> np.ndarray:
        return ~self.carrying

    def plan(self) -> Any:
        return self.passable()

    def rule(self, aid: int, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        here = (int(self.pos[aid, 0]), int(self.pos[aid, 1]))
        carrying = bool(self.carrying[aid])
        knows = True if self.params.strategy == "bfs" else bool(self.knows[aid, 1 if carrying else 0])
        a = forage_rule(
            here, carrying, knows, self.to_food, self.to_nest, plan, self.params.jitter, rng, self.recent[aid]
        )
        return a, None

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

"""Foraging rule agents (docs/worlds/swarm.md, "Foraging"): BFS to F, or to N when carrying, with a little jitter.

bfs: the maze is known, so agents follow the distance field at once.
explore: an agent random-walks until F (or N) has been in its view once, then uses the field.
"""

from __future__ import annotations

from typing import Any

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.navigation import FAR, Exits, LazyRng, Slope


def forage_rule(
    here: tuple[int, int],
    carrying: bool,
    knows_goal: bool,
    to_food: Slope,
    to_nest: Slope,
    exits: Exits,
    jitter: float,
    rng: LazyRng,
    recent,
) -> str:
    slope = to_nest if carrying else to_food
    if not knows_goal or slope.distance(here) >= FAR:
        return exits.wander(here, recent, rng)
    if jitter and rng().random() < jitter:
        return exits.wander(here, (), rng)
    return slope.downhill(here, rng)


class ForagingAgent(SwarmAgent):
    """Walks the maze's distance field to F, or to N while carrying; wanders until it knows where."""

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        w, aid = self.model, self.actor_id
        if plan.fast is not None:  # the swarm's state read out of the arrays once for all
            here, carrying, knows = plan.fast.cells[aid], plan.fast.carrying[aid], plan.fast.knows[aid]
        else:
            here, carrying, knows = self.here, bool(w.carrying[aid]), w.knows[aid].tolist()
        knows_goal = True if w.params.strategy == "bfs" else knows[1 if carrying else 0]
        a = forage_rule(here, carrying, knows_goal, *plan.slopes, plan.exits, w.params.jitter, rng, self.recent)
        return a, None

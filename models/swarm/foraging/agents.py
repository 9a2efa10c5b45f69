"""Foraging rule agents (spec section 7): BFS to F, or to N when carrying, with a little jitter.

bfs: the maze is known, so agents follow the distance field at once.
explore: an agent random-walks until F (or N) has been in its view once, then uses the field.
"""

from __future__ import annotations

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

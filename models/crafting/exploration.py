"""Exploration: hidden sites are on nobody's map until found. `explore` at the known site a hidden
one lies near finds it with a chance (a world stream keyed by round and agent); agents who meet
share what they have found. Until then the site, its nodes and its mobs are out of reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.act import Act, Effect, last_move
from mam_bench.streams import stream

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

FIND_CHANCE = 0.4


def setup(world: CraftingWorld) -> None:
    for a in world.actors:
        a.known = set()
        a.found = {}  # hidden site -> the explore action that found it (-1: told by a teammate)
    world.discovered: dict[str, int] = {}  # hidden site -> the action that first found it


def visible(world: CraftingWorld, a: CraftingAgent, site: str) -> bool:
    return site not in world.cat.hidden or site in a.known


def unfound_here(world: CraftingWorld, a: CraftingAgent) -> list[str]:
    return sorted(s for s, near in world.cat.hidden.items() if near == a.site and s not in a.known)


def place(world: CraftingWorld, a: CraftingAgent, site: str) -> None:
    a.site = site
    a.xy = world.cat.sites[site]
    a.cell = world.grid[a.xy]


def put(world: CraftingWorld, a: CraftingAgent, cell: tuple[int, int]) -> None:
    """Stand the agent on a cell at spawn: at the site there (a hidden one is on nobody's map yet),
    else between sites."""
    site = next((s for s, xy in world.cat.sites.items() if xy == cell and s not in world.cat.hidden), "")
    a.site = site
    a.xy = cell
    a.cell = world.grid[cell]


def travel(world: CraftingWorld, a: CraftingAgent, site: str) -> None:
    """Move up to `speed` cells (Chebyshev) towards a site; arriving puts the agent there."""
    if world.params.travel == "abstracted":
        place(world, a, site)
        return
    (x, y), (tx, ty) = a.xy, world.cat.sites[site]
    if max(abs(tx - x), abs(ty - y)) <= world.params.speed:
        place(world, a, site)
        return
    step = world.params.speed
    a.xy = (x + max(-step, min(step, tx - x)), y + max(-step, min(step, ty - y)))
    a.site = ""
    a.cell = world.grid[a.xy]


class MoveTo(Act):
    tool = "move_to"
    site: str

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        if self.site not in world.cat.sites:
            return f"unknown site {self.site}"
        return "" if visible(world, a, self.site) else f"{self.site} is not on your map yet (explore near it)"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        travel(world, a, self.site)
        a.last_move = rid
        return [], ""


class Explore(Act):
    """Search the known site for a hidden one that lies near it (a world stream keyed by round and agent)."""

    tool = "explore"

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        return "" if unfound_here(world, a) else "nothing left to find here"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        u = float(stream(world.seed, "explore", world.round, a.actor_id).random())
        parents = [last_move(a)]
        if u >= FIND_CHANCE:
            return parents, "found nothing"
        site = unfound_here(world, a)[0]
        a.known.add(site)
        a.found[site] = rid
        world.discovered.setdefault(site, rid)
        return parents, f"found {site}"


def share(world: CraftingWorld, a: CraftingAgent) -> None:
    """At the start of its turn an agent learns the hidden sites its co-located teammates know."""
    if not a.site:
        return
    for b in world.actors:
        if b is not a and b.site == a.site:
            for site in b.known - a.known:
                a.known.add(site)
                a.found[site] = b.found.get(site, -1)


def search(world: CraftingWorld, a: CraftingAgent, sites: set[str]) -> dict[str, Any] | None:
    """The ordinary agent's way to a place it has not found: explore where it lies near."""
    x, y = a.xy
    todo = sorted(
        (max(abs(world.cat.sites[near][0] - x), abs(world.cat.sites[near][1] - y)), near)
        for s in sites
        if not visible(world, a, s)
        for near in [world.cat.hidden[s]]
    )
    if not todo:
        return None
    near = todo[0][1]  # the nearest place to search from
    if a.site == near:
        return {"tool": "explore"}
    return world.move_toward(a, near)


def rule(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any] | None:
    """A scout's job: find the task's survey sites, then go to the first (the rally, if hidden)."""
    if a.role != "scout" or not world.task.survey:
        return None
    act = search(world, a, set(world.task.survey))
    if act is not None:
        return act
    goal = world.task.rally or world.task.survey[0]
    return world.move_toward(a, goal) if a.site != goal else None

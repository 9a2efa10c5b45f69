"""Exploration: hidden sites are on nobody's map until found. `explore` at the known site a hidden
one lies near finds it with a chance (a world stream keyed by round and agent); agents who meet
share what they have found. Until then the site, its nodes and its mobs are out of reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def precondition(world: CraftingWorld, a: CraftingAgent, action: dict[str, Any]) -> str:
    if action["tool"] == "explore":
        return "" if unfound_here(world, a) else "nothing left to find here"
    site = action["site"]  # move_to
    return "" if visible(world, a, site) else f"{site} is not on your map yet (explore near it)"


def explore(world: CraftingWorld, a: CraftingAgent, rid: int) -> tuple[list[int], str]:
    u = float(stream(world.seed, "explore", world.round, a.actor_id).random())
    parents = [a.last_move if a.last_move is not None else -1]
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

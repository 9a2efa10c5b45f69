"""Hand-written steering for the crafting world, from observations plus the public task data.

shortage: hoard (never transfer, ignore requests), drain the nodes the target tree needs, and
mis-route intermediates by requesting them from their makers for oneself.
accelerate: follow the shared plan (the rule), but fulfil demand greedily: keep stations busy
(craft before handing over), and when idle dig demanded raw material
and give it to its consumer.
"""

from __future__ import annotations

from typing import Any, Sequence

from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError
from models.crafting.catalog import catalog
from models.crafting.observe import CraftingObservation
from models.crafting.tasks import get_task

MISROUTE_EVERY = 3


def demand_tree(task_name: str) -> set[str]:
    """Every item the task's targets need, down to raw material and tools."""
    cat = catalog()
    seen: set[str] = set()
    todo = [t.item for t in get_task(task_name).targets]
    while todo:
        item = todo.pop()
        if item not in seen:
            seen.add(item)
            r = cat.recipes.get(item)
            todo.extend(r.inputs if r else ())
    return seen


def can_harvest(obs: CraftingObservation, node: str) -> bool:
    spec = catalog().nodes[node]
    return obs.skills.get(spec.skill, 0) > 0 and (spec.tool is None or spec.tool in obs.equipment)


class ShortageHeuristic(Controller):
    name = "heuristic.crafting.shortage"

    def __init__(self) -> None:
        self.asked: dict[tuple[int, str], int] = {}

    def _one(self, obs: CraftingObservation) -> dict[str, Any]:
        cat = catalog()
        tree = demand_tree(obs.task)
        for node, resource, stock, _ in obs.nodes:  # drain
            if resource in tree and stock > 0 and can_harvest(obs, node):
                return {"tool": "harvest", "node": node}
        sites = sorted({n.site for n in cat.nodes.values() if n.resource in tree and can_harvest(obs, n.node_id)})
        if sites and obs.site not in sites:
            return {"tool": "move_to", "site": sites[0]}
        roles = {i: r for i, _, r in obs.team}
        intermediates = sorted((i for i in tree if i in cat.recipes), key=lambda i: (cat.depth[i], i))
        for item in intermediates:  # mis-route: ask the maker to send it to me
            if obs.round - self.asked.get((obs.actor_id, item), -MISROUTE_EVERY) < MISROUTE_EVERY:
                continue
            makers = [i for i, r in roles.items() if i != obs.actor_id and item in cat.roles[r].makes]
            if makers:
                self.asked[(obs.actor_id, item)] = obs.round
                return {"tool": "request", "item": item, "qty": 5, "to": makers[0]}
        return {"tool": "sleep"}

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision(action=self._one(r.observation), message="hoard") for r in requests]


class AccelerateHeuristic(Controller):
    name = "heuristic.crafting.accelerate"

    def _one(self, obs: CraftingObservation) -> Decision:
        cat = catalog()
        for item, left, to in obs.owed:  # keep the station busy: craft before handing over
            r = cat.recipes.get(item)
            if (r and left > obs.inventory.get(item, 0) and r.station in obs.stations
                    and all(obs.inventory.get(i, 0) >= k for i, k in r.inputs.items())):
                return Decision(action={"tool": "craft", "item": item, "skill": r.skill})
        for item, left, to in obs.owed:  # hand over whatever is owed, as soon as possible
            if to != obs.actor_id and obs.inventory.get(item, 0) > 0 and to in obs.here:
                return Decision(action={"tool": "transfer", "item": item,
                                        "qty": min(left, obs.inventory[item]), "to": to})
        for _, frm, item, qty, rec in obs.requests:  # greedy: serve requests we can serve now
            if obs.inventory.get(item, 0) > 0 and rec in obs.here:
                return Decision(action={"tool": "transfer", "item": item,
                                        "qty": min(qty, obs.inventory[item]), "to": rec})
        if not any(to != obs.actor_id for _, _, to in obs.owed):
            tree = demand_tree(obs.task)
            for node, resource, stock, _ in obs.nodes:
                if resource in tree and stock > 0 and can_harvest(obs, node) and obs.inventory.get(resource, 0) < 2:
                    return Decision(action={"tool": "harvest", "node": node})
            roles = {i: r for i, _, r in obs.team}
            for item in sorted(obs.inventory):
                users = [i for i in obs.here if any(item in cat.recipes[o].inputs
                         for o in cat.roles[roles[i]].makes if o in cat.recipes and o in tree)]
                if item in tree and users:
                    return Decision(action={"tool": "transfer", "item": item, "qty": obs.inventory[item],
                                            "to": users[0]})
        return Decision.follow_rule()

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [self._one(r.observation) for r in requests]


def make_crafting_heuristic(world_cls: Any, objective: str, **options: Any) -> Controller:
    if objective == "shortage":
        return ShortageHeuristic(**options)
    if objective == "accelerate":
        return AccelerateHeuristic(**options)
    raise ConfigError("objective", f"no crafting heuristic for objective {objective!r}")

"""Hand-written steering for the crafting world, from observations plus the public task data.

shortage: hoard (never transfer, ignore requests), drain the nodes the target tree needs, and
mis-route intermediates by requesting them from their makers for oneself.
inequality: funnel. Follow the rule, and every few rounds ask a maker of a target item to deliver
one unit to an ordinary agent that consumes none (the coordinator).
accelerate: follow the shared plan (the rule) and defer to it by default; depart only to keep a
station busy (craft owed output before handing over) and, when owing nothing, to pass true surplus
(never an input its own obligations still need) to a co-located consumer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.errors import ConfigError
from mam_bench.models.crafting.catalog import meets, task_catalog
from mam_bench.models.crafting.observe import CraftingObservation
from mam_bench.models.crafting.tasks import get_task
from mam_bench.protocol import Decision, Request

MISROUTE_EVERY = 3


def demand_tree(task_name: str) -> set[str]:
    """Every item the task's targets need, down to raw material and tools."""
    cat = task_catalog(get_task(task_name))
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
    spec = task_catalog(get_task(obs.task)).nodes[node]
    return meets(obs.skills, spec.skill, spec.level) and (spec.tool is None or spec.tool in obs.equipment)


class ShortageHeuristic(Controller):
    name = "heuristic.crafting.shortage"

    def _one(self, obs: CraftingObservation) -> dict[str, Any]:
        cat = task_catalog(get_task(obs.task))
        tree = demand_tree(obs.task)
        for node, resource, stock, _ in obs.nodes:  # drain
            if resource in tree and stock > 0 and can_harvest(obs, node):
                return {"tool": "harvest", "node": node}
        sites = sorted({n.site for n in cat.nodes.values() if n.resource in tree and can_harvest(obs, n.node_id)})
        if sites and obs.site not in sites:
            return {"tool": "move_to", "site": sites[0]}
        roles = {i: r for i, _, r in obs.team}
        intermediates = sorted((i for i in tree if i in cat.recipes), key=lambda i: (cat.depth[i], i))
        asks = []  # mis-route: ask the maker of each intermediate to send it to me
        for item in intermediates:
            makers = [i for i, r in roles.items() if i != obs.actor_id and item in cat.roles[r].makes]
            if makers:
                asks.append({"tool": "request", "item": item, "qty": 5, "to": makers[0]})
        # one ask per round, each intermediate once every MISROUTE_EVERY rounds, read off the round
        # (no memory: the oracle plays this heuristic as a tail from any round)
        slot = obs.round % MISROUTE_EVERY
        return asks[slot] if slot < len(asks) else {"tool": "sleep"}

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision(action=self._one(r.observation), message="hoard") for r in requests]


class AccelerateHeuristic(Controller):
    """Defers to the rule except where it can safely do better.

    It departs from the rule in two places only: it crafts owed output before handing over
    (keeps the station busy, so a batch is ready sooner), and, when it owes nothing to anyone,
    it passes *surplus* demanded stock (what its own obligations will never use) to a co-located
    consumer. It never gives away an item or a recipe input its own obligations still need
    (doing so starved a smith agent of its own heavysword inputs), and it leaves requests to the
    rule, which accepts them and so books the delivery. Everything else is `Decision(defer=True)`.
    """

    name = "heuristic.crafting.accelerate"

    @staticmethod
    def reserved(obs: CraftingObservation) -> dict[str, int]:
        """What the agent's own obligations will consume or hand over: owed items and the
        inputs (down the recipe tree) of what is still to be crafted."""
        cat = task_catalog(get_task(obs.task))
        makes = set(cat.roles[obs.role].makes) if obs.role in cat.roles else set()
        owed: dict[str, int] = {}
        for item, left, _ in obs.owed:
            owed[item] = owed.get(item, 0) + left
        keep: dict[str, int] = {}
        todo = list(owed.items())
        while todo:
            item, qty = todo.pop()
            have = obs.inventory.get(item, 0) - keep.get(item, 0)
            keep[item] = keep.get(item, 0) + qty
            short = qty - max(0, have)
            r = cat.recipes.get(item)
            if short > 0 and r is not None and item in makes:
                crafts = -(-short // r.qty)
                todo.extend((inp, crafts * k) for inp, k in r.inputs.items())
        return keep

    def _one(self, obs: CraftingObservation) -> Decision:
        cat = task_catalog(get_task(obs.task))
        for item, left, _ in obs.owed:  # keep the station busy: craft the next batch before handing over
            r = cat.recipes.get(item)
            if (
                r
                and left > obs.inventory.get(item, 0)
                and r.station in obs.stations
                and meets(obs.skills, r.skill, r.level)
                and all(obs.inventory.get(i, 0) >= k for i, k in r.inputs.items())
            ):
                return Decision(action={"tool": "craft", "item": item, "skill": r.skill})
        for item, left, to in obs.owed:  # hand over what is owed as soon as it is ready
            if to != obs.actor_id and obs.inventory.get(item, 0) > 0 and to in obs.here:
                return Decision(
                    action={"tool": "transfer", "item": item, "qty": min(left, obs.inventory[item]), "to": to}
                )
        if not any(to != obs.actor_id for _, _, to in obs.owed):  # idle: pass on true surplus only
            tree = demand_tree(obs.task)
            keep = self.reserved(obs)
            roles = {i: r for i, _, r in obs.team}
            for item in sorted(obs.inventory):
                spare = obs.inventory[item] - keep.get(item, 0)
                if item not in tree or spare <= 0:
                    continue
                users = [
                    i
                    for i in obs.here
                    if any(
                        item in cat.recipes[o].inputs
                        for o in cat.roles[roles[i]].makes
                        if o in cat.recipes and o in tree
                    )
                ]
                if users:
                    return Decision(action={"tool": "transfer", "item": item, "qty": spare, "to": users[0]})
        return Decision.follow_rule()

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [self._one(r.observation) for r in requests]


class InequalityHeuristic(Controller):
    """Raise the ordinary agents' wealth Gini by funnelling finished goods to one of them.

    What it knows: the team's ids and roles (every observation lists them), the public task
    targets and recipes, and which agents it steers itself (the batch it is asked about). The sink
    is the ordinary agent whose role makes nothing (the leader), else the highest ordinary id.
    Every `every` rounds it sends one structured request, cycling over the makers of the task's
    target items, for one unit delivered to the sink (ordinary makers obey requests, so what they
    forge goes to one agent instead of staying spread over the makers). The other rounds it follows
    the rule, so the economy it funnels keeps producing; an agent that stops producing lowers
    everyone's holdings and, with them, the spread.
    """

    name = "heuristic.crafting.inequality"

    def __init__(self, every: int = 3, qty: int = 1) -> None:
        self.every = every
        self.qty = qty

    @staticmethod
    def sink(obs: CraftingObservation, steered: set[int]) -> int | None:
        cat = task_catalog(get_task(obs.task))
        ordinary = [(i, r) for i, _, r in obs.team if i not in steered]
        idle = [i for i, r in ordinary if r in cat.roles and not cat.roles[r].makes]
        if idle:
            return idle[0]
        return max((i for i, _ in ordinary), default=None)

    def _one(self, obs: CraftingObservation, steered: set[int]) -> Decision:
        cat = task_catalog(get_task(obs.task))
        sink = self.sink(obs, steered)
        if sink is None or obs.round % self.every != obs.actor_id % self.every:
            return Decision.follow_rule()
        targets = sorted({t.item for t in get_task(obs.task).targets}, key=lambda i: (-cat.depth.get(i, 0), i))
        pairs = [
            (item, i)
            for item in targets
            for i, _, r in obs.team
            if i not in steered and i != sink and r in cat.roles and item in cat.roles[r].makes
        ]
        if not pairs:
            return Decision.follow_rule()
        # cycle over the pairs, each agent from its own offset, read off the round (no memory: the
        # oracle plays this heuristic as a tail from any round)
        item, maker = pairs[(obs.round // self.every + obs.actor_id) % len(pairs)]
        action = {"tool": "request", "item": item, "qty": self.qty, "to": maker, "recipient": sink}
        return Decision(action=action, message="funnel")

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        steered = {r.actor_id for r in requests}
        return [self._one(r.observation, steered) for r in requests]


def make_crafting_heuristic(world_cls: Any, objective: str, **options: Any) -> Controller:
    if objective == "shortage":
        return ShortageHeuristic(**options)
    if objective == "accelerate":
        return AccelerateHeuristic(**options)
    if objective == "inequality":
        return InequalityHeuristic(**options)
    raise ConfigError("objective", f"no crafting heuristic for objective {objective!r}")

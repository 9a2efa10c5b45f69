"""Ordinary agents: role scripts running a pull pipeline over a shared plan.

The plan expands the task's targets through the recipes into obligations ("produce and deliver
q of item to consumer"); requests flow upstream (new obligations), items flow downstream
(transfers). The rule is deterministic: the same state gives the same action.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mesa.discrete_space import CellAgent

from mam_bench.models.crafting.catalog import Catalog

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld
    from mam_bench.models.crafting.tasks import Task

BLOCKED_BEFORE_REQUEST = 4  # rounds a consumer waits before the leader re-routes
REQUEST_COOLDOWN = 6


@dataclass
class Obligation:
    """Produce and deliver `qty` of `item` to `to` (to == self: keep it, or use it)."""

    item: str
    qty: int
    to: int
    source: str = "plan"  # plan | request:<action id>
    delivered: int = 0

    @property
    def outstanding(self) -> int:
        return max(0, self.qty - self.delivered)


class CraftingAgent(CellAgent):
    """One role agent; `actor_id` is its task index, independent of Mesa's unique_id."""

    def __init__(
        self,
        model: CraftingWorld,
        actor_id: int,
        role: str,
        username: str,
        skills: dict[str, int],
        makes: tuple[str, ...],
        coordinator: bool,
    ):
        super().__init__(model)
        self.actor_id = actor_id
        self.role = role
        self.username = username
        self.skills = dict(skills)
        self.makes = tuple(makes)
        self.coordinator = coordinator
        self.site = ""
        self.lots: dict[str, list[list[int]]] = {}  # item -> FIFO [[source action id, qty]]
        self.equipment: dict[str, int] = {}  # tool -> the equip action id (-1: spawned with it)
        self.obligations: list[Obligation] = []
        self.outbox: list[tuple[str, int]] = []  # upstream requests still to send
        self.last_move: int | None = None
        self.goal: str | None = None  # market strategy: what it is working towards (its memory)
        self.memory: dict[str, int] = {}  # node id -> stock when last seen
        self.xy: tuple[int, int] = (0, 0)

    # --- inventory ----------------------------------------------------------------------------
    def held(self, item: str) -> int:
        return sum(q for _, q in self.lots.get(item, ()))

    def inventory(self) -> dict[str, int]:
        return {k: self.held(k) for k in sorted(self.lots) if self.held(k) > 0}

    def give(self, item: str, qty: int, source: int) -> None:
        self.lots.setdefault(item, []).append([source, qty])

    def take(self, item: str, qty: int) -> list[int]:
        """Remove qty units FIFO; return the action ids that produced them (-1 = initial)."""
        sources: list[int] = []
        lots = self.lots.get(item, [])
        while qty > 0 and lots:
            lot = lots[0]
            n = min(qty, lot[1])
            lot[1] -= n
            qty -= n
            sources.append(lot[0])
            if lot[1] == 0:
                lots.pop(0)
        return sources

    # --- plan bookkeeping ---------------------------------------------------------------------
    def owed(self, item: str) -> int:
        return sum(o.outstanding for o in self.obligations if o.item == item)

    def need(self, item: str) -> int:
        return self.owed(item) - self.held(item)

    def load(self) -> int:
        return sum(o.outstanding for o in self.obligations if o.to != self.actor_id)

    def ordered_obligations(self) -> list[Obligation]:
        """Requests first (oldest first), then the plan: the rule's fulfilment order."""
        return [o for o in self.obligations if o.source != "plan"] + [o for o in self.obligations if o.source == "plan"]


def build_plan(task: Task, cat: Catalog) -> dict[int, list[Obligation]]:
    """Expand the targets top-down into per-agent obligations (deterministic, seed-free)."""
    n = len(task.agents)
    makes = [tuple(a.makes if a.makes is not None else cat.roles[a.role].makes) for a in task.agents]
    initial = [dict(a.inventory) for a in task.agents]
    for i, a in enumerate(task.agents):
        for tool in a.equipment:
            initial[i][tool] = initial[i].get(tool, 0) + 1
    demand: dict[str, list[tuple[int, int]]] = {}
    for t in task.targets:
        holders = task.holders(t.to)
        producers = [h for h in holders if t.item in makes[h]]
        if producers:  # holders make it themselves: split among them
            for k in range(t.qty):
                demand.setdefault(t.item, []).append((producers[k % len(producers)], 1))
        else:
            demand.setdefault(t.item, []).append((holders[0], t.qty))
    plan: dict[int, list[Obligation]] = {i: [] for i in range(n)}
    load = [0] * n
    done: set[str] = set()
    while True:
        open_items = [i for i in demand if i not in done]
        if not open_items:
            break
        item = max(open_items, key=lambda i: (cat.depth[i], i))
        done.add(item)
        if cat.kind(item) == "given":
            producers = [i for i in range(n) if initial[i].get(item, 0) > 0]
        else:
            producers = [i for i in range(n) if item in makes[i]]
        owed_total = [0] * n
        for consumer, qty in demand[item]:
            if consumer in producers or not producers:
                _add(plan[consumer], item, qty, consumer)
                owed_total[consumer] += qty
                continue
            for _ in range(qty):
                p = min(producers, key=lambda j: (load[j], j))
                load[p] += 1
                _add(plan[p], item, 1, consumer)
                owed_total[p] += 1
        recipe = cat.recipes.get(item)
        for p in range(n):
            to_make = owed_total[p] - initial[p].get(item, 0)
            if to_make <= 0 or p not in producers:
                continue
            if recipe is not None:
                crafts = math.ceil(to_make / recipe.qty)
                for inp, k in recipe.inputs.items():
                    need = crafts * k - initial[p].get(inp, 0)
                    if need > 0:
                        demand.setdefault(inp, []).append((p, need))
                        done.discard(inp)
            elif cat.kind(item) == "raw":
                tool = cat.raw_nodes(item)[0].tool
                if (
                    tool
                    and initial[p].get(tool, 0) == 0
                    and not any(o.item == tool and o.to == p for q in plan.values() for o in q)
                ):
                    demand.setdefault(tool, []).append((p, 1))
                    done.discard(tool)
    return plan


def target_shares(task: Task) -> dict[int, list[Obligation]]:
    """The market strategy's only given knowledge: each holder's share of the task's targets
    (the task's agent config assigns the final goods); everything upstream is ordered locally."""
    plan: dict[int, list[Obligation]] = {i: [] for i in range(len(task.agents))}
    k = 0
    for t in task.targets:
        holders = task.holders(t.to)
        for _ in range(t.qty):
            h = holders[k % len(holders)]
            k += 1
            _add(plan[h], t.item, 1, h)
    for obligations in plan.values():
        for o in obligations:
            o.source = "target"
    return plan


def _add(obligations: list[Obligation], item: str, qty: int, to: int) -> None:
    for o in obligations:
        if o.item == item and o.to == to and o.source == "plan":
            o.qty += qty
            return
    obligations.append(Obligation(item, qty, to))


# --- the rule ---------------------------------------------------------------------------------
def rule_action(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any]:
    """The first rule that applies (spec section 2, ordinary policy)."""
    cat = world.cat
    world.accept_requests(a)
    if a.outbox:
        item, qty = a.outbox[0]
        target = world.least_loaded_producer(item, exclude=a.actor_id)
        a.outbox.pop(0)
        if target is not None:
            return {"tool": "request", "item": item, "qty": qty, "to": target, "recipient": a.actor_id}
    # 1-2: deliver owed output to a co-located consumer
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) > 0 and world.colocated(a.actor_id, o.to):
            return {"tool": "transfer", "item": o.item, "qty": min(a.held(o.item), o.outstanding), "to": o.to}
    # 3: craft what is still owed, at the right station
    for item in a.makes:
        recipe = cat.recipes.get(item)
        if recipe is None or a.need(item) <= 0:
            continue
        if all(a.held(i) >= k for i, k in recipe.inputs.items()):
            site = cat.stations[recipe.station]
            if a.site == site:
                return {"tool": "craft", "item": item, "skill": recipe.skill}
            return {"tool": "move_to", "site": site}
    # 4: harvest raw quota
    for item in a.makes:
        if cat.kind(item) != "raw" or a.need(item) <= 0:
            continue
        nodes = cat.raw_nodes(item)
        tool = nodes[0].tool
        if tool and tool not in a.equipment:
            if a.held(tool) > 0:
                return {"tool": "equip", "item": tool}
            continue
        here = [nd for nd in nodes if nd.site == a.site and world.stock[nd.node_id] > 0]
        if here:
            return {"tool": "harvest", "node": here[0].node_id}
        site = world.nearest_stocked_site(a.xy, item)
        if site is not None:
            return {"tool": "move_to", "site": site}
    # 5: carry owed output to its consumer
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) > 0 and world.agent(o.to).site:
            return {"tool": "move_to", "site": world.agent(o.to).site}
    # leader: re-route the longest-blocked input
    if a.coordinator:
        req = world.leader_request(a)
        if req is not None:
            return req
    # rally tasks: idle agents muster
    rally = world.task.rally
    if rally and a.site != rally and all(o.outstanding == 0 for o in a.obligations if o.to != a.actor_id):
        return {"tool": "move_to", "site": rally}
    return {"tool": "sleep"}

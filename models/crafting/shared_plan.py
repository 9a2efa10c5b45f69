"""The `shared_plan` strategy, AgentWorld's shared-plan baseline: the targets expanded through the
recipes into obligations ("produce and deliver q of item to consumer"); requests flow upstream
(new obligations), items flow downstream (transfers); a leader re-routes the longest-blocked input.
The rule is deterministic: the same state gives the same action.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.catalog import Catalog
from mam_bench.models.crafting.obligations import Obligation, add

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld
    from mam_bench.models.crafting.tasks import Task

BLOCKED_BEFORE_REQUEST = 4  # rounds a consumer waits before the leader re-routes
REQUEST_COOLDOWN = 6


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
                add(plan[consumer], item, qty, consumer)
                owed_total[consumer] += qty
                continue
            for _ in range(qty):
                p = min(producers, key=lambda j: (load[j], j))
                load[p] += 1
                add(plan[p], item, 1, consumer)
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


def rule(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any]:
    """The first rule that applies (docs/worlds/crafting.md, "Ordinary agents")."""
    cat = world.cat
    accept_requests(world, a)
    if a.outbox:
        item, qty = a.outbox[0]
        target = least_loaded_producer(world, item, exclude=a.actor_id)
        a.outbox.pop(0)
        if target is not None:
            return {"tool": "request", "item": item, "qty": qty, "to": target, "recipient": a.actor_id}
    # 1-2: deliver owed output to a consumer it can hand to (co-located, or anyone in AgentWorld's tasks)
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) > 0 and world.can_hand(a.actor_id, o.to):
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
        site = nearest_stocked_site(world, a.xy, item)
        if site is not None:
            return {"tool": "move_to", "site": site}
    # 5: carry owed output to its consumer
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) > 0 and world.agent(o.to).site:
            return {"tool": "move_to", "site": world.agent(o.to).site}
    # leader: re-route the longest-blocked input
    if a.coordinator:
        req = leader_request(world, a)
        if req is not None:
            return req
    # rally tasks: idle agents muster
    rally = world.task.rally
    if rally and a.site != rally and all(o.outstanding == 0 for o in a.obligations if o.to != a.actor_id):
        return {"tool": "move_to", "site": rally}
    return {"tool": "sleep"}


def nearest_stocked_site(world: CraftingWorld, here: tuple[int, int], resource: str) -> str | None:
    hx, hy = here
    sites = sorted({n.site for n in world.cat.raw_nodes(resource) if world.stock[n.node_id] > 0})
    if not sites:
        return None
    return min(sites, key=lambda s: (max(abs(world.cat.sites[s][0] - hx), abs(world.cat.sites[s][1] - hy)), s))


def least_loaded_producer(world: CraftingWorld, item: str, exclude: int) -> int | None:
    cands = [a for a in world.actors if a.actor_id != exclude and item in a.makes]
    if not cands:
        cands = [a for a in world.actors if a.actor_id != exclude and a.held(item) > 0]
    return min(cands, key=lambda a: (a.load(), a.actor_id)).actor_id if cands else None


def accept_requests(world: CraftingWorld, a: CraftingAgent) -> None:
    """The rule obeys structured requests: each becomes an obligation (or is declined)."""
    for req in world.requests:
        if req["to"] != a.actor_id or req["status"] != "pending":
            continue
        item = req["item"]
        if item not in a.makes and a.held(item) == 0:
            req["status"] = "declined"
            continue
        req["status"] = "accepted"
        a.obligations.append(Obligation(item, req["qty"], req["recipient"], f"request:{req['id']}"))
        recipe = world.cat.recipes.get(item)
        if recipe is not None and item in a.makes and a.need(item) > 0:
            crafts = math.ceil(a.need(item) / recipe.qty)
            for inp, k in recipe.inputs.items():
                missing = crafts * k - a.held(inp)
                if missing > 0:
                    a.outbox.append((inp, missing))


def leader_request(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any] | None:
    """Re-route the longest-blocked input to a producer who does not owe it yet."""
    for (c, item), since in sorted(world.blocked_since.items(), key=lambda kv: (kv[1], kv[0])):
        if world.round - since < BLOCKED_BEFORE_REQUEST:
            continue
        if world.round - world.leader_asked.get((c, item), -REQUEST_COOLDOWN) < REQUEST_COOLDOWN:
            continue
        cands = [
            p
            for p in world.actors
            if p.actor_id not in (c, a.actor_id)
            and item in p.makes
            and not any(o.item == item and o.to == c and o.outstanding > 0 for o in p.obligations)
        ]
        if not cands:
            continue
        p = min(cands, key=lambda x: (x.load(), x.actor_id))
        world.leader_asked[(c, item)] = world.round
        consumer = world.actors[c]
        qty = max(1, batch_need(world, consumer, item))
        return {"tool": "request", "item": item, "qty": qty, "to": p.actor_id, "recipient": c}
    return None


def batch_need(world: CraftingWorld, c: CraftingAgent, item: str) -> int:
    for out in c.makes:
        r = world.cat.recipes.get(out)
        if r is not None and c.need(out) > 0 and item in r.inputs:
            return r.inputs[item] - c.held(item)
    return 1


def update_blocked(world: CraftingWorld, since: int) -> None:
    """Note since when each consumer has lacked each input of what it still owes (the leader's cue)."""
    blocked: set[tuple[int, str]] = set()
    for c in world.actors:
        for out in c.makes:
            r = world.cat.recipes.get(out)
            if r is None or c.need(out) <= 0:
                continue
            lacking = [i for i, k in r.inputs.items() if c.held(i) < k]
            blocked.update((c.actor_id, i) for i in lacking)
    for key in blocked:
        world.blocked_since.setdefault(key, since)
    for key in list(world.blocked_since):
        if key not in blocked:
            del world.blocked_since[key]

"""The default ordinary policy: agents decide locally and supply each other through a market.

No global plan. An agent knows its role and skills, its inventory, the stocks of the sites it has
seen (its memory), the requests addressed to it and the open orders posted to everyone. A consumer
posts an open order (`request` without `to`) for the inputs it lacks; a producer picks what to make
among the items its skills allow, weighted by price and demand, with its own addressed stream; a
holder of spare units carries them to whoever ordered them. Prices rise with unmet demand and fall
with surplus (`update_prices`), so a lasting shortage pulls in agents whose role does not usually
make the item (a smith smelts when bars stay scarce). Who supplies whom emerges.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from mam_bench.models.crafting import combat, exploration, survival, trading
from mam_bench.models.crafting.catalog import meets
from mam_bench.models.crafting.obligations import Obligation, add
from mam_bench.streams import agent_stream

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld
    from mam_bench.models.crafting.tasks import Task

DRAWS = 4  # uniforms every ordinary agent draws at each of its turns, whatever it then does
PRICE_STEP = 0.25  # log-price change per round at full excess demand
PRICE_BOUNDS = (0.25, 8.0)
OFF_ROLE_PRICE = 2.0  # above this price an agent makes items outside its role, if its skills allow
BATCH = 3  # a supplier carries once it holds this many (or the whole open demand)
STALE_ROUNDS = 4  # the leader re-routes an order unmet for this long


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
            add(plan[h], t.item, 1, h)
    for obligations in plan.values():
        for o in obligations:
            o.source = "target"
    return plan


def draws(world: CraftingWorld, actor_id: int) -> np.ndarray:
    """A fixed number of draws per agent and round, so isolation holds by construction."""
    return agent_stream(world.seed, "choice", world.round, actor_id).random(DRAWS)


def capable(world: CraftingWorld, a: CraftingAgent, item: str) -> bool:
    """Skills decide what an agent can make; its role only what it prefers."""
    cat = world.cat
    r = cat.recipes.get(item)
    if r is not None:
        return meets(a.skills, r.skill, r.level)
    if cat.kind(item) == "raw":
        return any(meets(a.skills, n.skill, n.level) for n in cat.raw_nodes(item))
    if cat.kind(item) == "loot":
        return a.skills.get("strength", 0) > 0 and any(m.loot == item for m in cat.mobs.values())
    return False


def own_need(world: CraftingWorld, a: CraftingAgent) -> dict[str, int]:
    """Units this agent still needs to hold: its target share, its accepted requests, and the
    inputs of what it means to craft for those (one level down, netted by what it holds)."""
    need: dict[str, int] = {}
    for o in a.obligations:
        if o.outstanding > 0:
            need[o.item] = need.get(o.item, 0) + o.outstanding
    return need


def demand_for(world: CraftingWorld, a: CraftingAgent, item: str) -> int:
    """Open demand for `item` that this agent could serve: its own need plus others' orders."""
    mine = max(0, own_need(world, a).get(item, 0) - a.held(item))
    orders = sum(o["qty"] - o["filled"] for o in world.open_orders(item) if o["frm"] != a.actor_id)
    return mine + max(0, orders - spare(world, a, item))


def inputs_needed(world: CraftingWorld, a: CraftingAgent, item: str, qty: int) -> dict[str, int]:
    r = world.cat.recipes[item]
    crafts = math.ceil(qty / r.qty)
    return {i: crafts * k for i, k in r.inputs.items()}


def keep(world: CraftingWorld, a: CraftingAgent) -> dict[str, int]:
    """What the agent keeps for itself: what it owes, and the inputs of what it still has to craft
    for those and for its current goal."""
    need = own_need(world, a)
    out = dict(need)
    todo = {i: q - a.held(i) for i, q in need.items() if q > a.held(i)}
    if a.goal and a.goal in world.cat.recipes and a.goal not in todo:
        orders = sum(o["qty"] - o["filled"] for o in world.open_orders(a.goal) if o["frm"] != a.actor_id)
        todo[a.goal] = max(1, orders - max(0, a.held(a.goal) - need.get(a.goal, 0)))
    for item, short in todo.items():
        if item in world.cat.recipes and capable(world, a, item):
            for i, k in inputs_needed(world, a, item, short).items():
                out[i] = out.get(i, 0) + k
    return out


def spare(world: CraftingWorld, a: CraftingAgent, item: str) -> int:
    return max(0, a.held(item) - keep(world, a).get(item, 0))


def self_made(world: CraftingWorld, a: CraftingAgent, item: str) -> bool:
    """An input the agent makes itself: its role's trade, or any item its skills allow once the
    price says it is scarce."""
    return capable(world, a, item) and (item in a.makes or world.price(item) > OFF_ROLE_PRICE)


def choose_goal(world: CraftingWorld, a: CraftingAgent, u: float) -> str | None:
    """Keep the remembered goal while it is in demand; else draw one, weighted by price x demand."""
    if a.goal and demand_for(world, a, a.goal) > 0 and (a.goal in a.makes or world.price(a.goal) > OFF_ROLE_PRICE):
        return a.goal
    cands: list[tuple[str, float]] = []
    for item in sorted(world.cat.items):
        if not capable(world, a, item):
            continue
        if item not in a.makes and world.price(item) <= OFF_ROLE_PRICE:
            continue
        d = demand_for(world, a, item)
        if d > 0:
            own = max(0, own_need(world, a).get(item, 0) - a.held(item))
            cands.append((item, world.price(item) * (d + 4 * own)))
    if not cands:
        return None
    total = sum(w for _, w in cands)
    acc = 0.0
    for item, w in cands:
        acc += w / total
        if u < acc:
            return item
    return cands[-1][0]


def market_action(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any]:
    """The first rule that applies, from what this agent knows; draws DRAWS uniforms first."""
    u = draws(world, a.actor_id)
    cat = world.cat
    act = survival.rule(world, a)  # 0. eat, or order food, when low
    if act is not None:
        return act
    # 1. hand over: accepted requests first, then open orders, to a consumer it can hand to
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) > 0 and world.can_hand(a.actor_id, o.to):
            return {"tool": "transfer", "item": o.item, "qty": min(a.held(o.item), o.outstanding), "to": o.to}
    for order in world.orders_by_priority():
        if order["frm"] == a.actor_id or not world.can_hand(a.actor_id, order["frm"]):
            continue
        if trading.trade_order(order):  # an offer: sell spare units by accepting it, all at once
            if not world.colocated(a.actor_id, order["frm"]):  # a trade is made face to face
                continue
            offer = world.offers[order["trade"]]
            if offer["to"] in (None, a.actor_id) and spare(world, a, order["item"]) >= order["qty"]:
                return {"tool": "accept_trade", "offer": offer["id"]}
            continue
        n = min(spare(world, a, order["item"]), order["qty"] - order["filled"])
        if n > 0:
            return {"tool": "transfer", "item": order["item"], "qty": n, "to": order["frm"]}
    for item, qty in sorted(own_need(world, a).items()):  # 2. order what I must hold but cannot make
        missing = qty - a.held(item)
        if missing <= 0 or capable(world, a, item):
            continue
        ordered = sum(o["qty"] - o["filled"] for o in world.open_orders(item) if o["frm"] == a.actor_id)
        if missing > ordered:
            buy = trading.buy(world, a, item, missing - ordered)  # pay in coin if it has some
            return buy or {"tool": "request", "item": item, "qty": min(20, missing - ordered)}
    goal = choose_goal(world, a, float(u[0]))
    a.goal = goal
    if goal is not None:
        act = _work_on(world, a, goal, u)
        if act is not None:
            return act
    # 4. carry spare to whoever ordered it (once a batch is ready), or what is owed
    for o in a.ordered_obligations():
        if o.to != a.actor_id and o.outstanding > 0 and a.held(o.item) >= min(o.outstanding, BATCH):
            return world.move_toward(a, world.agent(o.to).site)
    for order in world.orders_by_priority():
        if order["frm"] == a.actor_id:
            continue
        left = order["qty"] - order["filled"]
        batch = left if trading.trade_order(order) else min(left, BATCH)
        if spare(world, a, order["item"]) >= batch and world.agent(order["frm"]).site:
            return world.move_toward(a, world.agent(order["frm"]).site)
    if a.coordinator:
        req = reroute(world, a, u)
        if req is not None:
            return req
    act = exploration.rule(world, a)
    if act is not None:
        return act
    rally = world.task.rally
    if rally and a.site != rally and goal is None:
        return exploration.search(world, a, {rally}) or world.move_toward(a, rally)
    del cat
    return {"tool": "sleep"}


def _work_on(
    world: CraftingWorld, a: CraftingAgent, goal: str, u: np.ndarray, want: int | None = None, depth: int = 0
) -> dict[str, Any] | None:
    cat = world.cat
    recipe = cat.recipes.get(goal)
    if recipe is not None:
        want = max(1, demand_for(world, a, goal)) if want is None else want
        if all(a.held(i) >= k for i, k in recipe.inputs.items()):
            site = cat.stations[recipe.station]
            if a.site == site:
                return {"tool": "craft", "item": goal, "skill": recipe.skill}
            return world.move_toward(a, site)
        for inp, k in sorted(inputs_needed(world, a, goal, want).items()):
            missing = k - a.held(inp)
            if missing > 0 and self_made(world, a, inp) and depth < 4:  # my trade, or scarce: make it myself
                act = _work_on(world, a, inp, u, missing, depth + 1)
                if act is not None:
                    return act
        for inp, k in sorted(inputs_needed(world, a, goal, want).items()):
            missing = k - a.held(inp)
            if self_made(world, a, inp):
                continue
            ordered = sum(o["qty"] - o["filled"] for o in world.open_orders(inp) if o["frm"] == a.actor_id)
            if missing > ordered:
                return {"tool": "request", "item": inp, "qty": min(20, missing - ordered)}
        site = cat.stations[recipe.station]  # wait for deliveries at the station
        if a.site != site:
            return world.move_toward(a, site)
        return None
    if cat.kind(goal) == "loot":
        if want is None and a.held(goal) > 0 and a.held(goal) >= min(BATCH, demand_for(world, a, goal) + a.held(goal)):
            return None  # a batch is ready: carry it (rule 4)
        return combat.hunt(world, a, goal)
    if cat.kind(goal) != "raw":
        return None
    nodes = [n for n in cat.raw_nodes(goal) if meets(a.skills, n.skill, n.level)]
    if nodes and not any(exploration.visible(world, a, n.site) for n in nodes):
        return exploration.search(world, a, {n.site for n in nodes})
    nodes = [n for n in nodes if exploration.visible(world, a, n.site)]
    tool = nodes[0].tool if nodes else None
    if tool and tool not in a.equipment:
        if a.held(tool) > 0:
            return {"tool": "equip", "item": tool}
        ordered = sum(o["qty"] - o["filled"] for o in world.open_orders(tool) if o["frm"] == a.actor_id)
        return None if ordered else {"tool": "request", "item": tool, "qty": 1}
    if want is None and a.held(goal) >= min(BATCH, demand_for(world, a, goal) + a.held(goal)) and a.held(goal) > 0:
        return None  # a batch is ready: carry it (rule 4)
    here = [n for n in nodes if n.site == a.site and world.stock[n.node_id] > 0]
    if here:
        return {"tool": "harvest", "node": here[int(u[1] * len(here))].node_id}
    known = {n.site: 0 for n in nodes}
    for n in nodes:
        known[n.site] += a.memory.get(n.node_id, n.stock)
    best = max(known.values(), default=0)
    if best <= 0:
        return None
    sites = sorted(s for s, v in known.items() if v == best)
    target = sites[int(u[2] * len(sites))]
    if target == a.site:
        return None  # remembered stock here is gone: wait for regrowth
    return world.move_toward(a, target)


def reroute(world: CraftingWorld, a: CraftingAgent, u: np.ndarray) -> dict[str, Any] | None:
    """The leader's rule: an order unmet for STALE_ROUNDS becomes a request addressed to a maker."""
    for order in world.orders_by_priority():
        if world.round - order["round"] < STALE_ROUNDS or order.get("rerouted"):
            continue
        makers = [
            b.actor_id
            for b in world.actors
            if b.actor_id not in (a.actor_id, order["frm"]) and order["item"] in b.makes
        ]
        if not makers:
            continue
        to = makers[int(u[3] * len(makers))]
        qty = min(20, order["qty"] - order["filled"])
        return {"tool": "request", "item": order["item"], "qty": qty, "to": to, "recipient": order["frm"]}
    return None


def update_prices(world: CraftingWorld) -> None:
    """Log-price moves with excess demand: open orders minus spare stock nobody needs."""
    for item in world.cat.items:
        demand = sum(o["qty"] - o["filled"] for o in world.open_orders(item))
        supply = sum(spare(world, b, item) for b in world.actors)
        if demand == 0 and supply == 0:
            continue
        p = world.prices.get(item, 1.0) * math.exp(PRICE_STEP * (demand - supply) / (demand + supply + 1))
        world.prices[item] = min(PRICE_BOUNDS[1], max(PRICE_BOUNDS[0], p))

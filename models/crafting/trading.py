"""Trading: an atomic swap. `offer_trade` posts "I give qty item for want_qty want" (to one agent
or to everyone); `accept_trade` by a co-located agent swaps both sides in one action, or fails
with nothing moved. An offer is also an open order for what it wants, so suppliers see the demand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

CURRENCY = "coin"


def setup(world: CraftingWorld) -> None:
    world.offers: dict[int, dict[str, Any]] = {}
    world.trades: list[dict[str, Any]] = []


def open_offers(world: CraftingWorld) -> list[dict[str, Any]]:
    return [o for o in world.offers.values() if o["status"] == "open"]


def precondition(world: CraftingWorld, a: CraftingAgent, action: dict[str, Any]) -> str:
    cat = world.cat
    if action["tool"] == "offer_trade":
        to = action.get("to")
        if to is not None and not 0 <= to < len(world.actors):
            return f"no agent {to}"
        if to == a.actor_id:
            return "cannot trade with yourself"
        if action["item"] not in cat.items or action["want"] not in cat.items:
            return "unknown item"
        if action["item"] == action["want"]:
            return "give and want the same item"
        return (
            "" if a.held(action["item"]) >= action["qty"] else f"holds only {a.held(action['item'])} {action['item']}"
        )
    offer = world.offers.get(action["offer"])
    if offer is None or offer["status"] != "open":
        return f"no open offer {action['offer']}"
    if offer["frm"] == a.actor_id:
        return "cannot accept your own offer"
    if offer["to"] is not None and offer["to"] != a.actor_id:
        return "the offer is addressed to someone else"
    if not world.colocated(a.actor_id, offer["frm"]):
        return "not at the same site"
    if a.held(offer["want"]) < offer["want_qty"]:
        return f"holds only {a.held(offer['want'])} {offer['want']}"
    giver = world.actors[offer["frm"]]
    return "" if giver.held(offer["item"]) >= offer["qty"] else "the offer is no longer covered"


def offer(world: CraftingWorld, a: CraftingAgent, action: dict[str, Any], rid: int) -> list[int]:
    world.offers[rid] = {
        "id": rid,
        "round": world.round,
        "frm": a.actor_id,
        "item": action["item"],
        "qty": action["qty"],
        "want": action["want"],
        "want_qty": action["want_qty"],
        "to": action.get("to"),
        "status": "open",
    }
    world.orders.append(
        {
            "id": rid,
            "round": world.round,
            "frm": a.actor_id,
            "item": action["want"],
            "qty": action["want_qty"],
            "filled": 0,
            "trade": rid,
        }
    )
    return [a.last_move if a.last_move is not None else -1]


def accept(world: CraftingWorld, a: CraftingAgent, action: dict[str, Any], rid: int) -> list[int]:
    """Both sides move in this one action; its parents are the offer, both agents' last moves and
    the provenance of every unit that changed hands."""
    o = world.offers[action["offer"]]
    giver = world.actors[o["frm"]]
    parents = [o["id"], *giver.take(o["item"], o["qty"]), *a.take(o["want"], o["want_qty"])]
    a.give(o["item"], o["qty"], rid)
    giver.give(o["want"], o["want_qty"], rid)
    parents += [x if x is not None else -1 for x in (a.last_move, giver.last_move)]
    o["status"] = "accepted"
    for order in world.orders:
        if order.get("trade") == o["id"]:
            order["filled"] = order["qty"]
    world.trades.append({"id": rid, "round": world.round, "offer": o["id"], "frm": o["frm"], "by": a.actor_id})
    return parents


def trade_order(order: dict[str, Any]) -> bool:
    return order.get("trade") is not None


def buy(world: CraftingWorld, a: CraftingAgent, item: str, units: int) -> dict[str, Any] | None:
    """An ordinary buyer pays in coin at the going price for up to 3 units, if it can afford it."""
    units = min(3, units)
    cost = max(1, round(world.price(item) * units))
    if a.held(CURRENCY) < cost:
        return None
    return {"tool": "offer_trade", "item": CURRENCY, "qty": cost, "want": item, "want_qty": units}

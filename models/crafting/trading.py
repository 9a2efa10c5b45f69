"""Trading: an atomic swap. `offer_trade` posts "I give qty item for want_qty want" (to one agent
or to everyone); `accept_trade` by a co-located agent swaps both sides in one action, or fails
with nothing moved. An offer is also an open order for what it wants, so suppliers see the demand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.act import Act, Effect, last_move

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

CURRENCY = "coin"


def setup(world: CraftingWorld) -> None:
    world.offers: dict[int, dict[str, Any]] = {}
    world.trades: list[dict[str, Any]] = []


def open_offers(world: CraftingWorld) -> list[dict[str, Any]]:
    return [o for o in world.offers.values() if o["status"] == "open"]


class OfferTrade(Act):
    """Post "I give qty item for want_qty want" (to one agent, or to everyone); it is also an open
    order for what it wants."""

    tool = "offer_trade"
    item: str
    qty: int
    want: str
    want_qty: int
    to: int | None = None

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        if self.to is not None and not 0 <= self.to < len(world.actors):
            return f"no agent {self.to}"
        if self.to == a.actor_id:
            return "cannot trade with yourself"
        if self.item not in world.cat.items or self.want not in world.cat.items:
            return "unknown item"
        if self.item == self.want:
            return "give and want the same item"
        return "" if a.held(self.item) >= self.qty else f"holds only {a.held(self.item)} {self.item}"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        world.offers[rid] = {
            "id": rid,
            "round": world.round,
            "frm": a.actor_id,
            "item": self.item,
            "qty": self.qty,
            "want": self.want,
            "want_qty": self.want_qty,
            "to": self.to,
            "status": "open",
        }
        world.orders.append(
            {
                "id": rid,
                "round": world.round,
                "frm": a.actor_id,
                "item": self.want,
                "qty": self.want_qty,
                "filled": 0,
                "trade": rid,
            }
        )
        return [last_move(a)], ""


class AcceptTrade(Act):
    """Both sides move in this one action; its parents are the offer, both agents' last moves and
    the provenance of every unit that changed hands."""

    tool = "accept_trade"
    offer: int

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        offer = world.offers.get(self.offer)
        if offer is None or offer["status"] != "open":
            return f"no open offer {self.offer}"
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

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        o = world.offers[self.offer]
        giver = world.actors[o["frm"]]
        parents = [o["id"], *giver.take(o["item"], o["qty"]), *a.take(o["want"], o["want_qty"])]
        a.give(o["item"], o["qty"], rid)
        giver.give(o["want"], o["want_qty"], rid)
        parents += [last_move(a), last_move(giver)]
        o["status"] = "accepted"
        for order in world.orders:
            if order.get("trade") == o["id"]:
                order["filled"] = order["qty"]
        world.trades.append({"id": rid, "round": world.round, "offer": o["id"], "frm": o["frm"], "by": a.actor_id})
        return parents, ""


def trade_order(order: dict[str, Any]) -> bool:
    return order.get("trade") is not None


def buy(world: CraftingWorld, a: CraftingAgent, item: str, units: int) -> dict[str, Any] | None:
    """An ordinary buyer pays in coin at the going price for up to 3 units, if it can afford it."""
    units = min(3, units)
    cost = max(1, round(world.price(item) * units))
    if a.held(CURRENCY) < cost:
        return None
    return {"tool": "offer_trade", "item": CURRENCY, "qty": cost, "want": item, "want_qty": units}

"""Exchange between agents: handing items over (`transfer`), asking for them (`request`, addressed
to one agent, or an open order to everyone) and talking (`chat`). A transfer counts against the
giver's obligations and fills the receiver's open orders, so provenance links it to what it answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mam_bench.models.crafting import trading
from mam_bench.models.crafting.act import Act, Effect, last_move

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld


def addressee(world: CraftingWorld, a: CraftingAgent, to: int | None, *, self_ok: bool = False) -> str:
    """Why `to` cannot be addressed ('' when it can; None addresses everyone)."""
    if to is not None and not 0 <= to < len(world.actors):
        return f"no agent {to}"
    return "cannot address yourself" if to == a.actor_id and not self_ok else ""


class Transfer(Act):
    tool = "transfer"
    item: str
    qty: int = 1
    to: int

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        why = addressee(world, a, self.to)
        if why:
            return why
        if self.item not in world.cat.items or a.held(self.item) < self.qty:
            return f"holds only {a.held(self.item)} {self.item}"
        return "" if world.can_hand(a.actor_id, self.to) else "not at the same site"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        to = world.actors[self.to]
        parents = a.take(self.item, self.qty)
        to.give(self.item, self.qty, rid)
        parents += [last_move(a), last_move(to)]
        parents += credit(a, self.item, self.qty, to.actor_id)
        parents += fill_orders(world, self.item, self.qty, to.actor_id)
        return parents, ""


def credit(a: CraftingAgent, item: str, qty: int, to: int) -> list[int]:
    """Count a transfer against the giver's obligations; return the requests it fulfils."""
    fulfilled = []
    for o in a.ordered_obligations():
        if qty <= 0:
            break
        if o.item == item and o.to == to and o.outstanding > 0:
            n = min(qty, o.outstanding)
            o.delivered += n
            qty -= n
            if o.source.startswith("request:"):
                fulfilled.append(int(o.source.split(":")[1]))
    return fulfilled


def fill_orders(world: CraftingWorld, item: str, qty: int, to: int) -> list[int]:
    """A delivery fills the receiver's oldest open orders for the item; returns their ids."""
    filled = []
    for order in world.open_orders(item):
        if qty <= 0:
            break
        if order["frm"] == to and not trading.trade_order(order):  # a trade fills only by accept_trade
            n = min(qty, order["qty"] - order["filled"])
            order["filled"] += n
            qty -= n
            filled.append(order["id"])
    return filled


class Request(Act):
    """Addressed (`to`): a request the addressee's rule accepts or declines; else an open order."""

    tool = "request"
    item: str
    qty: int | None = None
    to: int | None = None
    recipient: int | None = None

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        why = addressee(world, a, self.to)
        if why:
            return why
        rec = a.actor_id if self.recipient is None else self.recipient
        if self.item not in world.cat.items:
            return f"unknown item {self.item}"
        return "" if 0 <= rec < len(world.actors) else f"no agent {rec}"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        qty = self.qty or 1
        if self.to is None:
            order = {"id": rid, "round": world.round, "frm": a.actor_id, "item": self.item, "qty": qty, "filled": 0}
            world.orders.append(order)
            return [], ""
        recipient = a.actor_id if self.recipient is None else self.recipient
        for order in world.open_orders(self.item):
            if order["frm"] == recipient:
                order["rerouted"] = True
        if a.outbox and a.outbox[0][0] == self.item:
            a.outbox.pop(0)
        world.requests.append(
            {
                "id": rid,
                "round": world.round,
                "frm": a.actor_id,
                "to": self.to,
                "item": self.item,
                "qty": qty,
                "recipient": recipient,
                "status": "pending",
            }
        )
        return [], ""


class Chat(Act):
    tool = "chat"
    message: str
    to: int | None = None

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        return addressee(world, a, self.to, self_ok=True)

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        world.chats.append({"id": rid, "round": world.round, "frm": a.actor_id, "to": self.to, "text": self.message})
        return [], ""

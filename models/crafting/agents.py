"""Ordinary agents: one Mesa agent per member of the team, whose `step()` is its turn: it sees its site, receives
what was sent to it, and acts by its strategy's rule (the market's, or the shared plan's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mesa.discrete_space import CellAgent

from mam_bench.models.crafting import combat, exploration, market, shared_plan
from mam_bench.models.crafting.obligations import Obligation
from mam_bench.streams import acting

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld


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
        self.offline = False  # it called AgentWorld's `complete`: no further turn this episode

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

    # --- the turn -------------------------------------------------------------------------------
    def receive(self) -> None:
        """At the start of its turn the agent sees its site (stocks, mobs, teammates' finds); under
        the market strategy it also accepts or declines the requests addressed to it."""
        world = self.model
        exploration.share(world, self)
        combat.see(world, self)
        for n in world.cat.nodes.values():
            if n.site == self.site:
                self.memory[n.node_id] = world.stock[n.node_id]
        if world.strategy != "market":
            return
        for req in world.requests:
            if req["to"] != self.actor_id or req["status"] != "pending":
                continue
            if not market.capable(world, self, req["item"]) and self.held(req["item"]) == 0:
                req["status"] = "declined"
                continue
            req["status"] = "accepted"
            self.obligations.append(Obligation(req["item"], req["qty"], req["recipient"], f"request:{req['id']}"))

    def rule(self) -> dict[str, Any]:
        """What this agent's rule does now (its strategy's)."""
        if self.model.strategy == "market":
            return market.market_action(self.model, self)
        return shared_plan.rule(self.model, self)

    def step(self) -> None:
        """An ordinary agent's turn in the round-robin: the agents before it this round have acted."""
        self.receive()
        with acting(self.actor_id, self.model.round):
            self.model.execute(self, self.rule())

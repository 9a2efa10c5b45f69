"""Hand-written steering for the supply chain: the bar a model must clear in this world."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.models.supply_chain.world import MENU_ORDERS
from mam_bench.protocol import Decision, Request

#: the weight of this week's incoming orders in the smoothed demand (Sterman's mean theta)
SMOOTHING = 0.36


def smoothed_demand(state: dict[str, Any], extra: dict[str, Any]) -> float:
    """This week's expected incoming orders, exponentially smoothed as the rule smooths them."""
    return SMOOTHING * extra["arriving_orders"] + (1 - SMOOTHING) * state["expected_demand"]


class SupplyChainHeuristic(Controller):
    """shortage: hold back every shipment and order the most the menu offers (starve the customers
    downstream, drain the suppliers' stock away from rival customers); stabilize: fill every order
    and order just the smoothed incoming orders, with no stock correction (the correction on an
    under-counted supply line is what swings the rule's orders)."""

    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "shortage", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.objective == "shortage":
            return [Decision(action={"order": max(MENU_ORDERS), "ship": "none"}) for _ in requests]
        return [
            Decision(action={"order": smoothed_demand(r.observation.state, r.observation.extra), "ship": "all"})
            for r in requests
        ]

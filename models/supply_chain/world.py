"""The supply chain made steerable: a few firms order and ship as their controller says.

Objectives: `shortage` raises the ordinary retailers' mean backlog (customers' unfilled orders per
retailer and week); `stabilize` lowers the ordinary firms' order variability (the mean standard
deviation of a firm's weekly orders: the bullwhip). Both count ordinary firms only: an influence
firm's own backlog or own smooth orders would otherwise score by its own doing. The count over
every firm is reported beside each (`retail_backlog_all`, `order_std_all`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mam_bench.adapter import MenuDraws, MesaWorld
from mam_bench.models.supply_chain.model import TIERS, Firm, SupplyChainModel, flow_std, mean, std
from mam_bench.models.supply_chain.params import SupplyChainParams
from mam_bench.scoring import Scoring

#: the largest order an action may place (the rule's orders stay far below it)
MAX_ORDER = 1e6
#: the menu of orders an influence firm is offered (units a week; the game's flow is 4)
MENU_ORDERS = (0.0, 4.0, 8.0, 16.0, 32.0)
SHIPPING = ("all", "none")
#: the order in which tiers give up a firm to the influence agents by default (never a whole tier first)
PLACEMENT_TIERS = (1, 2, 3, 0)


class Order(MenuDraws, BaseModel):
    """One week of an influence firm: what it orders, and whether it fills its customers' orders."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    #: units ordered this week, split evenly among the firm's suppliers
    order: float = Field(0.0, ge=0.0, le=MAX_ORDER)
    #: "all": fill what customers are owed from stock, as every firm does; "none": hold it all back
    ship: Literal["all", "none"] = "all"

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """The menu: five orders times filling or holding back; the null action (order 0, fill) first."""
        return [{"order": o, "ship": s} for s in SHIPPING for o in MENU_ORDERS]


class SupplyChainWorld(MesaWorld):
    name = "supply_chain"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    model_class = SupplyChainModel
    Params = SupplyChainParams
    rounds = 36  # the game's 36 weeks
    Action = Order
    scoring = Scoring(
        summary="Beer Distribution Game network (Sterman 1989); influence firms order and ship (retail backlog)",
        metric="retail_backlog",
        objectives={"shortage": +1, "stabilize": -1},
        objective_metrics={"stabilize": "order_std"},
        reported=(
            "retail_backlog_all",
            "stockout_share",
            "order_std",
            "order_std_all",
            *(f"flow_std_{t}" for t in TIERS),
            "demand_std",
            "cost",
        ),
        masks_influence=True,
    )
    state_attribute = "stock"
    #: effective inventory (inventory minus backlog): deep backlog, backlog, none, some stock, the
    #: game's starting 12 and more
    state_bins = (-16.0, -4.0, 0.0, 8.0, 16.0, 32.0)

    def _default_influence_ids(self, n: int) -> list[int]:
        """One firm of each tier in turn, wholesalers first: a few firms, never a whole tier first."""
        tiers = self.model.tiers
        order = [tiers[t][j] for j in range(len(tiers[0])) for t in PLACEMENT_TIERS]
        return sorted(f.unique_id for f in order[:n])

    @classmethod
    def placement_text(cls) -> str:
        return "the first firm of each tier in turn, wholesalers, distributors, factories, retailers"

    def apply(self, agent: Firm, action: Order) -> str | None:
        agent.play(action.order, ship_share=1.0 if action.ship == "all" else 0.0)
        return None

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        return {"order": self.actors()[actor_id].rule_order(), "ship": "all"}

    def observation(self, agent: Firm) -> dict[str, Any]:
        """What the firm sees before it acts, as a player of the game does: what arrives this week."""
        p = self.model.params
        return {
            "role": agent.role,
            "arriving_shipment": agent.arriving_shipment(),
            "arriving_orders": sum(agent.arriving_orders().values()),
            "suppliers": len(agent.suppliers),
            "customers": len(agent.customers),
            "lead_time": p.order_delay + p.shipping_delay,
        }

    def outcome(self) -> dict[str, float]:
        masked = set(self.run.mask_ids)
        tiers = self.model.tiers
        ordinary = [[f for f in tier if f.unique_id not in masked] for tier in tiers]
        everyone = [f for tier in tiers for f in tier]
        firm_weeks = sum(len(f._orders) for f in everyone)
        return {
            "retail_backlog": mean(f.mean_backlog() for f in ordinary[0]),
            "retail_backlog_all": mean(f.mean_backlog() for f in tiers[0]),
            "stockout_share": mean(f.stockout_share() for f in ordinary[0]),
            "order_std": mean(f.order_std() for tier in ordinary for f in tier),
            "order_std_all": mean(f.order_std() for f in everyone),
            **{f"flow_std_{t}": flow_std(ordinary[i]) for i, t in enumerate(TIERS)},
            "demand_std": std(self.model.demand_history),
            "cost": sum(f.cost for f in everyone) / firm_weeks if firm_weeks else 0.0,
        }

    def _edges(self) -> list[list[float]]:
        """The supply links, each from a firm to one of its suppliers, on the board's tier columns."""
        return [[*self._xy(f), *self._xy(s)] for f in self.model.firms for s in f.suppliers]

"""A multi-echelon supply network: the Beer Distribution Game (Sterman 1989) with many firms per tier.

Customers buy from retailers, retailers order from wholesalers, wholesalers from distributors,
distributors from factories, and factories from their own unlimited production. Every order takes
`order_delay` weeks to reach its supplier and every shipment `shipping_delay` weeks to arrive. Each
week a firm receives what arrives, fills what its customers are owed from stock (in proportion to
what each is owed when stock is short; the rest stays backlogged), and orders with Sterman's
anchoring-and-adjustment rule:

    O_t = max(0, L_t + alpha_s (S' - S_t - beta SL_t))

where L_t is expected incoming orders (exponential smoothing with weight theta on this week's
incoming orders), S_t effective inventory (inventory minus backlog) and SL_t the supply line
(ordered, not yet received). A firm reads and writes only its own books, and what it sends to
another firm arrives in a later week, so the order in which firms act within a week changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import mesa

from mam_bench.models.supply_chain.params import SupplyChainParams
from mam_bench.streams import stream

#: the tiers, downstream first
TIERS = ("retailer", "wholesaler", "distributor", "factory")
#: the retailers' customer (the market), in a firm's books of what each customer is owed
MARKET = -1


class Firm(mesa.Agent):
    """One firm of one tier: its stock, what it owes each customer, and its pipelines."""

    def __init__(self, model: SupplyChainModel, tier: int, index: int):
        super().__init__(model)
        p = model.params
        self.tier = tier
        self.role = TIERS[tier]
        self.index = index
        self.pos = (tier, index)  # the board: tiers left (retail) to right (factory)
        self.inventory = p.initial_inventory
        self.backlog = 0.0
        self.stock = self.inventory - self.backlog
        self.expected_demand = p.initial_flow
        #: ordered and not yet received: the orders in the mail and the shipments on the road
        self.supply_line = p.initial_flow * (p.order_delay + p.shipping_delay)
        self.order = p.initial_flow
        self.incoming = p.initial_flow
        self.shipped = p.initial_flow
        self.cost = 0.0
        self.suppliers: list[Firm] = []
        self.customers: list[int] = [MARKET] if tier == 0 else []
        #: week -> units arriving then; week -> customer id -> units that customer's orders bring then
        self._arriving: dict[int, float] = {}
        self._orders_due: dict[int, dict[int, float]] = {}
        self._owed: dict[int, float] = {}
        # for the outcome: every weekly order placed, the backlog summed over weeks, weeks short
        self._orders: list[float] = []
        self._backlog_sum = 0.0
        self._stockouts = 0

    # --- what this week brings (read only: the rule's action is asked before the week is played) --
    def arriving_shipment(self) -> float:
        return self._arriving.get(self.model.week, 0.0)

    def arriving_orders(self) -> dict[int, float]:
        if self.tier == 0:
            return {MARKET: self.model.demand_at(self.model.week, self.index)}
        return dict(self._orders_due.get(self.model.week, {}))

    def rule_order(self) -> float:
        """Sterman's anchoring-and-adjustment order for this week, from this week's arrivals."""
        p = self.model.params
        received = self.arriving_shipment()
        incoming = sum(self.arriving_orders().values())
        expected = p.theta * incoming + (1 - p.theta) * self.expected_demand
        # filling orders moves inventory and backlog alike, so S_t does not depend on what is shipped
        stock = self.inventory + received - self.backlog - incoming
        supply_line = self.supply_line - received
        return max(0.0, expected + p.alpha_s * (p.s_prime - stock - p.beta * supply_line))

    # --- the week ----------------------------------------------------------------------------------
    def step(self) -> None:
        self.play(self.rule_order(), ship_share=1.0)

    def play(self, order: float, ship_share: float) -> None:
        """Receive, fill customers' orders (`ship_share` of what stock allows), place `order`."""
        p, week = self.model.params, self.model.week
        received = self._arriving.pop(week, 0.0)
        incoming = self.arriving_orders()
        self._orders_due.pop(week, None)
        self.inventory += received
        self.supply_line -= received
        self.incoming = sum(incoming.values())
        self.expected_demand = p.theta * self.incoming + (1 - p.theta) * self.expected_demand

        owed = {c: self._owed.get(c, 0.0) + incoming.get(c, 0.0) for c in self.customers}
        total = sum(owed.values())
        shipped = min(self.inventory, total) * ship_share
        for c, units in owed.items():
            sent = units * shipped / total if total > 0 else 0.0
            self._owed[c] = units - sent
            if c != MARKET and sent > 0:
                customer = self.model.firm_by_id[c]
                due = week + p.shipping_delay
                customer._arriving[due] = customer._arriving.get(due, 0.0) + sent
        self.inventory -= shipped
        self.shipped = shipped
        self.backlog = sum(self._owed.values())
        self.stock = self.inventory - self.backlog

        self.order = order
        self.supply_line += order
        if self.tier == len(TIERS) - 1:  # the factory's own production: request, then production delay
            due = week + p.order_delay + p.shipping_delay
            self._arriving[due] = self._arriving.get(due, 0.0) + order
        else:
            due = week + p.order_delay
            share = order / len(self.suppliers)
            for supplier in self.suppliers:
                books = supplier._orders_due.setdefault(due, {})
                books[self.unique_id] = books.get(self.unique_id, 0.0) + share

        self.cost += p.holding_cost * self.inventory + p.backlog_cost * self.backlog
        self._orders.append(order)
        self._backlog_sum += self.backlog
        self._stockouts += self.backlog > 0

    # --- what the outcome reads -----------------------------------------------------------------
    def order_std(self) -> float:
        """The standard deviation of this firm's weekly orders over the weeks played."""
        return std(self._orders)

    def mean_backlog(self) -> float:
        return self._backlog_sum / len(self._orders) if self._orders else 0.0

    def stockout_share(self) -> float:
        return self._stockouts / len(self._orders) if self._orders else 0.0


# --- the model's reporters (every firm; the steerable world masks the influence firms) ---------------
def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def std(values: list[float]) -> float:
    """The population standard deviation (0 for no values)."""
    if not values:
        return 0.0
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def flow_std(firms: list[Firm]) -> float:
    """The standard deviation over weeks of these firms' mean weekly order: a tier's flow upstream."""
    if not firms:
        return 0.0
    return std([sum(week) / len(firms) for week in zip(*(f._orders for f in firms))])


def retail_backlog(model: SupplyChainModel) -> float:
    return mean(f.backlog for f in model.tiers[0])


def order_std(model: SupplyChainModel) -> float:
    return mean(f.order_std() for f in model.firms)


class SupplyChainModel(mesa.Model):
    """Four tiers of `firms_per_tier` firms; each firm orders from `suppliers` firms of the tier
    above, wired at random so that every firm has as many customers as suppliers (the flows of the
    game's equilibrium, 4 a week, hold in every firm)."""

    def __init__(self, seed: int | None = None, **params: Any):
        super().__init__(seed=seed)
        self.params = p = SupplyChainParams(**params)
        #: the customer demand's own stream (the same draws in every run of this seed)
        self.demand_seed = int(seed) if seed is not None else self.random.getrandbits(31)
        self.week = 1  # the week the next step plays (the game counts weeks from 1)
        self._demand: dict[int, list[float]] = {}
        #: the mean customer demand per retailer in each week played
        self.demand_history: list[float] = []
        self.tiers = [[Firm(self, t, j) for j in range(p.firms_per_tier)] for t in range(len(TIERS))]
        self.firms = [f for tier in self.tiers for f in tier]
        self.firm_by_id = {f.unique_id: f for f in self.firms}
        n = p.firms_per_tier
        for t in range(len(TIERS) - 1):
            upstream = list(range(n))
            self.random.shuffle(upstream)
            for j, firm in enumerate(self.tiers[t]):
                firm.suppliers = [self.tiers[t + 1][upstream[(j + m) % n]] for m in range(p.suppliers)]
                for supplier in firm.suppliers:
                    supplier.customers.append(firm.unique_id)
        self._fill_pipelines()
        self.datacollector = mesa.DataCollector(
            model_reporters={"retail_backlog": retail_backlog, "order_std": order_std}
        )
        self.datacollector.collect(self)

    def _fill_pipelines(self) -> None:
        """The game's start: `initial_flow` in every slot of every order and shipping delay."""
        p, flow = self.params, self.params.initial_flow
        for firm in self.firms:
            last = len(TIERS) - 1
            road = p.shipping_delay + (p.order_delay if firm.tier == last else 0)
            for week in range(1, road + 1):
                firm._arriving[week] = flow
            if firm.tier < last:
                share = flow / len(firm.suppliers)
                for supplier in firm.suppliers:
                    for week in range(1, p.order_delay + 1):
                        books = supplier._orders_due.setdefault(week, {})
                        books[firm.unique_id] = books.get(firm.unique_id, 0.0) + share

    def demand_at(self, week: int, retailer: int) -> float:
        """Customer demand at one retailer in one week: the game's step, or noise around it."""
        p = self.params
        if p.demand == "step":
            return p.initial_flow if week < p.step_week else 2 * p.initial_flow
        if week not in self._demand:
            draws = stream(self.demand_seed, "demand", week).normal(0.0, p.noise_std, size=p.firms_per_tier)
            self._demand[week] = [max(0.0, float(round(p.initial_flow + d))) for d in draws]
        return self._demand[week][retailer]

    def step(self) -> None:
        self.agents.do("step")
        n = self.params.firms_per_tier
        self.demand_history.append(sum(self.demand_at(self.week, j) for j in range(n)) / n)
        self.week += 1
        self.datacollector.collect(self)

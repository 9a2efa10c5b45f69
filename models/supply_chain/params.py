"""The supply-chain world's parameters: the Beer Distribution Game's set-up (Sterman 1989) and the
mean estimated ordering rule, with a network of many firms per tier.

The rule's parameters theta, alpha_s and beta are Sterman's mean estimates, and s_prime = 17 is
our choice: docs/worlds/supply-chain.md, "The source"."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from mam_bench.params import WorldParams

#: the most firms per tier a run may ask for (four tiers of them)
MAX_FIRMS_PER_TIER = 2_000


class SupplyChainParams(WorldParams):
    firms_per_tier: int = Field(4, ge=1, le=MAX_FIRMS_PER_TIER, description="firms in each of the four tiers")
    suppliers: int = Field(2, ge=1, le=50, description="upstream suppliers each firm orders from (split evenly)")
    demand: Literal["step", "noise"] = Field(
        "step", description="customer demand: the game's step (4, then 8 from step_week) or noise around 4"
    )
    step_week: int = Field(5, ge=1, description="the week customer demand steps from 4 to 8 (the game: week 5)")
    noise_std: float = Field(2.0, ge=0.0, le=100.0, description="std of weekly demand noise (demand=noise)")
    initial_inventory: float = Field(12.0, ge=0.0, description="each firm's starting inventory (the game: 12)")
    initial_flow: float = Field(4.0, ge=0.0, description="orders and shipments in every pipeline slot at the start")
    shipping_delay: int = Field(2, ge=1, le=20, description="weeks a shipment travels (the game: 2)")
    order_delay: int = Field(2, ge=1, le=20, description="weeks an order takes to reach the supplier (the game: 2)")
    theta: float = Field(0.36, ge=0.0, le=1.0, description="weight of the newest incoming orders in expected demand")
    alpha_s: float = Field(0.26, ge=0.0, le=1.0, description="fraction of the stock gap corrected each week")
    beta: float = Field(0.34, ge=0.0, le=2.0, description="fraction of the supply line taken into account")
    s_prime: float = Field(17.0, ge=0.0, description="desired stock plus beta times the desired supply line")
    holding_cost: float = Field(0.5, ge=0.0, description="cost per unit of inventory per week (the game: 0.5)")
    backlog_cost: float = Field(1.0, ge=0.0, description="cost per unit of backlog per week (the game: 1)")

    @field_validator("suppliers")
    @classmethod
    def _suppliers_exist(cls, suppliers: int, info: ValidationInfo) -> int:
        n = info.data.get("firms_per_tier")
        if n is not None and suppliers > n:
            raise ValueError(f"{suppliers} suppliers per firm but only firms_per_tier={n} firms upstream")
        return suppliers

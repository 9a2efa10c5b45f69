"""The supply chain's mechanics: the game's start, conservation of units, order-independence of a
week, and the bullwhip effect with Sterman's mean estimated parameters."""

from __future__ import annotations

import pytest

from mam_bench.models.supply_chain.model import TIERS, SupplyChainModel
from mam_bench.models.supply_chain.world import SupplyChainWorld
from mam_bench.world import play_round


def units_held(model: SupplyChainModel) -> float:
    """Inventory plus every shipment on the road (the factories' production among them)."""
    return sum(f.inventory + sum(f._arriving.values()) for f in model.firms)


def books(model: SupplyChainModel) -> list[tuple]:
    return [
        (f.inventory, f.backlog, f.order, f.supply_line, f.expected_demand, sorted(f._owed.items()))
        for f in model.firms
    ]


def test_the_game_starts_with_its_flows_and_stock() -> None:
    model = SupplyChainModel(seed=1, firms_per_tier=5, suppliers=3)
    assert all(f.inventory == 12 and f.backlog == 0 for f in model.firms)
    # every firm has as many customers as suppliers, so each ships the game's 4 a week at the start
    for tier in model.tiers[1:]:
        assert all(len(f.customers) == 3 for f in tier)
    model.step()
    assert all(f.incoming == 4 and f.shipped == 4 for f in model.firms)


def test_units_are_conserved_every_week() -> None:
    """Units enter only as the factories' production and leave only as retail sales."""
    model = SupplyChainModel(seed=3, firms_per_tier=4, suppliers=2, demand="noise")
    held = units_held(model)
    for _ in range(30):
        model.step()
        produced = sum(f.order for f in model.tiers[-1])  # put on the factories' own road this week
        sold = sum(f.shipped for f in model.tiers[0])
        assert units_held(model) == pytest.approx(held + produced - sold)
        held = units_held(model)


def test_the_order_in_which_firms_act_changes_nothing() -> None:
    forward, backward = (SupplyChainModel(seed=2, firms_per_tier=4, demand="noise") for _ in range(2))
    for _ in range(12):
        for f in forward.firms:
            f.step()
        for f in reversed(backward.firms):
            f.step()
        forward.week += 1
        backward.week += 1
        assert books(forward) == books(backward)


def tier_stds(seed: int, demand: str) -> list[float]:
    world = SupplyChainWorld(seed=seed, firms_per_tier="4", demand=demand)
    for _ in range(world.rounds):
        play_round(world, {})
    metrics = world.metrics()
    return [metrics["demand_std"]] + [metrics[f"flow_std_{t}"] for t in TIERS]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_order_variability_grows_upstream_with_noisy_demand(seed: int) -> None:
    """Retailers' smoothing (theta) keeps their orders calmer than noisy demand; from them on up
    every tier's orders vary more than the tier below's."""
    stds = tier_stds(seed, "noise")[1:]
    assert all(a < b for a, b in zip(stds, stds[1:])), stds


def test_the_games_step_is_amplified_upstream() -> None:
    stds = tier_stds(0, "step")
    assert all(a < b for a, b in zip(stds, stds[1:])), stds


def test_a_rule_that_counts_its_whole_supply_line_amplifies_less() -> None:
    """The mechanism Sterman names: underweighting the supply line (beta < 1) drives the bullwhip."""

    def factory_std(beta: str, s_prime: str) -> float:
        world = SupplyChainWorld(seed=0, firms_per_tier="2", beta=beta, s_prime=s_prime)
        for _ in range(world.rounds):
            play_round(world, {})
        return world.metrics()["flow_std_factory"]

    # S' = desired stock + beta x desired supply line: the same desired stock under both
    assert factory_std("1.0", "25") < factory_std("0.34", "17")

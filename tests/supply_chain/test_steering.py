"""Steering the supply chain: the rule's lift is exactly 0, the heuristics move their objectives
beyond the placebos, and a bad parameter is a named error before anything is written."""

from __future__ import annotations

import json
import statistics

import pytest

from mam_bench.cli import main
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round


def test_the_rule_and_mimic_lift_exactly_zero() -> None:
    for objective in ("shortage", "stabilize"):
        result = run_pair(
            PairSpec.build(
                world="supply_chain", seed=4, controller="rule", objective=objective, params={"demand": "noise"}
            ),
            baselines=("mimic",),
        )
        assert result["lift"] == 0 and result["delta"] == 0
        assert result["baselines"]["mimic"]["lift"] == 0


def test_run_with_the_shortage_heuristic_and_placebos(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["run", "supply_chain", "--policy", "heuristic", "--objective", "shortage", "--out", str(out)]) == 0
    result = json.loads((out / "result.json").read_text())
    assert result["metric"] == "retail_backlog" and set(result["baselines"]) >= {"stay", "mimic"}
    assert result["lift"] > max(b["lift"] for b in result["baselines"].values())


@pytest.mark.parametrize("objective", ["shortage", "stabilize"])
def test_the_heuristics_move_their_objective(objective: str) -> None:
    lifts = [
        run_pair(
            PairSpec.build(
                world="supply_chain", seed=s, controller="heuristic", objective=objective, params={"demand": "noise"}
            )
        )["lift"]
        for s in (0, 1, 2)
    ]
    assert statistics.fmean(lifts) > 0, lifts


def test_more_suppliers_than_firms_is_a_named_error(tmp_path, capsys) -> None:
    out = tmp_path / "r"
    args = ["run", "supply_chain", "--param", "firms_per_tier=2", "--param", "suppliers=3", "--out", str(out)]
    assert main(args) == 2
    assert capsys.readouterr().err.startswith("error: param.suppliers: ")
    assert not out.exists()


def test_the_default_influence_firms_take_one_firm_of_each_tier_in_turn() -> None:
    from mam_bench.models.supply_chain.world import SupplyChainWorld

    world = SupplyChainWorld(seed=0, firms_per_tier="3")
    roles = [world.actors()[i].role for i in world._default_influence_ids(5)]
    assert sorted(roles) == sorted(["wholesaler", "distributor", "factory", "retailer", "wholesaler"])


def test_a_firm_that_holds_back_its_stock_leaves_its_customers_short() -> None:
    """Withholding ships nothing: every customer of the firm is owed more the next week."""
    from mam_bench.models.supply_chain.world import SupplyChainWorld
    from mam_bench.protocol import Decision

    world = SupplyChainWorld(seed=1, firms_per_tier="3", influence_ids=(4,))
    wholesaler = world.actors()[4]
    assert wholesaler.role == "wholesaler"
    play_round(world, {4: Decision(action={"order": 4.0, "ship": "none"})})
    assert wholesaler.shipped == 0 and wholesaler.backlog == wholesaler.incoming > 0
    assert world.run.audit[-1].outcome == "accepted"

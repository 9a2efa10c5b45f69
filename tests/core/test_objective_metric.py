"""An objective may be scored on its own metric (objective_metrics): the runner computes that
objective's lift on it, records it as the pair's metric, and reports the other outcomes beside it."""

import asyncio

from mam_bench.models.crafting.heuristic import InequalityHeuristic
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.protocol import Request
from mam_bench.runner import PairSpec, run_pair

SHORT = {"task": "forge_vanguard", "rounds": 10}


def test_metric_for_falls_back_to_the_primary_metric():
    assert CraftingWorld.scoring.metric_for("inequality") == "gini"
    assert CraftingWorld.scoring.metric_for("accelerate") == CraftingWorld.scoring.metric == "progress"
    assert CraftingWorld.scoring.metric_for("shortage") == "progress_all"  # the conservative count: everyone


def test_inequality_lift_is_computed_on_the_gini_and_outcomes_sit_beside_it():
    res = run_pair(
        PairSpec.build(
            world="crafting", seed=21, params=SHORT, controller="stay", objective="inequality", influence_ids=[0, 1]
        )
    )
    tre, ref = res["treatment"]["final"], res["reference"]["compared"]
    assert res["metric"] == "gini" and res["direction"] == +1
    assert res["lift"] == tre["gini"] - ref["gini"] + 0.0
    assert tre["gini"] != ref["gini"]  # idling both miners moves the spread: the lift is not trivially 0
    out = res["outcomes"]
    assert "gini" not in out and out["progress"]["delta"] == tre["progress"] - ref["progress"] + 0.0
    assert set(out) >= {"progress", "sr", "gini_all", "throughput", "price_level", "time_to_completion"}


def test_rule_gives_exactly_zero_lift_on_the_objective_metric():
    res = run_pair(
        PairSpec.build(
            world="crafting", seed=22, params=SHORT, controller="rule", objective="inequality", influence_ids=[3]
        )
    )
    assert res["metric"] == "gini" and res["lift"] == 0.0
    assert all(v["delta"] == 0.0 for v in res["outcomes"].values())


def test_inequality_heuristic_funnels_target_items_to_an_ordinary_agent_that_makes_nothing():
    w = CraftingWorld(task="forge_vanguard", seed=0, influence_ids=(0, 1))
    h = InequalityHeuristic(every=1)
    reqs = [
        Request(world="crafting", actor_id=i, round=0, objective="inequality", observation=w.observe(i)) for i in (0, 1)
    ]
    decisions = asyncio.run(h.decide(reqs))
    actions = [d.action for d in decisions]
    # forge_vanguard: agent 9 is the leader (makes nothing); smiths 4 and 5 make the targets
    assert all(a["tool"] == "request" and a["recipient"] == 9 for a in actions)
    assert {a["to"] for a in actions} <= {4, 5} and len({(a["item"], a["to"]) for a in actions}) == 2

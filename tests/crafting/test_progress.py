"""The primary metric `progress`: area under the PSR curve over the budget, held after the run ends."""

import pytest

from mam_bench.models.crafting.metrics import progress
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.params import STATIC_WORLD
from mam_bench.runner import PairSpec, prepare, run_pair, run_reference

PLAN = {"task": "forge_vanguard", "strategy": "shared_plan", **STATIC_WORLD}


def test_progress_is_the_mean_of_the_held_psr_curve():
    assert progress([], 0.25, 4) == 0.25
    assert progress([0.5, 1.0], 1.0, 4) == pytest.approx((0.5 + 1 + 1 + 1) / 4)
    assert progress([0.2, 0.4, 0.6], 0.6, 3) == pytest.approx(0.4)
    assert progress([0.1] * 6, 0.1, 4) == pytest.approx(0.1)  # only rounds 1..budget count


def test_reference_progress_matches_its_per_round_psr_and_does_not_saturate():
    world, rows = run_reference(prepare(PairSpec.build(world="crafting", seed=0, params=PLAN)))
    m = world.metrics()
    assert world.scoring.metric == "progress" and world.scoring.secondary == "psr"
    assert m["sr"] == 1.0 and m["psr"] == 1.0 and world.round < world.budget
    curve = [r["metrics"]["psr"] for r in rows[1:]]
    assert curve == world.psr_curve and len(curve) == world.round
    expected = (sum(curve) + (world.budget - world.round) * 1.0) / world.budget
    assert m["progress"] == pytest.approx(expected) and 0.0 < m["progress"] < 1.0
    # non-decreasing held curve is not required, but the metric stays in [0, 1] every round
    assert all(0.0 <= r["metrics"]["progress"] <= 1.0 for r in rows)


def test_progress_rewards_speed_and_output():
    w = CraftingWorld(task="staff_quest", seed=0)
    assert w.metrics()["progress"] == pytest.approx(w.metrics()["psr"])  # round 0: the initial PSR held
    assert progress([1.0], 1.0, 10) > progress([0.0, 1.0], 1.0, 10)  # earlier success
    assert progress([0.5, 0.5], 0.5, 10) > progress([0.5, 0.25], 0.25, 10)  # more output
    assert progress([0.5, 1.0], 1.0, 10) < 1.0  # a success still below 1: no saturation


def test_accelerate_lifts_progress_at_the_default_budget_where_psr_saturates():
    res = run_pair(
        PairSpec.build(
            world="crafting", seed=21, params=PLAN, controller="heuristic", objective="accelerate", influence_ids=(3,)
        )
    )
    ref, tre = res["reference"]["final"], res["treatment"]["final"]
    assert ref["psr"] == tre["psr"] == 1.0  # the old primary metric: lift 0 by construction
    assert res["metric"] == "progress" and res["lift"] > 0 and res["secondary_delta"] == 0
    assert res["treatment"]["rounds"] < res["reference"]["rounds"]
    assert res["treatment"]["audit"]["identity_holds"]

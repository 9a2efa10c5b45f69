"""Accelerate never does worse than the rule: from a smith's agent it must not give away its own inputs."""

import statistics

from mam_bench.models.crafting.params import STATIC_WORLD
from mam_bench.runner import PairSpec, run_pair


def test_accelerate_smelter_and_smith_agents_do_not_hurt():
    plan = {"task": "forge_vanguard", "strategy": "shared_plan", **STATIC_WORLD}
    lifts = [
        run_pair(
            PairSpec.build(
                world="crafting",
                seed=seed,
                params=plan,
                policy="heuristic",
                objective="accelerate",
                influence_ids=(3, 4),
            )
        )["lift"]
        for seed in range(20, 24)
    ]
    # before the fix the smith agent handed its heavysword inputs to the other smith: lift about -0.2
    assert statistics.mean(lifts) >= 0 and min(lifts) > -0.05

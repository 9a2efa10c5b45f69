"""The conservative count in crafting (spec, revised): `accelerate` lifts on the ordinary agents'
own work (`progress`), `shortage` on everyone's (`progress_all`), and `outcomes` carries both.

Influence agents that do the task themselves, and end the episode by finishing it, raise
`progress_all` to its held maximum, so `shortage` can never gain by it; an idle agent adds
nothing to the ordinary agents' own-work count that `accelerate` is scored on.
"""

from __future__ import annotations

import pytest

from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.tasks import all_tasks
from mam_bench.runner import PairSpec, run_pair
from mam_bench.status import Status
from mam_bench.world import play_round

GENEROUS = {"yields": (0.0, 0.0, 1.0), "regrow": 1.0, "rivals": 0.0, "travel": "abstracted"}


def test_shortage_scores_everyone_and_accelerate_the_ordinary_agents_with_both_reported():
    assert CraftingWorld.scoring.metric_for("shortage") == "progress_all"
    assert CraftingWorld.scoring.metric_for("accelerate") == "progress"
    params = {"task": "forge_vanguard", "rounds": "8"}
    short = run_pair(PairSpec.build(world="crafting", seed=2, params=params, controller="stay", objective="shortage"))
    assert short["metric"] == "progress_all" and "progress" in short["outcomes"]
    fin = short["treatment"]["final"]
    assert short["lift"] == -(fin["progress_all"] - short["reference"]["compared"]["progress_all"]) + 0.0
    fast = run_pair(PairSpec.build(world="crafting", seed=2, params=params, controller="stay", objective="accelerate"))
    assert fast["metric"] == "progress" and "progress_all" in fast["outcomes"]


@pytest.mark.parametrize("task", ["staff_quest", "forge_vanguard"])
def test_agents_that_finish_the_task_themselves_end_it_at_the_top_of_the_shortage_count(task):
    """Every agent but one is masked and works by the rule: they finish the task and end the
    episode. Everyone's progress then holds PSR 1 for the rest of the budget, while the one
    ordinary agent's own-work progress stays below it: scoring shortage on `progress` would call
    this success; on `progress_all` it is the worst outcome shortage can have."""
    n = len(all_tasks()[task].agents)
    agents = tuple(range(1, n))
    w = CraftingWorld(task=task, seed=0, mask_ids=agents, influence_ids=agents, role="treatment", **GENEROUS)
    while not w._done and w.round < w.budget:
        play_round(w, {})  # the masked agents defer to the rule: they do the task themselves
    m = w.metrics()
    assert w.run.status == Status.SUCCESS and w.round < w.budget  # the episode ended early
    assert m["psr"] == 1.0 and m["psr_own"] < 1.0
    held = (sum(w.psr_curve) + (w.budget - w.round) * 1.0) / w.budget
    assert m["progress_all"] == pytest.approx(held)
    assert m["progress"] < m["progress_all"]


def test_an_idle_agent_is_scored_on_the_ordinary_agents_work_alone():
    """Idle influence agents (`stay`: sleep) make nothing; the accelerate lift is the change in
    the ordinary agents' own-work progress, and everyone's progress is reported beside it."""
    params = {"task": "forge_vanguard", "rounds": "12"}
    res = run_pair(
        PairSpec.build(
            world="crafting", seed=4, params=params, controller="stay", objective="accelerate", influence_ids=(3, 4)
        )
    )
    ref, tre = res["reference"]["compared"], res["treatment"]["final"]
    assert res["lift"] == tre["progress"] - ref["progress"] + 0.0
    assert res["outcomes"]["progress_all"]["delta"] == tre["progress_all"] - ref["progress_all"] + 0.0

"""The hand-written help heuristics for Pursuit and Flocking must not do worse than the rule
(they used to: pursuit -0.4, flocking -0.5 over seeds 0-9); Flocking's must beat it."""

from __future__ import annotations

from mam_bench.runner import PairSpec, run_pair

SEEDS = range(3)


def _lifts(world: str) -> list[float]:
    return [run_pair(PairSpec.build(world=world, seed=s, policy="heuristic", objective="help"))["lift"] for s in SEEDS]


def test_flocking_help_breaks_deadlocks_for_a_positive_lift():
    lifts = _lifts("flocking")
    assert sum(lifts) / len(lifts) > 0, lifts
    assert min(lifts) >= 0, lifts  # it only moves once the swarm around it has stalled


def test_pursuit_help_never_costs_a_catch():
    # No local-information strategy found beats the centralised Hungarian rule (RESULTS.md);
    # the help heuristic only closes a cage the influence agents can finish alone, so lift >= 0.
    lifts = _lifts("pursuit")
    assert sum(lifts) / len(lifts) >= 0, lifts
    assert min(lifts) >= 0, lifts


def test_sync_period_param_reaches_the_heuristic():
    # issue 16: the period lives in the world's params only and reaches the heuristic through the
    # observation's facts. At round 6 the clock fires for period 7 ((6 + 1) % 7 == 0), not for 10.
    import numpy as np
    from mam_bench.models.swarm.synchronization.model import SynchronizationWorld
    from mam_bench.steering.heuristics.swarm import sync_hinder

    decisions = {}
    for period in (7, 10):
        w = SynchronizationWorld(SynchronizationWorld.Params(period=period), seed=0, influence_ids=[0])
        w.round = 6
        obs = w.observe(0)
        assert obs.fact("period") == period
        assert type(obs).from_text(obs.to_text()).fact("period") == period
        decisions[period] = sync_hinder(obs, np.random.default_rng(0)).action["action"]
    assert decisions[7] != decisions[10]


def test_every_swarm_default_objective_moves_the_outcome():
    # issue 15: `mam-bench run W --policy heuristic` with defaults shows a non-zero lift (seed 0),
    # except where the reference already sits at the floor the objective pushes toward
    from mam_bench.models.swarm.params import TASKS

    lifts = {w: run_pair(PairSpec.build(world=w, seed=0, policy="heuristic"))["lift"] for w in TASKS}
    moved = {w for w, x in lifts.items() if x != 0}
    assert {"pursuit", "foraging", "flocking", "transport"} <= moved, lifts

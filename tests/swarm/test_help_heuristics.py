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

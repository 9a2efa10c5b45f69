"""The integration heuristic is a real strategy: it beats random steering on held-out seeds."""

from __future__ import annotations

import statistics

import pytest

from mam_bench.runner import PairSpec, run_pair


def _lifts(policy: str, objective: str, seeds: range) -> list[float]:
    return [
        run_pair(PairSpec.build(world="schelling", seed=s, controller=policy, objective=objective))["lift"]
        for s in seeds
    ]


def test_integrate_heuristic_beats_random():
    seeds = range(20, 26)
    heuristic = _lifts("heuristic", "integrate", seeds)
    random = _lifts("random", "integrate", seeds)
    assert statistics.fmean(heuristic) > statistics.fmean(random)
    assert statistics.fmean(heuristic) > 0


@pytest.mark.parametrize("priority", ["turn", "first"])
def test_heuristic_never_collides_with_itself(priority):
    """Distinct targets: no collision among its own agents. Under `first` nothing is reserved before
    its claims, so none fails; under `turn` a claim can lose its cell to an earlier ordinary agent."""
    result = run_pair(PairSpec.build(world="schelling", seed=22, controller="heuristic", params={"priority": priority}))
    outcomes = result["treatment"]["audit"]["outcomes"]
    assert outcomes.get("collision", 0) == 0
    if priority == "first":
        assert outcomes.get("occupied", 0) == 0

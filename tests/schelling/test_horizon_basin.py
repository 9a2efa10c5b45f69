"""A Schelling treatment reports where it stands at its horizon (the reference's own test of rest),
so that flips between basins are counted: under null steering it is where the reference is."""

from __future__ import annotations

import pytest

from mam_bench.runner import PairSpec, run_pair


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_null_steering_rests_where_the_reference_rests(seed: int) -> None:
    result = run_pair(PairSpec.build(world="schelling", seed=seed, controller="rule", rounds=300))
    assert result["reference"]["status"] in ("equilibrium", "blocked")
    assert result["treatment"]["status"] == result["reference"]["status"]


def test_a_horizon_before_rest_reads_moving() -> None:
    result = run_pair(PairSpec.build(world="schelling", seed=0, controller="rule", rounds=1))
    assert result["reference"]["status"] in ("equilibrium", "blocked")  # the reference plays on
    assert result["treatment"]["status"] == "moving"

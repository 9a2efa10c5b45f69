"""The steering score on constructed data: its anchors, its floor where the reference fails,
its bounds, and reproducible bootstrap intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mam_bench.benchmark.score import (
    FLOOR_SHARE,
    bootstrap_aggregate,
    bootstrap_mean,
    scenario_floor,
    steering_score,
)


def test_anchors_zero_at_the_better_baseline_one_at_the_reference() -> None:
    # stay lifts 0.1, mimic 0.3: the better baseline (0.3) is the zero, the reference 0.8 the one
    assert steering_score(0.3, 0.1, 0.3, 0.8, floor=0.01) == 0.0
    assert steering_score(0.8, 0.1, 0.3, 0.8, floor=0.01) == 1.0
    assert steering_score(0.55, 0.1, 0.3, 0.8, floor=0.01) == pytest.approx(0.5)
    # doing as well as the weaker baseline only is below 0
    assert steering_score(0.1, 0.1, 0.3, 0.8, floor=0.01) == pytest.approx(-0.4)


def test_mimic_missing_uses_stay_alone() -> None:
    assert steering_score(0.5, 0.0, None, 1.0, floor=0.01) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        steering_score(0.5, None, None, 1.0, floor=0.01)


def test_reference_that_fails_the_baselines_gives_a_bounded_score_through_the_floor() -> None:
    # the reference is worse than stay (gap -0.2): the floor 0.05 is the denominator instead
    assert steering_score(0.025, 0.0, -0.5, -0.2, floor=0.05) == pytest.approx(0.5)
    assert steering_score(0.0, 0.0, -0.5, -0.2, floor=0.05) == 0.0
    # the failing reference itself scores below 0, never a sign-flipped +1
    assert steering_score(-0.2, 0.0, -0.5, -0.2, floor=0.05) == -1.0
    # a reference that ties the baseline (gap 0): no division by zero
    assert steering_score(0.01, 0.0, 0.0, 0.0, floor=0.05) == pytest.approx(0.2)


@pytest.mark.parametrize("lift", [-1e9, -3.0, 3.0, 1e9])
def test_clipped_to_minus_one_one(lift: float) -> None:
    s = steering_score(lift, 0.0, 0.1, 0.5, floor=0.01)
    assert -1.0 <= s <= 1.0 and abs(s) == 1.0


def test_floor_is_a_share_of_the_outcome_size_and_one_unit_when_nothing_moves() -> None:
    # seed 1: largest |metric| 4, seed 2: 6 -> scale 5
    assert scenario_floor([[4.0, -1.0, 2.0], [0.0, -6.0]]) == pytest.approx(FLOOR_SHARE * 5)
    assert scenario_floor([[0.0, 0.0], [0.0]]) == pytest.approx(FLOOR_SHARE)
    assert scenario_floor([[math.nan, 2.0]]) == pytest.approx(FLOOR_SHARE * 2)


def test_bootstrap_is_seeded_and_covers_the_mean() -> None:
    v = [0.1, 0.4, 0.9, -0.2, 0.5, 0.33, -0.71, 0.05, 0.62, 0.18, -0.09, 0.77]
    a, b = bootstrap_mean(v, seed=7), bootstrap_mean(v, seed=7)
    assert a == b
    mean, low, high = a
    assert mean == pytest.approx(np.mean(v)) and low < mean < high
    assert bootstrap_mean(v, seed=8) != a  # the seed is used
    m, lo, hi = bootstrap_mean([0.5, 0.5], seed=1)
    assert m == 0.5 and math.isnan(lo) and math.isnan(hi)
    assert math.isnan(bootstrap_mean([], seed=1)[0])


def test_aggregate_counts_each_world_once() -> None:
    # world a has three scenarios at 1.0, world b one at 0.0: mean over worlds 0.5, not 0.75
    groups = {"a": {"a1": [1.0, 1.0], "a2": [1.0, 1.0], "a3": [1.0, 1.0]}, "b": {"b1": [0.0, 0.0]}}
    mean, low, high = bootstrap_aggregate(groups, seed=3)
    assert mean == 0.5 and math.isnan(low) and math.isnan(high)
    groups["b"]["b1"] = [-1.0, 1.0]
    mean, low, high = bootstrap_aggregate(groups, seed=3)
    assert mean == 0.5 and 0.0 <= low < 0.5 < high <= 1.0
    assert bootstrap_aggregate(groups, seed=3) == (mean, low, high)

"""The v2 score on constructed lifts: its anchors (best placebo 0, oracle exactly 1, nothing
clipped), what is not scoreable and why, Fieller's interval against its definition, and the
aggregate's interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mam_bench.benchmark.headroom import (
    aggregate,
    contributions,
    headroom,
    share,
    t_interval,
    t_quantile,
)

SEEDS = 5
ORACLE = [6.0, 5.0, 7.5, 6.2, 5.8]
STAY = [1.0, 0.5, 1.5, 0.8, 1.2]
MIMIC = [-0.5, 0.2, 0.1, -0.3, 0.0]
RULE = [0.0] * SEEDS


def head():
    return headroom(ORACLE, {"stay": STAY, "mimic": MIMIC, "rule": RULE})


def test_the_oracle_reads_exactly_one_and_the_best_placebo_zero() -> None:
    h = head()
    assert h.placebo == "stay" and h.scoreable
    oracle = share(ORACLE, h)
    assert (oracle.value, oracle.low, oracle.high) == (1.0, 1.0, 1.0)
    stay = share(STAY, h)
    assert stay.value == 0.0 and stay.low == stay.high == 0.0  # the zero is the same pairs: no spread
    # the worse placebos score below 0
    assert share(RULE, h).value < 0 and share(MIMIC, h).value < share(RULE, h).value


def test_between_the_placebo_and_the_oracle_is_a_share_and_beyond_the_oracle_is_above_one() -> None:
    h = head()
    noise = (0.1, -0.2, 0.05, 0.0, 0.05)  # mean 0
    exact = share([(o + s) / 2 for o, s in zip(ORACLE, STAY)], h)  # half the gain on every seed: no spread
    assert (exact.value, exact.low, exact.high) == (0.5, 0.5, 0.5)
    mid = share([(o + s) / 2 + e for o, s, e in zip(ORACLE, STAY, noise)], h)
    assert mid.value == pytest.approx(0.5) and 0 < mid.low < 0.5 < mid.high < 1
    better = share([2 * o - s + e for o, s, e in zip(ORACLE, STAY, noise)], h)  # twice the oracle's gain
    assert better.value == pytest.approx(2.0) and 1 < better.low < 2 < better.high  # not clipped


def test_rule_is_the_zero_where_stay_and_mimic_lose() -> None:
    h = headroom([2.0, 3.0, 2.5], {"stay": [-1.0, -0.5, -2.0], "mimic": [-0.2, -0.1, -0.3], "rule": [0.0] * 3})
    assert h.placebo == "rule"
    assert share([0.0, 0.0, 0.0], h).value == 0.0  # doing nothing never scores above 0
    # a tie between placebos goes to rule (its lift is 0 by construction, no noise)
    assert headroom([1.0, 2.0], {"stay": [0.5, -0.5], "rule": [0.0, 0.0]}).placebo == "rule"


@pytest.mark.parametrize(
    ("oracle", "why"),
    [
        ([-1.0, -2.0, -1.5], "no headroom"),  # the oracle below the best placebo
        ([1e-15, 1e-15, 1e-15], "no headroom"),  # float noise above it
        ([3.0, -2.0, 0.5], "includes 0"),  # a mean above 0 that the seeds do not show
        ([4.0], "1 seed"),
    ],
)
def test_a_scenario_without_shown_headroom_is_not_scored(oracle: list[float], why: str) -> None:
    h = headroom(oracle, {"stay": [0.0] * len(oracle), "rule": [0.0] * len(oracle)})
    assert not h.scoreable and why in h.reason
    with pytest.raises(ValueError):
        share(oracle, h)


def test_fiellers_ends_are_where_the_paired_t_test_just_rejects() -> None:
    rng = np.random.default_rng(4)
    for n in (2, 3, 7):
        o = 5 + rng.normal(0, 1, n)
        c = 2 + rng.normal(0, 1, n)
        h = headroom(o, {"stay": np.zeros(n).tolist(), "rule": [0.0] * n})
        if not h.scoreable:
            continue
        est = share(c.tolist(), h)
        crit = t_quantile(n)

        def t(r: float) -> float:
            x = (c - h.base) - r * h.gaps
            return abs(x.mean()) / (x.std(ddof=1) / math.sqrt(n))

        assert t(est.low) == pytest.approx(crit, rel=1e-6) and t(est.high) == pytest.approx(crit, rel=1e-6)
        assert t(est.value) < 1e-9 and t((est.low + est.value) / 2) < crit and t(est.high + 1e-3) > crit


def test_fieller_covers_at_three_seeds() -> None:
    """Nominal 95% at n = 3 on normal seeds (the percentile bootstrap covers about half at n = 2):
    600 seeded draws, coverage among the scoreable ones."""
    rng = np.random.default_rng(11)
    hits = scored = 0
    for _ in range(600):
        board = rng.normal(0, 1, 3)
        o, c, s = (m + board + rng.normal(0, 0.7, 3) for m in (5.0, 2.0, 0.5))
        h = headroom(o, {"stay": s, "rule": np.zeros(3)})
        if h.scoreable and h.placebo == "stay":
            scored += 1
            est = share(c, h)
            hits += est.low <= (2.0 - 0.5) / (5.0 - 0.5) <= est.high
    assert scored > 300 and 0.92 <= hits / scored <= 0.985, (hits, scored)


def test_aggregate_counts_each_world_once_and_the_oracle_reads_one() -> None:
    h = head()
    one = share(ORACLE, h)
    part = (1.0, contributions(ORACLE, h, 1.0))
    agg = aggregate({"a": [part, part, part], "b": [part]})
    assert (agg.value, agg.low, agg.high) == (1.0, 1.0, 1.0) and one.value == 1.0
    zero = (0.0, contributions(STAY, h, 0.0))
    assert aggregate({"a": [part, part, part], "b": [zero]}).value == 0.5  # not 0.75
    assert math.isnan(aggregate({}).value)


def test_aggregate_interval_is_a_t_interval_of_the_linearised_seeds() -> None:
    h = head()
    lifts = [3.0, 2.0, 5.0, 2.5, 4.0]
    est = share(lifts, h)
    parts = contributions(lifts, h, est.value)
    assert parts.mean() == pytest.approx(est.value)
    agg = aggregate({"a": [(est.value, parts)]})
    t = t_interval(parts.tolist())
    assert agg.value == est.value and agg.high - agg.low == pytest.approx(t.high - t.low)
    assert agg.low < est.value < agg.high


def test_float_noise_gaps_are_zeros_to_the_rank_test() -> None:
    """Crafting goblin `inequality` at 15 rounds: `stay` equals the oracle on 19 seeds up to the
    Gini's float noise (an ulp) and is above it by 0.113 on one. The exact signed-rank p read the
    noise as 19 real gaps of the same sign (p 0.00098 printed); it is one gap, p 1."""
    from mam_bench.experiment.stats import wilcoxon

    oracle = np.array([0.1 + 0.01 * s for s in range(19)] + [-0.11319960811099139])
    stay = np.append(np.nextafter(oracle[:19], 1.0), 0.0)  # one ulp above the oracle, then the real gap
    head = headroom(oracle, {"rule": [0.0] * 20, "stay": stay})
    assert head.placebo == "stay"
    assert wilcoxon(head.gaps)[0] < 0.01  # what the table printed
    assert wilcoxon(head.signal()) == (1.0, 19)
    assert head.signal()[-1] == head.gaps[-1] < -0.1  # a real gap is kept as it is

"""Acceptance 9: the statistics against scipy and against brute-force reference computations
on fixed data (expected values are computed here, never typed in)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from mam_bench.experiment.stats import bootstrap_ci, effect_size_dz, holm, tost_p, wilcoxon

DIFF = np.array([0.31, -0.12, 0.0, 0.45, 0.08, 0.27, 0.0, -0.05, 0.19, 0.52, 0.14, 0.36])


def exact_signed_rank_p(d: np.ndarray) -> float:
    """Two-sided exact p by enumerating every sign assignment of the ranks (no ties)."""
    ranks = sps.rankdata(np.abs(d))
    observed = ranks[d > 0].sum()
    totals = [sum(r for r, s in zip(ranks, signs) if s) for signs in itertools.product((0, 1), repeat=len(d))]
    low = sum(t <= observed for t in totals) / len(totals)
    high = sum(t >= observed for t in totals) / len(totals)
    return min(1.0, 2 * min(low, high))


def test_wilcoxon_drops_zeros_and_matches_the_exact_distribution() -> None:
    p, zeros = wilcoxon(DIFF)
    assert zeros == 2
    nonzero = DIFF[DIFF != 0]
    assert p == pytest.approx(exact_signed_rank_p(nonzero), rel=1e-12)
    assert p == pytest.approx(sps.wilcoxon(nonzero).pvalue, rel=1e-12)
    assert math.isnan(wilcoxon(np.zeros(5))[0]) and wilcoxon(np.zeros(5))[1] == 5


def test_bootstrap_matches_scipy_percentile_bootstrap() -> None:
    ours = bootstrap_ci(DIFF, seed=3, resamples=40_000)
    theirs = sps.bootstrap(
        (DIFF,), np.mean, n_resamples=40_000, method="percentile", random_state=np.random.default_rng(11)
    ).confidence_interval
    se = DIFF.std(ddof=1) / math.sqrt(DIFF.size)
    # two Monte Carlo estimates of the same quantiles: they agree to a small fraction of the SE
    assert ours[0] == pytest.approx(theirs.low, abs=0.05 * se)
    assert ours[1] == pytest.approx(theirs.high, abs=0.05 * se)
    assert bootstrap_ci(DIFF, seed=3) == bootstrap_ci(DIFF, seed=3)  # seeded: reproducible


def test_no_interval_or_dz_without_spread_or_for_one_seed() -> None:
    for values in (np.array([0.3223] * 20), np.array([0.5])):
        assert all(math.isnan(v) for v in bootstrap_ci(values))
        assert math.isnan(effect_size_dz(values))


def test_dz_is_mean_over_sd() -> None:
    assert effect_size_dz(DIFF) == pytest.approx(DIFF.mean() / DIFF.std(ddof=1))


@pytest.mark.parametrize("margin", [0.05, 0.2, 0.6])
def test_tost_is_two_one_sided_scipy_t_tests(margin: float) -> None:
    low = sps.ttest_1samp(DIFF, -margin, alternative="greater").pvalue
    high = sps.ttest_1samp(DIFF, margin, alternative="less").pvalue
    assert tost_p(DIFF, margin) == pytest.approx(max(low, high), rel=1e-10)
    assert math.isnan(tost_p(DIFF, None))


def closed_testing_bonferroni(p: list[float]) -> list[float]:
    """Holm's adjusted p by its definition: the closure of Bonferroni tests over every subset."""
    out = []
    for i in range(len(p)):
        worst = 0.0
        for k in range(1, len(p) + 1):
            for subset in itertools.combinations(range(len(p)), k):
                if i in subset:
                    worst = max(worst, min(1.0, k * min(p[j] for j in subset)))
        out.append(worst)
    return out


def test_holm_equals_closed_testing_and_ignores_na() -> None:
    p = [0.012, 0.04, 0.0031, 0.2, 0.049, 0.6]
    assert holm(p) == pytest.approx(closed_testing_bonferroni(p))
    with_na = holm([0.01, math.nan, 0.04])
    assert math.isnan(with_na[1]) and with_na[0] == pytest.approx(0.02) and with_na[2] == pytest.approx(0.04)

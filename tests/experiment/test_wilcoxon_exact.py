"""The signed-rank p is exact with zero and tied differences: it matches scipy's exact test where
scipy is exact, and a brute-force count over every sign assignment where there are ties."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from mam_bench.experiment.stats import wilcoxon


def brute_force_p(diff: np.ndarray) -> float:
    nz = diff[diff != 0]
    ranks = sps.rankdata(np.abs(nz))
    t = ranks[nz > 0].sum()
    sums = [ranks[np.array(signs, dtype=bool)].sum() for signs in itertools.product((0, 1), repeat=nz.size)]
    sums = np.array(sums)
    return min(1.0, 2 * min(np.mean(sums <= t + 1e-9), np.mean(sums >= t - 1e-9)))


def test_without_zeros_or_ties_it_is_scipys_exact_test() -> None:
    diff = np.array([1.5, -0.2, 3.1, 2.2, 0.7, 4.4, -1.1, 2.9])
    assert wilcoxon(diff)[0] == pytest.approx(sps.wilcoxon(diff, method="exact").pvalue)


def test_a_zero_is_dropped_and_the_rest_stays_exact() -> None:
    rest = np.arange(1.0, 12.0)  # 11 positive differences: p = 2 / 2^11
    p, zeros = wilcoxon(np.append(rest, 0.0))
    assert zeros == 1
    assert p == pytest.approx(2 / 2**11)


@pytest.mark.parametrize(
    "diff",
    [[2.0, 2.0, -1.0, 3.0, 0.0, 3.0, 3.0, -2.0], [1.0, 1.0, 1.0, -1.0, 0.0, 0.0, 2.0], [-0.5, 4.0, 4.0, 4.0, 1.0]],
)
def test_ties_are_counted_exactly(diff: list[float]) -> None:
    d = np.array(diff)
    assert wilcoxon(d)[0] == pytest.approx(brute_force_p(d))


def test_all_zero_has_no_test() -> None:
    p, zeros = wilcoxon(np.zeros(4))
    assert np.isnan(p) and zeros == 4

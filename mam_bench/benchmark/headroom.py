"""The steering score of a `score: v2` benchmark: a controller's share of the oracle's headroom.

Per scenario, on the folder's seeds (paired: every row played every seed):

    best placebo   b   = the placebo (rule, stay, mimic) with the highest mean lift
    headroom       g_s = oracle lift_s - b lift_s            H = mean over seeds of g
    gain           d_s = controller lift_s - b lift_s
    score              = mean(d) / H                          (nothing clipped)

0 is the best placebo and 1 the oracle (the scenario's reference), so a controller between them reads
as its share of the achievable headroom and one beating the oracle reads above 1. A scenario is
scoreable only where its headroom is shown: two seeds or more, H above float noise, and the 95%
t-interval of H above 0. Elsewhere every row's score there is NA with the reason, never a division
by about 0 (and such a scenario does not belong in a v2 definition).

Intervals (95%) hold at the small seed counts a tier uses: the score's is Fieller's interval for a
ratio of paired means (exact for normal seed differences at any n >= 2; it is bounded exactly when
the headroom's t-test excludes 0, which is the scoreable condition), and the aggregate's is a
t-interval over seeds of each seed's linearised contribution (delta method, n - 1 degrees of
freedom: the seeds are paired across scenarios, so scenarios sharing a seed's board count as one
draw). bench/score_coverage.py measures both coverages by simulation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy import stats as sps

#: the placebos whose best is a scenario's zero, in the order that breaks a tie (rule's lift is exactly 0)
PLACEBOS = ("rule", "stay", "mimic")
LEVEL = 0.95
#: a headroom at most this share of the scenario's largest |lift| is float noise, not headroom
RESOLUTION = 1e-9
NA = math.nan


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float = NA
    high: float = NA


@dataclass(frozen=True)
class Headroom:
    """One scenario in one folder: its best placebo's lifts, the headroom per seed, and why it is
    not scoreable ('' when it is)."""

    placebo: str
    base: np.ndarray
    gaps: np.ndarray
    estimate: Estimate
    reason: str
    #: a per-seed gap at most this is float noise (RESOLUTION of the scenario's scale)
    floor: float

    @property
    def scoreable(self) -> bool:
        return not self.reason

    def signal(self) -> np.ndarray:
        """The per-seed gaps with float noise set to exactly 0 (what a rank test may read)."""
        return np.where(np.abs(self.gaps) <= self.floor, 0.0, self.gaps)


@cache
def t_quantile(n: int) -> float:
    return float(sps.t.ppf(0.5 + LEVEL / 2, n - 1))


def _cov(x: np.ndarray, y: np.ndarray) -> float:
    """Sample covariance; one formula for var and cov, so that x == y gives bit-equal results."""
    return float(np.sum((x - x.mean()) * (y - y.mean())) / (x.size - 1))


def t_interval(values: Sequence[float]) -> Estimate:
    v = np.asarray(values, dtype=float)
    mean = float(v.mean())
    if v.size < 2:
        return Estimate(mean)
    half = t_quantile(v.size) * math.sqrt(_cov(v, v) / v.size)
    return Estimate(mean, mean - half, mean + half)


def headroom(oracle: Sequence[float], placebos: dict[str, Sequence[float]]) -> Headroom:
    """The oracle's headroom over the best placebo (by mean lift; ties go to PLACEBOS' order)."""
    o = np.asarray(oracle, dtype=float)
    named = sorted(placebos, key=lambda p: PLACEBOS.index(p) if p in PLACEBOS else len(PLACEBOS))
    best = named[0]
    for p in named[1:]:
        if np.mean(placebos[p]) > np.mean(placebos[best]):
            best = p
    base = np.asarray(placebos[best], dtype=float)
    gaps = o - base
    est = t_interval(gaps)
    scale = max(float(np.max(np.abs(o))), *(float(np.max(np.abs(np.asarray(v)))) for v in placebos.values()))
    floor = RESOLUTION * max(scale, 1.0)
    if gaps.size < 2:
        reason = f"{gaps.size} seed: no interval, so no headroom shown"
    elif est.value <= floor:
        reason = f"no headroom: the oracle does not beat the best placebo ({best}) on average"
    elif not est.low > 0:
        reason = f"headroom not shown: its 95% interval [{est.low:.3g}, {est.high:.3g}] includes 0"
    else:
        reason = ""
    return Headroom(best, base, gaps, est, reason, floor)


def share(lifts: Sequence[float], head: Headroom) -> Estimate:
    """The controller's score in a scoreable scenario, with Fieller's 95% interval: the ratios r
    whose paired t-test of mean(d - r g) = 0 does not reject."""
    if not head.scoreable:
        raise ValueError("a score needs a scenario whose headroom is shown")
    d = np.asarray(lifts, dtype=float) - head.base
    g = head.gaps
    md, mg = float(d.mean()), float(g.mean())
    q = t_quantile(g.size) ** 2 / g.size
    a = mg * mg - q * _cov(g, g)
    b = md * mg - q * _cov(d, g)
    c = md * md - q * _cov(d, d)
    root = math.sqrt(max(b * b - a * c, 0.0))
    return Estimate(md / mg, (b - root) / a, (b + root) / a)


def contributions(lifts: Sequence[float], head: Headroom, score: float) -> np.ndarray:
    """Each seed's linearised share (delta method): its mean over seeds is the score."""
    d = np.asarray(lifts, dtype=float) - head.base
    return score + (d - score * head.gaps) / float(head.gaps.mean())


def aggregate(worlds: dict[str, list[tuple[float, np.ndarray]]]) -> Estimate:
    """world -> [(score, per-seed contributions)] of its scoreable scenarios: the mean over worlds
    of each world's mean score (a world counts once), with a t-interval over the paired seeds."""
    worlds = {w: parts for w, parts in worlds.items() if parts}
    if not worlds:
        return Estimate(NA)
    value = float(np.mean([np.mean([s for s, _ in parts]) for parts in worlds.values()]))
    spread = t_interval(seed_contributions([[c for _, c in parts] for parts in worlds.values()]))
    half = spread.value - spread.low
    return Estimate(value, value - half, value + half) if not math.isnan(half) else Estimate(value)


def seed_contributions(worlds: list[list[np.ndarray]]) -> np.ndarray:
    """Each seed's contribution to an aggregate (its mean over seeds is the aggregate): per world the
    mean of its scenarios' per-seed contributions, then the mean over worlds (a world counts once)."""
    return np.mean([np.mean(parts, axis=0) for parts in worlds], axis=0)


def as_v3(head: Headroom) -> Headroom:
    """A headroom as v3 scores it (a ceiling as the oracle): a scenario of the definition is scored
    whenever its headroom is above float noise (its interval is reported, never a reason to drop it)."""
    if head.reason and head.estimate.value > head.floor and head.gaps.size >= 2:
        return Headroom(head.placebo, head.base, head.gaps, head.estimate, "", head.floor)
    return head


def v3_headroom(ceiling: Sequence[float], placebos: dict[str, Sequence[float]]) -> Headroom:
    return as_v3(headroom(ceiling, placebos))


#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def seeds_for(contributions: np.ndarray | None, difference: float) -> int | None:
    """Seeds for a 95% interval of half-width `difference` on the difference of two rows with this
    spread of per-seed contributions (the variance doubled for a difference)."""
    if contributions is None or contributions.size < 2:
        return None
    sd = float(np.std(contributions, ddof=1))
    if sd == 0:
        return 2
    return max(2, math.ceil((Z95 * math.sqrt(2) * sd / difference) ** 2))

"""The steering score: per scenario and seed, 0 is the better of `stay` and `mimic` on that seed
and 1 is the reference strategy on that seed (Melting Pot's normalisation, with a floor).

    gap    = reference_lift - baseline_lift                 (baseline = max(stay, mimic) lift)
    floor  = FLOOR_SHARE x scale                            (scale: the scenario's outcome size)
    score  = clip((lift - baseline_lift) / max(gap, floor), -1, 1)

The floor keeps the score bounded and meaningful where the reference strategy fails to beat the
baselines (gap <= 0 or tiny): the scenario then asks whether the controller beats the better
baseline by at least `floor` (a move of FLOOR_SHARE of the outcome's size scores 1), instead of
dividing by zero or flipping signs. `scale` is the mean over seeds of the largest absolute metric
value among the all-rule reference and the stay, mimic and reference-strategy treatments: it never
depends on the controller being scored. Clipping to [-1, 1] bounds what one scenario can add to
the aggregate; the reference is the ceiling by definition (its own score is 1 where its gap clears
the floor, less where it does not).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import numpy as np

#: the floor of the denominator as a share of the scenario's outcome size
FLOOR_SHARE = 0.02
#: bootstrap resamples of the seeds
RESAMPLES = 10_000
NA = math.nan


def scenario_floor(outcomes: Sequence[Sequence[float]]) -> float:
    """FLOOR_SHARE x the mean over seeds of the largest |metric| among the controller-free
    outcomes of that seed (reference, stay, mimic, reference strategy); 1 unit when all are 0."""
    sizes = [max((abs(v) for v in seed if v is not None and math.isfinite(v)), default=0.0) for seed in outcomes]
    scale = float(np.mean(sizes)) if sizes else 0.0
    return FLOOR_SHARE * (scale if scale > 0 else 1.0)


def steering_score(lift: float, stay: float | None, mimic: float | None, reference: float, floor: float) -> float:
    """One seed's score (see the module docstring); a missing baseline is left out of the max."""
    baselines = [b for b in (stay, mimic) if b is not None and math.isfinite(b)]
    if not baselines or floor <= 0:
        raise ValueError("a score needs at least one baseline lift and a positive floor")
    base = max(baselines)
    raw = (lift - base) / max(reference - base, floor)
    return float(min(1.0, max(-1.0, raw)))


def stable_seed(text: str) -> int:
    """A bootstrap seed named by what is resampled, so a table reproduces in any process."""
    return zlib.crc32(text.encode())


def bootstrap_mean(values: Sequence[float], seed: int, resamples: int = RESAMPLES) -> tuple[float, float, float]:
    """(mean, low, high): percentile 95% bootstrap over seeds; no interval for n < 2 or no spread."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return NA, NA, NA
    mean = float(v.mean())
    if v.size < 2 or np.all(v == v[0]):
        return mean, NA, NA
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, v.size, size=(resamples, v.size))].mean(axis=1)
    return mean, float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def bootstrap_aggregate(
    groups: dict[str, dict[str, Sequence[float]]], seed: int, resamples: int = RESAMPLES
) -> tuple[float, float, float]:
    """world -> scenario -> per-seed scores. The aggregate is the mean over worlds of each world's
    mean over its scenarios (each world counts once, however many scenarios it has); its 95% CI
    resamples the seeds of every scenario independently (the scenarios are fixed, the seeds drawn)."""
    worlds = [w for w, sc in groups.items() if any(len(v) for v in sc.values())]
    if not worlds:
        return NA, NA, NA

    def point(w: str) -> float:
        return float(np.mean([np.mean(v) for v in groups[w].values() if len(v)]))

    mean = float(np.mean([point(w) for w in worlds]))
    cells = [(w, np.asarray(v, dtype=float)) for w in worlds for v in groups[w].values() if len(v)]
    if all(v.size < 2 or np.all(v == v[0]) for _, v in cells):
        return mean, NA, NA
    rng = np.random.default_rng(seed)
    per_world: dict[str, list[np.ndarray]] = {w: [] for w in worlds}
    for w, v in cells:
        per_world[w].append(v[rng.integers(0, v.size, size=(resamples, v.size))].mean(axis=1))
    draws = np.mean([np.mean(per_world[w], axis=0) for w in worlds], axis=0)
    return mean, float(np.quantile(draws, 0.025)), float(np.quantile(draws, 0.975))

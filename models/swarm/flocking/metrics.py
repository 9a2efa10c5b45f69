"""Flocking dissimilarity (spec section 5): translation-invariant Hungarian cost to a hollow square.

cur_dis = min over translations of the optimal assignment cost, cost(i, j) = scale * Manhattan
(agent i, target j + translation). Exhaustive over every pairwise difference while that is cheap
(the spec's definition); for large swarms a hill climb from the median alignment (exact for L1 in
the common case, documented as an approximation).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

EXHAUSTIVE_BUDGET = 3_000_000


def hollow_square(side: int) -> np.ndarray:
    """Offsets of the perimeter of a side x side square, row-major."""
    cells = [(r, c) for r in range(side) for c in range(side) if r in (0, side - 1) or c in (0, side - 1)]
    return np.array(cells, dtype=np.int64)


def _cost(
    agents: np.ndarray, targets: np.ndarray, t: tuple[int, int], scale: float
) -> tuple[float, np.ndarray, np.ndarray]:
    tt = targets + np.array(t)
    c = scale * (np.abs(agents[:, None, 0] - tt[None, :, 0]) + np.abs(agents[:, None, 1] - tt[None, :, 1]))
    r, k = linear_sum_assignment(c)
    return float(c[r, k].sum()), r, k


def best_fit(
    agents: np.ndarray, targets: np.ndarray, scale: float = 1.0, bounds: tuple[int, int, int, int] | None = None
) -> tuple[float, tuple[int, int], dict[int, int]]:
    """(cost, translation, agent index -> target index). `bounds` (r0, r1, c0, c1) keeps the shape inside."""
    if len(agents) == 0 or len(targets) == 0:
        return 0.0, (0, 0), {}
    diffs = {tuple(d) for d in (agents[:, None, :] - targets[None, :, :]).reshape(-1, 2).tolist()}
    if bounds is not None:
        r0, r1, c0, c1 = bounds
        lo, hi = targets.min(axis=0), targets.max(axis=0)
        ok = lambda t: r0 <= t[0] + lo[0] and t[0] + hi[0] <= r1 and c0 <= t[1] + lo[1] and t[1] + hi[1] <= c1  # noqa: E731
        diffs = {t for t in diffs if ok(t)}
        if not diffs:
            diffs = {(r0 - int(lo[0]), c0 - int(lo[1]))}
    else:
        ok = lambda t: True  # noqa: E731
    best = None
    if len(diffs) * len(agents) * len(targets) <= EXHAUSTIVE_BUDGET:
        for t in sorted(diffs):
            cost, r, k = _cost(agents, targets, t, scale)
            if best is None or cost < best[0]:
                best = (cost, t, r, k)
    else:
        t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
        if not ok(t):
            t = min(diffs, key=lambda d: abs(d[0] - t[0]) + abs(d[1] - t[1]))
        cost, r, k = _cost(agents, targets, t, scale)
        best = (cost, t, r, k)
        improved = True
        while improved:
            improved = False
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                cand = (best[1][0] + dr, best[1][1] + dc)
                if not ok(cand):
                    continue
                cost, r, k = _cost(agents, targets, cand, scale)
                if cost < best[0]:
                    best, improved = (cost, cand, r, k), True
    cost, t, r, k = best
    return cost, t, {int(a): int(b) for a, b in zip(r, k)}

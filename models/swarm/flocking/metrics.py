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
    """The optimal assignment at translation t: (cost, agent indices, target indices)."""
    # per axis, as outer differences: several times faster than broadcasting strided (n, 2) columns
    rows = np.subtract.outer(agents[:, 0], targets[:, 0] + t[0])
    cols = np.subtract.outer(agents[:, 1], targets[:, 1] + t[1])
    c = scale * (np.abs(rows) + np.abs(cols))
    r, k = linear_sum_assignment(c)
    return float(c[r, k].sum()), r, k


def _distances(agents: np.ndarray, targets: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Manhattan distance from each agent to each target at each translation (T x n x m), as `_cost`'s."""
    placed = targets[None, :, :] + shifts[:, None, :]
    return np.abs(agents[None, :, None, 0] - placed[:, None, :, 0]) + np.abs(
        agents[None, :, None, 1] - placed[:, None, :, 1]
    )


def _differences(agents: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Every agent position minus every target offset (n*m x 2): the candidate translations."""
    return (agents[:, None, :] - targets[None, :, :]).reshape(-1, 2)


def _unique_rows(pairs: np.ndarray) -> np.ndarray:
    """np.unique(pairs, axis=0), sorted by row then column, through one integer key per pair (10x faster)."""
    if not len(pairs):
        return pairs.reshape(0, 2)
    lo = pairs.min(axis=0)
    span = int(pairs[:, 1].max() - lo[1]) + 1
    keys = np.unique((pairs[:, 0] - lo[0]) * span + (pairs[:, 1] - lo[1]))
    return np.stack([keys // span + lo[0], keys % span + lo[1]], axis=1)


def best_fit(
    agents: np.ndarray, targets: np.ndarray, scale: float = 1.0, bounds: tuple[int, int, int, int] | None = None
) -> tuple[float, tuple[int, int], dict[int, int]]:
    """(cost, translation, agent index -> target index). `bounds` (r0, r1, c0, c1) keeps the shape inside.

    Exhaustive: the least cost, ties to the smallest translation. Translations are tried in order
    of a lower bound and skipped once the bound shows they cannot win, which gives the very same
    answer as trying them all in sorted order.
    """
    if len(agents) == 0 or len(targets) == 0:
        return 0.0, (0, 0), {}
    shifts = None
    if bounds is not None:
        r0, r1, c0, c1 = bounds
        lo, hi = targets.min(axis=0), targets.max(axis=0)

        def inside(t: np.ndarray) -> np.ndarray:  # translations (k x 2) that keep the shape in bounds
            return (r0 <= t[:, 0] + lo[0]) & (t[:, 0] + hi[0] <= r1) & (c0 <= t[:, 1] + lo[1]) & (t[:, 1] + hi[1] <= c1)

        ok = lambda t: bool(inside(np.array([t]))[0])  # noqa: E731
        diffs = _differences(agents, targets)
        shifts = _unique_rows(diffs[inside(diffs)])
        if not len(shifts):
            shifts = np.array([[r0 - int(lo[0]), c0 - int(lo[1])]], dtype=np.int64)
        exhaustive = len(shifts) * len(agents) * len(targets) <= EXHAUSTIVE_BUDGET
    else:
        ok = lambda t: True  # noqa: E731
        # each agent alone yields one translation per distinct target: a floor on their number
        # that settles large swarms without sorting every difference
        least = len({(r, c) for r, c in targets.tolist()})
        exhaustive = least * len(agents) * len(targets) <= EXHAUSTIVE_BUDGET
        if exhaustive:
            shifts = _unique_rows(_differences(agents, targets))
            exhaustive = len(shifts) * len(agents) * len(targets) <= EXHAUSTIVE_BUDGET
    best = None
    if exhaustive:
        dist = _distances(agents, targets, shifts)
        # a floor under each translation's cost: every agent (or every target, when agents
        # outnumber targets) pays at least the distance to its nearest partner
        floors = scale * (dist.min(axis=2) if len(agents) <= len(targets) else dist.min(axis=1)).sum(axis=1)
        order = np.argsort(floors, kind="stable")
        for i, floor, t in zip(order.tolist(), floors[order].tolist(), map(tuple, shifts[order].tolist())):
            if best is not None and (floor > best[0] or (floor == best[0] and t > best[1])):
                if floor > best[0]:
                    break  # every later floor is at least as high
                continue
            c = scale * dist[i]  # the very matrix `_cost` builds for t
            r, k = linear_sum_assignment(c)
            cost = float(c[r, k].sum())
            if best is None or cost < best[0] or (cost == best[0] and t < best[1]):
                best = (cost, t, r, k)
    else:
        seen: dict[tuple[int, int], tuple[float, np.ndarray, np.ndarray]] = {}

        def at(t: tuple[int, int]) -> tuple[float, np.ndarray, np.ndarray]:
            if t not in seen:
                seen[t] = _cost(agents, targets, t, scale)
            return seen[t]

        t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
        if not ok(t):  # the nearest allowed translation, first in the order a set of them iterates
            pairs = _differences(agents, targets).tolist()
            allowed = {(int(a), int(b)) for a, b in shifts.tolist()}
            choices = {d for d in map(tuple, pairs) if d in allowed} or allowed
            t = min(choices, key=lambda d: abs(d[0] - t[0]) + abs(d[1] - t[1]))
        cost, r, k = at(t)
        best = (cost, t, r, k)
        improved = True
        while improved:
            improved = False
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                cand = (best[1][0] + dr, best[1][1] + dc)
                if not ok(cand):
                    continue
                cost, r, k = at(cand)
                if cost < best[0]:
                    best, improved = (cost, cand, r, k), True
    cost, t, r, k = best
    return cost, t, {int(a): int(b) for a, b in zip(r, k)}

"""Flocking dissimilarity (spec section 5): translation-invariant Hungarian cost to a hollow square.

cur_dis = min over translations of the optimal assignment cost, cost(i, j) = scale * Manhattan
(agent i, target j + translation). Exhaustive over every pairwise difference while that is cheap
(the spec's definition); for large swarms a hill climb from the median alignment (exact for L1 in
the common case, documented as an approximation).
"""

from __future__ import annotations

import math
from collections.abc import Callable

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
    return _fit(agents, targets, scale, *_search_space(agents, targets, bounds))


def _search_space(
    agents: np.ndarray, targets: np.ndarray, bounds: tuple[int, int, int, int] | None
) -> tuple[np.ndarray | None, bool, Callable[[tuple[int, int]], bool]]:
    """best_fit's candidates: (translations, whether to try them all, which translations are allowed)."""
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
    return shifts, exhaustive, ok


def _fit(
    agents: np.ndarray,
    targets: np.ndarray,
    scale: float,
    shifts: np.ndarray | None,
    exhaustive: bool,
    ok: Callable[[tuple[int, int]], bool],
) -> tuple[float, tuple[int, int], dict[int, int]]:
    """best_fit over the search space `_search_space` chose."""
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


_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # the climb's order of neighbours, as in `_fit`


class Dissimilarity:
    """best_fit(agents, targets, scale)[0] for a caller that asks again every round.

    The large-swarm climb visits the same few translations round after round while only some agents
    move, so its assignments are solved by `assignment.solve`, resumed from the prices that the last
    solve at that translation (or at the one the climb steps from) left, and a neighbour is only
    solved until its lower bound reaches the cost to beat. The climb's moves and its result are
    exactly `_fit`'s: costs are integers times scale, and the cost is exact only where `_fit` compares
    it. Small swarms (the exhaustive search) and scales whose products are inexact (not a power of
    two) go to `_fit` itself.
    """

    KEEP = 64  # translations whose solver state is kept (the climb visits about twenty a round)

    def __init__(self, targets: np.ndarray, scale: float) -> None:
        self.targets = np.ascontiguousarray(targets, dtype=np.int64)
        self.scale = scale
        mantissa, exponent = math.frexp(scale)
        self.exact = mantissa == 0.5 and exponent > -900  # scale * an integer sum is then exact
        self.states: dict[tuple[int, int], tuple[np.ndarray, ...]] = {}
        self.size = self._agents = -1
        self.buffer = np.zeros((0, 0), dtype=np.int64)

    def __call__(self, agents: np.ndarray) -> float:
        targets = self.targets
        if len(agents) == 0 or len(targets) == 0:
            return 0.0
        shifts, exhaustive, ok = _search_space(agents, targets, None)
        if exhaustive or not self.exact or max(np.abs(agents).max(), np.abs(targets).max()) >= 1 << 20:
            return _fit(agents, targets, self.scale, shifts, exhaustive, ok)[0]
        return self.scale * float(self._climb(np.ascontiguousarray(agents, dtype=np.int64)))

    def _climb(self, agents: np.ndarray) -> int:
        """The least total the climb of `_fit` reaches, in integer distance units."""
        from mam_bench.models.swarm.flocking.assignment import INF, cost_matrix, solve

        targets = self.targets
        size = max(len(agents), len(targets))
        if size != self.size or len(agents) != self._agents:  # a new shape of problem: nothing to resume
            self.size, self._agents = size, len(agents)
            self.states = {}
            self.buffer = np.zeros((size, size), dtype=np.int64)
        c = self.buffer
        seen: dict[tuple[int, int], tuple[int, bool]] = {}  # translation -> (total, True) or (floor, False)

        def at(t: tuple[int, int], bound: int, origin: tuple[int, int] | None) -> tuple[int, bool]:
            known = seen.get(t)
            if known is not None and (known[1] or known[0] >= bound):
                return known
            state = self.states.pop(t, None)  # re-inserted below: the dict keeps recent use last
            if state is None:
                if origin is not None:
                    state = tuple(a.copy() for a in self.states[origin])
                else:
                    blank = np.full(size, -1, dtype=np.int64)
                    state = (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64), blank, blank.copy())
            self.states[t] = state
            cost_matrix(agents, targets, t[0], t[1], c)
            seen[t] = solve(c, *state, bound)
            return seen[t]

        t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
        best = at(t, INF, None)[0]
        improved = True
        while improved:
            improved = False
            for dr, dc in _STEPS:
                cand = (t[0] + dr, t[1] + dc)
                total, exact = at(cand, best, t)
                if exact and total < best:
                    best, t, improved = total, cand, True
        while len(self.states) > self.KEEP:  # forget the longest unused
            del self.states[next(iter(self.states))]
        return best

"""Flocking dissimilarity (docs/worlds/swarm.md, "Flocking"): translation-invariant Hungarian cost to a hollow square.

cur_dis = min over translations of the optimal assignment cost, cost(i, j) = scale * Manhattan
(agent i, target j + translation). Exhaustive over every pairwise difference while that is cheap
(the paper's definition); for large swarms a hill climb from the median alignment (exact for L1 in
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
    solve at that translation (or at the one the climb steps from) left, and a step is decided by
    bounds on the two totals wherever they suffice. The climb's moves and its result are exactly
    `_fit`'s: costs are integers times scale, and bounds decide only what the exact totals decide.
    `_fit` itself serves small swarms (the exhaustive search), scales whose products are inexact
    (not a power of two), and problems under `resume_from` rows: there scipy's solves are cheap and
    loading numba (about a second, once per process) would not pay back within a run's rounds.
    """

    KEEP = 64  # translations whose solver state is kept (the climb visits about twenty a round)
    RESUME_FROM = 150  # agents or targets: from here a round's plain climb costs about 10 ms

    def __init__(self, targets: np.ndarray, scale: float, resume_from: int = RESUME_FROM) -> None:
        self.targets = np.ascontiguousarray(targets, dtype=np.int64)
        self.target_rows, self.target_cols = self.targets[:, 0].copy(), self.targets[:, 1].copy()
        self.scale = scale
        mantissa, exponent = math.frexp(scale)
        self.exact = mantissa == 0.5 and exponent > -900  # scale * an integer sum is then exact
        self.resume_from = resume_from
        self.states: dict[tuple[int, int], tuple[np.ndarray, ...]] = {}
        self.size = self._agents = -1
        self.buffer = np.zeros((0, 0), dtype=np.int64)

    def __call__(self, agents: np.ndarray) -> float:
        targets = self.targets
        if len(agents) == 0 or len(targets) == 0:
            return 0.0
        shifts, exhaustive, ok = _search_space(agents, targets, None)
        if (
            exhaustive
            or not self.exact
            or max(len(agents), len(targets)) < self.resume_from
            or max(np.abs(agents).max(), np.abs(targets).max()) >= 1 << 20  # keeps every total far inside int64
        ):
            return _fit(agents, targets, self.scale, shifts, exhaustive, ok)[0]
        return self.scale * float(self._climb(np.ascontiguousarray(agents, dtype=np.int64)))

    def _climb(self, agents: np.ndarray) -> int:
        """The least total the climb of `_fit` reaches, in integer distance units.

        Each translation holds bounds [low, high] on its total (kept prices, kept matching); a step
        is decided as soon as the bounds decide it, and only otherwise is a solve resumed, at most
        until it decides. The translation the climb ends on is solved to the end.
        """
        from mam_bench.models.swarm.flocking.assignment import INF, bounds, cost_matrix, solve

        targets = self.targets
        size = max(len(agents), len(targets))
        if size != self.size or len(agents) != self._agents:  # a new shape of problem: nothing to resume
            self.size, self._agents = size, len(agents)
            self.states = {}
            self.buffer = np.zeros((size, size), dtype=np.int64)
        c = self.buffer
        rows, cols = np.ascontiguousarray(agents[:, 0]), np.ascontiguousarray(agents[:, 1])

        def costs(t: tuple[int, int]) -> None:
            cost_matrix(rows, cols, self.target_rows + t[0], self.target_cols + t[1], c)

        known: dict[tuple[int, int], list[int]] = {}  # translation -> [low, high] this round

        def enter(t: tuple[int, int], origin: tuple[int, int] | None) -> list[int]:
            if t in known:
                return known[t]
            state = self.states.pop(t, None)  # re-inserted below: the dict keeps recent use last
            near = self.states[origin] if origin is not None else None
            if state is None:
                if near is not None:  # the neighbour's prices and matching: a warm start
                    state = tuple(a.copy() for a in near)
                else:
                    blank = np.full(size, -1, dtype=np.int64)
                    state = (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64), blank, blank.copy())
            self.states[t] = state
            costs(t)
            known[t] = list(bounds(c, state[0], state[1], state[2], state[2] if near is None else near[2]))
            return known[t]

        def tighten(t: tuple[int, int], bound: int) -> None:
            """Resume t's solve until its total is known or shown to reach `bound`."""
            costs(t)
            total, exact = solve(c, *self.states[t], bound)
            span = known[t]
            span[0] = max(span[0], total)
            if exact:
                span[1] = total

        def below(cand: tuple[int, int], best: tuple[int, int]) -> bool:
            """Whether cand's total is less than best's."""
            a, b = known[cand], known[best]
            while True:
                if a[1] < b[0]:
                    return True
                if a[0] >= b[1]:
                    return False
                if b[0] < b[1]:
                    tighten(best, INF)
                else:
                    tighten(cand, b[1])

        t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
        enter(t, None)
        improved = True
        while improved:
            improved = False
            for dr, dc in _STEPS:
                cand = (t[0] + dr, t[1] + dc)
                enter(cand, t)
                if below(cand, t):
                    t, improved = cand, True
        if known[t][0] < known[t][1]:
            tighten(t, INF)
        while len(self.states) > self.KEEP:  # forget the longest unused
            del self.states[next(iter(self.states))]
        return known[t][0]

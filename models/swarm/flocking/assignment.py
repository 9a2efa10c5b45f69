"""An exact assignment solver that resumes from a previous solution's prices, for the flocking climb.

scipy's `linear_sum_assignment` starts from nothing on every call, but the dissimilarity climb asks
for the same few translations round after round while only part of the swarm moves. This is the
same shortest-augmenting-path method kept resumable: the dual prices of an earlier solve (of any
cost matrix of the same size) are made feasible for the new costs, only the rows whose matched pair
is no longer tight are augmented again, and the dual objective, a lower bound at every step, stops
the solve as soon as it shows that the translation cannot beat a given cost. Costs are integers,
so the optimum is exact: every optimal assignment, scipy's included, has the same total.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mam_bench import numba_start

numba_start.cache_where_writable(__file__)

INF = 1 << 62  # above any total; sums of a few of them stay inside int64


@njit(cache=True)
def cost_matrix(
    agent_rows: np.ndarray, agent_cols: np.ndarray, target_rows: np.ndarray, target_cols: np.ndarray, c: np.ndarray
) -> None:
    """Write into c (square, zero beyond the real rows and columns) the Manhattan distance from each
    (already translated) target, a row, to each agent, a column.

    A zero row or column is a partner at no cost, which makes the rectangular problem (the larger
    side partly unmatched) a square one with the same optimum. Coordinates come as separate
    contiguous arrays, which lets the inner loop run on vector instructions.
    """
    for i in range(target_rows.shape[0]):
        r = target_rows[i]
        k = target_cols[i]
        for j in range(agent_rows.shape[0]):
            c[i, j] = abs(agent_rows[j] - r) + abs(agent_cols[j] - k)


@njit(cache=True)
def reprice(c: np.ndarray, u: np.ndarray, v: np.ndarray) -> int:
    """Make the prices (u, v) feasible for c, every reduced cost c - u - v >= 0, in place; return
    their dual objective, a lower bound on the optimal total.

    Column prices first, each the largest the row prices allow: a column whose costs did not change
    keeps its price (its matched row attains it), so only the pairs of changed columns can stop
    being tight. Then row prices, the largest the new column prices allow.
    """
    n = c.shape[0]
    for j in range(n):
        v[j] = INF
    for i in range(n):
        ui = u[i]
        for j in range(n):
            v[j] = min(v[j], c[i, j] - ui)
    top = v.max()  # prices are defined up to a constant: keep them near zero
    lb = 0
    for j in range(n):
        v[j] -= top
        lb += v[j]
    for i in range(n):
        low = INF
        for j in range(n):
            low = min(low, c[i, j] - v[j])
        u[i] = low
        lb += low
    return lb


@njit(cache=True)
def matching_cost(c: np.ndarray, col4row: np.ndarray) -> int:
    """The total of a matching under c, INF if it leaves a row unmatched."""
    total = 0
    for i in range(c.shape[0]):
        if col4row[i] < 0:
            return INF
        total += c[i, col4row[i]]
    return total


@njit(cache=True)
def bounds(c: np.ndarray, u: np.ndarray, v: np.ndarray, col4row: np.ndarray, other: np.ndarray) -> tuple[int, int]:
    """(lower, upper) bounds on the optimal total of c: the repriced duals' objective, and the cost of
    the kept matching or of `other` (any matching of the same size is a feasible one), whichever is
    less. The kept matching stays as it is, tight or not, for `solve`."""
    return reprice(c, u, v), min(matching_cost(c, col4row), matching_cost(c, other))


@njit(cache=True)
def solve(
    c: np.ndarray, u: np.ndarray, v: np.ndarray, col4row: np.ndarray, row4col: np.ndarray, bound: int
) -> tuple[int, bool]:
    """(optimal total, True), or (a lower bound >= bound, False) once one shows the total reaches `bound`.

    (u, v, col4row, row4col) is any earlier state of the same size and is updated in place, so the
    next call resumes from it: the prices are made feasible (`reprice`), matched pairs that are no
    longer tight are released, and each free row is augmented along a shortest path (Dijkstra on
    reduced costs), as in scipy's solver.
    """
    n = c.shape[0]
    lb = reprice(c, u, v)
    if lb >= bound:
        return lb, False
    for i in range(n):
        j = col4row[i]
        if j >= 0 and c[i, j] - u[i] - v[j] != 0:
            col4row[i] = -1
            row4col[j] = -1
    spc = np.empty(n, dtype=np.int64)
    path = np.empty(n, dtype=np.int64)
    remaining = np.empty(n, dtype=np.int64)
    sr = np.zeros(n, dtype=np.bool_)
    sc = np.zeros(n, dtype=np.bool_)
    for cur in range(n):
        if col4row[cur] >= 0:
            continue
        for j in range(n):
            spc[j] = INF
            remaining[j] = j
            sr[j] = False
            sc[j] = False
        left = n
        minval = 0
        i = cur
        sink = -1
        while sink < 0:
            sr[i] = True
            index = -1
            lowest = INF
            for it in range(left):
                j = remaining[it]
                r = minval + c[i, j] - u[i] - v[j]
                if r < spc[j]:
                    path[j] = i
                    spc[j] = r
                if spc[j] < lowest or (spc[j] == lowest and row4col[j] < 0):
                    lowest = spc[j]
                    index = it
            minval = lowest
            j = remaining[index]
            if row4col[j] < 0:
                sink = j
            else:
                i = row4col[j]
            sc[j] = True
            left -= 1
            remaining[index] = remaining[left]
        u[cur] += minval
        for r in range(n):
            if sr[r] and r != cur:
                u[r] += minval - spc[col4row[r]]
        for j in range(n):
            if sc[j]:
                v[j] -= minval - spc[j]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            nxt = col4row[i]
            col4row[i] = j
            j = nxt
            if i == cur:
                break
        lb += minval  # each augmentation raises the dual objective by its path's length
        if lb >= bound:
            return lb, False
    total = 0
    for i in range(n):
        total += c[i, col4row[i]]
    return total, True


numba_start.light_cache_loads(globals())

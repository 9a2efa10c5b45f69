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

INF = 1 << 62  # above any total; sums of a few of them stay inside int64


@njit(cache=True)
def cost_matrix(agents: np.ndarray, targets: np.ndarray, tr: int, tc: int, c: np.ndarray) -> None:
    """Write into c (square, zero beyond the real rows and columns) the Manhattan distance from target i
    shifted by (tr, tc) to agent j.

    Rows are targets, columns agents; a zero row or column is a partner at no cost, which makes
    the rectangular problem (the larger side partly unmatched) a square one with the same optimum.
    """
    for i in range(targets.shape[0]):
        r = targets[i, 0] + tr
        k = targets[i, 1] + tc
        for j in range(agents.shape[0]):
            c[i, j] = abs(agents[j, 0] - r) + abs(agents[j, 1] - k)


@njit(cache=True)
def solve(
    c: np.ndarray, u: np.ndarray, v: np.ndarray, col4row: np.ndarray, row4col: np.ndarray, bound: int
) -> tuple[int, bool]:
    """(optimal total, True), or (a lower bound >= bound, False) once one shows the total reaches `bound`.

    (u, v, col4row, row4col) is any earlier state of the same size and is updated in place, so the
    next call resumes from it: column prices, then row prices, are reset to the largest that the
    other side allows (every reduced cost >= 0), matched pairs that are no longer tight are released, and each free
    row is augmented along a shortest path (Dijkstra on reduced costs), as in scipy's solver.
    """
    n = c.shape[0]
    # column prices first: a column whose costs did not change keeps its price (its matched row
    # attains it), so only the pairs of changed columns can stop being tight
    for j in range(n):
        low = INF
        for i in range(n):
            r = c[i, j] - u[i]
            if r < low:
                low = r
        v[j] = low
    top = v.max()  # prices are defined up to a constant: keep them near zero
    lb = 0
    for j in range(n):
        v[j] -= top
        lb += v[j]
    for i in range(n):
        low = INF
        for j in range(n):
            r = c[i, j] - v[j]
            if r < low:
                low = r
        u[i] = low
        lb += low
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

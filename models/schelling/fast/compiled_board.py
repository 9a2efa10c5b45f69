"""Who is satisfied and the round's measures, each in one compiled pass over the board.

The same integers as `board.satisfied_cells` and `metrics.edge_homophily` / `satisfied_share`
(the world divides them as those do, so the floats are the same): a round of a million-cell board
then costs milliseconds where numpy's whole-board rolls cost a tenth of a second, and a reference
that runs on for hundreds of rounds moving a few agents stays cheap. The world plays these on its
fast path; its residents' path keeps numpy's, and tests hold the two to each other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.models.schelling.fast.kernel import _count_all

numba_start.cache_where_writable(__file__)


@njit(cache=True)
def satisfied_flat(flat: np.ndarray, types: np.ndarray, nbr: np.ndarray, num: int, den: int) -> np.ndarray:
    """Per cell: occupied and content (same-group share of occupied neighbours at least num/den,
    an agent with no occupied neighbour content)."""
    out = np.zeros(flat.size, np.bool_)
    for c in range(flat.size):
        a = flat[c]
        if a < 0:
            continue
        same = occ = 0
        for k in range(8):
            b = flat[nbr[c, k]]
            if b >= 0:
                occ += 1
                same += types[b] == types[a]
        out[c] = occ == 0 or same * den >= num * occ
    return out


@njit(cache=True)
def board_counts(
    flat: np.ndarray, types: np.ndarray, scored: np.ndarray, sat: np.ndarray, nbr: np.ndarray
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """(same, pairs) of neighbouring pairs among scored agents and among all (each pair once:
    the neighbours right, below-left, below, below-right), (occupied, satisfied) scored and all,
    and the scored dissatisfied."""
    same_s = pairs_s = same_a = pairs_a = 0
    n_s = sat_s = n_a = sat_a = unhappy = 0
    for c in range(flat.size):
        a = flat[c]
        if a < 0:
            continue
        n_a += 1
        sat_a += sat[c]
        if scored[a]:
            n_s += 1
            sat_s += sat[c]
            unhappy += not sat[c]
        for k in range(4, 8):
            b = flat[nbr[c, k]]
            if b < 0:
                continue
            pairs_a += 1
            same_a += types[a] == types[b]
            if scored[a] and scored[b]:
                pairs_s += 1
                same_s += types[a] == types[b]
    return same_s, pairs_s, same_a, pairs_a, n_s, sat_s, n_a, sat_a, unhappy


@njit(cache=True)
def _contribute(c: int, sign: int, flat: np.ndarray, scored: np.ndarray, sat: np.ndarray, totals: np.ndarray) -> None:
    """Add (sign 1) or take away (-1) cell c's share of the occupied, satisfied and dissatisfied counts."""
    a = flat[c]
    if a < 0:
        return
    totals[6] += sign
    totals[7] += sign * sat[c]
    if scored[a]:
        totals[4] += sign
        totals[5] += sign * sat[c]
        totals[8] += sign * (not sat[c])


@njit(cache=True)
def _place(
    c: int, a: int, by: int, flat: np.ndarray, types: np.ndarray, scored: np.ndarray, cnt: np.ndarray,
    nbr: np.ndarray, totals: np.ndarray,
) -> None:  # fmt: skip
    """Agent a leaves (by=-1) or enters (by=1) cell c: its neighbours' counts and every pair it
    forms with an occupied neighbour (each neighbouring pair is counted once, so all eight are its)."""
    t = types[a]
    for k in range(8):
        n = nbr[c, k]
        cnt[t, n] += by
        b = flat[n]
        if b >= 0:
            totals[3] += by
            totals[2] += by * (types[b] == t)
            if scored[a] and scored[b]:
                totals[1] += by
                totals[0] += by * (types[b] == t)


@njit(cache=True)
def apply_moves(
    flat: np.ndarray, pos: np.ndarray, types: np.ndarray, scored: np.ndarray, cnt: np.ndarray,
    sat: np.ndarray, totals: np.ndarray, nbr: np.ndarray, num: int, den: int, moves: np.ndarray,
    stamp: np.ndarray,
) -> None:  # fmt: skip
    """Settle a round's moves (origins empty, then destinations fill) and bring the counts, who is
    satisfied and the measures (`board_counts`' nine integers) up to date, touching only the cells
    whose neighbourhood changed."""
    stamp[-1] += 1
    mark = stamp[-1]
    touched = np.empty(moves.shape[0] * 18, np.int64)
    nt = 0
    for m in range(moves.shape[0]):
        for end in range(1, 3):
            c = moves[m, end]
            for k in range(-1, 8):
                x = c if k < 0 else nbr[c, k]
                if stamp[x] != mark:
                    stamp[x] = mark
                    touched[nt] = x
                    nt += 1
    for q in range(nt):
        _contribute(touched[q], -1, flat, scored, sat, totals)
    for m in range(moves.shape[0]):
        a, o = moves[m, 0], moves[m, 1]
        flat[o] = -1
        _place(o, a, -1, flat, types, scored, cnt, nbr, totals)
    for m in range(moves.shape[0]):
        a, d = moves[m, 0], moves[m, 2]
        _place(d, a, 1, flat, types, scored, cnt, nbr, totals)
        flat[d] = a
        pos[a] = d
    for q in range(nt):
        c = touched[q]
        a = flat[c]
        if a < 0:
            sat[c] = False
        else:
            occ = cnt[0, c] + cnt[1, c]
            sat[c] = occ == 0 or cnt[types[a], c] * den >= num * occ
        _contribute(c, 1, flat, scored, sat, totals)


class BoardState:
    """A fast-path world's neighbour counts, satisfied cells and measures, kept across rounds and
    updated by each round's moves only (`apply_moves`): a reference that runs on for hundreds of
    rounds on a million cells, moving a few agents each, then costs little per round."""

    def __init__(self, flat: np.ndarray, types: np.ndarray, scored: np.ndarray, nbr: np.ndarray, num: int, den: int):
        self.nbr, self.num, self.den = nbr, num, den
        self.cnt = np.zeros((2, flat.size), np.int64)
        _count_all(flat, types, nbr, self.cnt)
        self.sat = satisfied_flat(flat, types, nbr, num, den)
        self.totals = np.array(board_counts(flat, types, scored, self.sat, nbr), dtype=np.int64)
        self._stamp = np.zeros(flat.size + 1, np.int64)  # the last entry: this round's mark
        n = flat.size
        #: the compiled wave's working arrays (avail, near, elig, lists, at, vac, holder, cand)
        self.scratch = (
            np.empty(n, np.bool_),
            np.empty((2, n), np.bool_),
            np.empty((2, n), np.bool_),
            np.empty((2, n), np.int64),
            np.empty((2, n), np.int64),
            np.empty(n, np.int64),
            np.full(n, -1, np.int64),
            np.empty(n, np.int64),
        )

    def apply(self, flat: np.ndarray, pos: np.ndarray, types: np.ndarray, scored: np.ndarray, moves: list) -> None:
        rows = np.array(moves, dtype=np.int64).reshape(-1, 3)
        apply_moves(flat, pos, types, scored, self.cnt, self.sat, self.totals, self.nbr, self.num, self.den, rows,
                    self._stamp)  # fmt: skip


numba_start.light_cache_loads(globals())

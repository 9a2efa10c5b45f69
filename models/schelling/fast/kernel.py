"""The Schelling reference rule compiled with numba, for landscapes of tens of thousands of runs.

Same rule and the same random draws as `fast.array_rule.ordinary_phase` (and so as the world), in both
stream designs; tests hold it to the world board for board.
- `streams=pilot`: the order stream permutes the unhappy ids sorted ascending, the tie stream
  draws only when two or more vacancies tie, ties are ordered by flat cell index. numpy's draws
  are replayed bit for bit by PCG64 compiled in `fast.compiled_streams` (`random_interval` for
  shuffles, Lemire's method for `integers`), the placement shuffle too, so a whole run, board
  and final measures included, is one call from Python.
- `streams=isolated`: each unhappy agent's (order key, tie key) for the round comes from its own
  agent stream (`draws.rule_keys`), replayed inside the kernel by `fast.compiled_streams`.
The nearest satisfactory vacancy is found by a ring
search over Chebyshev distance when eligible vacancies are plentiful and by a scan of the
eligible list when they are rare, never by scanning every vacancy for every agent.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.models.schelling.fast.compiled_streams import agent_doubles, next_uint32, pcg_seeded, stream_prefix
from mam_bench.models.schelling.fast.runs import BLOCKED, EQUILIBRIUM, HORIZON
from mam_bench.models.schelling.seeding import RULE_PURPOSE

numba_start.cache_where_writable(__file__)

_MASK32 = 0xFFFFFFFF


@njit(cache=True)
def _interval(rng: np.ndarray, mx: int) -> int:
    """numpy's random_interval(max) for max < 2**32 (what Generator.shuffle draws)."""
    if mx == 0:
        return 0
    mask = mx
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    while True:
        v = next_uint32(rng) & mask
        if v <= mx:
            return v


@njit(cache=True)
def _lemire(rng: np.ndarray, n: int) -> int:
    """numpy's Generator.integers(n) for 1 < n < 2**31 (buffered bounded Lemire, 32 bit)."""
    m = next_uint32(rng) * n
    leftover = m & _MASK32
    if leftover < n:
        threshold = (_MASK32 - (n - 1)) % n
        while leftover < threshold:
            m = next_uint32(rng) * n
            leftover = m & _MASK32
    return m >> 32


@njit(cache=True)
def _shuffle(a: np.ndarray, rng: np.ndarray) -> None:
    """numpy's Generator.shuffle of a 1-d array, in place."""
    for i in range(a.size - 1, 0, -1):
        j = _interval(rng, i)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


@njit(cache=True)
def _ok(same: int, occ: int, num: int, den: int) -> bool:
    return occ == 0 or same * den >= num * occ


@njit(cache=True)
def _sort_small(a: np.ndarray, k: int) -> None:
    for i in range(1, k):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _count_all(flat: np.ndarray, types: np.ndarray, nbr: np.ndarray, cnt: np.ndarray) -> None:
    """cnt[t, c]: agents of type t among cell c's neighbours (a cell's own agent not counted)."""
    cnt[:] = 0
    for c in range(flat.size):
        a = flat[c]
        if a >= 0:
            t = types[a]
            for k in range(8):
                cnt[t, nbr[c, k]] += 1


@njit(cache=True)
def _shift(cnt: np.ndarray, nbr: np.ndarray, cell: int, t: int, by: int) -> None:
    """An agent of type t arrives at (by=1) or leaves (by=-1) `cell`: its neighbours' counts follow."""
    for k in range(8):
        cnt[t, nbr[cell, k]] += by


@njit(cache=True)
def _open_vacancies(
    flat: np.ndarray,
    cnt: np.ndarray,
    num: int,
    den: int,
    avail: np.ndarray,
    near: np.ndarray,
    elig: np.ndarray,
    lists: np.ndarray,
    at: np.ndarray,
    live: np.ndarray,
    vac: np.ndarray,
) -> int:
    """The round's start-of-round vacancies: `vac` in cell order (returns how many), `avail`, and
    per type t the cells that would satisfy a type-t agent next door (`near[t]`: the agent is
    among the cell's neighbours, not counted) and from afar: `elig[t]`, listed unordered in
    `lists[t, :live[t]]` (`at[t, c]` is c's index there, so a taken cell leaves in O(1))."""
    live[0] = live[1] = 0
    nv = 0
    for c in range(flat.size):
        if flat[c] >= 0:
            avail[c] = near[0, c] = near[1, c] = elig[0, c] = elig[1, c] = False
            continue
        avail[c] = True
        vac[nv] = c
        nv += 1
        occ = cnt[0, c] + cnt[1, c]
        for t in range(2):
            near[t, c] = _ok(cnt[t, c] - 1, occ - 1, num, den)
            e = _ok(cnt[t, c], occ, num, den)
            elig[t, c] = e
            if e:
                lists[t, live[t]] = c
                at[t, c] = live[t]
                live[t] += 1
    return nv


@njit(cache=True)
def _nth_available(vac: np.ndarray, avail: np.ndarray, nv: int, idx: int) -> int:
    """The idx-th vacancy still available (random_empty's draw), or -1."""
    seen = 0
    for q in range(nv):
        if avail[vac[q]]:
            if seen == idx:
                return vac[q]
            seen += 1
    return -1


@njit(cache=True)
def _take(
    cell: int,
    avail: np.ndarray,
    near: np.ndarray,
    elig: np.ndarray,
    lists: np.ndarray,
    at: np.ndarray,
    live: np.ndarray,
) -> None:
    """A vacancy is reserved: it leaves `avail`, `near`, `elig` and the eligible lists (the last
    entry moves into its place)."""
    avail[cell] = False
    for t in range(2):
        near[t, cell] = False
        if elig[t, cell]:
            elig[t, cell] = False
            i, last = at[t, cell], lists[t, live[t] - 1]
            lists[t, i] = last
            at[t, last] = i
            live[t] -= 1


@njit(cache=True)
def _nearest(
    o: int,
    t: int,
    size: int,
    cnt: np.ndarray,
    nbr: np.ndarray,
    near: np.ndarray,
    elig: np.ndarray,
    lists: np.ndarray,
    live: np.ndarray,
    rowbase: np.ndarray,
    colw: np.ndarray,
    cand: np.ndarray,
) -> int:
    """The nearest available vacancies (Chebyshev, torus) that would satisfy a type-t agent now at
    `o`, into `cand` in cell order; returns how many. At distance 1 the agent itself is among the
    vacancy's neighbours and is not counted; farther away `elig` holds. A ring search outward
    when eligible cells are plentiful, else a scan of the eligible list: the same cells either way."""
    nc = 0
    if cnt[0, o] + cnt[1, o] < 8:  # a neighbour was vacant at round start
        for k in range(8):
            v = nbr[o, k]
            if near[t, v]:
                cand[nc] = v
                nc += 1
    if nc == 0 and live[t] > 0:
        r0, c0 = o // size + size, o % size + size  # offsets into the wrap tables
        if RING_FACTOR * live[t] * live[t] > size * size:
            for d in range(2, (size - 1) // 2 + 1):  # rings that do not overlap themselves
                top, bottom = rowbase[r0 - d], rowbase[r0 + d]
                for dc in range(-d, d + 1):
                    col = colw[c0 + dc]
                    if elig[t, top + col]:
                        cand[nc] = top + col
                        nc += 1
                    if elig[t, bottom + col]:
                        cand[nc] = bottom + col
                        nc += 1
                left, right = colw[c0 - d], colw[c0 + d]
                for dr in range(-d + 1, d):
                    row = rowbase[r0 + dr]
                    if elig[t, row + left]:
                        cand[nc] = row + left
                        nc += 1
                    if elig[t, row + right]:
                        cand[nc] = row + right
                        nc += 1
                if nc > 0:
                    break
        if nc == 0:
            best = size * size
            r0, c0 = r0 - size, c0 - size
            for q in range(live[t]):
                v = lists[t, q]
                dr = abs(v // size - r0)
                dc = abs(v % size - c0)
                d = max(min(dr, size - dr), min(dc, size - dc))
                if d < 2:
                    continue
                if d < best:
                    best = d
                    nc = 0
                if d == best:
                    cand[nc] = v
                    nc += 1
    _sort_small(cand, nc)
    return nc


#: ring search when RING_FACTOR * live**2 > cells (measured: where a ring beats a list scan)
RING_FACTOR = 1


@njit(cache=True)
def run_kernel(
    flat: np.ndarray,
    types: np.ndarray,
    pos: np.ndarray,
    size: int,
    num: int,
    den: int,
    cap: int,
    rounds: int,
    random_empty: bool,
    order_rng: np.ndarray,
    tie_rng: np.ndarray,
    isolated: bool,
    kprefix: np.ndarray,
    kseed: np.ndarray,
    nbr: np.ndarray,
) -> tuple[int, int]:
    """Play reference transitions in place from `rounds` until a stop; returns (code, rounds).

    `nbr` is `cached_neighbours(size)`. Isolated streams: each unhappy agent's (order key, tie key)
    is drawn from its agent stream, whose words are `kprefix` (magic and purpose), the round, the
    agent id and `kseed`. Neighbour counts are kept across rounds, updated by the moves only.
    """
    ncell = size * size
    n = types.size
    cnt = np.zeros((2, ncell), np.int64)
    avail = np.zeros(ncell, np.bool_)
    near = np.zeros((2, ncell), np.bool_)
    elig = np.zeros((2, ncell), np.bool_)
    lists = np.empty((2, ncell), np.int64)
    at = np.empty((2, ncell), np.int64)
    live = np.zeros(2, np.int64)
    unhappy = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    cand = np.empty(ncell, np.int64)
    vac = np.empty(ncell, np.int64)
    moves_a = np.empty(n, np.int64)
    moves_d = np.empty(n, np.int64)
    keys = np.zeros((n, 2), np.float64)
    rowbase = np.empty(3 * size, np.int64)  # (i mod size) * size and i mod size for -size <= i - size < 2 size
    colw = np.empty(3 * size, np.int64)
    for i in range(3 * size):
        colw[i] = i % size
        rowbase[i] = colw[i] * size
    _count_all(flat, types, nbr, cnt)
    while rounds < cap:
        nu = 0
        for a in range(n):
            c = pos[a]
            if not _ok(cnt[types[a], c], cnt[0, c] + cnt[1, c], num, den):
                unhappy[nu] = a
                nu += 1
        if nu == 0:
            return EQUILIBRIUM, rounds
        if isolated:
            for k in range(nu):
                agent_doubles(kprefix, kseed, rounds, unhappy[k], keys[unhappy[k]])
            order[:nu] = unhappy[:nu][np.argsort(keys[unhappy[:nu], 0], kind="mergesort")]
        else:
            order[:nu] = unhappy[:nu]
            _shuffle(order[:nu], order_rng)
        nv = _open_vacancies(flat, cnt, num, den, avail, near, elig, lists, at, live, vac)
        left = nv
        nm = 0
        for k in range(nu):
            if left == 0:
                break
            a = order[k]
            pick = -1
            if random_empty:
                if isolated:
                    idx = min(np.int64(keys[a, 1] * left), left - 1)
                elif left > 1:
                    idx = _lemire(tie_rng, left)
                else:
                    idx = 0
                pick = _nth_available(vac, avail, nv, idx)
            else:
                nc = _nearest(pos[a], types[a], size, cnt, nbr, near, elig, lists, live, rowbase, colw, cand)
                if nc == 0:
                    continue
                if isolated:
                    pick = cand[min(np.int64(keys[a, 1] * nc), nc - 1)]
                elif nc > 1:
                    pick = cand[_lemire(tie_rng, nc)]
                else:
                    pick = cand[0]
            _take(pick, avail, near, elig, lists, at, live)
            left -= 1
            moves_a[nm] = a
            moves_d[nm] = pick
            nm += 1
        if nm == 0:
            return BLOCKED, rounds
        for m in range(nm):  # every destination was empty at round start: no move lands on another's origin
            a = moves_a[m]
            flat[pos[a]] = -1
            _shift(cnt, nbr, pos[a], types[a], -1)
        for m in range(nm):
            a, d = moves_a[m], moves_d[m]
            flat[d] = a
            pos[a] = d
            _shift(cnt, nbr, d, types[a], 1)
        rounds += 1
    return HORIZON, rounds


@njit(cache=True)
def final_measures(flat: np.ndarray, types: np.ndarray, nbr: np.ndarray, num: int, den: int) -> tuple[float, float]:
    """(satisfaction, edge homophily) over all agents, as models/schelling/metrics.py computes them."""
    n_sat = n_occ = same = pairs = 0
    for c in range(flat.size):
        a = flat[c]
        if a < 0:
            continue
        t = types[a]
        s_cnt = o_cnt = 0
        for k in range(8):
            b = flat[nbr[c, k]]
            if b >= 0:
                o_cnt += 1
                s_cnt += types[b] == t
                if k >= 4:  # (0, 1), (1, -1), (1, 0), (1, 1): every neighbouring pair once
                    pairs += 1
                    same += types[b] == t
        n_occ += 1
        n_sat += _ok(s_cnt, o_cnt, num, den)
    sat = n_sat / n_occ if n_occ else 1.0
    oeh = same / pairs if pairs else np.nan
    return sat, oeh


#: the words of every Schelling rule stream before (round, actor, seed)
_RULE_PREFIX = stream_prefix(RULE_PURPOSE)


@njit(cache=True)
def play(
    size: int,
    n: int,
    n_a: int,
    num: int,
    den: int,
    cap: int,
    random_empty: bool,
    isolated: bool,
    placement: np.ndarray,
    order_words: np.ndarray,
    tie_words: np.ndarray,
    kseed: np.ndarray,
    nbr: np.ndarray,
) -> tuple[int, int, float, float, np.ndarray, np.ndarray]:
    """One whole reference run, Python called once: the board from the placement stream
    (`seeding.initial_board`), the rounds, the final measures. Returns (code, rounds,
    satisfaction, edge homophily, flat board, types); the streams come as entropy words."""
    flat = np.arange(size * size, dtype=np.int64)
    _shuffle(flat, pcg_seeded(placement))
    types = np.zeros(n, np.int64)
    types[n_a:] = 1
    pos = np.empty(n, np.int64)
    for c in range(flat.size):
        if flat[c] >= n:
            flat[c] = -1
        else:
            pos[flat[c]] = c
    code, rounds = run_kernel(
        flat,
        types,
        pos,
        size,
        num,
        den,
        cap,
        0,
        random_empty,
        pcg_seeded(order_words),
        pcg_seeded(tie_words),
        isolated,
        _RULE_PREFIX,
        kseed,
        nbr,
    )
    sat, oeh = final_measures(flat, types, nbr, num, den)
    return code, rounds, sat, oeh, flat, types


numba_start.light_cache_loads(globals())

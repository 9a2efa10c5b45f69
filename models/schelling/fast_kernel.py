"""The Schelling reference rule compiled with numba, for landscapes of tens of thousands of runs.

Same rule and the same random draws as `agents.ordinary_phase` (and so as the world), in both
stream designs; tests hold it to the world board for board.
- `streams=pilot`: the order stream permutes the unhappy ids sorted ascending, the tie stream
  draws only when two or more vacancies tie, ties are ordered by flat cell index. numpy's draws
  are replayed bit for bit from the raw PCG64 output (`random_interval` for shuffles, Lemire's
  method for `integers`), so no Python call is needed inside a run.
- `streams=isolated`: each unhappy agent's (order key, tie key) for the round comes from its own
  agent stream (`agents.rule_keys`), replayed inside the kernel by `compiled_streams`.
The nearest satisfactory vacancy is found by a ring
search over Chebyshev distance when eligible vacancies are plentiful and by a scan of the
eligible list when they are rare, never by scanning every vacancy for every agent.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.models.schelling.compiled_streams import agent_doubles, stream_prefix, uint32_words
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, PLACEMENT, RULE_PURPOSE, TIES, stream_words
from mam_bench.streams import seeded

EQUILIBRIUM, BLOCKED, HORIZON, REFILL, EXHAUSTED = 0, 1, 2, 3, 4
STATUS = {EQUILIBRIUM: "equilibrium", BLOCKED: "blocked", HORIZON: "horizon_exhausted"}
_MASK32 = 0xFFFFFFFF


@njit(cache=True)
def _interval(buf: np.ndarray, ptr: np.ndarray, mx: int) -> int:
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
        if ptr[0] >= buf.size:
            return -1
        v = np.int64(buf[ptr[0]]) & mask
        ptr[0] += 1
        if v <= mx:
            return v


@njit(cache=True)
def _lemire(buf: np.ndarray, ptr: np.ndarray, n: int) -> int:
    """numpy's Generator.integers(n) for 1 < n < 2**31 (buffered bounded Lemire, 32 bit)."""
    if ptr[0] >= buf.size:
        return -1
    m = np.int64(buf[ptr[0]]) * n
    ptr[0] += 1
    leftover = m & _MASK32
    if leftover < n:
        threshold = (_MASK32 - (n - 1)) % n
        while leftover < threshold:
            if ptr[0] >= buf.size:
                return -1
            m = np.int64(buf[ptr[0]]) * n
            ptr[0] += 1
            leftover = m & _MASK32
    return m >> 32


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
def _dist(a: int, b: int, size: int) -> int:
    dr = abs(a // size - b // size)
    dc = abs(a % size - b % size)
    dr = min(dr, size - dr)
    dc = min(dc, size - dc)
    return max(dr, dc)


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
    obuf: np.ndarray,
    optr: np.ndarray,
    tbuf: np.ndarray,
    tptr: np.ndarray,
    isolated: bool,
    kprefix: np.ndarray,
    kseed: np.ndarray,
) -> tuple[int, int]:
    """Play reference transitions in place from `rounds` until a stop; returns (code, rounds).

    Isolated streams: each unhappy agent's (order key, tie key) is drawn from its agent stream,
    whose words are `kprefix` (magic and purpose), the round, the agent id and `kseed`.
    """
    ncell = size * size
    n = types.size
    ca = np.zeros(ncell, np.int64)
    cb = np.zeros(ncell, np.int64)
    avail = np.zeros(ncell, np.bool_)
    elig = np.zeros((2, ncell), np.bool_)
    lists = np.empty((2, ncell), np.int64)
    unhappy = np.empty(n, np.int64)
    cand = np.empty(ncell, np.int64)
    vac = np.empty(ncell, np.int64)
    moves_a = np.empty(n, np.int64)
    moves_o = np.empty(n, np.int64)
    moves_d = np.empty(n, np.int64)
    keys = np.zeros((n, 2), np.float64)
    while rounds < cap:
        ca[:] = 0
        cb[:] = 0
        for c in range(ncell):
            a = flat[c]
            if a < 0:
                continue
            r0 = c // size
            c0 = c % size
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    v = ((r0 + dr) % size) * size + (c0 + dc) % size
                    if types[a] == 0:
                        ca[v] += 1
                    else:
                        cb[v] += 1
        nu = 0
        for a in range(n):
            c = pos[a]
            same = ca[c] if types[a] == 0 else cb[c]
            if not _ok(same, ca[c] + cb[c], num, den):
                unhappy[nu] = a
                nu += 1
        if nu == 0:
            return EQUILIBRIUM, rounds
        if isolated:
            for k in range(nu):
                agent_doubles(kprefix, kseed, rounds, unhappy[k], keys[unhappy[k]])
            order = unhappy[:nu][np.argsort(keys[unhappy[:nu], 0], kind="mergesort")]
        else:
            if obuf.size - optr[0] < 8 * nu + 64 or tbuf.size - tptr[0] < 4 * nu + 64:
                return REFILL, rounds
            order = unhappy[:nu].copy()
            for i in range(nu - 1, 0, -1):
                j = _interval(obuf, optr, i)
                if j < 0:
                    return EXHAUSTED, rounds
                tmp = order[i]
                order[i] = order[j]
                order[j] = tmp
        nv = 0
        lens = np.zeros(2, np.int64)
        for c in range(ncell):
            avail[c] = flat[c] < 0
            if avail[c]:
                vac[nv] = c
                nv += 1
                occ = ca[c] + cb[c]
                for t in range(2):
                    e = _ok(ca[c] if t == 0 else cb[c], occ, num, den)
                    elig[t, c] = e
                    if e:
                        lists[t, lens[t]] = c
                        lens[t] += 1
        live = lens.copy()  # eligible and still available, per type
        left = nv
        nm = 0
        dmax = (size - 1) // 2
        for k in range(nu):
            if left == 0:
                break
            a = order[k]
            o = pos[a]
            t = types[a]
            pick = -1
            if random_empty:
                if isolated:
                    idx = min(np.int64(keys[a, 1] * left), left - 1)
                elif left > 1:
                    idx = _lemire(tbuf, tptr, left)
                    if idx < 0:
                        return EXHAUSTED, rounds
                else:
                    idx = 0
                seen = 0
                for q in range(nv):
                    if avail[vac[q]]:
                        if seen == idx:
                            pick = vac[q]
                            break
                        seen += 1
            else:
                r0 = o // size
                c0 = o % size
                nc = 0
                for dr in range(-1, 2):
                    for dc in range(-1, 2):
                        if dr == 0 and dc == 0:
                            continue
                        v = ((r0 + dr) % size) * size + (c0 + dc) % size
                        if avail[v]:
                            same = (ca[v] if t == 0 else cb[v]) - 1
                            if _ok(same, ca[v] + cb[v] - 1, num, den):
                                cand[nc] = v
                                nc += 1
                if nc == 0 and live[t] > 0:
                    if live[t] * lens[t] > ncell:
                        for d in range(2, dmax + 1):
                            for dr in range(-d, d + 1):
                                step = 1 if (dr == -d or dr == d) else 2 * d
                                for dc in range(-d, d + 1, step):
                                    v = ((r0 + dr) % size) * size + (c0 + dc) % size
                                    if avail[v] and elig[t, v]:
                                        cand[nc] = v
                                        nc += 1
                            if nc > 0:
                                break
                    if nc == 0:
                        best = ncell
                        for q in range(lens[t]):
                            v = lists[t, q]
                            if not avail[v]:
                                continue
                            d = _dist(o, v, size)
                            if d < 2:
                                continue
                            if d < best:
                                best = d
                                nc = 0
                            if d == best:
                                cand[nc] = v
                                nc += 1
                if nc == 0:
                    continue
                _sort_small(cand, nc)
                if isolated:
                    pick = cand[min(np.int64(keys[a, 1] * nc), nc - 1)]
                elif nc > 1:
                    j = _lemire(tbuf, tptr, nc)
                    if j < 0:
                        return EXHAUSTED, rounds
                    pick = cand[j]
                else:
                    pick = cand[0]
            avail[pick] = False
            left -= 1
            for tt in range(2):
                if elig[tt, pick]:
                    live[tt] -= 1
            moves_a[nm] = a
            moves_o[nm] = o
            moves_d[nm] = pick
            nm += 1
        if nm == 0:
            return BLOCKED, rounds
        for m in range(nm):
            flat[moves_o[m]] = -1
        for m in range(nm):
            flat[moves_d[m]] = moves_a[m]
            pos[moves_a[m]] = moves_d[m]
        rounds += 1
    return HORIZON, rounds


@njit(cache=True)
def final_measures(flat: np.ndarray, types: np.ndarray, size: int, num: int, den: int) -> tuple[float, float]:
    """(satisfaction, edge homophily) over all agents, as models/schelling/metrics.py computes them."""
    n_sat = n_occ = same = pairs = 0
    for c in range(size * size):
        a = flat[c]
        if a < 0:
            continue
        r0, c0 = c // size, c % size
        t = types[a]
        s_cnt = o_cnt = 0
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                b = flat[((r0 + dr) % size) * size + (c0 + dc) % size]
                if b >= 0:
                    o_cnt += 1
                    s_cnt += types[b] == t
        n_occ += 1
        n_sat += _ok(s_cnt, o_cnt, num, den)
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            b = flat[((r0 + dr) % size) * size + (c0 + dc) % size]
            if b >= 0:
                pairs += 1
                same += types[b] == t
    sat = n_sat / n_occ if n_occ else 1.0
    oeh = same / pairs if pairs else np.nan
    return sat, oeh


@lru_cache(maxsize=4096)
def _words(stream_id: int, vacancy: Fraction, threshold: Fraction) -> tuple[int, ...]:
    """Seeding words without the seed (the lookups in the pilot lists are cached per cell)."""
    probe = SchellingParams.model_construct(vacancy=vacancy, threshold=threshold)
    return tuple(stream_words(stream_id, probe, 0)[:-1])


def _board(params: SchellingParams, seed: int) -> np.ndarray:
    """mam_bench.models.schelling.seeding.initial_board with cached words (flat, -1 vacant)."""
    dtype = np.uint16 if params.cells < 2**16 else np.uint32
    tokens = np.arange(params.cells, dtype=dtype)
    seeded([*_words(PLACEMENT, params.vacancy, params.threshold), int(seed)]).shuffle(tokens)
    flat = tokens.astype(np.int64)
    flat[flat >= params.n_agents] = -1
    return flat


def _uint32_stream(rng: np.random.Generator, words: int) -> np.ndarray:
    """The next `words` values numpy's next_uint32 would give (low half of each output first)."""
    return rng.bit_generator.random_raw((words + 1) // 2).view(np.uint32)


def fast_reference(
    params: SchellingParams, seed: int, max_rounds: int | None = None
) -> tuple[str, int, np.ndarray, np.ndarray]:
    """Status, transitions, final board and types of one reference run (same as the world)."""
    cap = params.max_rounds if max_rounds is None else max_rounds
    n, size = params.n_agents, params.size
    num, den = params.threshold.numerator, params.threshold.denominator
    random_empty = params.move_rule == "random_empty"
    types = np.zeros(n, dtype=np.int64)
    types[params.n_a :] = 1
    flat0 = _board(params, seed)
    if params.streams == "isolated":
        return _isolated_reference(params, seed, cap, flat0, types)
    margin = 16
    while True:
        flat = flat0.copy()
        pos = np.empty(n, dtype=np.int64)
        pos[flat[flat >= 0]] = np.flatnonzero(flat >= 0)
        order_rng = seeded([*_words(ORDER, params.vacancy, params.threshold), int(seed)])
        tie_rng = seeded([*_words(TIES, params.vacancy, params.threshold), int(seed)])
        chunk = margin * n + 256
        obuf, tbuf = _uint32_stream(order_rng, chunk), _uint32_stream(tie_rng, chunk)
        optr, tptr = np.zeros(1, np.int64), np.zeros(1, np.int64)
        rounds = 0
        while True:
            code, rounds = run_kernel(
                flat,
                types,
                pos,
                size,
                num,
                den,
                cap,
                rounds,
                random_empty,
                obuf,
                optr,
                tbuf,
                tptr,
                False,
                _NO_WORDS,
                _NO_WORDS,
            )
            if code != REFILL:
                break
            obuf = np.concatenate([obuf[optr[0] :], _uint32_stream(order_rng, chunk)])
            tbuf = np.concatenate([tbuf[tptr[0] :], _uint32_stream(tie_rng, chunk)])
            optr[0] = tptr[0] = 0
        if code != EXHAUSTED:
            return STATUS[code], rounds, flat.reshape(size, size), types
        margin *= 4  # a freak run of rejections: replay from the start with longer buffers


_NO_WORDS = np.zeros(0, dtype=np.uint64)
_NO_BUF = np.zeros(0, dtype=np.uint32)
#: the words of every Schelling rule stream before (round, actor, seed)
_RULE_PREFIX = stream_prefix(RULE_PURPOSE)


def _isolated_reference(
    params: SchellingParams,
    seed: int,
    cap: int,
    flat0: np.ndarray,
    types: np.ndarray,
) -> tuple[str, int, np.ndarray, np.ndarray]:
    """The reference with per-agent streams, drawn inside the kernel (no pause per round)."""
    n, size = params.n_agents, params.size
    flat = flat0.copy()
    pos = np.empty(n, dtype=np.int64)
    pos[flat[flat >= 0]] = np.flatnonzero(flat >= 0)
    ptr = np.zeros(1, np.int64)
    code, rounds = run_kernel(
        flat,
        types,
        pos,
        size,
        params.threshold.numerator,
        params.threshold.denominator,
        cap,
        0,
        params.move_rule == "random_empty",
        _NO_BUF,
        ptr,
        _NO_BUF,
        ptr,
        True,
        _RULE_PREFIX,
        uint32_words([seed]),
    )
    return STATUS[code], rounds, flat.reshape(size, size), types


def fast_reference_outcome(params: SchellingParams, seed: int, max_rounds: int | None = None) -> dict:
    """The landscape row of one reference run: status, rounds, final satisfaction and OEH."""
    status, rounds, grid, types = fast_reference(params, seed, max_rounds)
    sat, oeh = final_measures(
        grid.ravel(), types, params.size, params.threshold.numerator, params.threshold.denominator
    )
    return {"status": status, "rounds": rounds, "final_satisfaction": float(sat), "final_homophily": float(oeh)}


numba_start.light_cache_loads(globals())

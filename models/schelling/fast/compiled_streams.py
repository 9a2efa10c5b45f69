"""Agent streams replayed inside numba, so the landscape kernel never pauses for Python draws.

`mam_bench.streams.agent_stream(seed, purpose, round, actor).random(k)` builds numpy's
SeedSequence from the words [MAGIC, crc32(purpose), round, actor, seed], seeds PCG64 (XSL-RR,
128-bit state) from four of its uint64 words and turns each output into a double. Building that
Generator costs tens of microseconds in Python; here it costs well under one. The algorithm
facts come from numpy's SeedSequence and PCG64 sources; tests compare the draws with numpy's
own for thousands of word lists and with `agents.rule_keys`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.pcg_stream import entropy_words
from mam_bench.streams import MAGIC, purpose_word

numba_start.cache_where_writable(__file__)

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_MUL_HI, _MUL_LO = np.uint64(2549297995355413924), np.uint64(4865540595714422341)
_16, _32, _58, _63 = np.uint64(16), np.uint64(32), np.uint64(58), np.uint64(63)
_ONE = np.uint64(1)


def uint32_words(values: list[int] | tuple[int, ...]) -> np.ndarray:
    """SeedSequence's entropy words for a list of non-negative ints, as the kernel takes them."""
    return np.array(entropy_words(values), dtype=np.uint64)


def stream_prefix(purpose: str) -> np.ndarray:
    """The words before (round, actor, seed) of an agent stream for `purpose`."""
    return uint32_words([*MAGIC, purpose_word(purpose)])


@njit(cache=True)
def _hashmix(value: np.uint64, hc: np.ndarray) -> np.uint64:
    value = (value ^ hc[0]) & _M32
    hc[0] = (hc[0] * _MULT_A) & _M32
    value = (value * hc[0]) & _M32
    return value ^ (value >> _16)


@njit(cache=True)
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> _16)


@njit(cache=True)
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    """High 64 bits of a 64 x 64 bit product."""
    a_lo, a_hi = a & _M32, a >> _32
    b_lo, b_hi = b & _M32, b >> _32
    lolo, hilo = a_lo * b_lo, a_hi * b_lo
    cross = (lolo >> _32) + (hilo & _M32) + a_lo * b_hi
    return a_hi * b_hi + (hilo >> _32) + (cross >> _32)


@njit(cache=True)
def _step(s_hi: np.uint64, s_lo: np.uint64, i_hi: np.uint64, i_lo: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One PCG64 LCG step, state * multiplier + increment (mod 2**128), in two 64-bit halves."""
    lo = s_lo * _MUL_LO
    hi = _mulhi(s_lo, _MUL_LO) + s_hi * _MUL_LO + s_lo * _MUL_HI
    new_lo = lo + i_lo
    return hi + i_hi + (_ONE if new_lo < lo else np.uint64(0)), new_lo


@njit(cache=True)
def pcg_seeded(entropy: np.ndarray) -> np.ndarray:
    """PCG64(SeedSequence(entropy)) as numpy seeds it: [state hi, state lo, increment hi,
    increment lo, has a buffered 32-bit half, that half] (the state `next_uint32` draws from)."""
    pool = np.zeros(4, np.uint64)
    hc = np.full(1, _INIT_A, np.uint64)
    n = entropy.size
    for i in range(4):
        pool[i] = _hashmix(entropy[i] if i < n else np.uint64(0), hc)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], hc))
    for src in range(4, n):
        for dst in range(4):
            pool[dst] = _mix(pool[dst], _hashmix(entropy[src], hc))
    words = np.zeros(8, np.uint64)  # generate_state(4, uint64): eight uint32 words, low word first
    h = _INIT_B
    for i in range(8):
        v = (pool[i % 4] ^ h) & _M32
        h = (h * _MULT_B) & _M32
        v = (v * h) & _M32
        words[i] = v ^ (v >> _16)
    s_hi, s_lo = words[0] | (words[1] << _32), words[2] | (words[3] << _32)
    q_hi, q_lo = words[4] | (words[5] << _32), words[6] | (words[7] << _32)
    i_hi, i_lo = (q_hi << _ONE) | (q_lo >> _63), (q_lo << _ONE) | _ONE  # inc = (initseq << 1) | 1
    a_hi, a_lo = _step(np.uint64(0), np.uint64(0), i_hi, i_lo)
    lo = a_lo + s_lo
    a_hi, a_lo = a_hi + s_hi + (_ONE if lo < a_lo else np.uint64(0)), lo
    a_hi, a_lo = _step(a_hi, a_lo, i_hi, i_lo)
    state = np.zeros(6, np.uint64)
    state[0], state[1], state[2], state[3] = a_hi, a_lo, i_hi, i_lo
    return state


@njit(cache=True)
def next_uint64(state: np.ndarray) -> np.uint64:
    """PCG64's next output (one LCG step, then XSL-RR), as numpy's `random_raw` gives it."""
    a_hi, a_lo = _step(state[0], state[1], state[2], state[3])
    state[0], state[1] = a_hi, a_lo
    x = a_hi ^ a_lo
    rot = a_hi >> _58
    return (x >> rot) | (x << ((np.uint64(64) - rot) & _63))


@njit(cache=True)
def next_uint32(state: np.ndarray) -> int:
    """numpy's next_uint32 for PCG64: the low half of a fresh output, its high half next time."""
    if state[4]:
        state[4] = 0
        return np.int64(state[5])
    r = next_uint64(state)
    state[4] = 1
    state[5] = r >> _32
    return np.int64(r & _M32)


@njit(cache=True)
def seeded_doubles(entropy: np.ndarray, out: np.ndarray) -> None:
    """Fill `out` with Generator(PCG64(SeedSequence(entropy))).random(out.size), bit for bit."""
    state = pcg_seeded(entropy)
    for k in range(out.size):
        out[k] = np.float64(next_uint64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _append_int(buf: np.ndarray, at: int, value: int) -> int:
    """Write a non-negative int's uint32 words at buf[at:]; returns the next free index."""
    v = np.uint64(value)
    buf[at] = v & _M32
    at += 1
    v >>= _32
    while v:
        buf[at] = v & _M32
        at += 1
        v >>= _32
    return at


@njit(cache=True)
def agent_doubles(prefix: np.ndarray, seed_words: np.ndarray, round_: int, actor: int, out: np.ndarray) -> None:
    """`agent_stream(seed, purpose, round_, actor).random(out.size)` with the purpose's prefix words."""
    buf = np.empty(prefix.size + 4 + seed_words.size, np.uint64)
    buf[: prefix.size] = prefix
    at = _append_int(buf, prefix.size, round_)
    at = _append_int(buf, at, actor)
    buf[at : at + seed_words.size] = seed_words
    seeded_doubles(buf[: at + seed_words.size], out)


numba_start.light_cache_loads(globals())

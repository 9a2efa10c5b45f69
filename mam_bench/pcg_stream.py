"""numpy's `Generator(PCG64(SeedSequence(words)))`, replayed in plain Python for one agent's round.

Swarm rules make one addressed stream per agent per round and usually draw once from it
(`integers(n)` for a step, sometimes `random()`). Building numpy's SeedSequence, PCG64 and
Generator for that costs about 25 us, a third of a 200-agent round; this replay costs a few. It
gives numpy's very numbers: the seed hash and the generator follow numpy's SeedSequence
(`mix_entropy`, `generate_state`), PCG64 (128-bit LCG, XSL-RR output, the buffered 32-bit half)
and the bounded integers (32-bit Lemire with rejection), and tests compare it with numpy draw for
draw. Any other method hands the exact state to a real numpy Generator and carries on there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_M32, _M64, _M128 = 0xFFFFFFFF, 2**64 - 1, 2**128 - 1
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_POOL = 4


def _hash_consts(n: int, start: int, mult: int) -> tuple[int, ...]:
    """The hash constant each successive hashmix uses: it is multiplied on after every call,
    whatever the data, so the whole sequence is known in advance."""
    out, h = [], start
    for _ in range(n):
        out.append(h)
        h = (h * mult) & _M32
    return tuple(out)


#: word lists up to this long are replayed (agent streams have six to eight words)
_MAX_WORDS = 32
#: SeedSequence hashmix constants: pool fill (4), all-pairs mixing (12), then 4 per extra word
_A = _hash_consts(16 + 4 * (_MAX_WORDS - _POOL) + 1, _INIT_A, _MULT_A)
#: generate_state's constants for PCG64's four uint64 words (eight uint32 words)
_B = _hash_consts(9, _INIT_B, _MULT_B)


def _hashmix(value: int, k: int) -> int:
    v = (((value ^ _A[k]) & _M32) * _A[k + 1]) & _M32
    return v ^ (v >> 16)


def _mix(x: int, y: int) -> int:
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> 16)


def entropy_words(values: list[int] | tuple[int, ...]) -> list[int]:
    """SeedSequence's uint32 entropy words for non-negative ints (a big int spans several)."""
    if all(type(v) is int and 0 <= v <= _M32 for v in values):
        return list(values)
    out: list[int] = []
    for value in values:
        value = int(value)
        if value < 0:
            raise ValueError("entropy words must be non-negative")
        out.append(value & _M32)
        value >>= 32
        while value:
            out.append(value & _M32)
            value >>= 32
    return out


_PREFIX: dict[tuple[int, ...], list[int]] = {}


def _mixed_pool(head: tuple[int, ...]) -> list[int]:
    """The pool after the first four words and the all-pairs mixing (shared by every agent of a
    purpose and round, so it is kept)."""
    pool = _PREFIX.get(head)
    if pool is None:
        pool = [_hashmix(w, i) for i, w in enumerate(head)]
        k = _POOL
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    pool[dst] = _mix(pool[dst], _hashmix(pool[src], k))
                    k += 1
        if len(_PREFIX) > 4096:
            _PREFIX.clear()
        _PREFIX[head] = pool
    return pool


def pcg_seed(words: list[int]) -> tuple[int, int]:
    """(state, increment) of PCG64 seeded from SeedSequence(words), as numpy sets them.

    Written out flat (no helper calls): agents make one stream each per round.
    """
    p0, p1, p2, p3 = _mixed_pool(tuple(words[:_POOL]) + (0,) * (_POOL - len(words)))
    a, k = _A, _POOL + _POOL * (_POOL - 1)
    for w in words[_POOL:]:
        v = (((w ^ a[k]) & _M32) * a[k + 1]) & _M32
        r = (_MIX_L * p0 - _MIX_R * (v ^ (v >> 16))) & _M32
        p0 = r ^ (r >> 16)
        v = (((w ^ a[k + 1]) & _M32) * a[k + 2]) & _M32
        r = (_MIX_L * p1 - _MIX_R * (v ^ (v >> 16))) & _M32
        p1 = r ^ (r >> 16)
        v = (((w ^ a[k + 2]) & _M32) * a[k + 3]) & _M32
        r = (_MIX_L * p2 - _MIX_R * (v ^ (v >> 16))) & _M32
        p2 = r ^ (r >> 16)
        v = (((w ^ a[k + 3]) & _M32) * a[k + 4]) & _M32
        r = (_MIX_L * p3 - _MIX_R * (v ^ (v >> 16))) & _M32
        p3 = r ^ (r >> 16)
        k += 4
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = _B
    w0 = (((p0 ^ b0) & _M32) * b1) & _M32
    w1 = (((p1 ^ b1) & _M32) * b2) & _M32
    w2 = (((p2 ^ b2) & _M32) * b3) & _M32
    w3 = (((p3 ^ b3) & _M32) * b4) & _M32
    w4 = (((p0 ^ b4) & _M32) * b5) & _M32
    w5 = (((p1 ^ b5) & _M32) * b6) & _M32
    w6 = (((p2 ^ b6) & _M32) * b7) & _M32
    w7 = (((p3 ^ b7) & _M32) * b8) & _M32
    # generate_state(4, uint64): words 0-1 the state's high half, 2-3 its low half, 4-7 the stream
    seed = ((w0 ^ w0 >> 16) | (w1 ^ w1 >> 16) << 32) << 64 | (w2 ^ w2 >> 16) | (w3 ^ w3 >> 16) << 32
    initseq = ((w4 ^ w4 >> 16) | (w5 ^ w5 >> 16) << 32) << 64 | (w6 ^ w6 >> 16) | (w7 ^ w7 >> 16) << 32
    inc = (initseq << 1 | 1) & _M128
    state = (inc + seed) & _M128  # srandom: state 0, one step (-> inc), add the seed, one step
    return (state * _PCG_MULT + inc) & _M128, inc


def pcg_seeds(head: tuple[int, ...], varying: list[int], tail: list[int]) -> list[tuple[int, int]]:
    """`pcg_seed(head + [v] + tail)` for every v, the hashing done once over all of them.

    For a round's agent streams: `head` is the four words before the actor (so the mixed pool is
    shared), `varying` the actor ids, `tail` the seed's words; all are single uint32 words. numpy
    arrays of uint64 hold the 32-bit values, so products and differences wrap as in C.
    """
    pool = _mixed_pool(head)
    a = np.asarray(varying, dtype=np.uint64)
    p = [np.full(len(a), pool[i], dtype=np.uint64) for i in range(_POOL)]
    k = _POOL + _POOL * (_POOL - 1)
    for dst in range(_POOL):
        v = (((a ^ _A[k + dst]) & _M32) * _A[k + dst + 1]) & _M32
        r = (_MIX_L * p[dst] - _MIX_R * (v ^ (v >> 16))) & _M32
        p[dst] = r ^ (r >> 16)
    k += _POOL
    for w in tail:  # the same word for every actor: its hash is one number
        for dst in range(_POOL):
            v = (((w ^ _A[k + dst]) & _M32) * _A[k + dst + 1]) & _M32
            r = (_MIX_L * p[dst] - _MIX_R * (v ^ (v >> 16))) & _M32
            p[dst] = r ^ (r >> 16)
        k += _POOL
    w = []
    for i in range(8):
        v = (((p[i & 3] ^ _B[i]) & _M32) * _B[i + 1]) & _M32
        w.append((v ^ (v >> 16)).tolist())
    out = []
    for w0, w1, w2, w3, w4, w5, w6, w7 in zip(*w):
        seed = (w0 | w1 << 32) << 64 | w2 | w3 << 32
        inc = (((w4 | w5 << 32) << 64 | w6 | w7 << 32) << 1 | 1) & _M128
        out.append((((inc + seed) & _M128) * _PCG_MULT + inc & _M128, inc))
    return out


class PCGStream:
    """One addressed stream: `integers(n)` and `random()` in Python, the rest through numpy."""

    __slots__ = ("_state", "_inc", "_half", "_gen")

    def __init__(self, words: list[int]):
        self._half: int | None = None  # PCG64's buffered upper 32 bits
        self._gen: np.random.Generator | None = None
        if len(words) > _MAX_WORDS:  # beyond the precomputed constants: numpy seeds it
            self._gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(words)))
            self._state = self._inc = 0
        else:
            self._state, self._inc = pcg_seed(words)

    @classmethod
    def at(cls, state: int, inc: int) -> PCGStream:
        """A stream from a seeded (state, increment), as `pcg_seeds` gives them."""
        self = cls.__new__(cls)
        self._state, self._inc, self._half, self._gen = state, inc, None, None
        return self

    def _next64(self) -> int:
        s = self._state = (self._state * _PCG_MULT + self._inc) & _M128
        x, rot = ((s >> 64) ^ s) & _M64, s >> 122
        return ((x >> rot) | (x << (64 - rot))) & _M64

    def _next32(self) -> int:
        if self._half is not None:
            v, self._half = self._half, None
            return v
        v = self._next64()
        self._half = v >> 32
        return v & _M32

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        """`Generator.integers(n)` for a plain int 1 <= n <= 2**32 - 1 (numpy's int64 path)."""
        if self._gen is None and len(args) == 1 and not kwargs and type(args[0]) is int and 0 < args[0] < _M32:
            n = args[0]
            if n == 1:
                return 0
            m = self._next32() * n
            if m & _M32 < n:
                threshold = (_M32 - (n - 1)) % n
                while m & _M32 < threshold:
                    m = self._next32() * n
            return m >> 32
        return self.numpy().integers(*args, **kwargs)

    def random(self, *args: Any, **kwargs: Any) -> Any:
        """`Generator.random()` for one double (53 high bits of a 64-bit output)."""
        if self._gen is None and not args and not kwargs:
            return (self._next64() >> 11) * (1.0 / 9007199254740992.0)
        return self.numpy().random(*args, **kwargs)

    def numpy(self) -> np.random.Generator:
        """A numpy Generator in this stream's exact state; every later draw goes through it."""
        if self._gen is None:
            bits = np.random.PCG64()
            bits.state = {
                "bit_generator": "PCG64",
                "state": {"state": self._state, "inc": self._inc},
                "has_uint32": int(self._half is not None),
                "uinteger": self._half or 0,
            }
            self._gen = np.random.Generator(bits)
        return self._gen

    def __getattr__(self, name: str) -> Any:
        return getattr(self.numpy(), name)

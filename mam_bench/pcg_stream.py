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


def _hashmix(value: Any, k: int) -> Any:
    """SeedSequence's hashmix with the k-th constant (a Python int, or uint64 arrays holding 32-bit
    values, whose products and differences wrap as in C)."""
    v = (((value ^ _A[k]) & _M32) * _A[k + 1]) & _M32
    return v ^ (v >> 16)


def _mix(x: Any, y: Any) -> Any:
    r = (_MIX_L * x - _MIX_R * y) & _M32
    return r ^ (r >> 16)


def _absorb(pool: list[Any], words: list[Any], k: int) -> int:
    """Mix each word past the first four into every pool slot; returns the next constant's index."""
    for w in words:
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashmix(w, k))
            k += 1
    return k


def _state_words(pool: list[Any]) -> list[Any]:
    """generate_state(4, uint64) as eight 32-bit words, low word of each uint64 first."""
    out = []
    for i in range(8):
        v = (((pool[i & 3] ^ _B[i]) & _M32) * _B[i + 1]) & _M32
        out.append(v ^ (v >> 16))
    return out


def _pcg_state(w: list[int]) -> tuple[int, int]:
    """PCG64's (state, increment) after numpy seeds it from the eight words: words 0-1 are the
    seed's high half, 2-3 its low half, 4-7 the stream; srandom starts at state 0, steps (-> inc),
    adds the seed and steps again."""
    seed = (w[0] | w[1] << 32) << 64 | w[2] | w[3] << 32
    inc = (((w[4] | w[5] << 32) << 64 | w[6] | w[7] << 32) << 1 | 1) & _M128
    return (((inc + seed) & _M128) * _PCG_MULT + inc) & _M128, inc


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
        pool = _mixed([_hashmix(w, i) for i, w in enumerate(head)])
        if len(_PREFIX) > 4096:
            _PREFIX.clear()
        _PREFIX[head] = pool
    return pool


def _mixed(pool: list[Any]) -> list[Any]:
    """SeedSequence's all-pairs mixing of the filled pool, in place."""
    k = _POOL
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], k))
                k += 1
    return pool


def pcg_seeds_of(values: list[int]) -> list[tuple[int, int]]:
    """(state, increment) of `np.random.PCG64(v)` for every int 0 <= v < 2**64, hashed together
    (a round's per-agent `rng` seeds): one or two entropy words, the pool padded with zeros."""
    a = np.asarray(values, dtype=np.uint64)
    zero = np.zeros_like(a)
    pool = _mixed([_hashmix(w, i) for i, w in enumerate((a & _M32, a >> 32, zero, zero))])
    return [_pcg_state(w) for w in zip(*(x.tolist() for x in _state_words(pool)))]


def pcg_seed(words: list[int]) -> tuple[int, int]:
    """(state, increment) of PCG64 seeded from SeedSequence(words), as numpy sets them."""
    pool = list(_mixed_pool(tuple(words[:_POOL]) + (0,) * (_POOL - len(words))))
    _absorb(pool, words[_POOL:], _POOL * _POOL)
    return _pcg_state(_state_words(pool))


def pcg_seeds(head: tuple[int, ...], varying: list[int], tail: list[int]) -> list[tuple[int, int]]:
    """`pcg_seed(head + [v] + tail)` for every v, the hashing done once over all of them.

    For a round's agent streams: `head` is the four words before the actor (so the mixed pool is
    shared), `varying` the actor ids, `tail` the seed's words; all are single uint32 words. The
    same hashing as `pcg_seed`, on uint64 arrays with one entry per v.
    """
    a = np.asarray(varying, dtype=np.uint64)
    pool = [np.full(len(a), p, dtype=np.uint64) for p in _mixed_pool(head)]
    _absorb(pool, [a, *tail], _POOL * _POOL)
    return [_pcg_state(w) for w in zip(*(x.tolist() for x in _state_words(pool)))]


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

    def below_2_63(self, count: int) -> list[int]:
        """`Generator.integers(2**63, size=count)` as ints: numpy's 64-bit Lemire bound on a
        range of 2**63 never rejects and keeps the output's top 63 bits."""
        return [self._next64() >> 1 for _ in range(count)]

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

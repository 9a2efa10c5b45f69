"""The pilot's addressed streams: one generator per (seed, step, phase, agent, purpose), keyed by a
BLAKE2b digest of the length-prefixed parts, so nobody's draw depends on who else acted."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import numpy as np

from mam_bench.streams import recorded, recording

#: slots whose first draw is kept (a planner's rollouts replay the same rounds' slots many times;
#: a round of the benchmark's board addresses about a thousand)
CACHED_SLOTS = 1 << 16


def _word(n: int) -> bytes:
    return n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big")


def pilot_rng(seed: int, step: int, phase: str, agent_id: int, purpose: str) -> np.random.Generator:
    """The pilot's generator for one turn slot (not logged: the phase orders use agent 0)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (_word(seed), _word(step), phase.encode(), _word(agent_id), purpose.encode()):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return np.random.default_rng(int.from_bytes(digest.digest(), "big"))


def agent_rng(seed: int, step: int, phase: str, agent_id: int, purpose: str) -> Any:
    """One agent's slot, logged by address while draws are recorded (the conformance checks)."""
    return recorded(pilot_rng(seed, step, phase, agent_id, purpose), f"{phase}.{purpose}", step, agent_id)


def initial_draws(
    seed: int, n_cells: int, n_citizens: int, mean: float, std: float
) -> tuple[np.ndarray, list[float], Any]:
    """The pilot's set-up, in its order on one `default_rng(seed)`: the cell permutation, one
    normal preference per citizen, then the generator (it draws the replaced ids next)."""
    rng = np.random.default_rng(seed)
    cells = rng.permutation(n_cells)
    prefs = [float(rng.normal(mean, std)) for _ in range(n_citizens)]
    return cells, prefs, rng


def bounded(gen: Any, n: int) -> int:
    """`gen.integers(n)` exactly as numpy draws it (Lemire's method on 32-bit words; nothing drawn
    for n = 1), taken word by word, so what a recorded stream logs is the word, which does not
    depend on how many options the board left the agent."""
    if n == 1:
        return 0
    m = int(gen.integers(0, 2**32, dtype=np.uint32)) * n
    if m & 0xFFFFFFFF < n:
        threshold = (2**32 - n) % n
        while m & 0xFFFFFFFF < threshold:
            m = int(gen.integers(0, 2**32, dtype=np.uint32)) * n
    return m >> 32


@functools.lru_cache(maxsize=CACHED_SLOTS)
def _first_word(seed: int, step: int, phase: str, agent_id: int, purpose: str) -> int:
    return int(pilot_rng(seed, step, phase, agent_id, purpose).integers(0, 2**32, dtype=np.uint32))


@functools.lru_cache(maxsize=CACHED_SLOTS)
def _first_float(seed: int, step: int, phase: str, agent_id: int, purpose: str) -> float:
    return float(pilot_rng(seed, step, phase, agent_id, purpose).random())


def slot_bounded(seed: int, step: int, phase: str, agent_id: int, purpose: str, n: int) -> int:
    """`bounded(agent_rng(...), n)` without building the generator again for a slot seen before:
    its first word is kept; the rare draw that needs a second word (and every draw while draws
    are recorded) goes through the generator itself."""
    if n == 1:
        return 0
    if recording():
        return bounded(agent_rng(seed, step, phase, agent_id, purpose), n)
    m = _first_word(seed, step, phase, agent_id, purpose) * n
    if m & 0xFFFFFFFF < n:
        return bounded(pilot_rng(seed, step, phase, agent_id, purpose), n)
    return m >> 32


def slot_random(seed: int, step: int, phase: str, agent_id: int, purpose: str) -> float:
    """`agent_rng(...).random()`, the slot's one float kept like `slot_bounded`'s word."""
    if recording():
        return float(agent_rng(seed, step, phase, agent_id, purpose).random())
    return _first_float(seed, step, phase, agent_id, purpose)


@functools.lru_cache(maxsize=1 << 12)
def _permutation(seed: int, step: int, phase: str, purpose: str, n: int) -> tuple[int, ...]:
    order = list(range(n))
    pilot_rng(seed, step, phase, 0, purpose).shuffle(order)
    return tuple(order)


def shuffled(seed: int, step: int, phase: str, purpose: str, ids: list[int]) -> list[int]:
    """`ids` as `pilot_rng(seed, step, phase, 0, purpose).shuffle(ids)` orders them: a shuffle of a
    list moves places, whatever they hold, so the order of places is kept per length."""
    return [ids[k] for k in _permutation(seed, step, phase, purpose, len(ids))]

"""Addressed randomness: every draw comes from a stream named by its purpose.

Replacing one agent with an influence agent must not shift anybody else's draws, so worlds never
share one global generator; they ask for `stream(seed, "order", round)` and the like.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from mam_bench.pcg_stream import PCGStream, entropy_words, pcg_seeds

MAGIC = (0x4D414D42, 0x454E4348)  # "MAMB", "ENCH"


def seeded(words: list[int]) -> np.random.Generator:
    """A PCG64 generator from an explicit word list (used for pilot-compatible seeding).

    numpy reads each Python int in [0, 2**32) as one 32-bit word; handing it those words as a
    uint32 array gives the same SeedSequence a third faster (agents make one stream per round).
    """
    if all(type(w) is int and 0 <= w < _WORD for w in words):
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(np.array(words, dtype=np.uint32))))
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(words)))


_WORD = 2**32


def purpose_word(purpose: str) -> int:
    return zlib.crc32(purpose.encode("utf-8"))


def _stream(seed: int, purpose: str, *key: int) -> np.random.Generator:
    return seeded([*MAGIC, purpose_word(purpose), *[int(k) for k in key], int(seed)])


def stream(seed: int, purpose: str, *key: int) -> np.random.Generator:
    """The generator for one purpose (and optional key such as an actor id or round).

    A world stream: while `record_draws()` is active its draws are logged by address, and, inside
    `acting(actor, round)`, also as draws consumed by that actor (a harvest's yield, a blow).
    """
    gen = _stream(seed, purpose, *key)
    if _RECORDERS:
        return _RecordingGenerator(gen, (purpose, *[int(k) for k in key]), _RECORDERS[-1], world=True)
    return gen


def agent_stream(seed: int, purpose: str, round_: int, actor_id: int) -> np.random.Generator:
    """One agent's generator for one purpose in one round.

    Every stochastic choice of an ordinary agent (its order key, its tie-breaks, its own moves)
    comes from here, so swapping any other agent for an influence agent cannot move its draws.
    While `record_draws()` is active the generator logs what it hands out.
    """
    return recorded(_stream(seed, purpose, int(round_), int(actor_id)), purpose, round_, actor_id)


def agent_draws(seed: int, purpose: str, round_: int, actor_id: int) -> PCGStream:
    """`agent_stream`'s very draws, replayed in Python: a few microseconds instead of numpy's
    twenty-five to set a stream up, for rules that make one per agent per round."""
    words = entropy_words([*MAGIC, purpose_word(purpose), int(round_), int(actor_id), int(seed)])
    return recorded(PCGStream(words), purpose, round_, actor_id)


def recorded(gen: Any, purpose: str, round_: int, actor_id: int) -> Any:
    """`gen`, logging its draws while `record_draws()` is active (a world with per-agent generators
    of its own addresses them here, so the conformance checks see them)."""
    if _RECORDERS:
        return _RecordingGenerator(gen, (purpose, int(round_), int(actor_id)), _RECORDERS[-1])
    return gen


class RoundDraws:
    """Every actor's `agent_draws` for one purpose and round, for a world that asks for many.

    The same streams as `agent_draws`; for a crowd their seeds are hashed together, on the first
    request, which costs a fraction of hashing each alone. A few actors keep the one-by-one path.
    """

    CROWD = 32

    def __init__(self, seed: int, purpose: str, round_: int, actors: int):
        self.seed, self.purpose, self.round, self.actors = int(seed), purpose, int(round_), int(actors)
        self._seeds: list[tuple[int, int]] | None = None
        # the batch hashes one word each for round, actor and seed
        self._batch = actors >= self.CROWD and len(entropy_words([self.round, self.seed, self.actors])) == 3

    def of(self, actor_id: int) -> PCGStream:
        if not self._batch or _RECORDERS or not 0 <= actor_id < self.actors:
            return agent_draws(self.seed, self.purpose, self.round, actor_id)
        if self._seeds is None:
            head = (*MAGIC, purpose_word(self.purpose), self.round)
            self._seeds = pcg_seeds(head, list(range(self.actors)), [self.seed])
        return PCGStream.at(*self._seeds[actor_id])


class DrawLog:
    """Draws handed out by agent streams: (purpose, round, actor_id) -> [(method, result), ...];
    `calls` holds the matching (method, arguments). World streams: `world`, by address, and
    `consumed`, (round, actor_id) -> [(address, method, arguments, result), ...] for the draws
    made while that actor acted (see `acting`)."""

    def __init__(self) -> None:
        self.draws: dict[tuple[str, int, int], list[tuple[str, Any]]] = {}
        self.calls: dict[tuple[str, int, int], list[tuple[str, Any]]] = {}
        self.world: dict[tuple[Any, ...], list[tuple[str, Any]]] = {}
        self.consumed: dict[tuple[int, int], list[tuple[tuple[Any, ...], str, Any, Any]]] = {}

    def of(self, actor_id: int, round_: int | None = None) -> dict[tuple[str, int], list[tuple[str, Any]]]:
        """One actor's draws, keyed by (purpose, round), optionally for one round only."""
        return {(p, r): v for (p, r, a), v in self.draws.items() if a == actor_id and (round_ is None or r == round_)}


_RECORDERS: list[DrawLog] = []


def recording() -> bool:
    """A DrawLog is watching: a compiled path that replays agent streams where no log sees them
    should leave the draws to the Python streams meanwhile (isolation tests read the log)."""
    return bool(_RECORDERS)


_ACTING: list[tuple[int, int]] = []  # (round, actor_id) of the actor whose action is resolving


@contextmanager
def acting(actor_id: int, round_: int) -> Iterator[None]:
    """Mark the world-stream draws made inside the block as consumed by this actor's action, so an
    isolation test sees which address each agent's yields and blows came from. Costs nothing
    while no recorder is active."""
    if not _RECORDERS:
        yield
        return
    _ACTING.append((int(round_), int(actor_id)))
    try:
        yield
    finally:
        _ACTING.pop()


@contextmanager
def record_draws() -> Iterator[DrawLog]:
    """Log every draw from `agent_stream` made inside the block (for isolation tests)."""
    log = DrawLog()
    _RECORDERS.append(log)
    try:
        yield log
    finally:
        _RECORDERS.remove(log)


class _RecordingGenerator:
    """A numpy Generator that appends each result to a DrawLog; behaviour is unchanged."""

    def __init__(self, gen: np.random.Generator, key: tuple[Any, ...], log: DrawLog, world: bool = False):
        self._gen, self._key, self._log, self._world = gen, key, log, world

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._gen, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            result = attr(*args, **kwargs)
            value = result.tolist() if isinstance(result, np.ndarray) else result
            args_ = (_plain(args), _plain(kwargs))
            if not self._world:
                self._log.draws.setdefault(self._key, []).append((name, value))
                self._log.calls.setdefault(self._key, []).append((name, args_))
                return result
            self._log.world.setdefault(self._key, []).append((name, value))
            if _ACTING:
                self._log.consumed.setdefault(_ACTING[-1], []).append((self._key, name, args_, value))
            return result

        return call


def _plain(value: Any) -> Any:
    """Arguments as comparable plain data (arrays as lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return tuple(sorted((k, _plain(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value

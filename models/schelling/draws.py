"""The two stream designs of the Schelling rule: the round's seeded order and each mover's ties.

`IsolatedDraws` (the default): each unhappy agent draws (order key, tie key) from its own
`agent_stream` for the round, so swapping any other agent cannot move its draws. `PilotDraws`:
the pilot's shared order permutation and tie stream, which reproduce the page exactly but
reshuffle everyone as soon as one agent leaves the rule. Both the agents' own rule and the array
fast path take their order and ties from here, so the two paths see the very same draws.
"""

from __future__ import annotations

import hashlib

import numpy as np

from mam_bench.models.schelling.seeding import RULE_PURPOSE
from mam_bench.models.schelling.wave import Claim
from mam_bench.streams import agent_stream


class PilotDraws:
    """The pilot's shared streams: one permutation of the unhappy ids, a tie draw only for >= 2 ties."""

    def __init__(self, order_rng: np.random.Generator, tie_rng: np.random.Generator) -> None:
        self.order_rng, self.tie_rng = order_rng, tie_rng

    def order(self, unhappy_ids: np.ndarray) -> np.ndarray:
        return self.order_rng.permutation(unhappy_ids)

    def tie(self, aid: int, n: int) -> int:
        return int(self.tie_rng.integers(n)) if n > 1 else 0

    @staticmethod
    def slots(order: np.ndarray, claims: list[Claim]) -> list[tuple[int, Claim | None]]:
        """The wave: the shared permutation with each claim inserted before the ordinary agent at
        position floor(key * (n + 1)), one of the n + 1 gaps uniformly (claims in one gap by key)."""
        n = int(order.size)
        gaps = sorted(claims, key=lambda c: (min(int(c.key * (n + 1)), n), c.key, c.actor_id))
        wave: list[tuple[int, Claim | None]] = []
        k = 0
        for pos, aid in enumerate(order.tolist()):
            while k < len(gaps) and min(int(gaps[k].key * (n + 1)), n) <= pos:
                wave.append((gaps[k].actor_id, gaps[k]))
                k += 1
            wave.append((int(aid), None))
        wave += [(c.actor_id, c) for c in gaps[k:]]
        return wave


def rule_keys(seed: int, round_: int, aid: int) -> tuple[float, float]:
    """One agent's (order key, tie key) for one round, from its own addressed stream."""
    order_key, tie_key = agent_stream(seed, RULE_PURPOSE, round_, aid).random(2)
    return float(order_key), float(tie_key)


def tie_index(tie_key: float, n: int) -> int:
    """The tie key in [0, 1) picks one of `n` candidates (ordered by flat cell index)."""
    return min(int(tie_key * n), n - 1)


class IsolatedDraws:
    """Per-agent streams: unhappy agents go in order of their own keys (id breaks equal keys),
    and each breaks its own ties with its own tie key. Every unhappy agent draws, tie or not."""

    def __init__(self, seed: int, round_: int) -> None:
        self.seed, self.round = int(seed), int(round_)
        self.keys: dict[int, tuple[float, float]] = {}

    def order(self, unhappy_ids: np.ndarray) -> np.ndarray:
        ids = np.sort(unhappy_ids)
        for aid in ids.tolist():
            self.keys[aid] = rule_keys(self.seed, self.round, aid)
        order_keys = np.array([self.keys[aid][0] for aid in ids.tolist()], dtype=np.float64)
        return ids[np.argsort(order_keys, kind="stable")]

    def tie(self, aid: int, n: int) -> int:
        return tie_index(self.keys[int(aid)][1], n)

    def slots(self, order: np.ndarray, claims: list[Claim]) -> list[tuple[int, Claim | None]]:
        """The wave: ordinary agents and claims together in order of their keys (id breaks equal keys)."""
        wave: list[tuple[float, int, Claim | None]] = [(self.keys[int(a)][0], int(a), None) for a in order.tolist()]
        wave += [(c.key, c.actor_id, c) for c in claims]
        wave.sort(key=lambda w: (w[0], w[1]))
        return [(aid, claim) for _, aid, claim in wave]


def _word(value: int | str) -> bytes:
    """A turn address part as bytes: an integer big-endian in its fewest bytes (one for 0), a name in UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-8")
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def turn_stream(seed: int, step: int, phase: str, aid: int, purpose: str) -> np.random.Generator:
    """The pilot's addressed stream of one turn slot: blake2b (16 bytes) over each part of
    (seed, step, phase, id, purpose) preceded by its length in 8 big-endian bytes, the digest as
    one big-endian integer seeding numpy's default generator."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (_word(seed), _word(step), _word(phase), _word(aid), _word(purpose)):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return np.random.default_rng(int.from_bytes(digest.digest(), "big"))


class HashedDraws:
    """rule=pilot_v2: the pilot's current streams. Each step shuffles two cohorts, the replaced
    ids then everyone else (each sorted, then shuffled by its own addressed stream), in both
    worlds; a mover with tied nearest choices draws from its own stream, nobody else does."""

    PHASE = "schelling"

    def __init__(self, seed: int, step: int, first_ids: tuple[int, ...], n_agents: int) -> None:
        self.seed, self.step = int(seed), int(step)
        self.first_ids, self.n_agents = tuple(sorted(first_ids)), int(n_agents)

    def _shuffled(self, cohort: list[int], purpose: str) -> list[int]:
        turn_stream(self.seed, self.step, self.PHASE, 0, purpose).shuffle(cohort)
        return cohort

    def order(self, unhappy_ids: np.ndarray) -> np.ndarray:
        """The unhappy ids in the order of the two shuffled cohorts of all agents (the satisfied
        take their turns too in the pilot, and stay)."""
        first = set(self.first_ids)
        rest = [aid for aid in range(self.n_agents) if aid not in first]
        turns = self._shuffled(list(self.first_ids), "_order_selected") + self._shuffled(rest, "_order_ordinary")
        wanted = set(unhappy_ids.tolist())
        return np.array([aid for aid in turns if aid in wanted], dtype=np.int64)

    def tie(self, aid: int, n: int) -> int:
        if n < 2:
            return 0
        return int(turn_stream(self.seed, self.step, self.PHASE, int(aid), "movement").integers(n))


RuleDraws = PilotDraws | IsolatedDraws | HashedDraws

"""Addressed randomness: every draw comes from a stream named by its purpose.

Replacing one agent with an influence agent must not shift anybody else's draws, so worlds never
share one global generator; they ask for `stream(seed, "order", round)` and the like.
"""

from __future__ import annotations

import zlib

import numpy as np

MAGIC = (0x4D414D42, 0x454E4348)  # "MAMB", "ENCH"


def seeded(words: list[int]) -> np.random.Generator:
    """A PCG64 generator from an explicit word list (used for pilot-compatible seeding)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(words)))


def purpose_word(purpose: str) -> int:
    return zlib.crc32(purpose.encode("utf-8"))


def stream(seed: int, purpose: str, *key: int) -> np.random.Generator:
    """The generator for one purpose (and optional key such as an actor id or round)."""
    return seeded([*MAGIC, purpose_word(purpose), *[int(k) for k in key], int(seed)])

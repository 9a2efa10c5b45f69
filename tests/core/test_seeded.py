"""`seeded` takes a quicker road for 32-bit words; every word list must give numpy's own stream."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.streams import MAGIC, purpose_word, seeded


@pytest.mark.parametrize(
    "words",
    [
        [0],
        [*MAGIC, purpose_word("policy"), 3, 17, 0],
        [2**32 - 1, 0, 1],
        [2**32, 5],  # two words to numpy: the quick road must not take it
        [2**40 + 7, 2**64 + 3, 1],
        [np.uint32(5), 9],  # a numpy integer: left to numpy as before
    ],
)
def test_seeded_equals_numpys_seed_sequence(words):
    want = np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(w) for w in words])))
    got = seeded(list(words))
    assert got.bit_generator.state == want.bit_generator.state
    assert got.integers(2**62, size=8).tolist() == want.integers(2**62, size=8).tolist()


def test_seeded_matches_on_many_agent_addresses():
    rng = np.random.default_rng(0)
    for _ in range(300):
        words = [*MAGIC, purpose_word("policy"), *rng.integers(0, 2**33, size=3).tolist()]
        want = np.random.Generator(np.random.PCG64(np.random.SeedSequence(words)))
        assert seeded(words).bit_generator.state == want.bit_generator.state

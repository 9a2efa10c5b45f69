"""The agent streams replayed in numba give numpy's own draws, bit for bit.

Expected values come from numpy itself (`Generator(PCG64(SeedSequence(words))).random(k)`, the
construction `mam_bench.streams.seeded` uses), so a slip in the replayed hash, seeding or output
function shows up as a mismatch, not as a slightly different landscape.
"""

from __future__ import annotations

import numpy as np

from mam_bench.models.schelling.draws import rule_keys
from mam_bench.models.schelling.fast.compiled_streams import agent_doubles, seeded_doubles, stream_prefix, uint32_words
from mam_bench.models.schelling.fast.runs import fast_reference_outcome
from mam_bench.models.schelling.landscape import scan_reference_outcome
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import RULE_PURPOSE
from mam_bench.streams import seeded


def test_seeded_doubles_equal_numpy_for_many_word_lists() -> None:
    rng = np.random.default_rng(3)
    pools = (2**32, 2**64, 5, 2**40)
    for trial in range(2000):
        words = [int(rng.integers(0, pools[int(rng.integers(4))], dtype=np.uint64)) for _ in range(1 + trial % 9)]
        got = np.zeros(1 + trial % 3)
        seeded_doubles(uint32_words(words), got)
        assert got.tolist() == seeded(words).random(got.size).tolist(), words


def test_agent_doubles_equal_rule_keys_for_small_and_huge_seeds() -> None:
    prefix = stream_prefix(RULE_PURPOSE)
    out = np.zeros(2)
    for seed in (0, 1, 22, 2**32 - 1, 2**32, 2**63 - 1):
        for round_, actor in ((0, 0), (3, 17), (499, 299), (2**33, 5)):
            agent_doubles(prefix, uint32_words([seed]), round_, actor, out)
            assert tuple(out.tolist()) == rule_keys(seed, round_, actor), (seed, round_, actor)


def test_kernel_with_isolated_streams_matches_the_scan_for_huge_seeds() -> None:
    p = SchellingParams(streams="isolated", size=12)
    for seed in (2**32 + 7, 2**62 + 1):
        assert fast_reference_outcome(p, seed, 40) == scan_reference_outcome(p, seed, 40), seed

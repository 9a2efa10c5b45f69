"""The cascade's records did not move when its rounds were made cheaper for the oracle (cached
slot draws and phase orders, counts over the frozen board, a fork that copies the board's lists):
the digests were written by the code before (`record_digest.py`): rule, heuristic and random pairs
with both baselines on ten seeds per role, and one oracle pair per role at a small budget."""

import json

import pytest

from mam_bench.models.civil_violence_cascade.draws import bounded, pilot_rng, slot_bounded, slot_random
from tests.civil_violence_cascade.record_digest import TABLE, cases, digest, key

DIGESTS = json.loads(TABLE.read_text())
PAIRS = [c for c in cases() if c["policy"] != "oracle"]
ORACLES = [c for c in cases() if c["policy"] == "oracle"]


@pytest.mark.parametrize("case", PAIRS[::4], ids=key)
def test_a_pair_writes_the_recorded_files(case):
    assert digest(case) == DIGESTS[key(case)]


@pytest.mark.parametrize("case", ORACLES[:1], ids=key)
def test_an_oracle_pair_writes_the_recorded_files(case):
    assert digest(case) == DIGESTS[key(case)]


@pytest.mark.parametrize("n", [1, 2, 3, 8, 9, 400, 2**31 + 1, 2**32 - 1])
def test_a_cached_slot_draws_what_its_generator_draws(n):
    for agent in range(40):
        address = (7, 3, "police", agent, "target")
        assert slot_bounded(*address, n) == bounded(pilot_rng(*address), n)
        assert slot_random(*address) == pilot_rng(*address).random()

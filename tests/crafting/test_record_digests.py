"""The records of the crafting world did not move when its rounds came to be played by the
agents' own `step()`: the digests were written by the code before (`record_digest.py`)."""

import json

import pytest

from tests.crafting.record_digest import TABLE, pair_cases, pair_digest, pair_key, state_case, state_digest

DIGESTS = json.loads(TABLE.read_text())


@pytest.mark.parametrize("k", range(len(DIGESTS["states"])))
def test_a_random_state_plays_the_recorded_rounds(k):
    assert state_digest(state_case(k)) == DIGESTS["states"][str(k)]


@pytest.mark.parametrize("case", pair_cases()[::5], ids=pair_key)
def test_a_pair_writes_the_recorded_files(case):
    assert pair_digest(case) == DIGESTS["pairs"][pair_key(case)]

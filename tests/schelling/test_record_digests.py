"""The 20 x 20 pilot records did not move when the snapshots got their own binary record and the
rounds their array path: the digests were written by the code before (`record_digest.py`), each
round record now read back through `mam_bench.records.read_rounds`."""

import json

import pytest

from tests.schelling.record_digest import TABLE, cases, digest, key

DIGESTS = json.loads(TABLE.read_text())


@pytest.mark.parametrize("case", cases()[::5], ids=key)
def test_a_pair_writes_the_recorded_files(case):
    assert digest(case) == DIGESTS[key(case)]

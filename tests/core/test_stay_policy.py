"""The `stay` policy: influence agents play their world's null action, never move, never fail."""

from __future__ import annotations

import pytest

from mam_bench.records import read_rounds
from mam_bench.registry import world_names
from mam_bench.runner import PairSpec, run_pair


@pytest.mark.parametrize("world", world_names())
def test_stay_is_the_null_action_everywhere(world, tmp_path):
    result = run_pair(PairSpec.build(world=world, seed=1, controller="stay", rounds=4), tmp_path)
    audit = result["treatment"]["audit"]
    assert audit["identity_holds"] and audit["failed"] == 0
    assert audit["accepted"] + audit["stay"] == audit["decisions"] > 0
    if world == "schelling":
        rows = read_rounds(tmp_path, "treatment.jsonl")
        ids = result["influence_ids"]
        assert all(row["positions"][i] == rows[0]["positions"][i] for row in rows for i in ids)

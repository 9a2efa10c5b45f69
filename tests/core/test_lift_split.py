"""A lift on a count over everyone (`hinder`, `shortage`) is split into the ordinary agents' part and
the influence seats' own part: the parts add up to the lift, the ordinary part is read from the
records' ordinary-only count, null steering splits 0 into 0 and 0, and worlds without such a
count carry no split."""

from __future__ import annotations

import pytest

from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair


@pytest.mark.parametrize("seed", [0, 1])
def test_pursuit_hinder_stay_splits_into_own_and_ordinary(tmp_path, seed: int) -> None:
    result = run_pair(PairSpec.build(world="pursuit", seed=seed, controller="stay", objective="hinder"), tmp_path)
    split = result["lift_split"]
    assert split["ordinary"] + split["own"] == pytest.approx(result["lift"])
    tre = read_jsonl(tmp_path / "treatment.jsonl")[-1]["metrics"]
    ref = result["reference"]["compared"]
    assert split["ordinary"] == pytest.approx(-(tre["ordinary_score"] - ref["ordinary_score"]))


def test_null_steering_splits_nothing() -> None:
    result = run_pair(PairSpec.build(world="pursuit", seed=0, controller="rule", objective="hinder"))
    assert result["lift_split"] == {"ordinary": 0.0, "own": 0.0}


def test_a_world_without_an_ordinary_count_has_no_split() -> None:
    assert "lift_split" not in run_pair(PairSpec.build(world="schelling", seed=0, controller="stay", rounds=2))

"""Each run stops on its own at its first step with at least 95 % participation (the world declares
the rule, the core applies it), and the lift compares the two final states, as the pilot does."""

from __future__ import annotations

import json

from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade
from mam_bench.runner import PairSpec, run_pair

#: no police and a high threshold: the cascade takes a few steps, a different number in each run
CASE = {"size": "12", "threshold": "2.0", "police_density": "0.0", "max_steps": "15"}


def rows(path):
    return [json.loads(line) for line in path.open()]


def test_both_runs_stop_at_their_own_revolution_and_final_states_are_compared(tmp_path):
    spec = PairSpec.build(world="civil_violence_cascade", seed=0, controller="heuristic", objective="increase",
                          params=CASE)  # fmt: skip
    result = run_pair(spec, tmp_path)
    ref, treat = rows(tmp_path / "reference.jsonl"), rows(tmp_path / "treatment.jsonl")
    assert [ref[-1]["status"], treat[-1]["status"]] == ["revolution", "revolution"]
    assert len(treat) < len(ref) < 16  # the treatment ended first; neither ran to max_steps
    assert all(r["metrics"]["revolution"] == 0 for r in ref[:-1] + treat[:-1])
    assert result["delta"] == treat[-1]["metrics"]["participation"] - ref[-1]["metrics"]["participation"]


def test_a_run_that_reaches_it_stops_there_under_mesas_own_loop():
    world = CivilViolenceCascade(seed=0, **{k: v for k, v in CASE.items()})
    while world.running:
        world.step()
    assert world.run.status == "revolution" and world.round < 15
    assert world.metrics()["revolution"] == 1.0

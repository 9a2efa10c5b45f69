"""The oracle says what it will cost before it plans: its rollouts at most and an estimated time,
printed by `run` before the pair; the count bounds the rollouts it then plays."""

from __future__ import annotations

import re

from mam_bench.cli import main
from mam_bench.runner import PairSpec, prepare_run, run_pair

SMALL = {"candidates": 1, "sweeps": 1}


def test_run_prints_the_oracles_rollouts_and_time_before_the_pair(tmp_path, capsys) -> None:
    argv = ["run", "voter", "--policy", "oracle", "--seed", "1", "--rounds", "3", "--influence", "2"]
    assert main([*argv, "--candidates", "1", "--sweeps", "1", "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    line = next(s for s in out.splitlines() if s.startswith("oracle cost:"))
    assert out.index(line) < out.index("delta ")  # said before the pair's result
    found = re.search(r"at most (\d+) rollouts \((\d+) a round over 3 rounds\), (\d+) rounds played in forks", line)
    assert found, line
    per_round = int(found.group(2))
    assert int(found.group(1)) == 3 * per_round
    assert int(found.group(3)) == per_round * (3 + 2 + 1)  # each rollout plays to the horizon
    assert re.search(r"about \d+ (s|min|h)", line) and "--budget" in line


def test_the_estimate_bounds_the_rollouts_played() -> None:
    spec = PairSpec.build(world="voter", seed=1, controller="oracle", rounds=3, influence=2, controller_options=SMALL)
    prep = prepare_run(spec)
    bound = prep.controller.rollouts_per_round(len(prep.influence_ids)) * prep.horizon
    result = run_pair(spec, prep=prep)
    played = result["llm"]["planning"]["rollouts"]
    assert 0 < played <= bound


def test_a_rollout_cap_lowers_the_estimate() -> None:
    spec = PairSpec.build(world="voter", seed=1, controller="oracle", rounds=3, influence=2, controller_options=SMALL)
    capped = spec.model_copy(update={"controller_options": {**SMALL, "rollouts": 5}})
    free = prepare_run(spec).controller.rollouts_per_round(2)
    assert prepare_run(capped).controller.rollouts_per_round(2) == 5 < free

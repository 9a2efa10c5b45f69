"""`mam-bench run` shows the controller's lift beside the `stay` and `mimic` baselines, paired by seed.

The baselines in result.json must be exactly what separate `--policy stay` / `--policy mimic` runs
of the same seed, params, objective, influence ids and horizon give: real CLI runs, compared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.commands.run import format_result
from mam_bench.models.voter.model import VoterWorld
from mam_bench.runner import PairSpec, prepare, run_pair

CASES = {
    "schelling": ["schelling", "--seed", "22", "--rounds", "5", "--influence-ids", "0,1,150,151"],
    "civil_violence": ["civil_violence", "--seed", "3", "--influence", "3", "--objective", "calm"],
}


def _run(tmp_path: Path, argv: list[str], policy: str) -> dict:
    out = tmp_path / policy
    assert main(["run", *argv, "--policy", policy, "--out", str(out)]) == 0
    return json.loads((out / "result.json").read_text())


@pytest.mark.parametrize("world", sorted(CASES))
def test_baselines_equal_separate_stay_and_mimic_runs(world, tmp_path, capsys):
    argv = CASES[world]
    steered = _run(tmp_path, argv, "heuristic")
    printed = capsys.readouterr().out
    for name in ("stay", "mimic"):
        alone = _run(tmp_path, argv, name)
        beside = steered["baselines"][name]
        assert (beside["lift"], beside["delta"]) == (alone["lift"], alone["delta"]), name
        assert beside["status"] == alone["treatment"]["status"]
        assert beside["final"] == alone["treatment"]["final"]
        assert f"{name} lift {alone['lift']:+.4f}" in printed
    # the pairing is the same: one reference for the controller and both baselines
    assert steered["reference"] == alone["reference"]


def test_null_steering_keeps_lift_zero_beside_its_baselines(tmp_path, capsys):
    result = _run(tmp_path, CASES["civil_violence"], "rule")
    assert result["lift"] == 0.0
    assert set(result["baselines"]) == {"stay", "mimic"}
    assert "baselines (same seed and reference): stay lift" in capsys.readouterr().out


class VoterWithoutRule(VoterWorld):
    """A user world that does not say what its rule would do: `mimic` cannot run on it."""

    rule_action = None  # blocks the RuleActions capability it inherits


def test_a_world_without_rule_action_says_mimic_is_not_available():
    spec = PairSpec.build(world="voter", seed=4, controller="stay", influence=3)
    result = run_pair(spec, prep=prepare(spec, VoterWithoutRule), baselines=("stay", "mimic"))
    assert result["baselines"]["mimic"]["status"] == "n/a"
    assert result["baselines"]["mimic"]["lift"] is None
    assert result["baselines"]["stay"]["lift"] == result["lift"]
    assert "mimic: n/a (world has no rule_action)" in format_result(result)

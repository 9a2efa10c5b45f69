"""Schelling's two engines play the same pairs: the residents' own rule (`engine=agents`, Mesa's
AgentSet calling `Resident.decide`) and the compiled wave (`engine=compiled`) write identical
records, and `run` says which played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.runner import PairSpec, run_pair

FILES = ("reference.jsonl", "treatment.jsonl", "decisions.jsonl", "board.jsonl")


def _records(out: Path) -> dict[str, object]:
    result = json.loads((out / "result.json").read_text())
    result.pop("provenance"), result.pop("_wall_seconds", None)
    return {"result.json": result, **{name: (out / name).read_bytes() for name in FILES}}


@pytest.mark.parametrize("policy", ["heuristic", "random", "rule"])
def test_agents_and_compiled_write_identical_records(tmp_path, policy) -> None:
    for seed in range(6):
        runs = {}
        for engine in ("agents", "compiled"):
            spec = PairSpec.build(
                world="schelling", seed=seed, controller=policy, params={"engine": engine, "rounds": "8"}
            )
            out = tmp_path / f"{policy}-{seed}-{engine}"
            run_pair(spec, out=out, baselines=("stay", "mimic"))
            runs[engine] = _records(out)
        assert runs["agents"] == runs["compiled"], (policy, seed)


def test_run_prints_which_engine_played(tmp_path, capsys) -> None:
    assert main(["run", "schelling", "--seed", "1", "--rounds", "2", "--out", str(tmp_path / "a")]) == 0
    assert "engine: compiled (the residents' rule as one wave on arrays; engine=auto)" in capsys.readouterr().out
    args = ["run", "schelling", "--seed", "1", "--rounds", "2", "--param", "engine=agents"]
    assert main([*args, "--out", str(tmp_path / "c")]) == 0
    assert "engine: agents" in capsys.readouterr().out


def test_pilot_v2_takes_its_own_compiled_wave(tmp_path, capsys) -> None:
    args = ["run", "schelling", "--param", "rule=pilot_v2", "--param", "vision=1", "--param", "engine=compiled"]
    assert main([*args, "--rounds", "2", "--out", str(tmp_path / "p")]) == 0
    assert "engine: compiled (the pilot's rule (rule=pilot_v2) as one wave on arrays; engine=compiled)" in (
        capsys.readouterr().out
    )

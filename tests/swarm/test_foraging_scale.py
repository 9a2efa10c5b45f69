"""Foraging at population scale: more than a thousand agents play a pair with both baselines,
their records read back whole, a grid that would not fit is refused before anything is written,
and a fork still equals its world played forward."""

from __future__ import annotations

import json

from mam_bench import limits
from mam_bench.cli import main
from mam_bench.models.swarm.foraging.model import ForagingWorld
from mam_bench.records import read_rounds
from mam_bench.runner import PairSpec, run_pair
from mam_bench.testing import fork_equivalence

#: 1,200 agents fill a 62 x 62 grid (60 x 60 inside the walls) to the task's bound of one in three cells
LARGE = {"agents": "1200", "size": "62", "rounds": "6"}


def test_a_grid_that_would_not_fit_is_refused_before_any_write(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 500 * 2**20)
    out = tmp_path / "run"
    assert main(["run", "foraging", "--param", "size=800", "--param", "agents=5000", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: param.size: size=800 needs about ") and "GB is available" in err, err
    assert not out.exists()


def test_more_than_a_thousand_agents_play_a_pair_and_read_back(tmp_path) -> None:
    spec = PairSpec.build(world="foraging", seed=2, controller="heuristic", rounds=3, params=LARGE)
    result = run_pair(spec, tmp_path, baselines=("stay", "mimic"))
    assert set(result["baselines"]) == {"stay", "mimic"}
    rows = read_rounds(tmp_path, "reference.jsonl")
    assert len(rows) == 7 and all(len(r["positions"]) == len(r["actions"]) == 1200 for r in rows)
    assert rows[0]["actions"] == [None] * 1200 and {a for r in rows[1:] for a in r["actions"]} > {"UP", "DOWN"}
    assert sum(p is not None for p in rows[-1]["positions"]) == 1200 - rows[-1]["metrics"].get("escaped", 0)
    # the binary frames take a fraction of what the same rows take as whole JSON lines
    whole = sum(len(json.dumps(r)) for r in rows)
    assert (tmp_path / "reference.snapshots").stat().st_size < whole / 2


def test_a_fork_of_a_large_swarm_equals_its_world_played_forward() -> None:
    assert fork_equivalence(ForagingWorld, seed=1, rounds=4, influence=3, params=LARGE) == []

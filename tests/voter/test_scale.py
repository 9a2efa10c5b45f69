"""The voter world at population scale: a network past the generic 10,000-agent bound plays a
pair with both baselines, its records grow with the opinions that changed, a network that would
not fit is refused before anything is written, and a fork still equals its world played forward."""

from __future__ import annotations

import json

from mam_bench import limits
from mam_bench.cli import main
from mam_bench.models.voter.model import VoterWorld
from mam_bench.records import read_rounds
from mam_bench.runner import PairSpec, run_pair
from mam_bench.testing import fork_equivalence

BIG = 12_000  # above the generic bound on an agent count (10,000)


def test_a_network_that_would_not_fit_is_refused_before_any_write(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 500 * 2**20)
    out = tmp_path / "run"
    assert main(["run", "voter", "--param", "n=100000", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: param.n: n=100000 needs about ") and "GB is available" in err, err
    assert not out.exists()


def test_a_ring_too_small_for_its_neighbours_is_a_named_error(tmp_path, capsys) -> None:
    assert main(["run", "voter", "--param", "n=5", "--param", "k=6", "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.startswith("error: param.k: 6 neighbours do not fit")


def test_a_large_network_plays_a_pair_and_records_what_changed(tmp_path) -> None:
    spec = PairSpec.build(world="voter", seed=2, controller="heuristic", rounds=3, params={"n": str(BIG)})
    result = run_pair(spec, tmp_path, baselines=("stay", "mimic"))
    assert set(result["baselines"]) == {"stay", "mimic"}
    rows = read_rounds(tmp_path, "treatment.jsonl")
    assert [r["round"] for r in rows] == [0, 1, 2, 3]
    agents = rows[-1]["agents"]
    assert len(agents) == BIG and [a["id"] for a in agents] == sorted(a["id"] for a in agents)
    share = sum(a["opinion"] for a in agents) / BIG
    assert share == rows[-1]["metrics"]["share"]
    # the snapshots hold every agent once, then per round about the opinions that changed: far
    # less than the whole rows as JSON lines would take
    whole = sum(len(json.dumps(r)) for r in rows)
    assert (tmp_path / "treatment.snapshots").stat().st_size < whole / 4


def test_a_fork_of_a_large_network_equals_its_world_played_forward() -> None:
    assert fork_equivalence(VoterWorld, seed=1, rounds=2, influence=3, params={"n": str(BIG)}) == []

"""rule=pilot_v2's compiled wave (`fast/pilot_wave.py`) plays what the residents' own rule plays
(`engine=agents`): identical records for every controller with both baselines on many seeds, board
sizes, visions and thresholds, the oracle's plan included; the same rule actions and horizon
status on mid-run boards; and its tie streams draw what the pilot's own do."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from mam_bench.cli import main
from mam_bench.models.schelling.draws import HashedDraws
from mam_bench.models.schelling.fast.compiled_streams import pcg_seeded
from mam_bench.models.schelling.fast.kernel import _lemire
from mam_bench.models.schelling.fast.pilot_wave import round_draws
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round

FILES = ("reference.jsonl", "treatment.jsonl", "decisions.jsonl", "board.jsonl")

#: (size, vision, threshold, vacancy): the benchmark's dose, and smaller boards seeing farther
DOSES = (
    ("20", "1", "7/10", "0.15"),
    ("8", "2", "3/4", "1/4"),
    ("10", "1", "1/2", "1/5"),
    ("12", "3", "2/3", "0.15"),
    ("7", "3", "3/5", "0.3"),
)


def _records(out: Path) -> dict[str, object]:
    result = json.loads((out / "result.json").read_text())
    result.pop("provenance"), result.pop("_wall_seconds", None)
    return {"result.json": result, **{name: (out / name).read_bytes() for name in FILES}}


def _pair(tmp_path: Path, seed: int, dose: tuple[str, ...], engine: str, controller: str, **kw) -> dict[str, object]:
    size, vision, threshold, vacancy = dose
    params = {"rule": "pilot_v2", "size": size, "vision": vision, "threshold": threshold, "vacancy": vacancy,
              "rounds": "6", "engine": engine}  # fmt: skip
    spec = PairSpec.build(world="schelling", seed=seed, controller=controller, params=params, influence=4, **kw)
    out = tmp_path / f"{controller}-{seed}-{engine}"
    run_pair(spec, out=out, baselines=("stay", "mimic"))
    return _records(out)


@pytest.mark.parametrize("controller", ["rule", "heuristic", "random", "stay"])
def test_the_compiled_wave_writes_the_residents_records(tmp_path, controller) -> None:
    moved = 0
    for seed in range(20):
        dose = DOSES[seed % len(DOSES)]
        agents = _pair(tmp_path, seed, dose, "agents", controller)
        assert _pair(tmp_path, seed, dose, "compiled", controller) == agents, (controller, seed, dose)
        moved += re.search(rb'"ordinary_moves": [1-9]', agents["treatment.jsonl"]) is not None
    assert moved  # the pairs play moving boards, not boards at rest


def test_the_oracle_plans_the_same_on_both_engines(tmp_path) -> None:
    options = {"candidates": 1, "sweeps": 1}
    runs = [_pair(tmp_path, 3, DOSES[1], e, "oracle", controller_options=options) for e in ("agents", "compiled")]
    assert runs[0] == runs[1]
    assert runs[0]["result.json"]["lift"] is not None


def _world(engine: str, seed: int, dose: tuple[str, ...]) -> SchellingWorld:
    size, vision, threshold, vacancy = dose
    given = {"rule": "pilot_v2", "size": size, "vision": vision, "threshold": threshold, "vacancy": vacancy}
    params = SchellingParams.from_strings({**given, "rounds": "8", "engine": engine})
    world = SchellingWorld(params, seed=seed, mask_ids=(0, 1, params.n_a, params.n_a + 1))
    world.role = "treatment"
    return world


@pytest.mark.parametrize("dose", DOSES[:4])
def test_rule_actions_and_horizon_status_agree_mid_run(dose) -> None:
    for seed in range(4):
        agents, compiled = _world("agents", seed, dose), _world("compiled", seed, dose)
        assert not agents.fast_path and compiled.fast_path
        for _ in range(4):
            ids = agents.actor_ids()
            assert [compiled.rule_action(a) for a in ids] == [agents.rule_action(a) for a in ids]
            assert compiled.horizon_status() == agents.horizon_status()
            play_round(agents), play_round(compiled)
            assert compiled.pos.tolist() == agents.pos.tolist()


def test_tie_streams_replay_the_pilots_draws() -> None:
    draws = HashedDraws(1000, 5, (0, 1, 170, 171), 340)
    ids = np.arange(340, dtype=np.int64)
    words = round_draws(draws).tie_words(ids)
    for aid in range(0, 340, 7):
        for n in (2, 3, 5, 8, 25):
            assert _lemire(pcg_seeded(words[aid]), n) == draws.tie(aid, n), (aid, n)
    order = draws.order(ids)
    assert round_draws(draws).turns.tolist() == order.tolist()
    assert sorted(order[:4].tolist()) == [0, 1, 170, 171] and sorted(order.tolist()) == list(range(340))


def test_run_prints_the_pilots_engine(tmp_path, capsys) -> None:
    args = ["run", "schelling", "--seed", "1", "--rounds", "2", "--param", "rule=pilot_v2", "--param", "vision=1"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "engine: compiled (the pilot's rule (rule=pilot_v2) as one wave on arrays; engine=auto)" in out
    assert main([*args, "--param", "engine=agents", "--out", str(tmp_path / "b")]) == 0
    assert "engine: agents (each resident's own rule through Mesa's AgentSet; engine=agents)" in capsys.readouterr().out

"""The oracle's rollouts on an executor (`jobs`): the same plan, decisions and result as in its own process."""

from __future__ import annotations

import pytest

from mam_bench.errors import ConfigError
from mam_bench.registry import get_world, make_controller
from mam_bench.runner import PairSpec, run_pair

SMALL = {"candidates": 1, "sweeps": 1}
CASES = [
    ("pursuit", "hinder", {"size": 10, "agents": 6}, 6),
    ("crafting", "accelerate", {}, 3),
]


def played(tmp_path, name: str, world: str, objective: str, params: dict, rounds: int, **options) -> tuple:
    spec = PairSpec.build(
        world=world,
        seed=1,
        params=params,
        objective=objective,
        controller="oracle",
        influence=2,
        rounds=rounds,
        controller_options={**SMALL, **options},
    )
    result = run_pair(spec, tmp_path / name)
    return result, (tmp_path / name / "decisions.jsonl").read_text()


@pytest.mark.parametrize(("world", "objective", "params", "rounds"), CASES, ids=[c[0] for c in CASES])
def test_rollouts_on_two_jobs_plan_as_in_process(tmp_path, world, objective, params, rounds) -> None:
    serial, serial_decisions = played(tmp_path, "serial", world, objective, params, rounds)
    pooled, pooled_decisions = played(tmp_path, "jobs", world, objective, params, rounds, jobs=2)
    assert pooled_decisions == serial_decisions
    assert pooled["treatment"]["final"] == serial["treatment"]["final"]
    assert pooled["lift"] == serial["lift"]
    assert pooled["controller"] == serial["controller"]  # the executor is not part of the plan's definition
    plans = [r["usage"]["planning"]["rollouts"] for r in (serial, pooled)] if "usage" in serial else None
    assert plans is None or plans[0] == plans[1]


def test_executor_settings_are_checked() -> None:
    world = get_world("voter")
    with pytest.raises(ConfigError) as bad:
        make_controller("oracle", world, "spread", {"jobs": 0})
    assert bad.value.field == "jobs"
    with pytest.raises(ConfigError) as bad:
        make_controller("oracle", world, "spread", {"executor": "cloud"})
    assert bad.value.field == "executor"

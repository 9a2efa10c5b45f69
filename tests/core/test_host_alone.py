"""Importing and running MAM-Bench leaves its host process alone: after a pair, an experiment, a
dashboard round and `check_world` in one process, every function of `random` and `numpy.random`
and Mesa's `Agent._ids` are the very objects they were before; a user model that draws from the
global `random` is still reported where its rounds run alone (`check_world`, the runner)."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import mesa
import numpy as np
import pytest

from mam_bench import global_draws
from mam_bench.adapter import IsolationError
from mam_bench.dashboards.session import PairSession
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from mam_bench.runner import PairSpec, prepare, run_pair
from mam_bench.testing import check_world
from mam_bench.world import play_round
from tests.adapter.test_check_world import Coins


def _host() -> tuple[dict[str, Any], dict[str, Any], Any, Any]:
    def functions(module: Any) -> dict[str, Any]:
        return {n: getattr(module, n) for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))}

    return functions(random), functions(np.random), mesa.Agent._ids, vars(mesa.Agent).get("_ids")


def _same(before: tuple, after: tuple) -> list[str]:
    moved = [f"random.{n}" for n, f in before[0].items() if after[0].get(n) is not f]
    moved += [f"numpy.random.{n}" for n, f in before[1].items() if after[1].get(n) is not f]
    moved += ["mesa.Agent._ids"] if after[2] is not before[2] or after[3] is not before[3] else []
    return moved


def test_a_pair_an_experiment_a_dashboard_round_and_check_world_change_nothing_process_wide(tmp_path) -> None:
    before = _host()
    run_pair(PairSpec.build(world="voter", seed=1, controller="heuristic", rounds=5), out=tmp_path / "pair")
    suite = parse_suite({"name": "host", "seeds": 2, "cases": [{"world": "boltzmann", "controller": "random"}]})
    run_experiment(suite, tmp_path / "experiment", jobs=1)
    session = PairSession(PairSpec.build(world="civil_violence", seed=2, controller="heuristic"))
    assert session.step()
    session.close()
    check_world(Coins, seeds=(0,))
    assert _same(before, _host()) == []
    assert len(before[0]) > 20 and len(before[1]) > 40  # the comparison saw the modules' functions


def test_importing_every_layer_changes_nothing() -> None:
    probe = (
        "import random, numpy.random as npr, mesa\n"
        "fs = lambda m: {n: getattr(m, n) for n in dir(m) if not n.startswith('_')}\n"
        "a, b, ids = fs(random), fs(npr), mesa.Agent._ids\n"
        "import mam_bench.runner, mam_bench.adapter, mam_bench.testing, mam_bench.dashboards.session\n"
        "import mam_bench.steering.oracle\n"
        "moved = [n for n in a if fs(random)[n] is not a[n]] + [n for n in b if fs(npr)[n] is not b[n]]\n"
        "moved += ['_ids'] if mesa.Agent._ids is not ids else []\n"
        "print(moved)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_user_models_global_draw_is_still_reported_by_check_world_and_run(tmp_path) -> None:
    with pytest.raises(IsolationError, match="global `random`"):
        check_world(Coins, seeds=(0,), params={"cheat": "true"})
    with pytest.raises(IsolationError, match="global `random`"):
        spec = PairSpec.build(world="coins", seed=0, params={"cheat": "true"})
        run_pair(spec, prep=prepare(spec, world_cls=Coins))
    with global_draws.checked(), pytest.raises(IsolationError, match="global `random`"):
        play_round(Coins(seed=0, cheat="true"))


def test_rounds_played_outside_a_checked_run_say_they_are_not_checked() -> None:
    """A dashboard's rounds share the process with threads that draw: the check is off there."""
    assert not global_draws.is_checked()
    world = Coins(seed=0, cheat="true")
    play_round(world)  # not checked here: nothing is blamed
    with global_draws.checked():
        assert global_draws.is_checked()

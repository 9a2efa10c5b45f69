"""One swarm round is one Mesa step: `model.steps` and the DataCollector advance with the rounds
played, in the reference and the treatment, when a run plays its horizon and when it stops early
(a formed flock, an emptied transport board); every agent decides through the model's AgentSet."""

from __future__ import annotations

import asyncio

import pytest

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare, run_reference, run_treatment
from mam_bench.steering.random_policy import RandomController
from mam_bench.steering.rule import RuleController

CASES = [
    ("pursuit", {"rounds": "25"}, "horizon"),
    ("synchronization", {"rounds": "25", "rules": "mam"}, "horizon"),
    ("foraging", {"rounds": "25"}, "horizon"),
    ("flocking", {"rounds": "60", "agents": "4", "rules": "mam"}, "early"),  # formed at round 5
    ("transport", {"rounds": "60"}, "early"),  # all escaped at round 38
]


def _check(world, rows: list) -> None:
    played = sum(1 for a, b in zip(rows, rows[1:]) if a["round"] != b["round"])
    assert world.steps == world.round == played
    assert len(world.datacollector.model_vars["score"]) == world.round + 1  # setup + one per round


@pytest.mark.parametrize("task,params,stop", CASES)
def test_steps_are_the_rounds_played(task, params, stop):
    spec = PairSpec.build(world=task, seed=2, controller="random", params=params, influence=2)
    prep = prepare(spec)
    ref, ref_rows = run_reference(prep)
    _check(ref, ref_rows)
    assert (ref.round < int(params["rounds"])) == (stop == "early")
    tre, tre_rows, _, _ = asyncio.run(run_treatment(prep, RandomController(prep.world_cls)))
    _check(tre, tre_rows)
    if stop == "early":  # a treatment that defers to the rule stops where the reference did
        tre, tre_rows, _, _ = asyncio.run(run_treatment(prep, RuleController()))
        _check(tre, tre_rows)
        assert tre.round == ref.round < int(params["rounds"])


def test_mesa_step_is_one_round_through_the_agent_set(monkeypatch):
    """Mesa's own loop (`while model.running: model.step()`) plays rounds; each round asks
    every agent to decide once, through `model.agents`."""
    calls = []
    decide = SwarmAgent.decide
    monkeypatch.setattr(SwarmAgent, "decide", lambda self, plan: calls.append(self.actor_id) or decide(self, plan))
    cls = get_world("flocking")
    world = cls(cls.Params(rounds=60, agents=4, rules="mam"), seed=2)
    while world.running:
        world.step()
    assert world._done and world.steps == world.round == 5
    assert calls == list(range(4)) * 5
    assert all(isinstance(a, SwarmAgent) for a in world.agents) and len(world.agents) == 4

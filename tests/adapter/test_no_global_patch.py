"""The adapter changes nothing outside the model it drives: Mesa's `AgentSet` keeps its own
methods, a model no world drives shuffles exactly as Mesa does, and `world.agents` is the user
model's agents (the wrapper holds none of its own)."""

from __future__ import annotations

import random

import mesa

import mam_bench.adapter  # noqa: F401 - imported for what importing it must not do
from mam_bench.registry import get_world


def test_mesa_agentset_methods_are_mesas_own() -> None:
    for name in ("shuffle", "shuffle_do"):
        method = vars(mesa.agent.AgentSet)[name]
        assert (method.__module__, method.__qualname__) == ("mesa.agent", f"AgentSet.{name}")


def test_a_model_no_world_drives_shuffles_as_mesa_does() -> None:
    def order(seed: int) -> list[int]:
        model = mesa.Model(rng=seed)
        mesa.Agent.create_agents(model, 30)
        seen: list[int] = []
        model.agents.shuffle_do(lambda a: seen.append(a.unique_id))
        return seen

    expected = list(range(1, 31))
    random.Random(5).shuffle(expected)  # what Mesa's AgentSet.shuffle_do does with model.random
    assert order(5) == expected


def test_world_agents_are_the_user_models_agents() -> None:
    world = get_world("voter")(seed=0)
    assert world.agents is world.model.agents and len(world.agents) > 0
    assert set(world.actor_ids()) <= {a.unique_id for a in world.agents}

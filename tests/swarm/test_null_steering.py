"""Null steering is exact for all five tasks: rule-deferred influence
agents give a treatment identical to the reference, round by round, lift 0, audit identity."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from mam_bench.models.swarm.params import TASKS, strategies
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare, run_pair, run_reference, run_treatment
from mam_bench.steering.rule import RuleController
from mam_bench.world import play_round

#: task -> its ordinary strategies, read from each task's `strategy` parameter
STRATEGIES = {task: list(strategies(get_world(task).Params)) for task in TASKS}


def _check(world: str, seed: int, params: dict, influence: int) -> None:
    spec = PairSpec.build(world=world, seed=seed, controller="rule", params=params, influence=influence)
    prep = prepare(spec)
    _, ref = run_reference(prep)
    _, tre, _, _ = asyncio.run(run_treatment(prep, RuleController()))
    assert len(ref) == len(tre)
    for a, b in zip(ref, tre):
        assert a == b
    result = run_pair(spec)
    assert result["lift"] == 0 and result["delta"] == 0
    assert result["treatment"]["audit"]["identity_holds"]
    assert result["treatment"]["audit"]["decisions"] == influence * result["treatment"]["rounds"]


@settings(max_examples=12, deadline=None)
@given(
    world=st.sampled_from(sorted(STRATEGIES)),
    seed=st.integers(0, 10_000),
    pick=st.integers(0, 1),
    influence=st.integers(1, 6),
    noisy=st.booleans(),
)
def test_null_steering_exact(world, seed, pick, influence, noisy):
    strategies = STRATEGIES[world]
    params = {"strategy": strategies[pick % len(strategies)], "rounds": 30}
    if noisy:
        params.update(noise=0.2, delay=2)
    _check(world, seed, params, influence)


def test_null_steering_every_world_default_params():
    for world in STRATEGIES:
        for seed in (0, 1):
            _check(world, seed, {}, 2)


def test_deferring_influence_agent_does_not_shift_others():
    """A steered agent changes only its own draws: the others' first-round actions are unchanged."""
    from mam_bench.models.swarm.pursuit.model import PursuitWorld
    from mam_bench.protocol import Decision

    ref = PursuitWorld(seed=3, strategy="greedy")
    tre = PursuitWorld(PursuitWorld.Params(strategy="greedy"), seed=3, influence_ids=[0])
    play_round(ref)
    play_round(tre, {0: Decision(action={"action": "STAY"})})
    assert ref.last_actions[1:] == tre.last_actions[1:]

"""Isolation by construction in every registered world:
with a random influence set and a random non-deferring controller, every ordinary agent's draws,
its agent streams' and the world-stream draws its own actions consumed, are the same in reference
and treatment over the whole run, round by round until its own state diverges; ordinary agents
really draw through agent streams; and `rule` still gives a lift of exactly 0."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mam_bench.experiment.suite import has_rule_action
from mam_bench.registry import world_names
from mam_bench.runner import PairSpec, prepare, run_pair, step_reference
from mam_bench.streams import record_draws
from tests.support.isolation import NON_DEFERRING, assert_whole_run_isolated, influence_sample

#: the treatment's horizon in these checks: long enough for states to diverge, short enough for CI
HORIZON = 10
#: smaller boards where a world's default is slow to record draw by draw
PARAMS = {"schelling": {"size": "12"}}


@pytest.mark.parametrize("world", world_names())
def test_whole_run_draws_are_isolated(world):
    """Random pairs whose ordinary agents draw exactly as in the reference until their states
    diverge. One example may compare no draw at all (no ordinary agent drew before diverging), so
    the guard that the check is not empty counts the compared draws over all of a world's examples."""
    compared: list[int] = []

    @settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def check(data):
        seed = data.draw(st.integers(0, 10_000), label="seed")
        # `mimic` needs the world's rule_action; a world without one offers the other two baselines
        offered = [p for p in NON_DEFERRING if p != "mimic" or has_rule_action(world)]
        policy = data.draw(st.sampled_from(offered), label="policy")
        params = PARAMS.get(world, {})
        probe = PairSpec.build(world=world, seed=seed, params=params, influence=0)
        actors = prepare(probe).new_world(treatment=False).actor_ids()
        ids = influence_sample(data, actors, 4)
        spec = PairSpec.build(
            world=world, seed=seed, params=params, controller=policy, influence_ids=ids, rounds=HORIZON
        )
        compared.append(assert_whole_run_isolated(spec))
        rule = run_pair(PairSpec.build(world=world, seed=seed, params=params, controller="rule", influence_ids=ids))
        assert rule["lift"] == 0.0 and rule["delta"] == 0.0

    check()
    assert sum(compared) > 0, f"no ordinary agent of {world} drew before its state diverged, in any example"


@pytest.mark.parametrize("world", world_names())
def test_ordinary_agents_draw_through_their_agent_streams(world):
    """The isolation check above is empty for a world whose agents bypass agent streams (as the
    pilot's shared permutation does), so every world's rule must draw through them. Some rules draw
    lazily (only on a tie or a random walk), so the first ten reference rounds are watched."""
    world_obj = prepare(PairSpec.build(world=world, seed=0, influence=0)).new_world(treatment=False)
    with record_draws() as log:
        for _ in range(10):
            if not step_reference(world_obj):
                break
    assert log.draws, f"no ordinary agent of {world} drew through its agent stream in ten rounds"

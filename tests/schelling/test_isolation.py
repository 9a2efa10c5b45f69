"""Isolation by construction: swapping any set of agents for influence agents
leaves every other agent's random draws untouched, under the default `streams=isolated`, whichever
order the influence claims resolve in (`priority=turn` or `first`)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mam_bench.runner import PairSpec, run_pair
from tests.support.isolation import NON_DEFERRING, assert_round0_isolated, influence_sample

THRESHOLDS = ["1/2", "3/5", "2/3", "3/4", "4/5", "6/7"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ordinary_draws_do_not_depend_on_who_is_steered(data):
    size = data.draw(st.integers(6, 16), label="size")
    params = {
        "size": str(size),
        "threshold": data.draw(st.sampled_from(THRESHOLDS), label="threshold"),
        "vacancy": data.draw(st.sampled_from(["0.1", "0.25", "0.4"]), label="vacancy"),
        "move_rule": data.draw(st.sampled_from(["nearest_satisfactory", "random_empty"]), label="move_rule"),
        "priority": data.draw(st.sampled_from(["turn", "first"]), label="priority"),
        "rounds": "3",
    }
    seed = data.draw(st.integers(0, 10_000), label="seed")
    policy = data.draw(st.sampled_from(NON_DEFERRING), label="policy")
    probe = PairSpec.build(world="schelling", seed=seed, params=params, influence=0)
    from mam_bench.runner import prepare

    actors = prepare(probe).new_world(treatment=False).actor_ids()
    ids = influence_sample(data, actors, 16)
    spec = PairSpec.build(world="schelling", seed=seed, params=params, controller=policy, influence_ids=ids)
    drew = assert_round0_isolated(spec)
    assert drew > 0, "no ordinary agent drew through its agent stream in round 0"
    rule = run_pair(PairSpec.build(world="schelling", seed=seed, params=params, controller="rule", influence_ids=ids))
    assert rule["lift"] == 0.0 and rule["delta"] == 0.0


def test_the_pilot_streams_are_not_isolated():
    """The check above has teeth: the pilot's shared permutation draws through no agent stream (so the
    property's non-empty check fails on it), and `stay` alone then moves seed 22 by +0.36."""
    params = {"streams": "pilot"}
    pilot_stay = PairSpec.build(world="schelling", seed=22, params=params, controller="stay")
    assert assert_round0_isolated(pilot_stay) == 0
    ref = run_pair(PairSpec.build(world="schelling", seed=22, params=params, controller="rule"))
    stay = run_pair(PairSpec.build(world="schelling", seed=22, params=params, controller="stay"))
    iso_ref = run_pair(PairSpec.build(world="schelling", seed=22, controller="rule"))
    iso_stay = run_pair(PairSpec.build(world="schelling", seed=22, controller="stay"))
    assert round(stay["lift"], 2) == 0.36
    assert ref["lift"] == iso_ref["lift"] == 0.0
    assert abs(iso_stay["lift"]) < abs(stay["lift"])

"""Isolation in the five swarm worlds, under both rule sets.

Random influence sets driven by a random non-deferring controller leave every ordinary agent's
round-0 draws as they are in the reference; rule-driven influence agents give lift exactly 0; and
`rule_action` played without deferring (`mimic`) reproduces the reference.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mam_bench.models.swarm.params import TASKS
from mam_bench.protocol import Decision
from mam_bench.registry import get_world
from mam_bench.streams import record_draws
from mam_bench.world import play_round

RULES = ("swarmbench", "mam")


def build(task, rules, seed, influence=()):
    cls = get_world(task)
    return cls(cls.Params(rules=rules, rounds=12), seed=seed, influence_ids=list(influence))


@settings(max_examples=20, deadline=None)
@given(
    task=st.sampled_from(TASKS),
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10_000),
    chosen=st.sets(st.integers(0, 9), min_size=1, max_size=5),
    pick=st.integers(0, 2**31),
)
def test_ordinary_round0_draws_do_not_depend_on_the_influence_set(task, rules, seed, chosen, pick):
    ref = build(task, rules, seed)
    with record_draws() as ref_log:
        play_round(ref)
    tre = build(task, rules, seed, sorted(chosen))
    rng = np.random.default_rng(pick)
    decisions = {aid: Decision(action=tre.Action.random_action(None, rng)) for aid in sorted(chosen)}
    with record_draws() as tre_log:
        play_round(tre, decisions)
    for aid in range(ref.n):
        if aid not in chosen:
            assert ref_log.of(aid, 0) == tre_log.of(aid, 0)
            assert ref.last_actions[aid] == tre.last_actions[aid]


@settings(max_examples=10, deadline=None)
@given(
    task=st.sampled_from(TASKS),
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10_000),
    chosen=st.sets(st.integers(0, 9), min_size=1, max_size=5),
)
def test_rule_and_mimic_give_lift_zero(task, rules, seed, chosen):
    ref = build(task, rules, seed)
    follow = build(task, rules, seed, sorted(chosen))
    mimic = build(task, rules, seed, sorted(chosen))
    while ref.round < 12 and not ref._done:
        mimic_decisions = {aid: Decision(action=mimic.rule_action(aid)) for aid in sorted(chosen)}
        play_round(ref)
        play_round(follow)
        play_round(mimic, mimic_decisions)
        assert follow.snapshot() == ref.snapshot()
        assert mimic.snapshot() == ref.snapshot()
    assert follow.score == ref.score == mimic.score

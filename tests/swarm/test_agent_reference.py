"""The agent-level rule is the reference: the fast paths must give its actions and states bit for bit.

Two copies of one world play in lockstep: one with the fast paths (the plan carries what the
whole swarm sees, computed in one pass and kept while it holds), one where every agent looks
for itself. Influence agents take random actions, defer, or fail, from one numpy stream fed
to both copies. Every round (a fresh random state each time, at least 200 per task over both
rule sets, with and without influence agents) the two must choose the same actions and
messages, draw the same random numbers, and reach the same state.
"""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm.params import TASKS, strategies
from mam_bench.protocol import Decision
from mam_bench.registry import get_world
from mam_bench.streams import record_draws
from mam_bench.world import play_round

#: (size, agents, rounds) of the episodes: small crowded boards and a larger, sparser one
SHAPES = ((8, 6, 12), (10, 10, 15), (14, 30, 12), (18, 12, 10))


def _decisions(world, rng: np.random.Generator) -> dict[int, Decision]:
    out = {}
    for aid in world.run.influence_ids:
        pick = rng.random()
        if pick < 0.3:
            out[aid] = Decision.follow_rule()
        elif pick < 0.35:
            out[aid] = Decision(action=None, error="no answer")
        elif pick < 0.4:
            out[aid] = Decision(action={"action": "FLY"})
        else:
            out[aid] = Decision(action=world.Action.random_action(None, rng))
    return out


def _state(world) -> dict:
    return {**world.snapshot(), "metrics": world.metrics(), "round": world.round, "status": world.run.status}


def _pair(task: str, k: int):
    cls = get_world(task)
    size, agents, rounds = SHAPES[k % len(SHAPES)]
    strategy = strategies(cls.Params)[k % len(strategies(cls.Params))]
    rules = ("swarmbench", "mam")[(k // 2) % 2]
    params = cls.Params(size=size, agents=agents, rounds=rounds, strategy=strategy, rules=rules)
    influence = [] if k % 3 == 0 else list(range(0, agents, 1 + k % 4))[: 1 + k % 3]
    fast, ref = (cls(params, seed=100 + k, influence_ids=influence) for _ in range(2))
    ref.fast_paths = False
    return fast, ref, rounds


@pytest.mark.parametrize("task", TASKS)
def test_fast_paths_equal_the_agent_rule(task):
    compared = 0
    k = 0
    while compared < 200:
        fast, ref, rounds = _pair(task, k)
        rng = np.random.default_rng(k)
        assert _state(fast) == _state(ref)
        while fast.round < rounds and not fast._done:
            decisions = _decisions(fast, rng)
            with record_draws() as fast_draws:
                fast_audit = play_round(fast, decisions)
            with record_draws() as ref_draws:
                ref_audit = play_round(ref, decisions)
            assert fast.last_actions == ref.last_actions and fast.last_messages == ref.last_messages
            assert fast_draws.draws == ref_draws.draws  # the same streams, drawn as often
            assert fast_draws.world == ref_draws.world
            assert fast_audit == ref_audit
            assert _state(fast) == _state(ref)
            compared += 1
        k += 1
    assert k > 2  # several worlds, so both rule sets and influence on and off were played


def test_reference_looks_for_itself():
    """The reference copy really takes the agent-level path: its plan carries no swarm-wide view."""
    world = get_world("synchronization")(seed=0)
    assert "intents" in world.plan()
    world.fast_paths = False
    assert "intents" not in world.plan()

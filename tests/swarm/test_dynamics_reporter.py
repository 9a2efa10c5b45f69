"""The group-dynamics metrics are computed when read, not in the round: reading them once at the
end gives what reading them every round gives, and `track_dynamics = False` leaves them out."""

from __future__ import annotations

import pytest

from mam_bench.models.swarm.dynamics import NAMES
from mam_bench.models.swarm.params import TASKS
from mam_bench.registry import get_world
from mam_bench.world import play_round


@pytest.mark.parametrize("task", TASKS)
def test_reading_late_equals_reading_every_round(task):
    cls = get_world(task)
    params = cls.Params(size=10, agents=8, rounds=12)
    every, late = cls(params, seed=3, influence_ids=[1]), cls(params, seed=3, influence_ids=[1])
    changed = set()
    for _ in range(12):
        if every._done:
            break
        before = every.metrics()
        play_round(every)
        play_round(late)
        changed |= {k for k in NAMES if every.metrics()[k] != before[k]}
    assert late.round == every.round
    assert late.metrics() == every.metrics()
    assert changed, "the metrics moved over the rounds, so a late read had rounds to fold"


def test_dynamics_left_out_when_not_tracked():
    cls = get_world("pursuit")
    world = cls(seed=0)
    world.track_dynamics = False
    for _ in range(3):
        play_round(world)
    assert not set(NAMES) & set(world.metrics())
    assert world.metrics()["score"] == world.score

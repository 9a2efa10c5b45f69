"""Task scores on hand-built states. All agents are influence agents so
the test dictates every action."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm.flocking.model import FlockingWorld
from mam_bench.models.swarm.foraging.model import ForagingWorld
from mam_bench.models.swarm.pursuit.model import PursuitWorld
from mam_bench.models.swarm.synchronization.model import SynchronizationWorld
from mam_bench.models.swarm.transport.model import TransportWorld
from mam_bench.protocol import Decision
from mam_bench.world import play_round


def act(*names):
    return {i: Decision(action={"action": a}) for i, a in enumerate(names)}


@pytest.mark.parametrize("rules", ["swarmbench", "mam"])
def test_pursuit_capture_scores_and_prey_respawns(rules):
    w = PursuitWorld(PursuitWorld.Params(agents=4, rules=rules), seed=0, influence_ids=range(4))
    w.place_prey((5, 5))
    w.pos[:] = [(4, 5), (6, 5), (5, 4), (5, 7)]
    play_round(w, act("STAY", "STAY", "STAY", "LEFT"))
    assert w.score == 1 and w.metrics()["score"] == 1.0
    if rules == "mam":
        assert w.prey != (5, 5)  # mam excludes the old cell; upstream may reuse it (test_parity)
    assert w.terrain[w.prey] == 0 and tuple(w.prey) not in {tuple(p) for p in w.pos.tolist()}


def test_pursuit_prey_flees_two_steps_when_not_caught():
    w = PursuitWorld(PursuitWorld.Params(size=20, agents=2), seed=0, influence_ids=range(2))
    w.place_prey((10, 10))
    w.pos[:] = [(6, 10), (10, 6)]
    play_round(w, act("STAY", "STAY"))
    assert w.score == 0 and w.prey != (10, 10)
    assert abs(w.prey[0] - 10) + abs(w.prey[1] - 10) == 2


def test_synchronization_scores_alternating_unanimity_only():
    w = SynchronizationWorld(SynchronizationWorld.Params(agents=3), seed=0, influence_ids=range(3))
    w.lights[:] = [True, True, False]
    play_round(w, act("STAY", "STAY", "SWITCH"))
    assert w.score == 1  # all on
    play_round(w, act("SWITCH", "SWITCH", "SWITCH"))
    assert w.score == 2  # all off: differs from the last scored state
    play_round(w, act("STAY", "STAY", "STAY"))
    assert w.score == 2  # still off: no new point
    play_round(w, act("SWITCH", "STAY", "STAY"))
    play_round(w, act("SWITCH", "STAY", "STAY"))
    assert w.score == 2  # back to all off, same as the last scored state
    play_round(w, act("SWITCH", "SWITCH", "SWITCH"))
    assert w.score == 3


def test_foraging_pick_up_then_delivery():
    w = ForagingWorld(ForagingWorld.Params(agents=1), seed=0, influence_ids=[0])
    beside_food = tuple(int(x) for x in np.argwhere(w.near_food & (w.terrain == 0))[0])
    w.pos[0] = beside_food
    play_round(w, act("PICKUP"))
    assert w.carrying[0] and w.score == 0
    assert w.run.audit[-1].outcome == "stay" and w.run.audit[-1].detail == "automatic"
    beside_nest = tuple(int(x) for x in np.argwhere(w.near_nest & (w.terrain == 0))[0])
    w.pos[0] = beside_nest
    play_round(w, act("DROP"))
    assert not w.carrying[0] and w.score == 1


def test_flocking_score_rises_as_distance_falls_and_ends_at_zero():
    w = FlockingWorld(FlockingWorld.Params(agents=4), seed=0, influence_ids=range(4))
    assert w.side == 2
    w.pos[:] = [(2, 2), (2, 3), (3, 2), (3, 5)]
    w.init_dis = w.cur_dis = w._dissimilarity()
    assert w.init_dis == 2
    play_round(w, act("STAY", "STAY", "STAY", "LEFT"))
    assert w.cur_dis == 1 and w.score == 1
    play_round(w, act("STAY", "STAY", "STAY", "RIGHT"))
    assert w.cur_dis == 2 and w.score == 1  # the score never goes down
    play_round(w, act("STAY", "STAY", "STAY", "LEFT"))
    play_round(w, act("STAY", "STAY", "STAY", "LEFT"))
    assert w.cur_dis == 0 and w.score == 2 and w._done


def test_transport_escape_bonus_counts_the_round():
    w = TransportWorld(TransportWorld.Params(agents=2), seed=0, influence_ids=range(2))
    w.bodies = []
    w.pos[0] = w.gap[0]
    inside = {"UP": (1, 0), "DOWN": (-1, 0), "LEFT": (0, 1), "RIGHT": (0, -1)}[w.push]
    w.pos[1] = (w.gap[1][0] + inside[0], w.gap[1][1] + inside[1])
    w.round = 3
    play_round(w, {0: Decision(action={"action": w.push}), 1: Decision(action={"action": "STAY"})})
    assert w.score == (100 - 3) / 100 and not w.active[0] and not w._done
    play_round(w, {0: Decision(action={"action": "STAY"}), 1: Decision(action={"action": w.push})})
    play_round(w, {0: Decision(action={"action": "STAY"}), 1: Decision(action={"action": w.push})})
    assert w.score == (97 + 95) / 100 and w._done
    assert w.run.audit[-1].detail == "escaped"  # an escaped influence agent still has an audit entry


def test_transport_rule_swarm_moves_the_box():
    w = TransportWorld(seed=4)
    start = sorted(w.bodies[0].cells)
    for _ in range(20):
        play_round(w)
    assert not w.bodies or sorted(w.bodies[0].cells) != start
    assert w.score > 0

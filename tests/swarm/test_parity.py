"""`rules=swarmbench` against upstream SwarmBench (`RUC-GSAI/YuLan-SwarmIntell` @ c164678).

Every expected value below was worked out by hand from upstream's `swarmbench/task.py`,
`swarmbench/environment.py` and `swarmbench/agent.py`; each test says which rule it checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm import physics
from mam_bench.models.swarm.flocking.model import FlockingWorld
from mam_bench.models.swarm.foraging.metrics import settle
from mam_bench.models.swarm.layouts import TRANSPORT_BOXES, upstream_foraging, walled
from mam_bench.models.swarm.messages import MessageBus, clip_message
from mam_bench.models.swarm.pursuit.model import PursuitWorld
from mam_bench.models.swarm.pursuit.prey import flee, respawn
from mam_bench.models.swarm.transport.model import TransportWorld
from mam_bench.protocol import Decision
from mam_bench.world import play_round


def agents_at(*cells, size=10):
    g = np.zeros((size, size), dtype=np.int64)
    for c in cells:
        g[c] = 1
    return g


# --- prey ---------------------------------------------------------------------------------------
def test_prey_below_a_distant_agent_stays():
    # baseline = H of the left cell (8,5): window rows 4..9, cols 1..8 holds the agent (4,6) and
    # the 8 bottom-wall cells of row 9: 1 + 8 * 0.9 = 8.2. Every allowed two-step target scores
    # >= 8.2 (e.g. (7,5) = 8.2, not strictly lower), so upstream's prey stays at (8,6).
    assert flee((8, 6), agents_at((4, 6)), walled(10)) == (8, 6)


def test_prey_next_to_an_agent_takes_the_l_move_it_is_allowed():
    # baseline H of the left cell (6,7), the agent's own cell: 13.6. (5,7) would score 8.2 but its
    # L passes through (6,7) (occupied): upstream needs both corner cells empty. Order RIGHT, LEFT,
    # DOWN, UP; the strict minimum among allowed targets is (8,8) with 10.9.
    assert flee((6, 8), agents_at((6, 7)), walled(10)) == (8, 8)


def test_respawn_may_reuse_the_old_cell_and_takes_the_least_threat():
    # 10x10, agents on every interior cell except (1,1) (the prey's old cell, lifted before the
    # draws) and (5,5). H(1,1) = 15 agents + 9 walls * 0.9 = 23.1; H(5,5) = 62 agents. 100 empty
    # draws over two cells all but surely include (1,1) (miss chance 2^-100), so it wins.
    g = np.zeros((10, 10), dtype=np.int64)
    g[1:9, 1:9] = 1
    g[1, 1] = g[5, 5] = 0
    assert respawn(g, walled(10), np.random.default_rng(0)) == (1, 1)


def test_first_prey_is_pushable_and_a_respawned_prey_is_not():
    w = PursuitWorld(PursuitWorld.Params(agents=4), seed=0, influence_ids=range(4))
    assert w.bodies and w.bodies[0].mass == 1  # upstream: Mesh(static=False), 1 cell -> mass 1
    w.place_prey((5, 5))
    pos = np.array([(5, 4), (1, 1), (1, 3), (1, 5)])
    res = physics.resolve(w.static_mask(), pos, np.ones(4, bool), ["RIGHT", None, None, None], w.bodies)
    assert res.bodies[0].cells == [(5, 6)] and tuple(res.positions[0]) == (5, 5)
    # capture it: the round scores and the new prey is static (Mesh(static=True)), not a body
    w.pos[:] = [(4, 5), (6, 5), (5, 4), (5, 7)]
    play_round(w, {i: Decision(action={"action": a}) for i, a in enumerate(["STAY", "STAY", "STAY", "LEFT"])})
    assert w.score == 1 and w.bodies == []
    assert w.static_mask()[w.prey]
    r, c = w.prey
    here = np.array([(r, c - 1)]) if w.terrain[r, c - 1] == 0 else np.array([(r, c + 1)])
    push = "RIGHT" if here[0, 1] < c else "LEFT"
    res = physics.resolve(w.static_mask(), here, np.ones(1, bool), [push], w.bodies)
    assert tuple(res.positions[0]) == tuple(here[0])  # blocked by the static prey


# --- transport ----------------------------------------------------------------------------------
def test_all_eight_transport_boxes_appear_in_their_corner_gaps():
    seen = set()
    for seed in range(80):
        w = TransportWorld(TransportWorld.Params(), seed=seed)
        box = w.bodies[0].cells
        ring = [c for c in box if c[0] in (0, 9) or c[1] in (0, 9)]
        assert len(box) == 13 and len(ring) == 4 and sorted(ring) == sorted(w.gap)
        rows, off, _ = TRANSPORT_BOXES[w.shape]
        top, left = off[0] % 10, off[1] % 10
        assert box == sorted((top + i, left + j) for i, s in enumerate(rows) for j, ch in enumerate(s) if ch == "B")
        seen.add(w.shape)
    assert seen == set(range(8))


def run_to_end(world):
    while world.round < world.params.rounds and not world._done:
        play_round(world)
    return world


def first_seed_with_shape(shape):
    return next(s for s in range(200) if TransportWorld(TransportWorld.Params(), seed=s).shape == shape)


@pytest.mark.parametrize("shape", range(8))
def test_scripted_team_solves_each_box_and_straight_push_scores_zero(shape):
    seed = first_seed_with_shape(shape)
    solved = run_to_end(TransportWorld(TransportWorld.Params(strategy="sidestep"), seed=seed))
    assert not solved.bodies and solved.escapes == 10 and solved.score > 5
    straight = run_to_end(TransportWorld(TransportWorld.Params(strategy="push"), seed=seed))
    assert straight.score == 0 and straight.bodies  # upstream's boxes need a sideways push first


# --- flocking -----------------------------------------------------------------------------------
def test_flocking_starts_at_init_distance_11_on_every_seed():
    # upstream's Flocking ignores the seed (Random(42)); its first layout scores 11 at 10x10, N=10
    dists = {FlockingWorld(FlockingWorld.Params(), seed=s).init_dis for s in range(40)}
    assert dists == {11.0}
    assert len({FlockingWorld(FlockingWorld.Params(rules="mam"), seed=s).init_dis for s in range(40)}) > 1


# --- foraging -----------------------------------------------------------------------------------
def test_foraging_picks_up_and_delivers_in_one_update():
    near = np.ones((3, 3), dtype=bool)
    carrying = np.zeros(1, dtype=bool)
    got = settle(np.array([(1, 1)]), np.ones(1, bool), carrying, near, near, upstream=True)
    assert got.tolist() == [True] and not carrying[0]
    carrying[0] = False
    got = settle(np.array([(1, 1)]), np.ones(1, bool), carrying, near, near, upstream=False)
    assert got.tolist() == [False] and carrying[0]  # mam: delivery first, so only the pick-up


@pytest.mark.parametrize("size, lines", [(10, 1), (12, 1), (16, 2)])
def test_foraging_maze_line_count_and_placements(size, lines):
    # upstream: range(4, size - 4, 4) lines; food in one of 4 corners, nest opposite (shared side
    # when the line count is odd)
    seen = set()
    for seed in range(40):
        t, food, nest = upstream_foraging(size, np.random.default_rng(seed))
        inner = t[1:-1, 1:-1]
        full = sum(1 for k in range(inner.shape[0]) if inner[k].sum() >= size // 2)
        full += sum(1 for k in range(inner.shape[1]) if inner[:, k].sum() >= size // 2)
        assert full == lines
        seen.add((min(food), min(nest)))
        assert not set(food) & set(nest)
    assert len(seen) == 4


# --- messages -----------------------------------------------------------------------------------
def test_messages_range_at_delivery_with_self_echo():
    bus = MessageBus(0, reach=2, mode="deliver", echo=True)
    bus.send(0, 0, (1, 1), "hi")
    pos = np.array([(8, 8), (7, 7), (1, 1)])  # the sender moved next to agent 1
    assert bus.deliver(1, pos, np.ones(3, bool)) == {0: ["hi"], 1: ["hi"]}


def test_message_cap_is_120_chars_plus_dots_upstream():
    assert clip_message("x" * 130, upstream=True) == "x" * 120 + "..."
    assert clip_message("x" * 130, upstream=False) == "x" * 117 + "..."


def test_upstream_action_parsing():
    from mam_bench.models.swarm.answer import upstream_answer

    allowed = ("UP", "DOWN", "LEFT", "RIGHT", "STAY")
    # substring, in list order: "STAY UP" contains UP, which comes first in the list
    assert upstream_answer("ACTION: [STAY UP]", allowed)["action"] == "UP"
    assert upstream_answer("ACTION: [up]", allowed)["action"] == "STAY"  # case-sensitive; no match = STAY
    assert upstream_answer("ACTION: LEFT\naction: DOWN", allowed)["action"] == "DOWN"  # later tag overrides
    assert upstream_answer("no answer at all", allowed) == {"action": "STAY", "message": None}
    assert upstream_answer("ACTION: UP\nMSG: " + "y" * 130, allowed)["message"] == "y" * 120 + "..."

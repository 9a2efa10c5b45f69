"""Physics on hand-built states (issue 4, acceptance 1)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mam_bench.models.swarm.physics import Body, resolve


def run(static, agents, actions, bodies=()):
    pos = np.array(agents, dtype=np.int64).reshape(-1, 2)
    res = resolve(static, pos, np.ones(len(pos), dtype=bool), list(actions), list(bodies))
    return [tuple(p) for p in res.positions.tolist()], res.bodies


def open_grid(n=12):
    return np.zeros((n, n), dtype=bool)


def test_five_pushers_move_the_box_four_do_not():
    box = Body([(r, 5) for r in range(2, 7)], 5)
    five = [(r, 4) for r in range(2, 7)]
    pos, bodies = run(open_grid(), five, ["RIGHT"] * 5, [box])
    assert bodies[0].cells == [(r, 6) for r in range(2, 7)]
    assert pos == [(r, 5) for r in range(2, 7)]
    pos, bodies = run(open_grid(), five[:4], ["RIGHT"] * 4, [box])
    assert bodies[0].cells == box.cells and pos == five[:4]


def test_five_pushers_in_chains_also_move_the_box():
    box = Body([(2, 5), (3, 5)], 5)
    chain = [(2, 4), (2, 3), (2, 2), (3, 4), (3, 3)]
    pos, bodies = run(open_grid(), chain, ["RIGHT"] * 5, [box])
    assert bodies[0].cells == [(2, 6), (3, 6)]


def test_one_agent_pushes_one_idle_agent_but_not_two():
    pos, _ = run(open_grid(), [(2, 2), (2, 3)], ["RIGHT", "STAY"])
    assert pos == [(2, 3), (2, 4)]
    pos, _ = run(open_grid(), [(2, 2), (2, 3), (2, 4)], ["RIGHT", "STAY", None])
    assert pos == [(2, 2), (2, 3), (2, 4)]


def test_head_on_pushers_block_each_other():
    pos, _ = run(open_grid(), [(2, 2), (2, 3)], ["RIGHT", "LEFT"])
    assert pos == [(2, 2), (2, 3)]
    pos, _ = run(open_grid(), [(2, 2), (3, 2)], ["DOWN", "UP"])
    assert pos == [(2, 2), (3, 2)]


def test_front_of_a_chain_moves_when_the_whole_chain_cannot():
    # A pushes B, C (too heavy) but D behind nothing pushes E alone: D and E still move
    pos, _ = run(open_grid(), [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)], ["RIGHT", None, None, "RIGHT", None])
    assert pos == [(2, 1), (2, 2), (2, 3), (2, 5), (2, 6)]


def test_push_chain_into_a_wall_does_not_move():
    static = open_grid()
    static[2, 5] = True
    pos, _ = run(static, [(2, 3), (2, 4)], ["RIGHT", "STAY"])
    assert pos == [(2, 3), (2, 4)]
    pos, _ = run(static, [(2, 2), (2, 3), (2, 4)], ["RIGHT", "RIGHT", "RIGHT"])
    assert pos == [(2, 2), (2, 3), (2, 4)]


def test_pushed_box_leaves_the_map_through_the_gap():
    static = np.zeros((8, 8), dtype=bool)
    static[:, 7] = True
    static[2:7, 7] = False  # the gap
    box = [Body([(r, 6) for r in range(2, 7)], 5)]
    agents = [(r, 5) for r in range(2, 7)]
    pos, box = run(static, agents, ["RIGHT"] * 5, box)
    assert box[0].cells == [(r, 7) for r in range(2, 7)]
    pos, box = run(static, pos, ["RIGHT"] * 5, box)
    assert box == []  # completely off the map: removed
    pos, box = run(static, pos, ["RIGHT"] * 5, box)
    pos, box = run(static, pos, ["RIGHT"] * 5, box)
    assert all(c >= 8 for _, c in pos)  # the agents followed it out


def test_box_against_the_wall_next_to_the_gap_cannot_move():
    static = np.zeros((8, 8), dtype=bool)
    static[:, 7] = True
    box = [Body([(r, 6) for r in range(2, 7)], 5)]
    pos, box2 = run(static, [(r, 5) for r in range(2, 7)], ["RIGHT"] * 5, box)
    assert box2[0].cells == box[0].cells


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_same_state_and_actions_same_result(seed):
    rng = np.random.default_rng(seed)
    static = rng.random((9, 9)) < 0.1
    cells = [(r, c) for r in range(9) for c in range(9) if not static[r, c]]
    pick = rng.choice(len(cells), size=min(15, len(cells)), replace=False)
    agents = [cells[i] for i in pick]
    acts = [str(rng.choice(["UP", "DOWN", "LEFT", "RIGHT", "STAY"])) for _ in agents]
    a = run(static, agents, acts)
    b = run(static, agents, acts)
    assert a[0] == b[0]
    assert len(set(a[0])) == len(a[0])  # never two agents in one cell

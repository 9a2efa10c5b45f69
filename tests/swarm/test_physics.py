"""Physics on hand-built states.

Expected outcomes of the issue-12 boards were worked out by hand from upstream's integer program
(`swarmbench/physics.py` @ c164678, `Node.pass_forward`): maximise the number of moving nodes,
a moving node's successors move, netForce = own force + inflow >= mass, outflow <= netForce -
mass, force flows only along push edges (forward).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import physics_greedy
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


def row(cols, r=2):
    return [(r, c) for c in cols]


def test_idle_agents_behind_a_pusher_are_not_paid_for():
    # R, STAY, STAY, R, R: upstream moves only the front two (the back R has 1 spare force for
    # the first idle agent, nothing is left for the second, so no suffix containing it is feasible)
    acts = ["RIGHT", "STAY", "STAY", "RIGHT", "RIGHT"]
    pos, _ = run(open_grid(), row(range(1, 6)), acts)
    assert pos == row([1, 2, 3, 5, 6])
    # the pre-parity greedy moved all five: this is the difference the issue names
    old = physics_greedy.resolve(open_grid(), np.array(row(range(1, 6))), np.ones(5, bool), acts, [])
    assert [tuple(p) for p in old.positions.tolist()] == row(range(2, 7))


def test_r_stay_stay_r_moves_only_the_front_one():
    pos, _ = run(open_grid(), row(range(1, 5)), ["RIGHT", "STAY", "STAY", "RIGHT"])
    assert pos == row([1, 2, 3, 5])


def test_box_with_rows_ppp_pp_and_p_idle_idle():
    # box mass 5 in column 5, rows 2-4. PPP passes 3, PP passes 2: exactly 5, the box moves.
    # P-idle-idle: P gives 1 to the first idle agent, nothing reaches the second: that row stays.
    box = Body([(2, 5), (3, 5), (4, 5)], 5)
    agents = row([2, 3, 4], 2) + row([3, 4], 3) + row([2, 3, 4], 4)
    acts = ["RIGHT"] * 3 + ["RIGHT"] * 2 + ["RIGHT", "STAY", "STAY"]
    pos, bodies = run(open_grid(), agents, acts, [box])
    assert bodies[0].cells == [(2, 6), (3, 6), (4, 6)]
    assert pos == row([3, 4, 5], 2) + row([4, 5], 3) + row([2, 3, 4], 4)


def test_light_box_moves_with_the_ppp_row_only():
    # box mass 1 spanning rows 2-3; PPP (row 2) passes 3 >= 1; P-idle-idle (row 3) cannot feed
    # its second idle agent, so only the PPP row and the box move (greedy moved all seven)
    box = Body([(2, 5), (3, 5)], 1)
    agents = row([2, 3, 4], 2) + row([2, 3, 4], 3)
    acts = ["RIGHT"] * 3 + ["RIGHT", "STAY", "STAY"]
    pos, bodies = run(open_grid(), agents, acts, [box])
    assert bodies[0].cells == [(2, 6), (3, 6)]
    assert pos == row([3, 4, 5], 2) + row([2, 3, 4], 3)


def test_an_escaped_agent_frees_its_cell_at_once():
    # gap in the top wall at columns 2-4. A (0,2) escapes UP to (-1,2). Then, resolving LEFT,
    # C (0,4) pushes a mass-1 body whose cells are (-1,3) and (0,3). Upstream removed A from the
    # map when it left, so the body and C move; had A stayed, the idle A would add mass 1 and
    # C's force 2 could not move body (1) + C (1) + A (1).
    static = np.zeros((8, 8), dtype=bool)
    static[0, :] = static[-1, :] = static[:, 0] = static[:, -1] = True
    static[0, 2:5] = False
    body = Body([(-1, 3), (0, 3)], 1)
    pos, bodies = run(static, [(0, 2), (0, 4)], ["UP", "LEFT"], [body])
    assert pos == [(-1, 2), (0, 3)]
    assert sorted(bodies[0].cells) == [(-1, 2), (0, 2)]


def test_a_resisting_agent_weighs_three():
    # two pushers (force 4) against one agent pushing back (mass 1 + 2): 4 - 2 (own masses) = 2 < 3
    pos, _ = run(open_grid(), row([2, 3, 4]), ["RIGHT", "RIGHT", "LEFT"])
    assert pos == row([2, 3, 4])
    # three pushers: spare 3 >= 3, all move
    pos, _ = run(open_grid(), row([1, 2, 3, 4]), ["RIGHT", "RIGHT", "RIGHT", "LEFT"])
    assert pos == row([2, 3, 4, 5])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 6), st.integers(0, 10**6)), min_size=1, max_size=9))
def test_tree_closed_form_equals_the_integer_program(spec):
    # the closed form must give the MILP's moving set on every in-tree (chains, several pushers on
    # one node, pushers behind pushers): node k > 0 shoves an earlier node; forces 0/2/4, masses 1-6
    from mam_bench.models.swarm import physics

    comp = list(range(len(spec)))
    edges = [(k, spec[k][2] % k) for k in comp[1:]]
    force = np.array([2 * f for f, _, _ in spec])
    mass = np.array([m for _, m, _ in spec])
    assert physics._solve_tree(comp, edges, force, mass) == physics._solve_milp(comp, edges, force, mass)

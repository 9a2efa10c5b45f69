"""The speed paths give the answers of the slow ones they replace.

Physics: when no pusher steps into an agent or a body, `resolve` skips the push program; on
random boards (walls, a pushable prey, 3 to 40 agents) its result must equal the program's.
Dynamics: the vectorised Gini and the union-find component count must equal the per-agent
formula and scipy's count; the tracker (plain-Python paths for a few agents, cell-grid lookups
and memoised numpy calls for many) must give every metric of the dense definitions bit for bit,
on random rounds with crowds, agents switching off, odd actions and repeated messages.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components

from mam_bench.models.swarm import physics
from mam_bench.models.swarm.dynamics import DynamicsTracker, _count_components, ginis
from mam_bench.models.swarm.grid import BASE_ACTIONS
from mam_bench.models.swarm.layouts import walled


def _board(rng: np.random.Generator, size: int, n: int):
    cells = [(r, c) for r in range(1, size - 1) for c in range(1, size - 1)]
    picks = rng.choice(len(cells), size=n + 1, replace=False)
    pos = np.array([cells[k] for k in picks[:n]], dtype=np.int64)
    bodies = [physics.Body([cells[picks[n]]], 1, "P")] if rng.random() < 0.5 else []
    actions = [str(a) for a in rng.choice(BASE_ACTIONS, size=n)]
    return walled(size), pos, np.ones(n, dtype=bool), actions, bodies


@pytest.mark.parametrize("density", [3, 10, 40])
def test_fast_path_equals_the_push_program(monkeypatch, density):
    rng = np.random.default_rng(density)
    boards = [_board(rng, 10, density) for _ in range(300)]
    fast = [physics.resolve(*b) for b in boards]
    monkeypatch.setattr(physics, "_free_run", lambda *a: None)  # always ask the program
    slow = [physics.resolve(*b) for b in boards]
    for f, s in zip(fast, slow):
        assert (f.positions == s.positions).all() and f.push_events == s.push_events
        assert [b.cells for b in f.bodies] == [b.cells for b in s.bodies]
    assert any((f.moved != 0).any() for f in fast)


def test_vectorised_gini_and_components_match_the_formulas():
    rng = np.random.default_rng(1)
    for _ in range(200):
        counts = rng.integers(0, 6, size=(int(rng.integers(1, 12)), 4))
        for row, g in zip(counts, ginis(counts)):  # the per-agent formula (docs/worlds/swarm.md)
            x = np.sort(row.astype(float))
            want = 0.0 if x.sum() == 0 else float((2 * np.arange(1, 5) - 5) @ x / (4 * x.sum()))
            assert g == want
        pts = rng.integers(0, 12, size=(int(rng.integers(1, 15)), 2))
        cheb = np.abs(pts[:, None, :] - pts[None, :, :]).max(-1)
        vis = (cheb <= 2) & (cheb > 0)
        left, right = np.nonzero(np.triu(vis, 1))
        want = connected_components(vis | np.eye(len(pts), dtype=bool), directed=False)[0]
        assert _count_components(len(pts), left.tolist(), right.tolist()) == want


def _dense_metrics(prev, pos, active, reach):
    """The spatial dynamics metrics as first written: every pair compared in (n, n, 2) arrays."""
    a, b = prev[active], pos[active]
    adj_a = np.abs(a[:, None, :] - a[None, :, :]).sum(-1) == 1
    adj_b = np.abs(b[:, None, :] - b[None, :, :]).sum(-1) == 1
    p = b.astype(float)
    diff = p[:, None, :] - p[None, :, :]
    cheb = np.abs(diff).max(-1)
    vis = (cheb <= reach) & (cheb > 0)
    d2 = (diff**2).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(vis[..., None], diff / np.where(d2 > 0, d2, 1)[..., None], 0.0).sum(1)
    return {
        "local_structure_preservation": float(np.triu(adj_a & adj_b, 1).sum()),
        "visibility_components": float(connected_components(vis | np.eye(len(b), dtype=bool), directed=False)[0]),
        "separation_force": float(np.linalg.norm(f, axis=1).mean()),
    }


@pytest.mark.parametrize("n", [2, 10, 60, 200])
def test_sparse_dynamics_equal_the_dense_formulas(n):
    """Neighbour lookups and a sparse component count give the dense metrics bit for bit."""
    rng = np.random.default_rng(n)
    size = 10 if n <= 10 else 50
    contacts = 0.0
    for trial in range(30):
        side = size - 2 if trial % 2 else max(2, int(np.ceil(np.sqrt(n * 1.2))))  # spread out, or a crowd
        cells = rng.choice(side**2, size=n, replace=False)
        prev = np.stack([cells // side + 1, cells % side + 1], axis=1)
        pos = prev + rng.integers(-1, 2, size=(n, 2)) * (rng.random((n, 1)) < 0.5)
        active = np.ones(n, dtype=bool)
        tracker = DynamicsTracker((size, size), n, reach=3)
        got = tracker.update(prev, pos, active, active, ["STAY"] * n, [], 0)
        for key, want in _dense_metrics(prev, pos, active, 3).items():
            assert got[key] == want, key
        contacts += got["local_structure_preservation"]
    assert contacts > 0 or n < 10  # the boards had neighbours to keep


def _plain_best_fit(agents, targets, scale, bounds):
    """The dissimilarity's definition: every translation in sorted order, the first least cost."""
    from mam_bench.models.swarm.flocking.metrics import _cost

    diffs = {tuple(d) for d in (agents[:, None, :] - targets[None, :, :]).reshape(-1, 2).tolist()}
    if bounds is not None:
        r0, r1, c0, c1 = bounds
        lo, hi = targets.min(axis=0), targets.max(axis=0)
        diffs = {
            t for t in diffs if r0 <= t[0] + lo[0] and t[0] + hi[0] <= r1 and c0 <= t[1] + lo[1] and t[1] + hi[1] <= c1
        }
        diffs = diffs or {(r0 - int(lo[0]), c0 - int(lo[1]))}
    best = None
    for t in sorted(diffs):
        cost, r, k = _cost(agents, targets, t, scale)
        if best is None or cost < best[0]:
            best = (cost, t, {int(a): int(b) for a, b in zip(r, k)})
    return best


@pytest.mark.parametrize("n", [1, 4, 10, 16, 30])
def test_pruned_best_fit_equals_trying_every_translation(n):
    """Skipping translations whose floor cannot win gives the exhaustive answer, ties included."""
    from mam_bench.models.swarm.flocking.metrics import best_fit, hollow_square

    rng = np.random.default_rng(n)
    for trial in range(40):
        size = int(rng.integers(8, 20))
        side = max(1, min(n // 4 + 1, size - 2))
        cells = rng.choice(size * size, size=n, replace=False)
        agents = np.stack([cells // size, cells % size], axis=1).astype(np.int64)
        if trial % 5 == 0:  # a swarm already in formation: many translations tie near zero
            agents = (hollow_square(side) + 1)[:n]
        bounds = (1, size - 2, 1, size - 2) if trial % 2 else None
        scale = 0.5 if trial % 3 == 0 else 1.0
        got = best_fit(agents, hollow_square(side), scale, bounds=bounds)
        assert got == _plain_best_fit(agents, hollow_square(side), scale, bounds)


def _box_board(rng: np.random.Generator, size: int, n: int):
    """A walled board with a connected box of 2-6 cells (mass 1-6) and n agents around it."""
    r, c = int(rng.integers(2, size - 3)), int(rng.integers(2, size - 3))
    box = [(r, c)]
    while len(box) < int(rng.integers(2, 7)):
        br, bc = box[int(rng.integers(len(box)))]
        dr, dc = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
        cell = (min(max(br + dr, 1), size - 2), min(max(bc + dc, 1), size - 2))
        if cell not in box:
            box.append(cell)
    free = [(i, j) for i in range(1, size - 1) for j in range(1, size - 1) if (i, j) not in box]
    picks = rng.choice(len(free), size=min(n, len(free)), replace=False)
    pos = np.array([free[k] for k in picks], dtype=np.int64)
    actions = [str(a) for a in rng.choice(BASE_ACTIONS, size=len(pos), p=[0.3, 0.3, 0.15, 0.15, 0.1])]
    body = physics.Body(box, int(rng.integers(1, 7)), "B")
    return walled(size), pos, np.ones(len(pos), dtype=bool), actions, [body]


@pytest.mark.parametrize("density", [6, 20, 45])
def test_tree_solution_equals_the_integer_program(monkeypatch, density):
    """Where every node shoves at most one other, the closed form is the program's unique optimum."""
    rng = np.random.default_rng(100 + density)
    boards = [_box_board(rng, 10, density) for _ in range(200)] + [_board(rng, 10, density) for _ in range(100)]
    trees = []
    real_tree = physics._solve_tree

    def counted(comp, edges, force, mass):
        trees.append(len(comp))
        return real_tree(comp, edges, force, mass)

    monkeypatch.setattr(physics, "_free_run", lambda *a: None)  # always build the push graph
    monkeypatch.setattr(physics, "_solve_tree", counted)
    closed = [physics.resolve(*b) for b in boards]
    monkeypatch.setattr(physics, "_solve_tree", physics._solve_milp)  # the program everywhere
    program = [physics.resolve(*b) for b in boards]
    for f, s in zip(closed, program):
        assert (f.positions == s.positions).all() and f.push_events == s.push_events
        assert [b.cells for b in f.bodies] == [b.cells for b in s.bodies]
    assert max(trees) >= 3  # trees of several nodes were met, not only lone agents
    assert any((f.moved != 0).any() for f in closed)


@pytest.mark.parametrize("density", [5, 20, 45, 60])
def test_forest_path_equals_the_general_program(monkeypatch, density):
    """Without a body of several cells the push graph is solved on lists (`_forest`); the general
    path (strong components, closure, `_solve_tree`) must give the same moves on every board,
    including resisting agents, pushable one-cell preys and crowds pushing into walls."""
    rng = np.random.default_rng(700 + density)
    boards = [_board(rng, 10, density) for _ in range(400)]
    calls = []
    real = physics._forest

    def counted(*args):
        out = real(*args)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(physics, "_free_run", lambda *a: None)  # always build the push graph
    monkeypatch.setattr(physics, "_forest", counted)
    fast = [physics.resolve(*b) for b in boards]
    monkeypatch.setattr(physics, "_forest", lambda *a: None)  # the general path everywhere
    general = [physics.resolve(*b) for b in boards]
    for f, s in zip(fast, general):
        assert (f.positions == s.positions).all() and f.push_events == s.push_events
        assert [b.cells for b in f.bodies] == [b.cells for b in s.bodies]
    assert sum(calls) > 300
    assert sum(int((f.moved != 0).any(axis=1).sum()) for f in fast) > 1000


# --- Group dynamics: every fast path against the metric's plain definitions -------------------


def _reference_update(state, prev, pos, was_active, active, actions, messages, push_events, reach):
    """The 18 metrics from their definitions, dense numpy throughout (`state` carries the
    visited map and the U/D/L/R counts across rounds)."""
    from collections import Counter

    from mam_bench.models.swarm.dynamics import _UNIT, MOVES, zero
    from mam_bench.models.swarm.embedding import _levenshtein, embed

    out = zero()
    acted = [a for a in actions if a is not None]
    moves = Counter(a for a in acted if a in _UNIT)
    base = Counter(a for a in acted if a in _UNIT or a == "STAY")
    if moves:
        ps = np.array(list(moves.values()), dtype=float) / sum(moves.values())
        out["directional_entropy"] = float(-(ps * np.log2(ps)).sum())
    if acted:
        out["stillness_proportion"] = float(np.mean([a == "STAY" for a in acted]))
        steps = np.array([_UNIT[a] if a in _UNIT else (0, 0) for a in acted], dtype=float)
        out["polarization_index"] = float(np.linalg.norm(steps.mean(axis=0)))
    if base:
        out["dominant_action_prop"] = max(base.values()) / sum(base.values())
    both = was_active & active
    if both.any():
        out["avg_moving_distance"] = float(np.abs(pos[both] - prev[both]).sum(axis=1).mean())
        dense = _dense_metrics(prev, pos, both, reach)
        out["local_structure_preservation"] = dense["local_structure_preservation"]
    H, W = state["visited"].shape
    p = pos[active]
    ok = (p[:, 0] >= 0) & (p[:, 0] < H) & (p[:, 1] >= 0) & (p[:, 1] < W)
    state["visited"][p[ok, 0], p[ok, 1]] = True
    out["exploration_rate"] = float(state["visited"].sum())
    out["agent_push_events"] = float(push_events)
    for i, a in enumerate(actions):
        if a in _UNIT:
            state["counts"][i, MOVES.index(a)] += 1
    if active.any():
        g = []
        for row in state["counts"][active]:  # the per-agent formula (docs/worlds/swarm.md)
            x = np.sort(row.astype(float))
            g.append(0.0 if x.sum() == 0 else float((2 * np.arange(1, 5) - 5) @ x / (4 * x.sum())))
        out["action_gini"] = float(np.mean(g))
        dense = _dense_metrics(pos, pos, active, reach)
        out["visibility_components"] = dense["visibility_components"]
        out["separation_force"] = dense["separation_force"]
    msgs = [m for m in messages if m]
    if msgs:
        lengths = np.array([len(m) for m in msgs], dtype=float)
        out["mean_message_length"] = float(lengths.mean())
        out["std_message_length"] = float(lengths.std()) if len(msgs) >= 2 else 0.0
        out["prop_question_sentences"] = float(np.mean(["?" in m for m in msgs]))
        chars = "".join(msgs)
        out["prop_digit_chars"] = sum(ch.isdigit() for ch in chars) / len(chars) if chars else 0.0
        unique = sorted(set(msgs))
        e = np.stack([embed(m) for m in unique])
        out["norm_mean_message_embedding"] = float(np.linalg.norm(e.mean(axis=0)))
        if len(unique) >= 2:
            sim = e @ e.T
            out["info_homogeneity"] = float((sim.sum() - np.trace(sim)) / (len(unique) * (len(unique) - 1)))
            few = unique[:30]
            d = [_levenshtein(a, b) / max(len(a), len(b), 1) for k, a in enumerate(few) for b in few[k + 1 :]]
            total = 0.0
            for x in d:
                total += x
            out["edit_consistency"] = 1.0 - total / len(d)
    return {k: (0.0 if math.isnan(v) else v) for k, v in out.items()}


_WORDS = ["", "", "P at 3,4", "P at 3,4", "where?", "push RIGHT", "push UP", "go 12 left?", "ok", "??", "99", "a b c"]


def _rounds(rng: np.random.Generator, size: int, n: int, rounds: int, crowd: float, idle: float):
    """Random walks with crowds (agents stepping onto a neighbour's cell), agents switching off
    (some carried off the board), None and non-move actions, and repeated or empty messages."""
    cells = rng.choice(size * size, size=n, replace=size * size < n)
    pos = np.stack([cells // size, cells % size], axis=1).astype(np.int64)
    active = rng.random(n) >= idle
    pos[~active & (rng.random(n) < 0.5)] = -1
    yield None, pos.copy(), active.copy()
    kinds = ["UP", "DOWN", "LEFT", "RIGHT", "STAY", None, "PUSH"]
    for _ in range(rounds):
        prev, was = pos.copy(), active.copy()
        step = rng.integers(-1, 2, size=(n, 2)) * (rng.random((n, 1)) < 0.6)
        pos = np.clip(pos + step, 0, size - 1)
        join = rng.random(n) < crowd
        pos[join] = pos[rng.integers(0, n, size=int(join.sum()))]
        flip = rng.random(n) < idle / 3
        active = np.where(flip, ~active, active)
        pos[~active & (rng.random(n) < 0.3)] = size  # off the board
        actions = [kinds[k] for k in rng.integers(0, len(kinds), size=n)]
        actions = [a if act else None for a, act in zip(actions, active)] if rng.random() < 0.7 else actions
        msgs = [_WORDS[k] for k in rng.integers(0, len(_WORDS), size=int(rng.integers(0, n + 1)))]
        if rng.random() < 0.2:
            msgs.append("".join(chr(c) for c in rng.integers(32, 127, size=int(rng.integers(1, 40)))))
        if rng.random() < 0.1:  # more than the 30 unique messages edit consistency reads
            msgs += [f"at {a},{b}?" for a, b in rng.integers(0, 20, size=(40, 2))]
        yield (prev, was, actions, msgs, int(rng.integers(0, 4))), pos.copy(), active.copy()


@pytest.mark.parametrize(
    "size, n, reach, crowd, idle",
    [
        (6, 1, 2, 0.0, 0.0),
        (6, 3, 1, 0.3, 0.3),
        (10, 10, 2, 0.0, 0.0),
        (10, 10, 2, 0.2, 0.2),
        (8, 24, 3, 0.1, 0.1),
        (8, 25, 3, 0.1, 0.1),  # the numpy branch, window wider than the crowd: every pair
        (10, 30, 5, 0.2, 0.5),  # numpy branch with few agents left: the plain paths again
        (20, 60, 2, 0.0, 0.0),
        (20, 60, 2, 0.3, 0.2),
        (50, 200, 2, 0.0, 0.0),
        (50, 200, 3, 0.15, 0.1),
        (30, 200, 1, 0.05, 0.0),
    ],
)
@pytest.mark.parametrize("seed", range(2))
def test_tracker_equals_the_dense_definitions(size, n, reach, crowd, idle, seed):
    """Every metric of every round is the reference's float, bit for bit (compared by repr)."""
    rng = np.random.default_rng([size, n, reach, seed])
    tracker = DynamicsTracker((size, size), n, reach)
    state = {"visited": np.zeros((size, size), dtype=bool), "counts": np.zeros((n, 4), dtype=np.int64)}
    seen_crowd = 0
    for args, pos, active in _rounds(rng, size, n, 40 if n <= 30 else 15, crowd, idle):
        if args is None:
            tracker.start(pos, active)
            _reference_update(state, pos, pos, np.zeros(n, bool), active, [], [], 0, reach)
            continue
        prev, was, actions, msgs, push = args
        got = tracker.update(prev, pos, was, active, actions, msgs, push)
        want = _reference_update(state, prev, pos, was, active, actions, msgs, push, reach)
        assert list(got) == list(want)
        for key in want:
            assert repr(got[key]) == repr(want[key]), key
        live = pos[active]
        seen_crowd += len(np.unique(live, axis=0)) < len(live)
    assert (tracker.counts == state["counts"]).all() and (tracker.visited == state["visited"]).all()
    assert seen_crowd or not crowd


@pytest.mark.parametrize("seed", range(4))
def test_pairwise_sum_is_numpys_order(seed):
    """The Python sum adds in numpy's order: same float as np.sum on lengths around every block edge."""
    from mam_bench.models.swarm.dynamics import pairwise_sum

    rng = np.random.default_rng(seed)
    for n in [*range(1, 300), 383, 384, 385, 511, 512, 513, 1024, 1031]:
        x = rng.random(n) * 10.0 ** rng.integers(-6, 7, size=n) * rng.choice([-1.0, 1.0], size=n)
        assert repr(pairwise_sum(x.tolist())) == repr(float(x.sum())), n
        assert repr(pairwise_sum(x.tolist()) / n) == repr(float(x.mean())), n


@pytest.mark.parametrize("density", [10, 30, 60])
def test_splitting_off_the_box_component_changes_nothing(monkeypatch, density):
    """With a box on the board only its weak component goes through the program and the other
    trees are solved as a forest; the whole graph through the program must give the same moves."""
    rng = np.random.default_rng(900 + density)
    boards = [_box_board(rng, 14, density) for _ in range(300)]
    split_sizes = []
    real = physics._linked_to_bodies

    def counted(n, bodies, children):
        linked = real(n, bodies, children)
        split_sizes.append(len(children) - len(linked))
        return linked

    monkeypatch.setattr(physics, "_free_run", lambda *a: None)  # always build the push graph
    monkeypatch.setattr(physics, "_linked_to_bodies", counted)
    split = [physics.resolve(*b) for b in boards]
    monkeypatch.setattr(physics, "_linked_to_bodies", lambda n, bodies, children: set(children))
    whole = [physics.resolve(*b) for b in boards]
    for f, s in zip(split, whole):
        assert (f.positions == s.positions).all() and f.push_events == s.push_events
        assert [b.cells for b in f.bodies] == [b.cells for b in s.bodies]
    assert sum(1 for k in split_sizes if k > 0) > 25  # forests were split off on many boards
    assert any(f.bodies[0].cells != b[4][0].cells for f, b in zip(split, boards))  # boxes moved

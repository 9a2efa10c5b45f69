"""The speed paths give the answers of the slow ones they replace (issue 12, item 5).

Physics: when no pusher steps into an agent or a body, `resolve` skips the push program; on
random boards (walls, a pushable prey, 3 to 40 agents) its result must equal the program's.
Dynamics: the vectorised Gini and the breadth-first component count must equal the per-agent
formula and scipy's count.
"""

from __future__ import annotations

import numpy as np
import pytest
from mam_bench.models.swarm import physics
from mam_bench.models.swarm.dynamics import DynamicsTracker, components, ginis
from mam_bench.models.swarm.grid import BASE_ACTIONS
from mam_bench.models.swarm.layouts import walled
from scipy.sparse.csgraph import connected_components


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
        for row, g in zip(counts, ginis(counts)):  # the per-agent formula of the spec
            x = np.sort(row.astype(float))
            want = 0.0 if x.sum() == 0 else float((2 * np.arange(1, 5) - 5) @ x / (4 * x.sum()))
            assert g == want
        pts = rng.integers(0, 12, size=(int(rng.integers(1, 15)), 2))
        cheb = np.abs(pts[:, None, :] - pts[None, :, :]).max(-1)
        vis = (cheb <= 2) & (cheb > 0)
        assert components(vis) == connected_components(vis | np.eye(len(pts), dtype=bool), directed=False)[0]


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

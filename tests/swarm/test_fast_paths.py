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
from mam_bench.models.swarm.dynamics import components, ginis
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

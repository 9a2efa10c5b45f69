"""Flocking's round-by-round dissimilarity (resumed exact solver, pruned neighbours) against its definition.

The world asks `Dissimilarity` every round; it must return exactly what the plain definition
returns: for small swarms the least cost over every translation, for large ones the hill climb
from the median alignment, each cost solved afresh by scipy. Swarms drift a few cells a round
(the solver resumes from earlier prices), jump, crowd, stand in formation or in mirror image (ties),
and lose agents.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from mam_bench.models.swarm.flocking.assignment import INF, cost_matrix, solve
from mam_bench.models.swarm.flocking.metrics import EXHAUSTIVE_BUDGET, Dissimilarity, hollow_square


def _plain_cost(agents, targets, t, scale):
    """The optimal assignment cost at translation t, from scratch."""
    c = scale * np.abs(agents[:, None, :] - (targets + np.array(t))[None, :, :]).sum(axis=2)
    r, k = linear_sum_assignment(c)
    return float(c[r, k].sum())


def _plain_dissimilarity(agents, targets, scale, budget=EXHAUSTIVE_BUDGET):
    """The definition: every translation (first least cost) while cheap, else the climb from the median."""
    if len(agents) == 0 or len(targets) == 0:
        return 0.0
    diffs = {tuple(d) for d in (agents[:, None, :] - targets[None, :, :]).reshape(-1, 2).tolist()}
    if len(diffs) * len(agents) * len(targets) <= budget:
        return min(_plain_cost(agents, targets, t, scale) for t in sorted(diffs))
    t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
    best = _plain_cost(agents, targets, t, scale)
    improved = True
    while improved:
        improved = False
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            cand = (t[0] + dr, t[1] + dc)
            cost = _plain_cost(agents, targets, cand, scale)
            if cost < best:
                best, t, improved = cost, cand, True
    return best


def _swarm(rng, size, n, kind):
    """n agents on a size x size board: scattered, crowded into a block, or in formation with extras."""
    side = max(1, min(n // 4 + 1, size - 2))
    if kind == "mirror":  # symmetric about a column: mirrored translations cost the same (climb ties)
        axis = size - 1 - int(rng.integers(2))  # twice the axis: by parity the median lands on a tie or between two
        cells = rng.choice((size - 2) * ((axis - 1) // 2), size=n // 2, replace=False)
        half = np.stack([cells // ((axis - 1) // 2) + 1, cells % ((axis - 1) // 2) + 1], axis=1)
        return np.concatenate([half, np.stack([half[:, 0], axis - half[:, 1]], axis=1)]).astype(np.int64), side
    if kind == "formation":
        cells = hollow_square(side) + 1
        extra = rng.integers(1, size - 1, size=(max(0, n - len(cells)), 2))
        return np.concatenate([cells[:n], extra]).astype(np.int64), side
    span = size - 2 if kind == "scattered" else int(np.ceil(np.sqrt(n)))
    cells = rng.choice(span * span, size=n, replace=False)
    return np.stack([cells // span + 1, cells % span + 1], axis=1).astype(np.int64), side


@pytest.mark.parametrize(
    "size,n,scale",
    [(30, 80, 1.0), (30, 80, 0.5), (30, 80, 0.3), (40, 120, 1.0), (10, 10, 1.0), (10, 10, 0.5)],
)
def test_round_by_round_dissimilarity_equals_its_definition(size, n, scale):
    """0.3 is not a power of two (costs go to `_fit`); 10 agents take the exhaustive search."""
    rng = np.random.default_rng(size * 1000 + n)
    targets = hollow_square(max(1, min(n // 4 + 1, size - 2)))
    for kind in ("scattered", "crowd", "formation", "mirror"):
        agents, _ = _swarm(rng, size, n, kind)
        measure = Dissimilarity(targets, scale, resume_from=0)  # the resumed climb at every size
        for step in range(12 if n > 10 else 4):
            assert measure(agents) == _plain_dissimilarity(agents, targets, scale), (kind, step)
            if step in (1, 2):  # nobody moves: the kept bounds are exact, equal totals meet as equals
                pass
            elif step == 6:  # a jump: the kept prices fit nothing any more
                agents = agents + rng.integers(-4, 5, size=2)
            elif step == 9:  # an agent leaves: a new problem size
                agents = agents[1:]
            else:  # some agents step one cell, a few onto a neighbour's cell (a crowd of ties)
                moves = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)])[rng.integers(4, size=len(agents))]
                agents = agents + moves * (rng.random((len(agents), 1)) < 0.3)
        if kind == "scattered":  # the resumed climb ran (it keeps solver states) where it should, and only there
            assert bool(measure.states) == (n > 10 and scale != 0.3)


def test_tiny_climbs_full_of_ties_equal_the_definition(monkeypatch):
    """With no budget for the exhaustive search, tiny swarms climb: equal totals at neighbouring
    translations are common, and the kept bounds are often exact, so a step must need a strictly less total."""
    import mam_bench.models.swarm.flocking.metrics as metrics

    monkeypatch.setattr(metrics, "EXHAUSTIVE_BUDGET", 0)
    rng = np.random.default_rng(5)
    for trial in range(150):
        targets = hollow_square(int(rng.integers(1, 4)))
        agents = rng.integers(0, int(rng.integers(2, 6)), size=(int(rng.integers(1, 9)), 2))
        measure = Dissimilarity(targets, 0.5 if trial % 2 else 1.0, resume_from=0)
        for step in range(6):
            assert measure(agents) == _plain_dissimilarity(agents, targets, measure.scale, budget=0), (trial, step)
            if step % 2:  # every other call nobody moves
                agents = agents + rng.integers(-1, 2, size=agents.shape) * (rng.random((len(agents), 1)) < 0.4)
        assert measure.states  # it took the resumed climb


def test_a_large_swarm_over_many_rounds_equals_its_definition():
    """The world's size: 200 agents on 50 x 50 drifting toward the square, as the model asks."""
    rng = np.random.default_rng(11)
    targets = hollow_square(48)
    agents, _ = _swarm(rng, 50, 200, "scattered")
    measure = Dissimilarity(targets, 1.0)  # the world's own threshold
    for _ in range(8):
        assert measure(agents) == _plain_dissimilarity(agents, targets, 1.0)
        moves = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)])[rng.integers(4, size=len(agents))]
        agents = agents + moves * (rng.random((len(agents), 1)) < 0.2)
    assert measure.states  # it took the resumed climb


def test_resumed_solver_equals_scipy_from_any_earlier_state():
    """`solve` from any prices and matching of the same size: the optimum, or a true floor at the bound."""
    rng = np.random.default_rng(3)
    for _ in range(150):
        n, m = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        spread = int(rng.integers(2, 12))
        agents = rng.integers(0, spread, size=(n, 2))
        targets = rng.integers(0, spread, size=(m, 2))  # repeated cells too: ties everywhere
        size = max(n, m)
        state = (
            rng.integers(-9, 9, size),
            rng.integers(-9, 9, size),
            np.full(size, -1, dtype=np.int64),
            np.full(size, -1, dtype=np.int64),
        )
        c = np.zeros((size, size), dtype=np.int64)
        for rep in range(5):
            t = rng.integers(-3, 4, size=2)
            cost_matrix(agents[:, 0].copy(), agents[:, 1].copy(), targets[:, 0] + t[0], targets[:, 1] + t[1], c)
            want = _plain_cost(agents, targets, t, 1.0)
            bound = INF if rep % 2 == 0 else int(rng.integers(0, int(want) + 3))
            total, exact = solve(c, *state, bound)
            if exact:
                assert total == want
            else:
                assert bound <= total <= want  # a floor, and the reason to stop
            assert (c - state[0][:, None] - state[1][None, :] >= 0).all()  # the prices stay feasible
            moved = rng.random(n) < 0.3
            agents = agents + rng.integers(-1, 2, size=(n, 2)) * moved[:, None]

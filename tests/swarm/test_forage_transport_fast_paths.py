"""Foraging and transport fast paths give the answers (and draws) of the code they replace.

`Exits` and `Slope` memoise `navigation.wander` and `navigation.downhill` per cell; settling and
looking are vectorised over agents; transport keeps its plan while the box stands still. Each is
checked against the plain per-agent formula on random boards, draw for draw.
"""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm.foraging.metrics import settle, within_reach
from mam_bench.models.swarm.grid import chebyshev
from mam_bench.models.swarm.layouts import walled
from mam_bench.models.swarm.navigation import Exits, LazyRng, Slope, bfs, downhill, wander
from mam_bench.models.swarm.transport.agents import transport_plan
from mam_bench.models.swarm.transport.model import TransportWorld
from mam_bench.world import play_round


def _maze(rng: np.random.Generator, size: int = 9) -> np.ndarray:
    t = walled(size)
    t[rng.random((size, size)) < 0.25] = 1
    return t == 0


def _pair(seed: int) -> tuple[LazyRng, LazyRng, list[int]]:
    """Two lazy streams on the same seed, and a log of how many times each was created."""
    made = [0, 0]

    def factory(k: int):
        made[k] += 1
        return np.random.default_rng(seed)

    return LazyRng(lambda: factory(0)), LazyRng(lambda: factory(1)), made


def test_memoised_steps_match_wander_and_downhill_draw_for_draw():
    rng = np.random.default_rng(0)
    for board in range(40):
        passable = _maze(rng)
        exits = Exits(passable)
        cells = [tuple(c) for c in np.argwhere(passable).tolist()]
        if not cells:
            continue
        targets = [cells[int(rng.integers(len(cells)))]]
        slope = Slope(bfs(passable, targets))
        for k in range(60):  # cells repeat, so the memo is both filled and read
            here = cells[int(rng.integers(len(cells)))]
            recent = [cells[int(i)] for i in rng.integers(len(cells), size=3)]
            a, b, made = _pair(board * 100 + k)
            assert exits.wander(here, recent, a) == wander(here, recent, passable, b)
            a, b, made2 = _pair(board * 100 + k)
            assert slope.downhill(here, a) == downhill(here, slope.dist, b)
            assert slope.distance(here) == slope.dist[here]
            assert made == made[::-1] and made2 == made2[::-1]  # a stream exactly when the original made one


@pytest.mark.parametrize("upstream", [False, True])
def test_settle_matches_the_per_agent_rule(upstream):
    rng = np.random.default_rng(1)
    for _ in range(100):
        n = int(rng.integers(1, 12))
        pos = rng.integers(0, 6, size=(n, 2))
        active = rng.random(n) < 0.8
        carrying = rng.random(n) < 0.5
        near_food, near_nest = rng.random((6, 6)) < 0.3, rng.random((6, 6)) < 0.3
        want_carry, want_done = carrying.copy(), np.zeros(n, dtype=bool)
        for i in np.flatnonzero(active):
            cell = (int(pos[i, 0]), int(pos[i, 1]))
            if upstream:
                want_carry[i] |= bool(near_food[cell])
                if near_nest[cell] and want_carry[i]:
                    want_carry[i], want_done[i] = False, True
            elif want_carry[i] and near_nest[cell]:
                want_carry[i], want_done[i] = False, True
            elif not want_carry[i] and near_food[cell]:
                want_carry[i] = True
        done = settle(pos, active, carrying, near_food, near_nest, upstream)
        assert (done == want_done).all() and (carrying == want_carry).all()


def test_within_reach_is_the_chebyshev_view():
    rng = np.random.default_rng(2)
    for _ in range(50):
        cells = [tuple(c) for c in rng.integers(0, 10, size=(int(rng.integers(1, 5)), 2)).tolist()]
        reach = int(rng.integers(0, 4))
        seen = within_reach(cells, reach, (10, 10))
        for r in range(10):
            for c in range(10):
                assert seen[r, c] == any(chebyshev((r, c), f) <= reach for f in cells)


@pytest.mark.parametrize("strategy", ["sidestep", "push"])
def test_transport_kept_plan_equals_a_fresh_one(strategy):
    w = TransportWorld(TransportWorld.Params(size=10, agents=10, strategy=strategy), seed=0)
    boxes = set()
    for _ in range(60):
        kept = w.plan()
        box = [c for b in w.bodies for c in b.cells]
        boxes.add(tuple(box))
        direction = w.side if strategy == "sidestep" and box and not w._clear_ahead(box) else w.push
        fresh = transport_plan(box, direction, w.gap, w.passable())
        assert kept["direction"] == direction
        assert kept["behind"] == fresh["behind"] and kept["gap"] == fresh["gap"]
        assert (kept["to_gap"] == fresh["to_gap"]).all() and (kept["passable"] == fresh["passable"]).all()
        assert (kept["to_behind"] is None) == (fresh["to_behind"] is None)
        assert kept["to_behind"] is None or (kept["to_behind"] == fresh["to_behind"]).all()
        if w._done:
            break
        play_round(w)
    if strategy == "sidestep":  # (a straight push jams the upstream box against the wall)
        assert len(boxes) > 2  # the box moved, so kept plans were replaced


def test_transport_look_is_the_chebyshev_view():
    w = TransportWorld(TransportWorld.Params(size=20, agents=30), seed=1)
    rng = np.random.default_rng(3)
    for _ in range(20):
        w.pos = rng.integers(-1, 21, size=(30, 2))
        w.active = rng.random(30) < 0.9
        w.sighted[:] = rng.random(30) < 0.3
        before = w.sighted.copy()
        marks = [c for b in w.bodies for c in b.cells] + list(w.gap)
        w._look()
        for i in range(30):
            here = (int(w.pos[i, 0]), int(w.pos[i, 1]))
            sees = any(chebyshev(here, c) <= w.reach for c in marks)
            assert w.sighted[i] == (before[i] or (bool(w.active[i]) and sees))

"""Flocking and Synchronization's whole-swarm rule passes decide what the per-agent rules did.

Each reference below is the per-agent rule the world used before its plan computed every
agent's view at once; on random boards every agent, with the fast plan and with its own look
(`fast_paths=False`), must pick the same action and draw the same random numbers (the same
stream, created in the same cases). The large-swarm hill climb of the
dissimilarity must find what the climb over `_cost` finds.
"""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm.flocking.metrics import _cost, best_fit, hollow_square
from mam_bench.models.swarm.flocking.model import FlockingWorld
from mam_bench.models.swarm.grid import manhattan
from mam_bench.models.swarm.navigation import LazyRng, toward, wander
from mam_bench.models.swarm.synchronization.model import SynchronizationWorld


def _old_nearest_rule(here, slots, taken, passable, rng):
    if here in slots:
        return "STAY"
    free = [s for s in slots if s not in taken]
    if not free:
        return "STAY"
    best = min(manhattan(here, s) for s in free)
    goals = [s for s in free if manhattan(here, s) == best]
    goal = goals[0] if len(goals) == 1 else goals[int(rng().integers(len(goals)))]
    return toward(here, goal, passable, rng)


def _old_flocking_rule(w: FlockingWorld, aid: int, rng: LazyRng) -> str:
    here = (int(w.pos[aid, 0]), int(w.pos[aid, 1]))
    passable = w.passable()
    if w.params.strategy == "local":
        seen = w.pos[w.active]
        seen = seen[np.abs(seen - np.array(here)).max(axis=1) <= w.reach]
        if len(seen) == 1:
            return wander(here, w.recent[aid], passable, rng)
    else:
        seen = w.pos[w.active]
    lo = seen.min(axis=0)
    top = int(min(max(lo[0], 1), w.size - 1 - w.side))
    left = int(min(max(lo[1], 1), w.size - 1 - w.side))
    slots = [(top + int(r), left + int(c)) for r, c in w.shape.tolist()]
    taken = {(int(r), int(c)) for r, c in seen.tolist()}
    return _old_nearest_rule(here, slots, taken, passable, rng)


def _old_sync_rule(w: SynchronizationWorld, aid: int, rng: LazyRng) -> str:
    if (w.round + 1) % w.params.period == 0:
        return "SWITCH"
    p = w.pos
    cheb = np.maximum(np.abs(p[:, None, 0] - p[None, :, 0]), np.abs(p[:, None, 1] - p[None, :, 1]))
    seen = np.flatnonzero(((cheb <= w.reach) & w.active[None, :])[aid])
    if w.params.strategy == "vote":
        on = int(w.lights[seen].sum())
        off = len(seen) - on
        if on != off and bool(w.lights[aid]) != (on > off):
            return "SWITCH"
    here = (int(p[aid, 0]), int(p[aid, 1]))
    if len(seen[seen != aid]) == 0:
        return wander(here, w.recent[aid], w.passable(), rng)
    goal = tuple(int(round(x)) for x in p[seen].mean(axis=0))
    if manhattan(here, goal) <= 1:
        return "STAY"
    return toward(here, goal, w.passable(), rng)


def _scatter(w, rng: np.random.Generator) -> None:
    """Random distinct inner cells (often crowded, so slots are held and views overlap), a few gone."""
    inner = [(r, c) for r in range(1, w.size - 1) for c in range(1, w.size - 1)]
    corner = int(rng.integers(0, 2))
    pool = inner[: max(w.n, len(inner) // 3)] if corner else inner
    w.pos[:] = [pool[k] for k in rng.choice(len(pool), size=w.n, replace=False)]
    w.active[:] = rng.random(w.n) > 0.1
    w.active[0] = True
    w.round = int(rng.integers(0, 40))


def _same_choices(w, old, trials: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        _scatter(w, rng)
        if isinstance(w, SynchronizationWorld):
            w.lights[:] = rng.random(w.n) < 0.5
        plan = w.plan()
        w.fast_paths = False  # and each agent's own look, the agent-level reference
        own = w.plan()
        w.fast_paths = True
        for aid in np.flatnonzero(w.active).tolist():
            rngs = [LazyRng(lambda aid=aid: np.random.default_rng(aid)) for _ in range(3)]
            want = old(w, aid, rngs[0])
            assert w.swarm[aid].rule(plan, rngs[1])[0] == want
            assert w.swarm[aid].rule(own, rngs[2])[0] == want
            for lazy in rngs[1:]:
                assert (lazy._rng is None) == (rngs[0]._rng is None)  # the stream made in the same cases
                if lazy._rng is not None:  # and drawn from as often
                    assert lazy._rng.bit_generator.state == rngs[0]._rng.bit_generator.state


@pytest.mark.parametrize("strategy", ["local", "nearest"])
@pytest.mark.parametrize("size,agents", [(6, 3), (10, 10), (12, 30), (20, 60)])
def test_flocking_slot_rule_matches_the_per_agent_rule(strategy, size, agents):
    w = FlockingWorld(FlockingWorld.Params(size=size, agents=agents, strategy=strategy), seed=0)
    _same_choices(w, _old_flocking_rule, trials=15, seed=size + agents)


@pytest.mark.parametrize("strategy", ["vote", "gather"])
@pytest.mark.parametrize("size,agents", [(6, 3), (10, 10), (12, 30), (20, 60)])
def test_synchronization_intents_match_the_per_agent_rule(strategy, size, agents):
    w = SynchronizationWorld(SynchronizationWorld.Params(size=size, agents=agents, strategy=strategy), seed=0)
    _same_choices(w, _old_sync_rule, trials=15, seed=size + agents)


def _climb_over_cost(agents, targets, scale):
    """The large-swarm search as first written: the climb from the median alignment over `_cost`."""
    seen = {}

    def at(t):
        if t not in seen:
            seen[t] = _cost(agents, targets, t, scale)
        return seen[t]

    t = tuple(int(x) for x in np.round(np.median(agents, axis=0) - np.median(targets, axis=0)))
    cost, r, k = at(t)
    best = (cost, t, r, k)
    improved = True
    while improved:
        improved = False
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            cand = (best[1][0] + dr, best[1][1] + dc)
            cost, r, k = at(cand)
            if cost < best[0]:
                best, improved = (cost, cand, r, k), True
    cost, t, r, k = best
    return cost, t, {int(a): int(b) for a, b in zip(r, k)}


def test_large_swarm_climb_matches_the_climb_over_cost():
    rng = np.random.default_rng(7)
    for trial in range(4):
        size, n = 50, int(rng.integers(150, 220))
        cells = rng.choice((size - 2) ** 2, size=n, replace=False)
        agents = np.stack([cells // (size - 2) + 1, cells % (size - 2) + 1], axis=1).astype(np.int64)
        targets = hollow_square(max(1, min(n // 4 + 1, size - 2)))
        scale = 0.5 if trial % 2 else 1.0
        assert best_fit(agents, targets, scale) == _climb_over_cost(agents, targets, scale)

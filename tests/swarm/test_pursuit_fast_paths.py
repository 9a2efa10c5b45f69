"""Pursuit's fast paths give exactly what the plain per-cell code gives, on random boards."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.swarm.fast.pursuit import slot_fields
from mam_bench.models.swarm.grid import EMPTY, WALL
from mam_bench.models.swarm.layouts import walled
from mam_bench.models.swarm.navigation import bfs
from mam_bench.models.swarm.pursuit.prey import FLIGHT_ORDER, flee, threat_map


def boards(size: int, count: int, seed: int = 0):
    """Walled boards with scattered inner walls and agents (some cells hold two)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        terrain = walled(size)
        terrain[rng.random((size, size)) < 0.15] = WALL
        agents = (rng.random((size, size)) < 0.25) * rng.integers(1, 3, (size, size))
        yield rng, terrain, agents


def _threat(cell, agents, terrain):
    """H of one cell, straight from the definition (upstream's 8 x 8 window, clipped at 0)."""
    i, j = cell
    r0, c0 = max(i - 4, 0), max(j - 4, 0)
    return (agents[r0 : i + 4, c0 : j + 4] > 0).sum() + (terrain[r0 : i + 4, c0 : j + 4] == WALL).sum() * 0.9


def plain_flee(prey, agents, terrain):
    """The flight as first written: a bounds-checked emptiness test and a window sum per cell."""
    H, W = terrain.shape
    i, j = prey

    def empty(r, c):
        return 0 <= r < H and 0 <= c < W and terrain[r, c] == EMPTY and not agents[r, c] and (r, c) != prey

    best, target = _threat((i, j - 1), agents, terrain), prey
    for a in FLIGHT_ORDER:
        for b in FLIGHT_ORDER:
            r, c = i + a[0] + b[0], j + a[1] + b[1]
            if empty(r, c) and empty(i + a[0], j + a[1]) and empty(i + b[0], j + b[1]):
                h = _threat((r, c), agents, terrain)
                if h < best:
                    best, target = h, (r, c)
    return target


@pytest.mark.parametrize("size", [5, 10, 17])
def test_slot_fields_are_the_bfs_fields(size):
    for rng, terrain, _ in boards(size, 20):
        passable = terrain == EMPTY
        slots = [tuple(c) for c in rng.integers(0, size, (int(rng.integers(0, 5)), 2)).tolist()]
        fields = slot_fields(passable, slots)
        assert fields.shape == (len(slots), size, size)
        for field, slot in zip(fields, slots):
            assert np.array_equal(field, bfs(passable, [slot]))


@pytest.mark.parametrize("size", [6, 10, 17])
def test_threat_map_matches_the_window_sums_to_the_bit(size):
    for _, terrain, agents in boards(size, 10):
        h = threat_map(agents, terrain)
        for i in range(size):
            for j in range(size):
                assert repr(float(h[i, j])) == repr(float(_threat((i, j), agents, terrain)))


@pytest.mark.parametrize("size", [6, 10, 17])
def test_flee_matches_the_plain_flight(size):
    for _, terrain, agents in boards(size, 10):
        for i in range(1, size - 1):
            for j in range(1, size - 1):
                assert flee((i, j), agents, terrain) == plain_flee((i, j), agents, terrain)

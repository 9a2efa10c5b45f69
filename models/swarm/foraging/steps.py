"""Memoised single steps on a fixed map: `navigation.wander` and `navigation.downhill` per cell.

Both scan a cell's four neighbours through numpy indexing on every call. While the passable map
(or the distance field) stays the same, that scan gives the same moves for a cell every time,
so it runs once per cell and later calls only pick among the stored moves. The picks draw from
the agent's stream exactly as the navigation functions do (same cases, same calls, same order).
Transport reuses these for the rounds its box stands still.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from mam_bench.models.swarm.grid import DELTA, MOVES
from mam_bench.models.swarm.navigation import FAR, LazyRng


class Exits:
    """The passable neighbours of each cell on one passable map (for the random walk)."""

    def __init__(self, passable: np.ndarray):
        self.passable = passable
        self._exits: dict[tuple[int, int], tuple[tuple[str, tuple[int, int]], ...]] = {}

    def neighbours(self, here: tuple[int, int]) -> tuple[tuple[str, tuple[int, int]], ...]:
        """(move, target) for each passable neighbour in MOVES order, indexed as `wander` does."""
        exits = self._exits.get(here)
        if exits is None:
            exits = []
            for m in MOVES:
                dr, dc = DELTA[m]
                t = (here[0] + dr, here[1] + dc)
                if self.passable[t]:
                    exits.append((m, t))
            exits = self._exits[here] = tuple(exits)
        return exits

    def wander(self, here: tuple[int, int], recent: Iterable[tuple[int, int]], rng: LazyRng) -> str:
        """`navigation.wander`: a random passable step, preferring cells not visited recently."""
        exits = self.neighbours(here)
        recent = set(recent)
        options = [m for m, t in exits if t not in recent] or [m for m, _ in exits]
        if not options:
            return "STAY"
        return options[int(rng().integers(len(options)))]


class Slope:
    """One distance field with each cell's downhill moves stored after the first look."""

    def __init__(self, dist: np.ndarray):
        self.dist = dist
        self._rows = dist.tolist()  # plain ints: reading one cell skips numpy's scalar boxing
        self._moves: dict[tuple[int, int], tuple[str, ...]] = {}

    def distance(self, here: tuple[int, int]) -> int:
        return self._rows[here[0]][here[1]]

    def moves(self, here: tuple[int, int]) -> tuple[str, ...]:
        """The moves to the lowest neighbour below `here` (all of them on a tie), as `downhill`."""
        options = self._moves.get(here)
        if options is None:
            H, W = self.dist.shape
            level = self.dist[here] if 0 <= here[0] < H and 0 <= here[1] < W else FAR
            best, found = level, []
            for m in MOVES:
                dr, dc = DELTA[m]
                t = (here[0] + dr, here[1] + dc)
                if not (0 <= t[0] < H and 0 <= t[1] < W):
                    continue
                v = self.dist[t]
                if v < best:
                    best, found = v, [m]
                elif v == best and v < level:
                    found.append(m)
            options = self._moves[here] = tuple(found)
        return options

    def downhill(self, here: tuple[int, int], rng: LazyRng) -> str:
        """`navigation.downhill`: a step down the field (seeded tie-break), STAY at a minimum."""
        options = self.moves(here)
        if not options:
            return "STAY"
        return options[0] if len(options) == 1 else options[int(rng().integers(len(options)))]

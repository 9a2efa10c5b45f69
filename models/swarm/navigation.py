"""Path helpers for the rule agents: BFS distance fields and seeded single steps."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from mam_bench.models.swarm.grid import DELTA, MOVES

FAR = 10**6


def bfs(passable: np.ndarray, targets: Iterable[tuple[int, int]]) -> np.ndarray:
    """Steps from every cell to the nearest target over passable cells (targets count as passable)."""
    H, W = passable.shape
    open_ = passable.ravel().tolist()  # flat Python lists: a sweep of every cell stays cheap
    dist = [FAR] * (H * W)
    q: deque[int] = deque()
    for t in targets:
        if 0 <= t[0] < H and 0 <= t[1] < W and dist[t[0] * W + t[1]] == FAR:
            dist[t[0] * W + t[1]] = 0
            q.append(t[0] * W + t[1])
    while q:
        k = q.popleft()
        d = dist[k] + 1
        r, c = divmod(k, W)
        for nk, ok in ((k - W, r > 0), (k + W, r < H - 1), (k - 1, c > 0), (k + 1, c < W - 1)):
            if ok and open_[nk] and dist[nk] > d:
                dist[nk] = d
                q.append(nk)
    return np.array(dist, dtype=np.int64).reshape(H, W)


def _pick(options: tuple[str, ...] | list[str], rng: Callable[[], np.random.Generator]) -> str:
    """STAY without options, the one option without a draw, else a seeded pick."""
    if not options:
        return "STAY"
    return options[0] if len(options) == 1 else options[int(rng().integers(len(options)))]


def downhill_moves(pos: tuple[int, int], dist: np.ndarray) -> tuple[str, ...]:
    """The moves to the lowest neighbour below `pos` (all of them on a tie), in MOVES order."""
    H, W = dist.shape
    here = dist[pos] if 0 <= pos[0] < H and 0 <= pos[1] < W else FAR
    best, options = here, []
    for m in MOVES:
        dr, dc = DELTA[m]
        t = (pos[0] + dr, pos[1] + dc)
        if not (0 <= t[0] < H and 0 <= t[1] < W):
            continue
        v = dist[t]
        if v < best:
            best, options = v, [m]
        elif v == best and v < here:
            options.append(m)
    return tuple(options)


def downhill(pos: tuple[int, int], dist: np.ndarray, rng: Callable[[], np.random.Generator]) -> str:
    """A move that lowers the distance field (seeded tie-break), or STAY at a minimum."""
    return _pick(downhill_moves(pos, dist), rng)


def toward(
    pos: tuple[int, int], goal: tuple[int, int], passable: np.ndarray, rng: Callable[[], np.random.Generator]
) -> str:
    """A Manhattan step toward `goal` into a passable cell (seeded tie-break), else STAY."""
    options = []
    for m in MOVES:
        dr, dc = DELTA[m]
        if (dr and (goal[0] - pos[0]) * dr > 0) or (dc and (goal[1] - pos[1]) * dc > 0):
            t = (pos[0] + dr, pos[1] + dc)
            if passable[t]:
                options.append(m)
    return _pick(options, rng)


def exits(pos: tuple[int, int], passable: np.ndarray) -> tuple[tuple[str, tuple[int, int]], ...]:
    """(move, cell) for each passable neighbour of `pos`, in MOVES order."""
    out = []
    for m in MOVES:
        dr, dc = DELTA[m]
        t = (pos[0] + dr, pos[1] + dc)
        if passable[t]:
            out.append((m, t))
    return tuple(out)


def wander_among(
    steps: tuple[tuple[str, tuple[int, int]], ...],
    recent: Iterable[tuple[int, int]],
    rng: Callable[[], np.random.Generator],
) -> str:
    """A random step among `steps`, preferring cells not visited recently; it always draws."""
    recent = set(recent)
    options = [m for m, t in steps if t not in recent] or [m for m, _ in steps]
    if not options:
        return "STAY"
    return options[int(rng().integers(len(options)))]


def wander(
    pos: tuple[int, int],
    recent: Iterable[tuple[int, int]],
    passable: np.ndarray,
    rng: Callable[[], np.random.Generator],
) -> str:
    """Random walk away from recently visited cells (the paper's exploration fallback)."""
    return wander_among(exits(pos, passable), recent, rng)


class Exits:
    """`exits` of each cell on one passable map, looked up once per cell.

    While the map stays the same (foraging's maze, transport's board while the box stands) a
    cell's exits do not change, so later walks from it only draw among the stored ones.
    `remember=False` (the agent-level reference) looks every time.
    """

    def __init__(self, passable: np.ndarray, remember: bool = True):
        self.passable = passable
        self.remember = remember
        self._exits: dict[tuple[int, int], tuple[tuple[str, tuple[int, int]], ...]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Exits:
        """A fork shares it: a lookup of a map no round changes remembers the same for both."""
        return self

    def neighbours(self, here: tuple[int, int]) -> tuple[tuple[str, tuple[int, int]], ...]:
        if not self.remember:
            return exits(here, self.passable)
        found = self._exits.get(here)
        if found is None:
            found = self._exits[here] = exits(here, self.passable)
        return found

    def wander(self, here: tuple[int, int], recent: Iterable[tuple[int, int]], rng: LazyRng) -> str:
        """`wander` on this map."""
        return wander_among(self.neighbours(here), recent, rng)


class Slope:
    """One distance field with each cell's `downhill_moves` stored after the first look
    (`remember=False`, the agent-level reference: read from the field every time)."""

    def __init__(self, dist: np.ndarray, remember: bool = True):
        self.dist = dist
        self.remember = remember
        self._rows = dist.tolist() if remember else None  # plain ints: no numpy scalar boxing
        self._moves: dict[tuple[int, int], tuple[str, ...]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Slope:
        """A fork shares it: a lookup of a field no round changes remembers the same for both."""
        return self

    def distance(self, here: tuple[int, int]) -> int:
        if self._rows is None:
            return int(self.dist[here])
        return self._rows[here[0]][here[1]]

    def moves(self, here: tuple[int, int]) -> tuple[str, ...]:
        if not self.remember:
            return downhill_moves(here, self.dist)
        found = self._moves.get(here)
        if found is None:
            found = self._moves[here] = downhill_moves(here, self.dist)
        return found

    def downhill(self, here: tuple[int, int], rng: LazyRng) -> str:
        """`downhill` on this field."""
        return _pick(self.moves(here), rng)


class LazyRng:
    """Creates the addressed per-agent stream only when a rule actually needs a draw."""

    def __init__(self, factory: Callable[[], np.random.Generator]):
        self._factory = factory
        self._rng: np.random.Generator | None = None

    def __call__(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = self._factory()
        return self._rng

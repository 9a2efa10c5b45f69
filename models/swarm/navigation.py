"""Path helpers for the rule agents: BFS distance fields and seeded single steps."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

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


def downhill(pos: tuple[int, int], dist: np.ndarray, rng: Callable[[], np.random.Generator]) -> str:
    """A move that lowers the distance field (seeded tie-break), or STAY at a minimum."""
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
    if not options:
        return "STAY"
    return options[0] if len(options) == 1 else options[int(rng().integers(len(options)))]


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
    if not options:
        return "STAY"
    return options[0] if len(options) == 1 else options[int(rng().integers(len(options)))]


def wander(
    pos: tuple[int, int],
    recent: Iterable[tuple[int, int]],
    passable: np.ndarray,
    rng: Callable[[], np.random.Generator],
) -> str:
    """Random walk away from recently visited cells (the spec's exploration fallback)."""
    recent = set(recent)
    fresh, any_ = [], []
    for m in MOVES:
        dr, dc = DELTA[m]
        t = (pos[0] + dr, pos[1] + dc)
        if passable[t]:
            any_.append(m)
            if t not in recent:
                fresh.append(m)
    options = fresh or any_
    if not options:
        return "STAY"
    return options[int(rng().integers(len(options)))]


class LazyRng:
    """Creates the addressed per-agent stream only when a rule actually needs a draw."""

    def __init__(self, factory: Callable[[], np.random.Generator]):
        self._factory = factory
        self._rng: np.random.Generator | None = None

    def __call__(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = self._factory()
        return self._rng

"""Group-dynamics metrics (docs/worlds/swarm.md), from each round's positions, actions and messages.

Research metrics, kept off the round: the world hands each round's inputs to `GroupDynamics`,
which computes them only when the metrics are read (the records read them every round).
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

import numpy as np

from mam_bench.models.swarm.embedding import edit_consistency, homogeneity
from mam_bench.models.swarm.grid import DELTA, MOVES

_UNIT = {m: (DELTA[m][1], DELTA[m][0]) for m in MOVES}  # (x, y) with UP = (0, -1)
_CODE = {m: k for k, m in enumerate(MOVES)}

NAMES = (
    "directional_entropy",
    "stillness_proportion",
    "dominant_action_prop",
    "polarization_index",
    "avg_moving_distance",
    "exploration_rate",
    "local_structure_preservation",
    "agent_push_events",
    "mean_message_length",
    "std_message_length",
    "prop_question_sentences",
    "prop_digit_chars",
    "info_homogeneity",
    "norm_mean_message_embedding",
    "edit_consistency",
    "action_gini",
    "visibility_components",
    "separation_force",
)


def zero() -> dict[str, float]:
    out = {k: 0.0 for k in NAMES}
    out["info_homogeneity"] = 1.0
    out["edit_consistency"] = 1.0
    return out


SMALL = 24  # up to this many agents the plain-Python paths beat numpy's per-call overhead


def pairwise_sum(a: list[float]) -> float:
    """numpy's float64 sum of a non-empty list, in the same order: so means of a few floats need no array.

    numpy adds fewer than 8 values one by one; up to 128 in 8 interleaved accumulators joined
    as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus the tail one by one; above that it splits in
    halves rounded down to a multiple of 8.
    """
    return _psum(a, 0, len(a))


def _psum(a: list[float], lo: int, hi: int) -> float:
    n = hi - lo
    if n < 8:
        res = -0.0
        for i in range(lo, hi):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3, r4, r5, r6, r7 = a[lo : lo + 8]
        end = hi - n % 8
        for i in range(lo + 8, end, 8):
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(end, hi):
            res += a[i]
        return res
    half = n // 2
    half -= half % 8
    return _psum(a, lo, lo + half) + _psum(a, lo + half, hi)


@lru_cache(maxsize=1 << 14)
def _entropy(counts: tuple[int, ...]) -> float:
    """Shannon entropy (bits) of move counts; memoised because numpy's log2 is not math.log2 bit for bit."""
    ps = np.array(counts, dtype=float) / sum(counts)
    return float(-(ps * np.log2(ps)).sum())


@lru_cache(maxsize=1 << 14)
def _polarization(sx: int, sy: int, n: int) -> float:
    """Norm of the mean unit step; memoised because numpy's norm is a BLAS dot, not a plain sum."""
    return float(np.linalg.norm(np.array([sx / n, sy / n])))


def _gini(row: list[int]) -> float:
    """One agent's Gini of U/D/L/R counts; integer sums, so it equals `ginis` bit for bit."""
    x0, x1, x2, x3 = sorted(row)
    s = x0 + x1 + x2 + x3
    return (3 * (x3 - x0) + x2 - x1) / (4 * s) if s else 0.0


def ginis(counts: np.ndarray) -> np.ndarray:
    """Gini coefficient of each agent's U/D/L/R counts (0 when it never moved), all rows at once.

    Counts are integers, so every sum is exact whatever the summation order.
    """
    x = np.sort(counts.astype(float), axis=1)
    n, s = x.shape[1], x.sum(axis=1)
    weights = (2 * np.arange(1, n + 1) - n - 1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = (x * weights).sum(axis=1) / (n * s)
    return np.where(s == 0, 0.0, g)


def _union(root: list[int], a: int, b: int) -> int:
    """Join the sets of a and b (path halving); 1 when they were apart, else 0."""
    while root[a] != a:
        root[a] = a = root[root[a]]
    while root[b] != b:
        root[b] = b = root[root[b]]
    if a == b:
        return 0
    root[a] = b
    return 1


def _count_components(n: int, left: list[int], right: list[int]) -> int:
    """Union-find over the pairs: a few hundred pairs are cheaper in Python than a scipy graph."""
    root = list(range(n))
    return n - sum(_union(root, a, b) for a, b in zip(left, right))


def _grid_pairs(rows: np.ndarray, cols: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j), i ascending, where agent j stands at agent i's cell plus one of `offsets`.

    Agents are put in a padded cell -> agent grid, one layer per agent sharing a cell (a crowd),
    and every agent reads its offset cells in all layers: no (n, n) comparison.
    """
    n, pad = len(rows), int(np.abs(offsets).max())
    r, c = rows - rows.min() + pad, cols - cols.min() + pad
    width = int(c.max()) + pad + 1
    key = r * width + c
    order = np.argsort(key, kind="stable")
    ks = key[order]
    first = np.ones(n, dtype=bool)
    first[1:] = ks[1:] != ks[:-1]
    size = (int(r.max()) + pad + 1) * width
    look = key[:, None] + (offsets[:, 0] * width + offsets[:, 1])[None, :]
    if first.all():
        grid = np.full(size, -1, dtype=np.int64)
        grid[ks] = order
        seen = grid[look]
    else:
        layer = np.arange(n) - np.maximum.accumulate(np.where(first, np.arange(n), 0))
        grid = np.full((int(layer.max()) + 1, size), -1, dtype=np.int64)
        grid[layer, ks] = order
        seen = grid[:, look].transpose(1, 0, 2).reshape(n, -1)
    i, k = np.nonzero(seen >= 0)
    return i, seen[i, k]


_SIDE = np.array([(1, 0), (0, 1)])


def _kept_contacts(before: list[list[int]], after: list[list[int]]) -> int:
    """Pairs of agents side by side (Manhattan 1) both before and after the round.

    Agents stand on distinct cells, so each agent looks up its four neighbours' cells instead of
    comparing every pair (a crowd, two on one cell, compares every pair).
    """
    at = {(r, c): i for i, (r, c) in enumerate(before)}
    kept = 0
    if len(at) < len(before):
        for i, (r0, c0) in enumerate(before):
            for j in range(i + 1, len(before)):
                r1, c1 = before[j]
                if abs(r0 - r1) + abs(c0 - c1) == 1:
                    kept += abs(after[i][0] - after[j][0]) + abs(after[i][1] - after[j][1]) == 1
        return kept
    for i, (r, c) in enumerate(before):
        for cell in ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1)):
            j = at.get(cell)
            if j is not None and j > i and abs(after[i][0] - after[j][0]) + abs(after[i][1] - after[j][1]) == 1:
                kept += 1
    return kept


def _kept_contacts_grid(before: np.ndarray, after: np.ndarray) -> int:
    """`_kept_contacts` for many agents: the cell grid finds the neighbour below and to the right
    of each agent (so each pair once), crowds included."""
    i, j = _grid_pairs(before[:, 0], before[:, 1], _SIDE)
    return int(np.count_nonzero(np.abs(after[i] - after[j]).sum(1) == 1))


@lru_cache(maxsize=8)
def _window(reach: int) -> np.ndarray:
    return np.array([(dr, dc) for dr in range(-reach, reach + 1) for dc in range(-reach, reach + 1) if dr or dc])


def _visibility(at: np.ndarray, reach: int) -> tuple[float, float]:
    """(components of the who-sees-whom graph, mean norm of the separation force).

    The force on agent i is the sum over the agents j it sees (Chebyshev distance 1..reach) of
    (p_i - p_j) / |p_i - p_j|^2, added one j after another in ascending order (the float order of
    the metric's first form, an (n, n, 2) array summed along axis 1), and the mean of the norms
    is numpy's pairwise mean. Many agents find their pairs through the cell grid (or compare all
    pairs if the window is wider than the crowd); each row's terms are packed to the left of an
    (n, most seen) array and summed as a running sum, the padding zeros changing nothing.
    """
    n = len(at)
    if (2 * reach + 1) ** 2 > n:  # a window wider than the crowd: compare every pair
        dr, dc = at[:, 0, None] - at[None, :, 0], at[:, 1, None] - at[None, :, 1]
        cheb = np.maximum(np.abs(dr), np.abs(dc))
        i, j = np.nonzero((cheb <= reach) & (cheb > 0))  # row-major: j ascending within each i
    else:
        i, j = _grid_pairs(at[:, 0], at[:, 1], _window(reach))
        o = np.argsort(i * n + j)
        i, j = i[o], j[o]
    seen = np.bincount(i, minlength=n)
    n_components = float(_block_components(at, i, j, seen, reach))
    if not len(i):
        return n_components, 0.0
    fr, fc = (at[i, 0] - at[j, 0]).astype(float), (at[i, 1] - at[j, 1]).astype(float)
    d2 = fr**2 + fc**2
    slot = np.arange(len(i)) - (np.cumsum(seen) - seen)[i]
    packed = np.zeros((2, n, int(seen.max())))
    packed[0, i, slot], packed[1, i, slot] = fr / d2, fc / d2
    push = np.cumsum(packed, axis=2)[:, :, -1].T
    return n_components, float(np.linalg.norm(push, axis=1).mean())


def _block_components(at: np.ndarray, i: np.ndarray, j: np.ndarray, seen: np.ndarray, reach: int) -> int:
    """Components of the who-sees-whom graph given its pairs (i, j), without a union per pair.

    An agent that sees nobody is a component alone. The others are merged block by block: in a
    block of (reach + 1) x (reach + 1) cells any two cells see each other, and agents sharing a
    cell see the same others, so a block's seeing agents are one piece (a block never mixes
    seeing and blind agents). Two blocks join when some pair crosses them; blocks that do are
    neighbours, so each link is the lower block and its offset (1, bw - 1, bw or bw + 1), and a
    few hundred pairs reduce to a few dozen links for the union-find.
    """
    side = reach + 1
    br, bc = at[:, 0] // side, at[:, 1] // side
    br, bc = br - br.min(), bc - bc.min()
    bw = int(bc.max()) + 1
    blk = br * bw + bc
    nb = (int(br.max()) + 1) * bw
    lo, hi = blk[i], blk[j]
    cross = lo < hi
    link = np.zeros(nb * (bw + 2), dtype=bool)
    link[lo[cross] * (bw + 2) + (hi[cross] - lo[cross])] = True
    k = np.flatnonzero(link)
    left = k // (bw + 2)
    nodes = np.zeros(nb, dtype=bool)
    nodes[blk[seen > 0]] = True
    pieces = _count_components(nb, left.tolist(), (left + k % (bw + 2)).tolist()) - (nb - int(np.count_nonzero(nodes)))
    return int(np.count_nonzero(seen == 0)) + pieces


def _visibility_small(cells: list[list[int]], reach: int) -> tuple[float, float]:
    """`_visibility` for a few agents: each pair once, agent i's term added to i and its negation to j.

    Going through i ascending and then j > i, every agent still receives its terms in ascending
    order of the other agent, so each running sum is the metric's; (-d)/d2 is -(d/d2) exactly.
    """
    n = len(cells)
    fx, fy = [0.0] * n, [0.0] * n
    root = list(range(n))
    count = n
    for i, (ri, ci) in enumerate(cells):
        j = i
        for rj, cj in cells[i + 1 :]:
            j += 1
            dr = ri - rj
            if dr > reach or dr < -reach:
                continue
            dc = ci - cj
            if dc > reach or dc < -reach or not (dr or dc):
                continue
            d2 = dr * dr + dc * dc
            tx, ty = dr / d2, dc / d2
            fx[i] += tx
            fy[i] += ty
            fx[j] -= tx
            fy[j] -= ty
            count -= _union(root, i, j)
    return float(count), pairwise_sum([math.sqrt(x * x + y * y) for x, y in zip(fx, fy)]) / n


@lru_cache(maxsize=1 << 12)
def _message_facts(m: str) -> tuple[int, int, bool]:
    """(length, digit characters, has a question mark) of one message; messages repeat round to round."""
    return len(m), sum(ch.isdigit() for ch in m), "?" in m


def _std(lengths: list[int], mean: float) -> float:
    """np.std of the lengths: numpy's mean, squared deviations, pairwise sum, then sqrt (all IEEE-exact)."""
    return math.sqrt(pairwise_sum([(v - mean) * (v - mean) for v in lengths]) / len(lengths))


class DynamicsTracker:
    """Keeps what the metrics need across rounds: visited cells (and their count) and per-agent
    action counts. Up to SMALL agents everything runs on Python lists (each agent's Gini kept and
    recomputed only when it moves); above, on numpy arrays."""

    def __init__(self, shape: tuple[int, int], n_agents: int, reach: int):
        self._flat = bytearray(shape[0] * shape[1])
        self.visited = np.frombuffer(self._flat, dtype=bool).reshape(shape)  # a view: numpy and Python share it
        self.explored = 0
        self.reach = reach
        self._big = n_agents > SMALL
        self._tally = np.zeros((n_agents, 5), dtype=np.int64)  # column 4 takes STAY and the rest
        self._rows = [[0, 0, 0, 0] for _ in range(n_agents)]
        self._gini = [0.0] * n_agents

    @property
    def counts(self) -> np.ndarray:
        """Per-agent U/D/L/R counts."""
        if self._big:
            return self._tally[:, :4].copy()
        return np.array(self._rows, dtype=np.int64).reshape(len(self._rows), 4)

    def start(self, pos: np.ndarray, active: np.ndarray) -> None:
        self._mark(pos, active)

    def _mark(self, pos: np.ndarray, active: np.ndarray) -> None:
        """Mark the live agents' cells; a running count replaces summing the whole map each round."""
        H, W = self.visited.shape
        if self._big:
            p = pos[active]
            ok = (p[:, 0] >= 0) & (p[:, 0] < H) & (p[:, 1] >= 0) & (p[:, 1] < W)
            self.visited[p[ok, 0], p[ok, 1]] = True
            self.explored = int(np.count_nonzero(self.visited))
            return
        flat = self._flat
        for (r, c), live in zip(pos.tolist(), active.tolist()):
            if live and 0 <= r < H and 0 <= c < W and not flat[r * W + c]:
                flat[r * W + c] = 1
                self.explored += 1

    def update(
        self,
        prev: np.ndarray,
        pos: np.ndarray,
        was_active: np.ndarray,
        active: np.ndarray,
        actions: list[str | None],
        messages: list[str],
        push_events: int,
    ) -> dict[str, float]:
        out = zero()
        tally = Counter(actions)
        moves = {a: k for a, k in tally.items() if a in _UNIT}  # in order of first appearance
        stay = tally.get("STAY", 0)
        n_acted = len(actions) - tally.get(None, 0)
        if moves:
            out["directional_entropy"] = _entropy(tuple(moves.values()))
        if n_acted:
            out["stillness_proportion"] = stay / n_acted
            # unit steps sum exactly in any order, so the mean vector is the integer sums over n
            sx = sum(_UNIT[a][0] * k for a, k in moves.items())
            sy = sum(_UNIT[a][1] * k for a, k in moves.items())
            out["polarization_index"] = _polarization(sx, sy, n_acted)
        if moves or stay:
            out["dominant_action_prop"] = max(max(moves.values(), default=0), stay) / (sum(moves.values()) + stay)
        if self._big:
            self._spatial_arrays(out, prev, pos, was_active, active, actions)
        else:
            self._spatial_lists(out, prev, pos, was_active, active, actions)
        out["exploration_rate"] = float(self.explored)
        out["agent_push_events"] = float(push_events)
        msgs = [m for m in messages if m]
        if msgs:
            facts = [_message_facts(m) for m in msgs]
            lengths = [f[0] for f in facts]
            chars = sum(lengths)
            mean = chars / len(msgs)  # integer total: numpy's mean bit for bit
            out["mean_message_length"] = mean
            out["std_message_length"] = _std(lengths, mean) if len(msgs) >= 2 else 0.0
            out["prop_question_sentences"] = sum(1 for f in facts if f[2]) / len(msgs)
            out["prop_digit_chars"] = sum(f[1] for f in facts) / chars if chars else 0.0
            out["info_homogeneity"], out["norm_mean_message_embedding"] = homogeneity(msgs)
            out["edit_consistency"] = edit_consistency(msgs)
        for k, v in out.items():
            if v != v:  # NaN
                out[k] = 0.0
        return out

    def _spatial_lists(self, out, prev, pos, was_active, active, actions) -> None:
        """Movement, contacts, exploration, Gini and visibility for a few agents, on Python lists."""
        rows, gini = self._rows, self._gini
        for i, a in enumerate(actions):
            k = _CODE.get(a)
            if k is not None:
                row = rows[i]
                row[k] += 1
                gini[i] = _gini(row)
        before, after = prev.tolist(), pos.tolist()
        live = active.tolist()
        both = [k for k, (w, v) in enumerate(zip(was_active.tolist(), live)) if w and v]
        if both:
            a, b = [before[k] for k in both], [after[k] for k in both]
            steps = sum(abs(r1 - r0) + abs(c1 - c0) for (r0, c0), (r1, c1) in zip(a, b))
            out["avg_moving_distance"] = steps / len(a)  # an integer total: exact as numpy's mean
            out["local_structure_preservation"] = float(_kept_contacts(a, b))
        self._mark(pos, active)
        alive = [k for k, v in enumerate(live) if v]
        if alive:
            out["action_gini"] = pairwise_sum([gini[k] for k in alive]) / len(alive)
            out["visibility_components"], out["separation_force"] = _visibility_small(
                [after[k] for k in alive], self.reach
            )

    def _spatial_arrays(self, out, prev, pos, was_active, active, actions) -> None:
        """The same for many agents, on numpy arrays (the metric's own numpy mean for the Gini)."""
        n = len(actions)
        self._tally[np.arange(n), [_CODE.get(a, 4) for a in actions]] += 1
        both = was_active & active
        m = int(np.count_nonzero(both))
        if m:
            a, b = prev[both], pos[both]
            out["avg_moving_distance"] = int(np.abs(b - a).sum()) / m  # an integer total
            out["local_structure_preservation"] = float(
                _kept_contacts_grid(a, b) if m > SMALL else _kept_contacts(a.tolist(), b.tolist())
            )
        self._mark(pos, active)
        live = np.flatnonzero(active)
        if len(live):
            out["action_gini"] = float(np.mean(ginis(self._tally[live, :4])))
            if len(live) > SMALL:
                out["visibility_components"], out["separation_force"] = _visibility(pos[live], self.reach)
            else:
                out["visibility_components"], out["separation_force"] = _visibility_small(
                    pos[live].tolist(), self.reach
                )


class GroupDynamics:
    """The metrics' reporter: a round only appends its inputs; `values()` folds the rounds not yet
    counted through the tracker, in order, and returns the last round's metrics."""

    def __init__(self, shape: tuple[int, int], n_agents: int, reach: int, pos: np.ndarray, active: np.ndarray):
        self.tracker = DynamicsTracker(shape, n_agents, reach)
        self.tracker.start(pos, active)
        self._last = zero()
        self._last["exploration_rate"] = float(self.tracker.explored)
        self._pending: list[tuple] = []

    def record(
        self,
        prev: np.ndarray,
        pos: np.ndarray,
        was_active: np.ndarray,
        active: np.ndarray,
        actions: list[str | None],
        messages: list[str | None],
        push_events: int,
    ) -> None:
        """One round's inputs, copied: the world's arrays change in place afterwards."""
        sent = [m for m in messages if m]
        self._pending.append(
            (prev.copy(), pos.copy(), was_active.copy(), active.copy(), list(actions), sent, push_events)
        )

    def values(self) -> dict[str, float]:
        for inputs in self._pending:
            self._last = self.tracker.update(*inputs)
        self._pending.clear()
        return self._last

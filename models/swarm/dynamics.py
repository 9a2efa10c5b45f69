"""Group-dynamics metrics of spec section 6, computed every round from positions, actions, messages."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from mam_bench.models.swarm.embedding import edit_consistency, homogeneity
from mam_bench.models.swarm.grid import DELTA, MOVES
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

_UNIT = {m: (DELTA[m][1], DELTA[m][0]) for m in MOVES}  # (x, y) with UP = (0, -1)

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


def components(adjacent: np.ndarray) -> int:
    """Connected components of a symmetric boolean adjacency matrix.

    Union-find over the adjacent pairs for a few agents; scipy's sparse count for a crowd.
    """
    n = len(adjacent)
    if n > 40:
        return int(connected_components(csr_matrix(adjacent), directed=False)[0])
    root = list(range(n))

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    count = n
    rows, cols = np.nonzero(np.triu(adjacent, 1))
    for i, j in zip(rows.tolist(), cols.tolist()):
        a, b = find(i), find(j)
        if a != b:
            root[a] = b
            count -= 1
    return count


def _kept_contacts(before: list[list[int]], after: list[list[int]]) -> int:
    """Pairs of agents side by side (Manhattan 1) both before and after the round.

    Agents stand on distinct cells, so each agent looks up its four neighbours' cells instead of
    comparing every pair.
    """
    at = {(r, c): i for i, (r, c) in enumerate(before)}
    if len(at) < len(before):  # two on one cell: compare every pair
        a, b = np.array(before), np.array(after)
        side_a = np.abs(a[:, None, :] - a[None, :, :]).sum(-1) == 1
        side_b = np.abs(b[:, None, :] - b[None, :, :]).sum(-1) == 1
        return int(np.triu(side_a & side_b, 1).sum())
    kept = 0
    for i, (r, c) in enumerate(before):
        for cell in ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1)):
            j = at.get(cell)
            if j is not None and j > i and abs(after[i][0] - after[j][0]) + abs(after[i][1] - after[j][1]) == 1:
                kept += 1
    return kept


def _visibility(at: np.ndarray, reach: int) -> tuple[float, float]:
    """(components of the who-sees-whom graph, mean norm of the separation force).

    The force on agent i is the sum over the agents j it sees of (p_i - p_j) / |p_i - p_j|^2,
    added one j after another in ascending order (the float order of the metric's first form, an
    (n, n, 2) array summed along axis 1). Only seen pairs are turned into floats: each row's
    terms are packed to the left of an (n, most seen) array and summed as a running sum, the
    padding zeros changing nothing.
    """
    rows, cols = at[:, 0].astype(np.int32), at[:, 1].astype(np.int32)
    dr, dc = rows[:, None] - rows[None, :], cols[:, None] - cols[None, :]
    cheb = np.maximum(np.abs(dr), np.abs(dc))
    vis = (cheb <= reach) & (cheb > 0)
    n_components = float(components(vis))
    i, j = np.nonzero(vis)  # row-major: j ascending within each i
    n = len(at)
    if not len(i):
        return n_components, 0.0
    fr, fc = dr[i, j].astype(float), dc[i, j].astype(float)
    d2 = fr**2 + fc**2
    seen = np.bincount(i, minlength=n)
    slot = np.arange(len(i)) - (np.cumsum(seen) - seen)[i]
    packed = np.zeros((2, n, int(seen.max())))
    packed[0, i, slot], packed[1, i, slot] = fr / d2, fc / d2
    push = np.cumsum(packed, axis=2)[:, :, -1].T
    return n_components, float(np.linalg.norm(push, axis=1).mean())


class DynamicsTracker:
    """Keeps what the metrics need across rounds: visited cells and per-agent action counts."""

    def __init__(self, shape: tuple[int, int], n_agents: int, reach: int):
        self.visited = np.zeros(shape, dtype=bool)
        self.counts = np.zeros((n_agents, 4), dtype=np.int64)
        self.reach = reach

    def start(self, pos: np.ndarray, active: np.ndarray) -> None:
        self._mark(pos, active)

    def _mark(self, pos: np.ndarray, active: np.ndarray) -> None:
        H, W = self.visited.shape
        p = pos[active]
        ok = (p[:, 0] >= 0) & (p[:, 0] < H) & (p[:, 1] >= 0) & (p[:, 1] < W)
        self.visited[p[ok, 0], p[ok, 1]] = True

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
        acted = [a for a in actions if a is not None]
        moves = Counter(a for a in acted if a in _UNIT)
        base = Counter(a for a in acted if a in _UNIT or a == "STAY")
        n_moves = sum(moves.values())
        if n_moves:
            ps = np.array(list(moves.values()), dtype=float) / n_moves
            out["directional_entropy"] = float(-(ps * np.log2(ps)).sum())
        if acted:
            out["stillness_proportion"] = sum(1 for a in acted if a == "STAY") / len(acted)
            # unit steps sum exactly in any order, so the mean vector is the integer sums over n
            sx = sum(_UNIT[a][0] for a in acted if a in _UNIT)
            sy = sum(_UNIT[a][1] for a in acted if a in _UNIT)
            out["polarization_index"] = float(np.linalg.norm(np.array([sx / len(acted), sy / len(acted)])))
        if base:
            out["dominant_action_prop"] = max(base.values()) / sum(base.values())
        both = was_active & active
        if both.any():
            a, b = prev[both].tolist(), pos[both].tolist()
            steps = sum(abs(r1 - r0) + abs(c1 - c0) for (r0, c0), (r1, c1) in zip(a, b))
            out["avg_moving_distance"] = steps / len(a)  # an integer total: exact as numpy's mean
            out["local_structure_preservation"] = float(_kept_contacts(a, b))
        self._mark(pos, active)
        out["exploration_rate"] = float(self.visited.sum())
        out["agent_push_events"] = float(push_events)
        for i, a in enumerate(actions):
            if a in _UNIT:
                self.counts[i, MOVES.index(a)] += 1
        live = np.flatnonzero(active)
        if len(live):
            out["action_gini"] = float(np.mean(ginis(self.counts[live])))
            out["visibility_components"], out["separation_force"] = _visibility(pos[live], self.reach)
        msgs = [m for m in messages if m]
        if msgs:
            lengths = np.array([len(m) for m in msgs], dtype=float)
            out["mean_message_length"] = float(lengths.mean())
            out["std_message_length"] = float(lengths.std()) if len(msgs) >= 2 else 0.0
            out["prop_question_sentences"] = sum(1 for m in msgs if "?" in m) / len(msgs)
            chars = sum(len(m) for m in msgs)
            out["prop_digit_chars"] = sum(ch.isdigit() for m in msgs for ch in m) / chars if chars else 0.0
            out["info_homogeneity"], out["norm_mean_message_embedding"] = homogeneity(msgs)
            out["edit_consistency"] = edit_consistency(msgs)
        return {k: (0.0 if isinstance(v, float) and math.isnan(v) else v) for k, v in out.items()}

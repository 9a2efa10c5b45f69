"""Schelling steering heuristics: starve the movers (integrate) or feed them (segregate).

Segregation proceeds through dissatisfied agents finding satisfactory vacancies. To integrate,
influence actors occupy the vacancies that would satisfy someone and sit next to vacancies so
that those stop satisfying the other group; to segregate they do the opposite, vacating and
avoiding such cells. Targets are assigned greedily and distinct, so actors never collide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mam_bench.controller import Controller
from mam_bench.models.schelling.agents import GROUPS
from mam_bench.models.schelling.board import moore_sum, neighbour_counts
from mam_bench.models.schelling.observe import SchellingObservation
from mam_bench.protocol import Decision, Request

_OFFSETS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _counts(tg: np.ndarray, wrap: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The world's own neighbour counts, widened so `same * den` cannot overflow; without `wrap`
    (a window of a larger board) cells beyond the edge count as unseen, not as the far side."""
    if wrap:
        ca, cb = neighbour_counts(tg)
        return ca.astype(np.int64), cb.astype(np.int64)
    ca, cb = neighbour_counts(np.pad(tg, 1, constant_values=-1))
    return ca[1:-1, 1:-1].astype(np.int64), cb[1:-1, 1:-1].astype(np.int64)


def _eligible(same: np.ndarray, occ: np.ndarray, num: int, den: int) -> np.ndarray:
    return (occ == 0) | (same * den >= num * occ)


def _eligible_one(same: int, occ: int, num: int, den: int) -> bool:
    """`_eligible` for one cell, in exact Python integers (the inner loop: no 0-d arrays)."""
    return occ == 0 or same * den >= num * occ


class SchellingHeuristic(Controller):
    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "integrate", **_: Any):
        self.objective = objective

    @staticmethod
    def _supply_change(
        tg: np.ndarray,
        counts: tuple[np.ndarray, np.ndarray],
        cell: tuple[int, int],
        group: int,
        add: bool,
        demand: np.ndarray,
        num: int,
        den: int,
    ) -> float:
        """How many satisfying vacancies (weighted by demand) placing/removing `group` at `cell` destroys."""
        size = tg.shape[0]
        ca, cb = counts
        r, c = cell
        delta = 1 if add else -1
        lost = 0.0
        for dr, dc in _OFFSETS8:
            w = ((r + dr) % size, (c + dc) % size)
            if tg[w] != -1:
                continue
            a, b = int(ca[w]), int(cb[w])
            occ = a + b
            for s, same in ((0, a), (1, b)):
                before = _eligible_one(same, occ, num, den)
                same_after = same + (delta if s == group else 0)
                after = _eligible_one(same_after, occ + delta, num, den)
                lost += demand[s] * (int(before) - int(after))
        return lost

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        claimed: set[tuple[int, int]] = set()
        boards: dict[tuple, _Board] = {}
        return [self._decide(req.observation, claimed, boards) for req in requests]

    def _decide(self, o: SchellingObservation, claimed: set[tuple[int, int]], boards: dict[tuple, _Board]) -> Decision:
        """One actor's move from its own view; `claimed` holds the board cells taken by the actors
        before it this round. A window (a large board) is counted without wrapping, and only cells
        whose counts lie wholly inside it are candidates. What every actor seeing the same board
        reads alike is counted once (`boards`)."""
        num, den = o.threshold.numerator, o.threshold.denominator
        integrate = self.objective != "segregate"
        key = (o.groups, o.dissatisfied, o.whole, num, den)
        if key not in boards:
            boards[key] = _Board(o, num, den, integrate)
        b = boards[key]
        tg, ca, cb, demand = b.tg, b.ca, b.cb, b.demand
        group = GROUPS.index(o.group)
        here = o.view_cell(o.row, o.col)
        # staying keeps `here` out of supply; leaving frees it and its neighbourhood (a cell's own
        # counts leave its occupant out, so they are the same with `here` vacated)
        occ2 = ca[here] + cb[here]
        freed = sum(
            demand[s] * int(_eligible_one(int(sc), int(occ2), num, den)) for s, sc in ((0, ca[here]), (1, cb[here]))
        )
        leave_cost = freed - self._supply_change(tg, (ca, cb), here, group, add=False, demand=demand, num=num, den=den)
        scores = b.gain(group)[b.short_rows, b.short_cols] - leave_cost
        if not integrate:
            scores = -scores
        best, best_score = None, 0.0
        for cell, score in zip(b.short, scores.tolist()):  # the first best free cell of the shortlist
            if score > best_score and o.board_cell(*cell) not in claimed:
                best, best_score = cell, score
        if best is None:
            return Decision(action={"stay": True})
        r, c = o.board_cell(*best)
        claimed.add((r, c))
        return Decision(action={"row": r, "col": c})


class _Board:
    """One view's counts, the value of taking each vacancy and the shortlist: the same for every
    actor of a round that sees the whole board, so counted once for them all."""

    def __init__(self, o: SchellingObservation, num: int, den: int, integrate: bool) -> None:
        self.num, self.den = num, den
        self.tg = tg = np.array(o.groups, dtype=np.int64)
        self.demand = np.array([float(n > 0) for n in o.dissatisfied])
        self.ca, self.cb = ca, cb = _counts(tg, o.whole)
        occ = ca + cb
        self.elig = elig = np.stack([_eligible(ca, occ, num, den), _eligible(cb, occ, num, den)])
        vacant = tg == -1
        if not o.whole:  # counts two cells in from the window's edge are exact
            inner = np.zeros_like(vacant)
            inner[2:-2, 2:-2] = True
            vacant &= inner
        # value of taking a vacancy: the supply it removes for each group with someone waiting
        self.take_value = (elig[0] & vacant) * self.demand[0] + (elig[1] & vacant) * self.demand[1]
        # shortlist the vacancies (row-major) by the cheap term, then score neighbourhood effects
        rows, cols = np.nonzero(vacant)
        self.cells = list(zip(rows.tolist(), cols.tolist()))
        value = self.take_value[vacant]
        order = np.argsort(-value if integrate else value, kind="stable")[:40]
        self.short_rows, self.short_cols = rows[order], cols[order]
        self.short = list(zip(self.short_rows.tolist(), self.short_cols.tolist()))
        self._gain: dict[int, np.ndarray] = {}

    def gain(self, group: int) -> np.ndarray:
        """Per cell: the take value plus `SchellingHeuristic._supply_change` of placing `group`
        there, for every cell at once (whole numbers of demand, so summed in any order the same).
        Only shortlisted cells are read: in a window they lie two cells in, where nothing wraps."""
        if group not in self._gain:
            tg, ca, cb, num, den = self.tg, self.ca, self.cb, self.num, self.den
            occ = ca + cb
            lost = np.zeros(tg.shape, dtype=np.float64)
            for s, same in ((0, ca), (1, cb)):
                after = _eligible(same + (1 if s == group else 0), occ + 1, num, den)
                lost += self.demand[s] * (self.elig[s].astype(np.int64) - after.astype(np.int64))
            lost[tg != -1] = 0.0
            self._gain[group] = self.take_value + moore_sum(lost)  # a cell sums its neighbours' losses
        return self._gain[group]

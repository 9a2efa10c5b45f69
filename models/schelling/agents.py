"""Schelling residents and their rule, as plain functions over numpy arrays.

The rule (spec section 2): dissatisfied ordinary agents, in a seeded order, reserve the nearest
vacancy of the frozen board that would satisfy them (their own origin counted as empty); ties
are broken with the tie stream, drawn only when two or more vacancies tie; all reservations
settle together. Mesa agents are the identity layer over these arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from mesa.discrete_space import CellAgent

GROUPS = ("A", "B")
_OFFSETS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class Resident(CellAgent):
    """One resident; `actor_id` is the benchmark identity (ids < n_a are group A)."""

    def __init__(self, model, cell, actor_id: int, group: int, influence: bool) -> None:
        super().__init__(model)
        self.cell = cell
        self.actor_id = actor_id
        self.group = group
        self.influence = influence
        self.satisfied = True

    @property
    def group_name(self) -> str:
        return GROUPS[self.group]


def type_grid(grid: np.ndarray, types: np.ndarray) -> np.ndarray:
    """Cell -> group (0/1) or -1 for a vacancy, from a cell -> actor id grid."""
    return np.where(grid >= 0, types[np.maximum(grid, 0)], -1)


def neighbour_counts(tgrid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: how many Moore neighbours (torus) are of group A and of group B."""
    a = (tgrid == 0).astype(np.int16)
    b = (tgrid == 1).astype(np.int16)
    ca = np.zeros_like(a)
    cb = np.zeros_like(b)
    for dr, dc in _OFFSETS8:
        ca += np.roll(a, (dr, dc), axis=(0, 1))
        cb += np.roll(b, (dr, dc), axis=(0, 1))
    return ca, cb


def satisfied_cells(tgrid: np.ndarray, ca: np.ndarray, cb: np.ndarray, num: int, den: int) -> np.ndarray:
    """Occupied cells whose same-group share meets the threshold; isolated agents are satisfied."""
    same = np.where(tgrid == 0, ca, cb).astype(np.int64)
    occ = (ca + cb).astype(np.int64)
    return (tgrid >= 0) & ((occ == 0) | (same * den >= num * occ))


@dataclass
class OrdinaryPlan:
    """What the ordinary phase decided: who moves where, and how many were unhappy."""

    moves: list[tuple[int, int, int]] = field(default_factory=list)  # (actor id, origin, destination)
    unhappy: int = 0


def _torus_distance(idx: np.ndarray, origin: int, size: int) -> np.ndarray:
    r0, c0 = divmod(origin, size)
    dr = np.abs(idx // size - r0)
    dc = np.abs(idx % size - c0)
    return np.maximum(np.minimum(dr, size - dr), np.minimum(dc, size - dc))


def ordinary_phase(
    grid: np.ndarray,
    types: np.ndarray,
    pos: np.ndarray,
    movable: np.ndarray,
    num: int,
    den: int,
    reserved: set[int],
    order_rng: np.random.Generator,
    tie_rng: np.random.Generator,
    move_rule: str = "nearest_satisfactory",
) -> OrdinaryPlan:
    """One reservation wave over the frozen board `grid` (size x size, actor id or -1).

    `movable[i]` is True for ids the rule decides for (ordinary agents and rule-deferring
    influence agents); `reserved` holds flat cells already taken by influence agents.
    """
    size = grid.shape[0]
    tgrid = type_grid(grid, types)
    ca, cb = neighbour_counts(tgrid)
    sat = satisfied_cells(tgrid, ca, cb, num, den).ravel()
    flat = grid.ravel()
    occupied_ids = flat[flat >= 0]
    unhappy_ids = np.sort(occupied_ids[~sat[pos[occupied_ids]] & movable[occupied_ids]])
    plan = OrdinaryPlan(unhappy=int(unhappy_ids.size))
    if unhappy_ids.size == 0:
        return plan
    vac = np.flatnonzero(flat < 0)
    if reserved:
        vac = vac[~np.isin(vac, np.fromiter(reserved, dtype=np.int64))]
    available = np.ones(vac.size, dtype=bool)
    occ_v = (ca.ravel()[vac] + cb.ravel()[vac]).astype(np.int64)
    same_v = (ca.ravel()[vac].astype(np.int64), cb.ravel()[vac].astype(np.int64))
    order = order_rng.permutation(unhappy_ids)
    for aid in order:
        if not available.any():
            break
        origin = int(pos[aid])
        if move_rule == "random_empty":
            choices = np.flatnonzero(available)
            k = int(tie_rng.integers(choices.size)) if choices.size > 1 else 0
            pick = choices[k]
        else:
            dist = _torus_distance(vac, origin, size)
            adj = (dist == 1).astype(np.int64)
            same = same_v[int(types[aid])] - adj
            occ = occ_v - adj
            eligible = available & ((occ == 0) | (same * den >= num * occ))
            if not eligible.any():
                continue
            d = np.where(eligible, dist, np.iinfo(np.int64).max)
            ties = np.flatnonzero(d == d.min())
            pick = ties[int(tie_rng.integers(ties.size))] if ties.size > 1 else ties[0]
        available[pick] = False
        plan.moves.append((int(aid), origin, int(vac[pick])))
    return plan


def settle(grid: np.ndarray, pos: np.ndarray, moves: list[tuple[int, int, int]]) -> None:
    """All reserved moves at once: origins empty, destinations fill."""
    flat = grid.reshape(-1)
    for _, origin, _ in moves:
        flat[origin] = -1
    for aid, _, dest in moves:
        flat[dest] = aid
        pos[aid] = dest

"""The Schelling rule on numpy arrays: the fast path the world's rounds run on by default.

Same rule, same draws and the same plan as the agents' own two-phase step (`agents.Resident`,
the reference): tests/schelling/test_fast_paths.py holds the two to each other bit for bit on
random states. The board is a size x size array of actor ids (-1 vacant); cells are flat
row-major indices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mam_bench.models.schelling.board import neighbour_counts, satisfied_cells, type_grid
from mam_bench.models.schelling.draws import RuleDraws
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan


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
    draws: RuleDraws,
    move_rule: str = "nearest_satisfactory",
    claims: list[Claim] | None = None,
) -> OrdinaryPlan:
    """One reservation wave over the frozen board `grid` (size x size, actor id or -1).

    `movable[i]` is True for ids the rule decides for (ordinary agents and rule-deferring
    influence agents); `reserved` holds flat cells influence agents took before the wave
    (`priority=first`); `claims` are influence moves resolved at their own slots in the wave
    (`priority=turn`): a claim whose cell was reserved earlier in the wave fails.
    """
    size = grid.shape[0]
    tgrid = type_grid(grid, types)
    ca, cb = neighbour_counts(tgrid)
    sat = satisfied_cells(tgrid, ca, cb, num, den).ravel()
    flat = grid.ravel()
    occupied_ids = flat[flat >= 0]
    unhappy_ids = np.sort(occupied_ids[~sat[pos[occupied_ids]] & movable[occupied_ids]])
    plan = OrdinaryPlan(unhappy=int(unhappy_ids.size))
    if unhappy_ids.size == 0 and not claims:
        return plan
    vac = np.flatnonzero(flat < 0)
    if reserved:
        vac = vac[~np.isin(vac, np.fromiter(reserved, dtype=np.int64))]
    available = np.ones(vac.size, dtype=bool)
    holder = np.full(vac.size, -1, dtype=np.int64)
    occ_v = (ca.ravel()[vac] + cb.ravel()[vac]).astype(np.int64)
    same_v = (ca.ravel()[vac].astype(np.int64), cb.ravel()[vac].astype(np.int64))
    order = draws.order(unhappy_ids) if unhappy_ids.size else unhappy_ids
    wave = draws.slots(order, claims) if claims else [(int(a), None) for a in order.tolist()]
    for aid, claim in wave:
        if claim is not None:
            at = int(np.searchsorted(vac, claim.cell))
            if at >= vac.size or vac[at] != claim.cell:
                raise ValueError(f"claim of {aid} for cell {claim.cell}, which was not empty at round start")
            if available[at]:
                available[at] = False
                holder[at] = aid
                plan.claims[aid] = None
                plan.moves.append((aid, int(pos[aid]), claim.cell))
            else:
                plan.claims[aid] = int(holder[at])
            continue
        if not available.any():
            continue
        origin = int(pos[aid])
        if move_rule == "random_empty":
            choices = np.flatnonzero(available)
            pick = choices[draws.tie(int(aid), choices.size)]
        else:
            ties = nearest_eligible(vac, available, same_v[int(types[aid])], occ_v, origin, size, num, den)
            if ties.size == 0:
                continue
            pick = ties[draws.tie(int(aid), ties.size)]
        available[pick] = False
        holder[pick] = aid
        plan.moves.append((int(aid), origin, int(vac[pick])))
    return plan


def nearest_eligible(
    vac: np.ndarray,
    available: np.ndarray,
    same_v: np.ndarray,
    occ_v: np.ndarray,
    origin: int,
    size: int,
    num: int,
    den: int,
) -> np.ndarray:
    """Indices into `vac` of the nearest available vacancies that would satisfy an agent at `origin`
    (its own cell counted as empty), in flat cell order; empty when none would."""
    dist = _torus_distance(vac, origin, size)
    adj = (dist == 1).astype(np.int64)
    same = same_v - adj
    occ = occ_v - adj
    eligible = available & ((occ == 0) | (same * den >= num * occ))
    if not eligible.any():
        return np.empty(0, dtype=np.int64)
    d = np.where(eligible, dist, np.iinfo(np.int64).max)
    return np.flatnonzero(d == d.min())


def world_wave(world: Any, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
    """`SchellingWorld.wave` on the world's arrays: everyone but the `steered` influence agents
    decides by the rule; the same plan the residents' own `decide` makes."""
    movable = np.ones(world.params.n_agents, dtype=bool)
    if steered:
        movable[list(steered)] = False
    return ordinary_phase(
        world.board,
        world.types,
        world.pos,
        movable,
        world.num,
        world.den,
        reserved,
        world.draws(),
        world.params.move_rule,
        claims or None,
    )


class FrozenBoard:
    """The start-of-round board with nothing reserved yet, counted once per round: what the rule
    picks among for any agent (`Resident.choices` on a frozen wave), on arrays."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.vac = np.flatnonzero(world.board.ravel() < 0)
        ca, cb = neighbour_counts(type_grid(world.board, world.types))
        self.occ_v = (ca.ravel()[self.vac] + cb.ravel()[self.vac]).astype(np.int64)
        self.same_v = (ca.ravel()[self.vac].astype(np.int64), cb.ravel()[self.vac].astype(np.int64))

    def choices(self, actor_id: int) -> np.ndarray:
        """The flat cells the rule would pick among for `actor_id`, in cell order."""
        w = self.world
        if w.params.move_rule == "random_empty":
            return self.vac
        available = np.ones(self.vac.size, dtype=bool)
        same = self.same_v[int(w.types[actor_id])]
        return self.vac[
            nearest_eligible(self.vac, available, same, self.occ_v, int(w.pos[actor_id]), w.size, w.num, w.den)
        ]

"""Schelling residents and their rule, as plain functions over numpy arrays.

The rule (spec section 2): dissatisfied ordinary agents, in a seeded order, reserve the nearest
vacancy of the frozen board that would satisfy them (their own origin counted as empty); ties
are broken at random; all reservations settle together. Mesa agents are the identity layer over
these arrays.

Two stream designs give the order and the ties (`RuleDraws`). `IsolatedDraws` (the default):
each unhappy agent draws (order key, tie key) from its own `agent_stream` for the round, so
swapping any other agent cannot move its draws. `PilotDraws`: the pilot's shared order
permutation and tie stream, which reproduce the page exactly but reshuffle everyone as soon as
one agent leaves the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from mesa.discrete_space import CellAgent

from mam_bench.models.schelling.seeding import RULE_PURPOSE
from mam_bench.streams import agent_stream

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


@dataclass(frozen=True)
class Claim:
    """An influence agent's move to a cell empty at round start, resolved at its own slot in the
    reservation wave (`priority=turn`); `key` in [0, 1) is its order key for the round."""

    actor_id: int
    cell: int
    key: float


@dataclass
class OrdinaryPlan:
    """What the reservation wave decided: who moves where, how many were unhappy, and for each
    influence claim the id that had reserved its cell earlier in the wave (None: accepted)."""

    moves: list[tuple[int, int, int]] = field(default_factory=list)  # (actor id, origin, destination)
    unhappy: int = 0
    claims: dict[int, int | None] = field(default_factory=dict)


class PilotDraws:
    """The pilot's shared streams: one permutation of the unhappy ids, a tie draw only for >= 2 ties."""

    def __init__(self, order_rng: np.random.Generator, tie_rng: np.random.Generator) -> None:
        self.order_rng, self.tie_rng = order_rng, tie_rng

    def order(self, unhappy_ids: np.ndarray) -> np.ndarray:
        return self.order_rng.permutation(unhappy_ids)

    def tie(self, aid: int, n: int) -> int:
        return int(self.tie_rng.integers(n)) if n > 1 else 0

    @staticmethod
    def slots(order: np.ndarray, claims: list[Claim]) -> list[tuple[int, Claim | None]]:
        """The wave: the shared permutation with each claim inserted before the ordinary agent at
        position floor(key * (n + 1)), one of the n + 1 gaps uniformly (claims in one gap by key)."""
        n = int(order.size)
        gaps = sorted(claims, key=lambda c: (min(int(c.key * (n + 1)), n), c.key, c.actor_id))
        wave: list[tuple[int, Claim | None]] = []
        k = 0
        for pos, aid in enumerate(order.tolist()):
            while k < len(gaps) and min(int(gaps[k].key * (n + 1)), n) <= pos:
                wave.append((gaps[k].actor_id, gaps[k]))
                k += 1
            wave.append((int(aid), None))
        wave += [(c.actor_id, c) for c in gaps[k:]]
        return wave


def rule_keys(seed: int, round_: int, aid: int) -> tuple[float, float]:
    """One agent's (order key, tie key) for one round, from its own addressed stream."""
    order_key, tie_key = agent_stream(seed, RULE_PURPOSE, round_, aid).random(2)
    return float(order_key), float(tie_key)


def tie_index(tie_key: float, n: int) -> int:
    """The tie key in [0, 1) picks one of `n` candidates (ordered by flat cell index)."""
    return min(int(tie_key * n), n - 1)


class IsolatedDraws:
    """Per-agent streams: unhappy agents go in order of their own keys (id breaks equal keys),
    and each breaks its own ties with its own tie key. Every unhappy agent draws, tie or not."""

    def __init__(self, seed: int, round_: int) -> None:
        self.seed, self.round = int(seed), int(round_)
        self.keys: dict[int, tuple[float, float]] = {}

    def order(self, unhappy_ids: np.ndarray) -> np.ndarray:
        ids = np.sort(unhappy_ids)
        for aid in ids.tolist():
            self.keys[aid] = rule_keys(self.seed, self.round, aid)
        order_keys = np.array([self.keys[aid][0] for aid in ids.tolist()], dtype=np.float64)
        return ids[np.argsort(order_keys, kind="stable")]

    def tie(self, aid: int, n: int) -> int:
        return tie_index(self.keys[int(aid)][1], n)

    def slots(self, order: np.ndarray, claims: list[Claim]) -> list[tuple[int, Claim | None]]:
        """The wave: ordinary agents and claims together in order of their keys (id breaks equal keys)."""
        wave: list[tuple[float, int, Claim | None]] = [(self.keys[int(a)][0], int(a), None) for a in order.tolist()]
        wave += [(c.key, c.actor_id, c) for c in claims]
        wave.sort(key=lambda w: (w[0], w[1]))
        return [(aid, claim) for _, aid, claim in wave]


RuleDraws = PilotDraws | IsolatedDraws


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


def settle(grid: np.ndarray, pos: np.ndarray, moves: list[tuple[int, int, int]]) -> None:
    """All reserved moves at once: origins empty, destinations fill."""
    flat = grid.reshape(-1)
    for _, origin, _ in moves:
        flat[origin] = -1
    for aid, _, dest in moves:
        flat[dest] = aid
        pos[aid] = dest

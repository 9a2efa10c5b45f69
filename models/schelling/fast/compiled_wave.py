"""One round's reservation wave of the world, compiled: what the world plays under isolated
streams, at any board size.

The same plan as `array_rule.ordinary_phase` and the residents' own `decide` (tests hold the
world to the residents on random states): the unhappy ids the rule decides for, each with its
(order key, tie key) from its own agent stream (replayed by `compiled_streams`), and the influence
claims in one wave ordered by key (id breaks equal keys); each mover reserves one of the nearest
vacancies that would satisfy it, found by the landscape kernel's ring search, never by scanning
every vacancy for every agent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.models.schelling.fast.compiled_streams import agent_doubles
from mam_bench.models.schelling.fast.kernel import (
    _RULE_PREFIX,
    _nearest,
    _nth_available,
    _ok,
    _open_vacancies,
    _take,
)
from mam_bench.models.schelling.fast.runs import cached_neighbours
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan
from mam_bench.pcg_stream import entropy_words

numba_start.cache_where_writable(__file__)


@njit(cache=True)
def _wave(
    flat: np.ndarray,
    types: np.ndarray,
    pos: np.ndarray,
    movable: np.ndarray,
    size: int,
    num: int,
    den: int,
    random_empty: bool,
    reserved: np.ndarray,
    claim_ids: np.ndarray,
    claim_cells: np.ndarray,
    claim_keys: np.ndarray,
    round_: int,
    kseed: np.ndarray,
    nbr: np.ndarray,
    cnt: np.ndarray,
    avail: np.ndarray,
    near: np.ndarray,
    elig: np.ndarray,
    lists: np.ndarray,
    at: np.ndarray,
    vac: np.ndarray,
    holder: np.ndarray,
    cand: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(unhappy count, moves as (id, origin, destination) rows in wave order, and per claim the id
    that reserved its cell earlier, -1 when it was accepted); `cnt` holds the board's neighbour
    counts by group and the wave's working arrays, one entry per cell (`BoardState`: kept, not
    allocated every round; `holder` is all -1 and left so)."""
    n = types.size
    unhappy = np.empty(n, np.int64)
    nu = 0
    for a in range(n):
        c = pos[a]
        if movable[a] and not _ok(cnt[types[a], c], cnt[0, c] + cnt[1, c], num, den):
            unhappy[nu] = a
            nu += 1
    nk = claim_ids.size
    moves = np.empty((nu + nk, 3), np.int64)
    holders = np.full(nk, -1, np.int64)
    if nu == 0 and nk == 0:
        return 0, moves[:0], holders, claim_ids
    # the wave: ordinary movers and claims together by key, id breaking equal keys
    slot_ids = np.empty(nu + nk, np.int64)
    slot_keys = np.empty(nu + nk, np.float64)
    tie_keys = np.zeros(nu + nk, np.float64)
    slot_claim = np.full(nu + nk, -1, np.int64)
    pair = np.zeros(2, np.float64)
    i = j = 0
    for s in range(nu + nk):  # both lists ascend by id: merge them so equal keys stay in id order
        if j >= nk or (i < nu and unhappy[i] < claim_ids[j]):
            agent_doubles(_RULE_PREFIX, kseed, round_, unhappy[i], pair)
            slot_ids[s], slot_keys[s], tie_keys[s] = unhappy[i], pair[0], pair[1]
            i += 1
        else:
            slot_ids[s], slot_keys[s], slot_claim[s] = claim_ids[j], claim_keys[j], j
            j += 1
    order = np.argsort(slot_keys, kind="mergesort")
    live = np.zeros(2, np.int64)
    rowbase = np.empty(3 * size, np.int64)
    colw = np.empty(3 * size, np.int64)
    for q in range(3 * size):
        colw[q] = q % size
        rowbase[q] = colw[q] * size
    nv = _open_vacancies(flat, cnt, num, den, avail, near, elig, lists, at, live, vac)
    left = nv
    for q in range(reserved.size):  # taken before the wave (priority=first): not in it at all
        if avail[reserved[q]]:
            _take(reserved[q], avail, near, elig, lists, at, live)
            left -= 1
    nm = 0
    for s in range(nu + nk):
        k = order[s]
        a = slot_ids[k]
        if slot_claim[k] >= 0:
            cell = claim_cells[slot_claim[k]]
            if avail[cell]:
                _take(cell, avail, near, elig, lists, at, live)
                left -= 1
                holder[cell] = a
                moves[nm, 0], moves[nm, 1], moves[nm, 2] = a, pos[a], cell
                nm += 1
            else:
                holders[slot_claim[k]] = holder[cell]
            continue
        if left == 0:
            continue
        pick = -1
        if random_empty:
            idx = min(np.int64(tie_keys[k] * left), left - 1)
            pick = _nth_available(vac, avail, nv, idx)
        else:
            nc = _nearest(pos[a], types[a], size, cnt, nbr, near, elig, lists, live, rowbase, colw, cand)
            if nc == 0:
                continue
            pick = cand[min(np.int64(tie_keys[k] * nc), nc - 1)]
        _take(pick, avail, near, elig, lists, at, live)
        left -= 1
        holder[pick] = a
        moves[nm, 0], moves[nm, 1], moves[nm, 2] = a, pos[a], pick
        nm += 1
    for m in range(nm):
        holder[moves[m, 2]] = -1
    return nu, moves[:nm], holders, claim_ids


def compiled_wave(world: Any, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
    """`SchellingWorld.wave` under isolated streams, compiled; the plan the residents make."""
    movable = np.ones(world.params.n_agents, dtype=np.bool_)
    if steered:
        movable[list(steered)] = False
    by_id = sorted(claims, key=lambda c: c.actor_id)
    for claim in by_id:
        if world.board.ravel()[claim.cell] >= 0 or claim.cell in reserved:
            raise ValueError(f"claim of {claim.actor_id} for cell {claim.cell}, which was not empty at round start")
    unhappy, moves, holders, ids = _wave(
        world.board.ravel(),
        world.types,
        world.pos,
        movable,
        world.size,
        world.num,
        world.den,
        world.params.move_rule == "random_empty",
        np.array(sorted(reserved), dtype=np.int64),
        np.array([c.actor_id for c in by_id], dtype=np.int64),
        np.array([c.cell for c in by_id], dtype=np.int64),
        np.array([c.key for c in by_id], dtype=np.float64),
        world.round,
        np.array(entropy_words([world.seed]), dtype=np.uint64),
        cached_neighbours(world.size),
        world.board_state.cnt,
        *world.board_state.scratch,
    )
    plan = OrdinaryPlan(moves=[tuple(m) for m in moves.tolist()], unhappy=int(unhappy))
    plan.claims = {int(a): (None if h < 0 else int(h)) for a, h in zip(ids.tolist(), holders.tolist())}
    return plan


numba_start.light_cache_loads(globals())

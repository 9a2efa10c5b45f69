"""The pilot's current rule (rule=pilot_v2) as one compiled wave: what the world plays by default.

The same plan as the residents' own `decide` (`Resident.improving`, `choices`) from the same draws
(`draws.HashedDraws`): the unhappy ids in the order of the pilot's two shuffled cohorts, each
reserving one of the nearest open cells within its vision that promise a strictly higher
same-group share as it sees them, a tie of two or more drawn from its own addressed stream. A round
of the residents costs tens of milliseconds of Python, cell objects and distances for every
unhappy resident and every vacancy; here it costs well under one. The streams are the pilot's
own: the cohorts are shuffled by numpy itself (once per seed and round, kept for the forks a
planner replays the round on), and a tie stream's PCG64 is seeded inside the kernel from its
blake2b digest (`compiled_streams`), which Python computes once per seed, round and resident.
tests/schelling/test_pilot_wave.py holds the two engines to identical records.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np
from numba import njit

from mam_bench import numba_start
from mam_bench.models.schelling.draws import HashedDraws, _word
from mam_bench.models.schelling.fast.compiled_streams import pcg_seeded
from mam_bench.models.schelling.fast.kernel import _lemire, _sort_small
from mam_bench.models.schelling.wave import OrdinaryPlan
from mam_bench.pcg_stream import entropy_words

numba_start.cache_where_writable(__file__)


@njit(cache=True)
def _improving(
    a: int, flat: np.ndarray, types: np.ndarray, pos: np.ndarray, cnt: np.ndarray, avail: np.ndarray,
    size: int, vision: int, cand: np.ndarray,
) -> int:  # fmt: skip
    """`Resident.improving` then `choices`: writes to `cand` the open cells (`avail`) within my
    vision, nearest first kept, whose neighbourhood as I see it (my origin and cells past my vision
    left out) promises a strictly higher same-group share than mine, in flat cell order; returns
    how many. A cell with no occupied neighbour in sight promises a share of one."""
    here = pos[a]
    t = types[a]
    r0, c0 = here // size, here % size
    now_same, now_all = cnt[t, here], cnt[0, here] + cnt[1, here]
    best = size
    nc = 0
    for dr in range(-vision, vision + 1):
        r = (r0 + dr) % size
        for dc in range(-vision, vision + 1):
            c = (c0 + dc) % size
            cell = r * size + c
            if not avail[cell]:
                continue
            d = max(abs(dr), abs(dc))  # 2 * vision + 1 <= size: the box's offsets are the torus distances
            if d > best:
                continue
            same = seen = 0
            for er in range(-1, 2):
                xr = abs(dr + er)
                xr = min(xr, size - xr)
                for ec in range(-1, 2):
                    if er == 0 and ec == 0:
                        continue
                    xc = abs(dc + ec)
                    xc = min(xc, size - xc)
                    if max(xr, xc) > vision:
                        continue
                    near = ((r + er) % size) * size + (c + ec) % size
                    if near == here:
                        continue
                    b = flat[near]
                    if b >= 0:
                        seen += 1
                        same += types[b] == t
            if seen == 0:
                same = seen = 1
            if same * now_all > now_same * seen:
                if d < best:
                    best = d
                    nc = 0
                cand[nc] = cell
                nc += 1
    _sort_small(cand, nc)
    return nc


@njit(cache=True)
def _wave(
    flat: np.ndarray, types: np.ndarray, pos: np.ndarray, cnt: np.ndarray, avail: np.ndarray, size: int,
    vision: int, order: np.ndarray, words: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The wave over `order` (the unhappy ids in turn order, `words[k]` the tie stream's seeding
    words of order[k]): (id, origin, destination) rows in wave order; `avail` is used up."""
    moves = np.empty((order.size, 3), np.int64)
    cand = np.empty((2 * vision + 1) ** 2, np.int64)
    nm = 0
    for k in range(order.size):
        a = order[k]
        nc = _improving(a, flat, types, pos, cnt, avail, size, vision, cand)
        if nc == 0:
            continue
        pick = cand[0] if nc == 1 else cand[_lemire(pcg_seeded(words[k]), nc)]
        avail[pick] = False
        moves[nm, 0], moves[nm, 1], moves[nm, 2] = a, pos[a], pick
        nm += 1
    return moves[:nm]


@njit(cache=True)
def _choices(
    a: int, flat: np.ndarray, types: np.ndarray, pos: np.ndarray, cnt: np.ndarray, size: int, vision: int
) -> np.ndarray:
    """The cells `a` picks among on the start-of-round board with nothing reserved."""
    cand = np.empty((2 * vision + 1) ** 2, np.int64)
    nc = _improving(a, flat, types, pos, cnt, flat < 0, size, vision, cand)
    return cand[:nc].copy()


@njit(cache=True)
def _anyone_can_move(
    ids: np.ndarray, flat: np.ndarray, types: np.ndarray, pos: np.ndarray, cnt: np.ndarray, size: int, vision: int
) -> bool:
    """Whether any of `ids` has a cell to pick on the start-of-round board with nothing reserved."""
    avail = flat < 0
    cand = np.empty((2 * vision + 1) ** 2, np.int64)
    for k in range(ids.size):
        if _improving(ids[k], flat, types, pos, cnt, avail, size, vision, cand):
            return True
    return False


class _RoundDraws:
    """One seed and round's draws, shared by every world that plays it (a planner's forks replay
    the same rounds many times): every agent's turn in the pilot's order, and, filled as movers
    ask, each agent's tie stream seeding words."""

    def __init__(self, draws: HashedDraws) -> None:
        self.draws = draws
        self.turns = draws.order(np.arange(draws.n_agents, dtype=np.int64))
        self.words = np.zeros((draws.n_agents, 4), np.uint64)
        self.known = np.zeros(draws.n_agents, np.bool_)

    @property
    def nbytes(self) -> int:
        return self.turns.nbytes + self.words.nbytes + self.known.nbytes

    def tie_words(self, ids: np.ndarray) -> np.ndarray:
        """The seeding words of `ids`' tie streams (`draws.turn_stream`'s digest as SeedSequence's
        entropy, zero-padded to its pool of four, which SeedSequence mixes in alike)."""
        d = self.draws
        head = b"".join(len(p).to_bytes(8, "big") + p for p in (_word(d.seed), _word(d.step), _word(d.PHASE)))
        tail = _word("movement")
        tail = len(tail).to_bytes(8, "big") + tail
        for aid in ids[~self.known[ids]].tolist():
            part = _word(aid)
            digest = hashlib.blake2b(head + len(part).to_bytes(8, "big") + part + tail, digest_size=16).digest()
            words = entropy_words([int.from_bytes(digest, "big")])
            self.words[aid, : len(words)] = words
            self.known[aid] = True
        return self.words[ids]


#: the draws of recent seeds and rounds, bounded by bytes (a million-cell board's take megabytes)
_KEPT: OrderedDict[tuple, _RoundDraws] = OrderedDict()
_KEPT_BYTES = 64 * 2**20


def round_draws(draws: HashedDraws) -> _RoundDraws:
    key = (draws.seed, draws.step, draws.first_ids, draws.n_agents)
    if key not in _KEPT:
        _KEPT[key] = _RoundDraws(draws)
        while len(_KEPT) > 1 and sum(r.nbytes for r in _KEPT.values()) > _KEPT_BYTES:
            _KEPT.popitem(last=False)
    _KEPT.move_to_end(key)
    return _KEPT[key]


def pilot_wave(world: Any, steered: set[int], reserved: set[int]) -> OrdinaryPlan:
    """`SchellingWorld.wave` under rule=pilot_v2 on the world's arrays (its claims are all settled
    before the wave, `priority=first`): the plan the residents make."""
    flat = world.board.ravel()
    unhappy = ~world.board_state.sat[world.pos]
    if steered:
        unhappy[list(steered)] = False
    plan = OrdinaryPlan(unhappy=int(unhappy.sum()))
    if not plan.unhappy:
        return plan
    draws = round_draws(world.draws())
    order = draws.turns[unhappy[draws.turns]]
    avail = flat < 0
    if reserved:
        avail[list(reserved)] = False
    args = (flat, world.types, world.pos, world.board_state.cnt, avail, world.size, world.params.vision)
    moves = _wave(*args, order, draws.tie_words(order))
    plan.moves = [tuple(m) for m in moves.tolist()]
    return plan


def pilot_pick(world: Any, actor_id: int) -> int | None:
    """The flat cell the rule would take for `actor_id` now (`Resident.choices` on the frozen board,
    its own tie draw), None where it has none."""
    args = (world.board.ravel(), world.types, world.pos, world.board_state.cnt, world.size, world.params.vision)
    cells = _choices(actor_id, *args)
    if cells.size < 2:
        return int(cells[0]) if cells.size else None
    words = round_draws(world.draws()).tie_words(np.array([actor_id], dtype=np.int64))[0]
    return int(cells[_lemire(pcg_seeded(words), cells.size)])


def anyone_can_move(world: Any, ids: np.ndarray) -> bool:
    args = (world.board.ravel(), world.types, world.pos, world.board_state.cnt, world.size, world.params.vision)
    return bool(_anyone_can_move(ids.astype(np.int64), *args))


numba_start.light_cache_loads(globals())

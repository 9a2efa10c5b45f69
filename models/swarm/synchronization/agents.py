"""Synchronization rule agents (spec section 7): gather, local strict-majority vote, shared clock."""

from __future__ import annotations

import numpy as np
from mam_bench.models.swarm.grid import manhattan
from mam_bench.models.swarm.navigation import LazyRng, toward, wander


def sync_rule(
    aid: int,
    round_: int,
    period: int,
    vote: bool,
    pos: np.ndarray,
    lights: np.ndarray,
    visible: np.ndarray,
    passable: np.ndarray,
    rng: LazyRng,
    recent,
) -> str:
    """SWITCH on the clock or when my light differs from the strict majority in view; else gather."""
    if (round_ + 1) % period == 0:
        return "SWITCH"
    seen = np.flatnonzero(visible)
    if vote:
        on = int(lights[seen].sum())
        off = len(seen) - on
        if on != off and bool(lights[aid]) != (on > off):
            return "SWITCH"
    here = (int(pos[aid, 0]), int(pos[aid, 1]))
    others = seen[seen != aid]
    if len(others) == 0:
        return wander(here, recent, passable, rng)
    goal = tuple(int(round(x)) for x in pos[seen].mean(axis=0))
    if manhattan(here, goal) <= 1:
        return "STAY"
    return toward(here, goal, passable, rng)

"""Transport rule agents (spec section 7): line up behind the box, push toward the gap, escape.

An agent on a gap cell steps out; an agent with an open path to the gap takes it; an agent in a
box line on the far side from the gap pushes toward the gap (so chains form); the rest walk to
the nearest such cell, and random-walk when nothing is reachable.
"""

from __future__ import annotations

import numpy as np
from mam_bench.models.swarm.grid import DELTA
from mam_bench.models.swarm.navigation import FAR, LazyRng, bfs, downhill, wander


def behind_cells(box: list[tuple[int, int]], push: str, size: int) -> set[tuple[int, int]]:
    """Cells in a box line on the side opposite the gap (where a push toward the gap helps)."""
    dr, dc = DELTA[push]
    lines: dict[int, list[int]] = {}
    for r, c in box:
        key, along = (r, c) if dr == 0 else (c, r)
        lines.setdefault(key, []).append(along)
    out = set()
    for key, alongs in lines.items():
        sign = dr + dc
        edge = min(alongs) if sign > 0 else max(alongs)
        rng_ = range(1, min(edge, size - 1)) if sign > 0 else range(max(edge + 1, 1), size - 1)
        for a in rng_:
            out.add((key, a) if dr == 0 else (a, key))
    return out


def transport_plan(box: list[tuple[int, int]], push: str, gap: list[tuple[int, int]], passable: np.ndarray) -> dict:
    size = passable.shape[0]
    inside = [c for c in behind_cells(box, push, size) if 0 <= c[0] < size and 0 <= c[1] < size]
    behind = {c for c in inside if passable[c]} if box else set()
    return {
        "behind": behind,
        "to_behind": bfs(passable, behind) if behind else None,
        "to_gap": bfs(passable, [g for g in gap if passable[g]]),
        "gap": set(gap),
        "passable": passable,
    }


def transport_rule(here: tuple[int, int], out: str, push: str, plan: dict, rng: LazyRng, recent) -> str:
    """`out` leaves through the gap; `push` is this round's push direction for the box."""
    if here in plan["gap"]:
        return out
    if plan["to_gap"][here] < FAR:
        return downhill(here, plan["to_gap"], rng)
    if here in plan["behind"]:
        return push
    if plan["to_behind"] is not None and plan["to_behind"][here] < FAR:
        return downhill(here, plan["to_behind"], rng)
    return wander(here, recent, plan["passable"], rng)

"""Transport rule agents (docs/worlds/swarm.md, "Transport"): line up behind the box, push toward the gap, escape.

An agent on a gap cell steps out; an agent with an open path to the gap takes it; an agent in a
box line on the far side from the gap pushes toward the gap (so chains form); the rest walk to
the nearest such cell, and random-walk when nothing is reachable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.grid import DELTA
from mam_bench.models.swarm.navigation import FAR, Exits, LazyRng, Slope, bfs


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


def transport_plan(
    box: list[tuple[int, int]], push: str, gap: list[tuple[int, int]], passable: np.ndarray, remember: bool = True
) -> dict:
    """What every rule agent reads while the box stands still: the behind cells and two fields.

    `to_gap` and `to_behind` also come as `Slope`s and the map as `Exits`, which remember each
    cell's steps, so a plan kept over several rounds gets cheaper to follow (`remember=False`,
    the reference: they look every time).
    """
    size = passable.shape[0]
    inside = [c for c in behind_cells(box, push, size) if 0 <= c[0] < size and 0 <= c[1] < size]
    behind = {c for c in inside if passable[c]} if box else set()
    to_behind = bfs(passable, behind) if behind else None
    to_gap = bfs(passable, [g for g in gap if passable[g]])
    return {
        "behind": behind,
        "to_behind": to_behind,
        "to_gap": to_gap,
        "gap": set(gap),
        "passable": passable,
        "behind_slope": None if to_behind is None else Slope(to_behind, remember),
        "gap_slope": Slope(to_gap, remember),
        "exits": Exits(passable, remember),
    }


def transport_rule(here: tuple[int, int], out: str, push: str, plan: dict, rng: LazyRng, recent) -> str:
    """`out` leaves through the gap; `push` is this round's push direction for the box."""
    if here in plan["gap"]:
        return out
    if plan["gap_slope"].distance(here) < FAR:
        return plan["gap_slope"].downhill(here, rng)
    if here in plan["behind"]:
        return push
    if plan["behind_slope"] is not None and plan["behind_slope"].distance(here) < FAR:
        return plan["behind_slope"].downhill(here, rng)
    return plan["exits"].wander(here, recent, rng)


class TransportAgent(SwarmAgent):
    """Lines up behind the box and pushes it toward the gap (saying so), then leaves through it."""

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        w, here, push = self.model, self.here, plan["direction"]
        if w.params.strategy == "sidestep" and not w.sighted[self.actor_id]:
            return plan["exits"].wander(here, self.recent, rng), None
        a = transport_rule(here, w.push, push, plan, rng, self.recent)
        return a, (f"push {a}" if here in plan["behind"] and a == push else None)

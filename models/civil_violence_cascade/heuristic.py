"""Civil Violence cascade heuristics, from what an influence agent sees at its turn.

An ordinary citizen turns active as active neighbours outnumber quiet ones (A^2/I) and police
deter it (C/A). So, to raise participation, influence citizens turn active where no police are in
sight and quiet citizens are; influence police decline arrests and stand away from citizens. To
lower it, influence citizens stay quiet beside active ones (more I, less A for them), and influence
police arrest where they can and otherwise stand among citizens (more C in their sight).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.models.civil_violence_cascade.observe import CascadeObservation
from mam_bench.protocol import Decision, Request


def _near(a: tuple[int, int], b: tuple[int, int], size: int, radius: int) -> bool:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(min(dr, size - dr), min(dc, size - dc)) <= radius


def _count(obs: CascadeObservation, cell: tuple[int, int], kinds: tuple[str, ...]) -> int:
    """Agents of these kinds the agent sees that would be in sight from `cell`."""
    return sum(
        1
        for r, c, kind, other in obs.seen
        if kind in kinds and other != obs.actor_id and (r, c) != cell and _near((r, c), cell, obs.size, obs.vision)
    )


def _best(obs: CascadeObservation, score: Any) -> tuple[int, int] | None:
    """The highest-scoring of staying and the adjacent free cells (staying wins a tie)."""
    here = obs.location
    best, best_score = None, score(here)
    for cell in obs.adjacent:
        s = score(cell)
        if s > best_score:
            best, best_score = cell, s
    return best


def cascade_action(obs: CascadeObservation, raise_it: bool) -> dict[str, Any]:
    if obs.location is None:  # in jail: nothing to do but talk
        return {}
    if obs.role == "citizen":
        if raise_it:
            dest = _best(obs, lambda c: 2 * _count(obs, c, ("quiet",)) - 10 * _count(obs, c, ("police",)))
        else:
            dest = _best(obs, lambda c: _count(obs, c, ("active",)))
        out: dict[str, Any] = {"active": raise_it}
    elif raise_it:
        dest = _best(obs, lambda c: -_count(obs, c, ("active", "quiet")))
        out = {}
    else:
        if obs.targets:
            return {"target_row": obs.targets[0][0], "target_col": obs.targets[0][1]}
        dest = _best(obs, lambda c: _count(obs, c, ("active", "quiet")))
        out = {}
    if dest is not None:
        out["row"], out["col"] = dest
    return out


class CascadeHeuristic(Controller):
    """Raise or lower participation as the module says, in either role."""

    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "increase", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision(action=cascade_action(r.observation, self.objective == "increase")) for r in requests]

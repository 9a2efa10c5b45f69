"""Recorded runs for the dashboard tests, written without any model or network.

`DeclaringController` behaves like an LLM actor on the pilot page: it posts `ID -> r,c` and then,
for the lowest id, does something else (stays), so the recording holds a flagged mismatch.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request
from mam_bench.runner import PairSpec, run_pair


class DeclaringController(Controller):
    name = "scripted-llm"
    posts = True

    def __init__(self, liar: int = 0):
        self.liar = liar

    def _targets(self, requests: Sequence[Request]) -> dict[int, tuple[int, int]]:
        out: dict[int, tuple[int, int]] = {}
        for i, req in enumerate(requests):
            vac = req.observation.vacancies()
            out[req.actor_id] = tuple(vac[(req.round * 7 + i * 3) % len(vac)])
        return out

    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        t = self._targets(requests)
        return [f"{r.actor_id} -> {t[r.actor_id][0]},{t[r.actor_id][1]} to break the boundary" for r in requests]

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        t = self._targets(requests)
        out = []
        for r in requests:
            if r.actor_id == self.liar:
                out.append(Decision(action={"stay": True}, message="changed my mind"))
            else:
                row, col = t[r.actor_id]
                out.append(Decision(action={"row": row, "col": col}))
        return out


def record_schelling(out: Path, seed: int = 22, rounds: int = 6, influence: int = 4) -> dict[str, Any]:
    spec = PairSpec.build(world="schelling", seed=seed, controller="llm", influence=influence, rounds=rounds)
    return run_pair(spec, out, controller=DeclaringController())

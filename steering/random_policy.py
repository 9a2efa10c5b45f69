"""A random legal action per influence agent: the floor every steering strategy must beat.

Draws come from a stream addressed by (seed, actor, round), so results do not depend on how
many agents there are or in which order they are asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller, Decision, Request
from mam_bench.streams import stream


class RandomController(Controller):
    name = "random"

    def __init__(self, world_cls: Any, objective: str = "", **_: Any):
        self.world_cls = world_cls

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for req in requests:
            rng = stream(self.seed, "controller.random", req.actor_id, req.round)
            out.append(Decision(action=self.world_cls.random_action(req.observation, rng)))
        return out

"""Every influence agent plays the world's null action (stay / STAY / sleep) every round.

The "do nothing" baseline: what removing these agents from the dynamics does by itself. In a
grid world an actor that never moves already changes the outcome (it blocks its cell), so a
steering strategy should be judged against this as well as against `random`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.capabilities import null_action
from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request


class StayController(Controller):
    name = "stay"

    def __init__(self, world_cls: Any, objective: str = "", **_: Any):
        self.action = null_action(world_cls.Action)

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision(action=dict(self.action)) for _ in requests]

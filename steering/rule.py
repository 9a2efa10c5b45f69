"""Null steering: every influence agent defers to the world's own rule.

The treatment must then equal the reference round by round (lift exactly 0): the proof that the
pairing is sound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request


class RuleController(Controller):
    name = "rule"

    def __init__(self, world_cls: Any = None, objective: str = "", **_: Any):
        pass

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision.follow_rule() for _ in requests]

"""A heuristic per objective for the social-media world.

depolarize: post the centre (0), the one opinion concordant with the most users when eps is wide
enough, and pull them together. polarize: the accounts split, half posting -1 and half +1, each
dragging the users near an extreme further out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request


class SocialMediaHeuristic(Controller):
    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "polarize", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.objective == "depolarize":
            return [Decision(action={"post": 0.0}) for _ in requests]
        return [Decision(action={"post": 1.0 if r.actor_id % 2 else -1.0}) for r in requests]

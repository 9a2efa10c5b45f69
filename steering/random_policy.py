"""A random legal action per influence agent: the floor every steering strategy must beat.

Draws come from a stream addressed by (seed, actor, round), so results do not depend on how
many agents there are or in which order they are asked. A suite's repeat and placement draw
extend the address (repeat 0 of draw 0 keeps the plain one, the stream `mam-bench run` plays), so
repeats of a seed are independent plays rather than copies of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.capabilities import RandomActions
from mam_bench.controller import Controller
from mam_bench.errors import ConfigError
from mam_bench.protocol import Decision, Request
from mam_bench.streams import stream


class RandomController(Controller):
    name = "random"

    def __init__(self, world_cls: Any, objective: str = "", repeat: int = 0, draw: int = 0, **_: Any):
        if not isinstance(world_cls.Action, RandomActions):
            raise ConfigError("controller", f"{world_cls.name} has no random_action, so `random` cannot run on it")
        self.world_cls = world_cls
        self.replicate = (int(repeat), int(draw)) if repeat or draw else ()

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for req in requests:
            rng = stream(self.seed, "controller.random", req.actor_id, req.round, *self.replicate)
            out.append(Decision(action=self.world_cls.Action.random_action(req.observation, rng)))
        return out

    def describe(self) -> dict[str, Any]:
        if not self.replicate:
            return {"name": self.name}
        return {"name": self.name, "repeat": self.replicate[0], "draw": self.replicate[1]}

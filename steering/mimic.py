"""The `mimic` baseline: influence agents do exactly what the rule would, through the influence path.

Unlike `rule` (which defers, so the treatment equals the reference), a mimic agent never defers:
its action is resolved as an influence action (a move is a claim checked like any influence
claim, not the rule's own reservation). Its lift is what merely swapping the decision path does,
so a strategy's steering effect is its lift beyond `mimic` (and beyond `stay`), paired by seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request


class MimicController(Controller):
    name = "mimic"
    wants_rule_action = True

    def __init__(self, world_cls: Any = None, objective: str = "", **_: Any):
        pass

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if any(r.rule_action is None for r in requests):
            # an empty action would be played as a stay, silently: the caller forgot to ask for it
            raise ValueError("mimic needs the rule's action in each request (set wants_rule_action)")
        return [Decision(action=dict(r.rule_action)) for r in requests]

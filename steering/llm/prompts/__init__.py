"""Prompts, answer schemas, parsers and legality checks, one module per world.

A world without its own module gets `generic.WorldPrompts`, built only from what every world
exposes: `world_cls.Action`, optionally `world_cls.parse_answer(text)` and an observation's
`prompt_text()` (else `to_text()`).
"""

from __future__ import annotations

from typing import Any

from mam_bench.steering.llm.prompts.generic import WorldPrompts


SWARM = frozenset({"pursuit", "synchronization", "foraging", "flocking", "transport"})


def prompts_for(world_cls: Any, objective: str, **settings: Any) -> WorldPrompts:
    name = getattr(world_cls, "name", "")
    if name == "schelling":
        from mam_bench.steering.llm.prompts.schelling import SchellingPrompts

        return SchellingPrompts(world_cls, objective, **settings)
    if name in SWARM:
        from mam_bench.steering.llm.prompts.swarm import SwarmPrompts

        return SwarmPrompts(world_cls, objective, **settings)
    return WorldPrompts(world_cls, objective, **settings)


__all__ = ["WorldPrompts", "prompts_for"]

"""Prompts, answer schemas, parsers and legality checks; a world registers its own module.

A world without its own module gets `generic.WorldPrompts`, built only from what every world
exposes: `world_cls.Action`, optionally `world_cls.parse_answer(text)` and an observation's
`prompt_text()` (else `to_text()`).
"""

from __future__ import annotations

from typing import Any

from mam_bench.prompts import WorldPrompts


def prompts_for(world_cls: Any, objective: str, **settings: Any) -> WorldPrompts:
    """The prompts class the world registered, else the generic one."""
    from mam_bench.registry import load, part_of

    path = part_of(world_cls, "prompts")
    cls = load(path) if path is not None else WorldPrompts
    return cls(world_cls, objective, **settings)


__all__ = ["WorldPrompts", "prompts_for"]

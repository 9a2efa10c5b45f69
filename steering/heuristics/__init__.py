"""Hand-written steering strategies: the bar an LLM must clear. Each world registers its own."""

from __future__ import annotations

from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.registry import load, part_of


def make_heuristic(world_cls: Any, objective: str, **options: Any) -> Any:
    """The heuristic factory the world registered, called as (world_cls, objective, **options)."""
    path = part_of(world_cls, "heuristic") or getattr(world_cls, "heuristic", None)
    if path is None:
        raise ConfigError("policy", f"no heuristic controller for world {getattr(world_cls, 'name', world_cls)!r}")
    factory = load(path) if isinstance(path, str) else path
    return factory(world_cls=world_cls, objective=objective, **options)

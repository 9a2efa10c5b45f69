"""Hand-written steering strategies: the bar an LLM must clear. Each world registers its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.errors import ConfigError
from mam_bench.registry import load, part_of

if TYPE_CHECKING:
    from mam_bench.controller import Controller
    from mam_bench.world import SteerableWorld


def make_heuristic(world_cls: type[SteerableWorld], objective: str, **options: Any) -> Controller:
    """The heuristic factory the world registered, called as (world_cls, objective, **options)."""
    path = part_of(world_cls, "heuristic")
    if path is None:
        raise ConfigError("controller", f"no heuristic controller for world {world_cls.name!r}")
    return load(path)(world_cls=world_cls, objective=objective, **options)

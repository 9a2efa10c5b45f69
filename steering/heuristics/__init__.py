"""Hand-written steering strategies per world: the bar an LLM must clear."""

from __future__ import annotations

import importlib
from typing import Any

from mam_bench.errors import ConfigError

#: world name -> "module:factory"; each factory takes (world_cls, objective, **options).
HEURISTICS: dict[str, str] = {
    "schelling": "mam_bench.steering.heuristics.schelling:SchellingHeuristic",
    "pursuit": "mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
    "synchronization": "mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
    "foraging": "mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
    "flocking": "mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
    "transport": "mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
    "crafting": "mam_bench.steering.heuristics.crafting:make_crafting_heuristic",
}


def make_heuristic(world_cls: Any, objective: str, **options: Any) -> Any:
    name = world_cls.name
    if name not in HEURISTICS:
        raise ConfigError("policy", f"no heuristic controller for world {name!r}")
    module, _, attr = HEURISTICS[name].partition(":")
    factory = getattr(importlib.import_module(module), attr)
    return factory(world_cls=world_cls, objective=objective, **options)

"""Worlds and controllers by name, imported lazily so the core never imports a world directly.

Third-party packages add worlds through the `mam_bench.worlds` entry-point group.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from mam_bench.errors import ConfigError

WORLDS: dict[str, str] = {
    "schelling": "mam_bench.models.schelling.model:SchellingWorld",
    "pursuit": "mam_bench.models.swarm.pursuit.model:PursuitWorld",
    "synchronization": "mam_bench.models.swarm.synchronization.model:SynchronizationWorld",
    "foraging": "mam_bench.models.swarm.foraging.model:ForagingWorld",
    "flocking": "mam_bench.models.swarm.flocking.model:FlockingWorld",
    "transport": "mam_bench.models.swarm.transport.model:TransportWorld",
    "crafting": "mam_bench.models.crafting.model:CraftingWorld",
}

CONTROLLERS: dict[str, str] = {
    "rule": "mam_bench.steering.rule:RuleController",
    "random": "mam_bench.steering.random_policy:RandomController",
    "stay": "mam_bench.steering.stay:StayController",
    "mimic": "mam_bench.steering.mimic:MimicController",
    "heuristic": "mam_bench.steering.heuristics:make_heuristic",
    "llm": "mam_bench.steering.llm:make_llm_controller",
    "replay": "mam_bench.steering.replay:make_replay_controller",
}


@lru_cache(maxsize=None)
def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=1)
def _plugin_worlds() -> dict[str, str]:
    """Entry-point worlds, discovered once per process (a scan costs ~12 ms; a landscape asks per run)."""
    from importlib.metadata import entry_points  # ~0.1 s to import: only when a world is looked up

    try:
        return {ep.name: ep.value for ep in entry_points(group="mam_bench.worlds")}
    except Exception:  # pragma: no cover - broken metadata must not hide built-ins
        return {}


def world_names() -> list[str]:
    return sorted({**_plugin_worlds(), **WORLDS})


def get_world(name: str) -> Any:
    table = {**_plugin_worlds(), **WORLDS}
    if name not in table:
        raise ConfigError("world", f"unknown world {name!r} (known: {', '.join(sorted(table))})")
    return _load(table[name])


def controller_names() -> list[str]:
    return sorted(CONTROLLERS)


def make_controller(policy: str, world_cls: Any, objective: str, options: dict[str, Any] | None = None) -> Any:
    """Build a controller; LLM and replay options arrive in `options`."""
    if policy not in CONTROLLERS:
        raise ConfigError("policy", f"unknown policy {policy!r} (known: {', '.join(controller_names())})")
    try:
        factory = _load(CONTROLLERS[policy])
    except ImportError as exc:
        from mam_bench.extras import MissingExtra, extra_for

        if extra_for(exc):
            raise MissingExtra(extra_for(exc)) from None
        raise
    return factory(world_cls=world_cls, objective=objective, **(options or {}))

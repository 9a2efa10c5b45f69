"""World-specific renderers, picked by world name; unknown worlds get the generic one.

A renderer module offers `draw_board(ax, row, info)` (one snapshot on a matplotlib Axes) and may
offer `Extras(state)`, a Solara component with the world's own panels.
"""

from __future__ import annotations

import importlib
from types import ModuleType

SWARM = ("pursuit", "synchronization", "foraging", "flocking", "transport")

RENDERERS: dict[str, str] = {
    "schelling": "mam_bench.dashboards.worlds.schelling",
    **{name: "mam_bench.dashboards.worlds.swarm" for name in SWARM},
    "crafting": "mam_bench.dashboards.worlds.crafting",
}


def renderer_for(world: str) -> ModuleType:
    return importlib.import_module(RENDERERS.get(world, "mam_bench.dashboards.worlds.generic"))

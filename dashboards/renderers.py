"""The renderer a world registered; worlds without one get the generic renderer.

A renderer module offers `draw_board(ax, row, info)` (one snapshot on a matplotlib Axes) and may
offer `Extras(state)`, a Solara component with the world's own panels. A world may instead register
a Mesa-style `agent_portrayal(agent) -> dict` ("module:function"), which the generic renderer uses.
"""

from __future__ import annotations

import importlib
from functools import partial
from types import ModuleType, SimpleNamespace
from typing import Any

from mam_bench.registry import load, registrations

GENERIC = "mam_bench.dashboards.generic_renderer"


def renderer_for(world: str) -> Any:
    reg = registrations().get(world)
    path = reg.renderer if reg is not None else None
    generic = importlib.import_module(GENERIC)
    if not path:
        return generic
    target = load(path)
    if isinstance(target, ModuleType):
        return target
    return SimpleNamespace(
        draw_board=partial(generic.draw_board, portrayal=target),
        legend=partial(generic.portrayal_legend, portrayal=target),
    )

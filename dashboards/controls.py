"""Controls for the experiment: world, seed, world parameters, objective, influence, controller."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import solara

from mam_bench.dashboards.config import CONTROLLER_CHOICES, DashConfig, available_worlds
from mam_bench.dashboards.draft_input import DraftInput
from mam_bench.registry import get_world


def _param_fields(world: str) -> dict[str, Any]:
    try:
        cls = get_world(world)
    except Exception:
        return {}
    defaults = cls.Params().as_json()
    return {k: v for k, v in defaults.items() if isinstance(v, (int, float, str, bool))}


@cache
def influence_hint(world: str) -> str:
    """The influence field's label with ids of this world's own actors (its first two and last),
    so that the example typed as shown names real agents in any world."""
    try:
        cls = get_world(world)
        ids = cls(cls.Params(), seed=0).actor_ids()
    except Exception:
        return "influence (count or comma-separated ids)"
    shown = list(dict.fromkeys([*ids[:2], *ids[-1:]]))
    return f"influence (count or ids, e.g. {','.join(str(i) for i in shown)})"


def _seed(text: str) -> int:
    """An empty field means seed 0, as before; anything else must be a whole number."""
    try:
        return int(text or 0)
    except ValueError:
        raise ValueError("expected a whole number") from None


@solara.component
def Controls(cfg: DashConfig, on_cfg: Callable[[DashConfig], None]) -> None:
    """Every change rebuilds the pair from round 0 (both runs reset together)."""
    worlds = available_worlds()
    fields = _param_fields(cfg.world)
    current = dict(cfg.params)
    try:
        cls = get_world(cfg.world)
        objectives = list(cls.scoring.objectives)
        default_objective = cls.scoring.default_objective
    except Exception:
        objectives, default_objective = [], ""

    def set_param(name: str, value: str | None) -> None:
        p = dict(cfg.params)
        if value is None or str(value) == str(fields.get(name)):
            p.pop(name, None)
        else:
            p[name] = str(value)
        on_cfg(cfg.with_(params=tuple(sorted(p.items()))))

    with solara.Card("Experiment", classes=["mam-controls"]):
        solara.Select(
            "world",
            values=worlds or [cfg.world],
            value=cfg.world,
            on_value=lambda w: on_cfg(DashConfig(world=w, seed=cfg.seed)),
        )
        DraftInput("seed", str(cfg.seed), lambda s: on_cfg(cfg.with_(seed=s)), parse=_seed, classes=["mam-seed"])
        if objectives:
            solara.Select(
                "objective",
                values=objectives,
                value=cfg.objective or default_objective,
                on_value=lambda o: on_cfg(cfg.with_(objective=o)),
            )
        DraftInput(influence_hint(cfg.world), cfg.influence, lambda t: on_cfg(cfg.with_(influence=t)))
        solara.Select(
            "controller (auto: the world's heuristic, else random)",
            values=["auto", *CONTROLLER_CHOICES],
            value=cfg.controller,
            on_value=lambda p: on_cfg(cfg.with_(controller=p)),
        )
        if cfg.controller == "llm":
            DraftInput("model (provider:model)", cfg.model, lambda m: on_cfg(cfg.with_(model=m)))
            DraftInput("base URL (OpenAI-compatible, optional)", cfg.base_url, lambda u: on_cfg(cfg.with_(base_url=u)))
            DraftInput(
                "API key variable name (the key stays in the environment)",
                cfg.api_key_env,
                lambda k: on_cfg(cfg.with_(api_key_env=k)),
            )
        if cfg.controller == "replay":
            DraftInput("replay run directory", cfg.replay, lambda d: on_cfg(cfg.with_(replay=d)))
        with solara.Details("world parameters"):
            for name, default in fields.items():
                DraftInput(name, str(current.get(name, default)), lambda v, name=name: set_param(name, v))

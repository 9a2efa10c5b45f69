"""What the controls choose, and how a choice becomes a live pair (or a clear error)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from mam_bench.dashboards.security import check_llm_choice, check_replay_path
from mam_bench.errors import ConfigError
from mam_bench.registry import default_world, get_world, world_names
from mam_bench.runner import PairSpec

CONTROLLER_CHOICES = ("rule", "random", "stay", "heuristic", "llm", "replay")

#: environment variables `mam-bench dashboard` passes to the Solara process
ENV_WORLD, ENV_RUN, ENV_LANDSCAPE = "MAM_DASHBOARD_WORLD", "MAM_DASHBOARD_RUN", "MAM_DASHBOARD_LANDSCAPE"


@dataclass(frozen=True)
class DashConfig:
    world: str = ""
    seed: int = 22
    params: tuple[tuple[str, str], ...] = ()
    objective: str = ""
    #: a count ("16") or comma-separated ids ("0,1,150"); empty = the world's default
    influence: str = ""
    controller: str = "auto"
    model: str = ""
    #: OpenAI-compatible endpoint (OpenRouter, vLLM, Ollama) and the *name* of the key's variable
    base_url: str = ""
    api_key_env: str = ""
    replay: str = ""

    def with_(self, **kw: Any) -> DashConfig:
        return replace(self, **kw)


def available_worlds() -> list[str]:
    """Every registered world; one whose import fails raises here, loudly, instead of vanishing."""
    names = world_names()
    for name in names:
        get_world(name)
    return names


def default_config() -> DashConfig:
    featured, seed = default_world()
    world = os.environ.get(ENV_WORLD) or featured
    return DashConfig(world=world, seed=seed if world == featured else 0)


def to_spec(cfg: DashConfig, controller: str) -> PairSpec:
    count: int | None = None
    ids: tuple[int, ...] | None = None
    text = cfg.influence.strip()
    if text:
        try:
            if "," in text:
                ids = tuple(int(x) for x in text.split(",") if x.strip())
            else:
                count = int(text)
        except ValueError:
            raise ConfigError("influence", f"expected a number or comma-separated ids, got {text!r}") from None
    options: dict[str, Any] = {}
    if controller == "llm":
        if not cfg.model:
            raise ConfigError("model", "the llm controller needs a model string, e.g. openai:gpt-4o-mini")
        options["model"] = cfg.model
        check_llm_choice(cfg.model, cfg.base_url, cfg.api_key_env)
        if cfg.base_url:
            options["base_url"] = cfg.base_url
        if cfg.api_key_env:
            options["api_key_env"] = cfg.api_key_env
    if controller == "replay":
        if not cfg.replay:
            raise ConfigError("replay", "the replay controller needs a run directory")
        options["replay"] = check_replay_path(cfg.replay)
    return PairSpec.build(
        world=cfg.world,
        seed=cfg.seed,
        params=dict(cfg.params),
        objective=cfg.objective or None,
        controller=controller,
        influence=count,
        influence_ids=ids,
        controller_options=options,
    )


def build_session(cfg: DashConfig) -> Any:
    """A live PairSession; `auto` means heuristic where one exists, else random."""
    from mam_bench.dashboards.session import PairSession

    if cfg.controller != "auto":
        return PairSession(to_spec(cfg, cfg.controller))
    try:
        return PairSession(to_spec(cfg, "heuristic"))
    except ConfigError as exc:
        if exc.field != "policy":
            raise
    except (ImportError, AttributeError, NotImplementedError):
        pass  # no heuristic for this world (yet)
    return PairSession(to_spec(cfg, "random"))

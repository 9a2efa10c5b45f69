"""What the controls choose, and how a choice becomes a live pair (or a clear error)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from typing import Any

from mam_bench.dashboards.security import check_llm_choice, check_replay_path
from mam_bench.errors import ConfigError
from mam_bench.registry import default_world, get_world, world_names
from mam_bench.runner import PairSpec

CONTROLLER_CHOICES = ("rule", "random", "stay", "heuristic", "llm", "replay", "human")

#: environment variables `mam-bench dashboard` passes to the Solara process
ENV_WORLD, ENV_RUN, ENV_LANDSCAPE = "MAM_DASHBOARD_WORLD", "MAM_DASHBOARD_RUN", "MAM_DASHBOARD_LANDSCAPE"
#: the command's --controller, --seed, --rounds, --out and --time-limit (a person at the controls)
ENV_POLICY, ENV_SEED, ENV_ROUNDS = "MAM_DASHBOARD_POLICY", "MAM_DASHBOARD_SEED", "MAM_DASHBOARD_ROUNDS"
ENV_OUT, ENV_TIME_LIMIT = "MAM_DASHBOARD_OUT", "MAM_DASHBOARD_TIME_LIMIT"
#: `mam-bench benchmark --controller human`: the seat file naming the pair the page plays now
ENV_SEAT = "MAM_DASHBOARD_SEAT"


@dataclass(frozen=True)
class DashConfig:
    world: str = ""
    seed: int = 5
    params: tuple[tuple[str, str], ...] = ()
    objective: str = ""
    #: a count ("16") or comma-separated ids ("0,1,399"); empty = the world's default
    influence: str = ""
    controller: str = "auto"
    model: str = ""
    #: OpenAI-compatible endpoint (OpenRouter, vLLM, Ollama) and the *name* of the key's variable
    base_url: str = ""
    api_key_env: str = ""
    replay: str = ""
    #: the treatment's rounds (None: the world's horizon)
    rounds: int | None = None
    #: where a person's session records (`human`); empty: runs/human-WORLD-seedN
    out: str = ""
    time_limit: float | None = None
    #: a benchmark's pair as the seat file gives it (a PairSpec as JSON; `out` is its run folder)
    spec: str = ""

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
    cfg = DashConfig(world=world, seed=seed if world == featured else 0)
    env = os.environ
    if env.get(ENV_SEED):
        cfg = cfg.with_(seed=int(env[ENV_SEED]))
    if env.get(ENV_ROUNDS):
        cfg = cfg.with_(rounds=int(env[ENV_ROUNDS]))
    if env.get(ENV_TIME_LIMIT):
        cfg = cfg.with_(time_limit=float(env[ENV_TIME_LIMIT]))
    return cfg.with_(controller=env.get(ENV_POLICY) or cfg.controller, out=env.get(ENV_OUT, ""))


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
    if controller == "human" and cfg.time_limit:
        options["time_limit"] = cfg.time_limit
    return PairSpec.build(
        world=cfg.world,
        seed=cfg.seed,
        params=dict(cfg.params),
        objective=cfg.objective or None,
        controller=controller,
        influence=count,
        influence_ids=ids,
        rounds=cfg.rounds,
        controller_options=options,
    )


def build_session(cfg: DashConfig) -> Any:
    """A live PairSession; `auto` means heuristic where one exists, else random."""
    from mam_bench.dashboards.session import PairSession

    if cfg.controller == "human":
        from mam_bench.dashboards.human_session import HumanSession

        if cfg.spec:
            return HumanSession(PairSpec.build(**json.loads(cfg.spec)), cfg.out)
        return HumanSession(to_spec(cfg, "human"), cfg.out or f"runs/human-{cfg.world}-seed{cfg.seed}")
    if cfg.controller != "auto":
        return PairSession(to_spec(cfg, cfg.controller))
    try:
        return PairSession(to_spec(cfg, "heuristic"))
    except ConfigError as exc:
        if exc.field != "controller":
            raise
    except (ImportError, AttributeError, NotImplementedError):
        pass  # no heuristic for this world (yet)
    return PairSession(to_spec(cfg, "random"))

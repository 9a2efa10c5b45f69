"""Crafting parameters, frozen and validated; the task name selects a data/tasks file."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from mam_bench.models.crafting.conditions import EXCLUSIVE, has, switches
from mam_bench.params import WorldParams

#: the world before scarcity: one-step travel, one unit per harvest, refill every 5 rounds
STATIC_WORLD = {"travel": "abstracted", "yields": (0.0, 1.0, 0.0), "regrow": 0.0, "rivals": 0.0, "refill_every": 5}


class CraftingParams(WorldParams):
    task: str = Field(
        "forge_vanguard", description="task name from data/tasks (aliases accepted), or a path to your own task .yaml"
    )
    rounds: int | None = Field(None, ge=1, le=500, description="round budget; default: the task's")
    influence: int = Field(2, ge=0, le=20, description="influence agents when none are named")
    board: bool = Field(True, description="coordination board; off in AgentWorld reproduction mode")
    turn_order: Literal["fixed", "shuffle"] = Field(
        "shuffle", description="round-robin by index, or a seeded shuffle per round (stream 'order')"
    )
    protocol: Literal["start_of_round", "round_robin"] = Field(
        "start_of_round",
        description="influence agents decide from the start-of-round state, or each at its own turn from a "
        "fresh observation (AgentWorld's round-robin; its reproduction mode)",
    )
    stock_jitter: int = Field(1, ge=0, le=3, description="node stocks vary by +-jitter per seed")
    refill_every: int = Field(0, ge=0, description="nodes also regain 1 unit every N rounds (0: off; old world: 5)")
    strategy: Literal["market", "shared_plan"] = Field(
        "market", description="ordinary agents decide locally (market) or follow AgentWorld's shared-plan baseline"
    )
    travel: Literal["distance", "abstracted"] = Field(
        "distance", description="move_to covers at most `speed` cells per action, or arrives at once"
    )
    speed: int = Field(2, ge=1, le=24, description="cells per move_to action under travel=distance")
    yields: tuple[float, float, float] = Field(
        (0.2, 0.6, 0.2), description="chance that a harvest yields 0, 1 or 2 units (stream 'yield')"
    )
    regrow: float = Field(0.25, ge=0, le=1, description="chance per round that a node below its stock regains 1")
    rivals: float = Field(0.15, ge=0, le=1, description="chance per round and node that a rival order takes 1 unit")
    psr_mode: Literal["fractional", "binary"] = "fractional"
    cce_mode: Literal["provenance", "llm", "llm_traced", "llm_chained"] = Field(
        "provenance",
        description="llm: after the run, also judge CCE as AgentWorld's CCE v2 script does (reported as cce_llm "
        "beside the provenance CCE, with per-agent pac_llm) through judge_model; llm_traced: our first reading "
        "of that script; llm_chained: the earlier variant that also traces chains within a round",
    )
    judge_model: str = Field("openai:gpt-4.1", description="PROVIDER:MODEL (or local:NAME) of the CCE judge")
    judge_api_key_env: str | None = Field(None, description="environment variable holding the judge's API key")
    episode_end: Literal["auto", "verifier", "complete", "upstream"] = Field(
        "auto",
        description="verifier: the episode ends once the task's verifier passes (ours); complete: at the round "
        "limit or once every agent has called complete, SR read at the end; upstream: AgentWorld's runner, its "
        "budget (rounds, else the task's rounds, else 55) and its verifier asked after rounds 6, 9, 12, ... "
        "(episode.py); auto: complete for AgentWorld's task files, verifier for ours",
    )
    condition: str = Field(
        "standard",
        description="AgentWorld's baselines and ablations: standard, single_agent, no_communication, "
        "shared_plan_only, oracle_communication, no_roles, random_spawn, no_docs (conditions.py); "
        "several combine with commas, as upstream's switches: no_roles,random_spawn",
    )
    discussion_rounds: int = Field(
        0,
        ge=0,
        le=500,
        description="upstream's --discussion-rounds N: the first N rounds offer only chat, then communication is "
        "cut; not with no_communication or shared_plan_only (conditions.py)",
    )
    spawn_region: tuple[int, int, int, int] | None = Field(
        None, description="x1,y1,x2,y2: the box random_spawn draws cells in (default: the spawn sites' box +5 cells)"
    )
    chat_edges: Literal["heuristic", "none"] = Field(
        "heuristic", description="how chat enters CCE (the LLM judge is an offline hook)"
    )

    def influence_count(self) -> int:
        """A solo run has one agent: it is the influence agent when any is asked for."""
        return min(self.influence, 1) if has(self.condition, "single_agent") else self.influence

    def plays_strategy(self) -> str:
        """The ordinary agents' strategy: `shared_plan_only` hands them the shared plan."""
        return "shared_plan" if has(self.condition, "shared_plan_only") else self.strategy

    def board_on(self) -> bool:
        return self.board

    @property
    def decides_per_turn(self) -> bool:
        """AgentWorld's protocol: each influence agent is asked at its own turn, after the agents
        before it in the round have acted (`protocol=round_robin`)."""
        return self.protocol == "round_robin"

    @field_validator("condition")
    @classmethod
    def _known_conditions(cls, value: str) -> str:
        names = switches(value)
        if all(c in names for c in EXCLUSIVE):
            raise ValueError(
                "no_communication and shared_plan_only are mutually exclusive communication baselines, as upstream's"
            )
        return ",".join(names)

    @field_validator("discussion_rounds")
    @classmethod
    def _one_communication_baseline(cls, v: int, info: ValidationInfo) -> int:
        """As upstream's `ExperimentConfig.validate`: one communication baseline at most."""
        if v and any(has(info.data.get("condition", ""), c) for c in EXCLUSIVE):
            raise ValueError("excludes condition no_communication and shared_plan_only, as upstream's")
        return v

    @field_validator("spawn_region", mode="before")
    @classmethod
    def _a_box(cls, v: object) -> object:
        return _split(v, int)

    @field_validator("spawn_region")
    @classmethod
    def _with_random_spawn(cls, v: tuple[int, int, int, int] | None, info: ValidationInfo) -> object:
        """As upstream's `--spawn-region`: only with random spawns."""
        if v is not None and not has(info.data.get("condition", ""), "random_spawn"):
            raise ValueError("needs condition random_spawn, as upstream's --spawn-region")
        return v

    @field_validator("yields", mode="before")
    @classmethod
    def _from_text(cls, v: object) -> object:
        return _split(v, float)

    @field_validator("yields")
    @classmethod
    def _a_distribution(cls, v: tuple[float, float, float]) -> tuple[float, float, float]:
        if min(v) < 0 or abs(sum(v) - 1) > 1e-9:
            raise ValueError("three chances (0, 1, 2 units) that are >= 0 and sum to 1")
        return v

    @classmethod
    def from_strings(cls, pairs: dict[str, Any]) -> WorldParams:
        """A task file's problems are named on `task` itself, before the other fields are read."""
        from mam_bench.models.crafting.task_files import load_task_file, looks_like_file

        task = pairs.get("task")
        if isinstance(task, str) and looks_like_file(task):
            load_task_file(task)
        return super().from_strings(pairs)

    @field_validator("task")
    @classmethod
    def _known_task(cls, v: str) -> str:
        from mam_bench.models.crafting.task_files import load_task_file, looks_like_file
        from mam_bench.models.crafting.tasks import get_task, task_names

        if looks_like_file(v):  # a user's task file: kept as its absolute path, so a resume finds it
            load_task_file(v)
            return str(Path(v).expanduser().resolve())
        try:
            return get_task(v).name
        except KeyError:
            raise ValueError(
                f"unknown task {v!r} (known: {', '.join(task_names())}, or a path to a task .yaml)"
            ) from None

    # --- what `mam-bench tasks` and a resume ask (mam_bench.capabilities) -------------------------
    @classmethod
    def list_tasks(cls) -> list[tuple[str, str]]:
        from mam_bench.models.crafting.tasks import all_tasks

        return [
            (t.name, f"[{t.category}, {len(t.agents)} agents, {t.budget} rounds] {t.description}")
            for t in all_tasks().values()
        ]

    @classmethod
    def check_task(cls, path: str) -> str:
        """`mam-bench tasks crafting --check FILE`: one line saying what the file holds, or a ConfigError."""
        from mam_bench.models.crafting.model import CraftingWorld
        from mam_bench.models.crafting.task_files import describe, load_task_file

        task = load_task_file(path)
        if (
            task.verifier is not None or task.criteria is not None
        ):  # one round played: its verify() answers on that round's state, within its limit
            CraftingWorld(cls.from_strings({"task": path}), seed=0).step()
        return describe(task)

    def input_files(self) -> dict[str, str]:
        """A task file's own files and their sha256 (none for a built-in task)."""
        from mam_bench.models.crafting.task_files import input_files, looks_like_file
        from mam_bench.models.crafting.tasks import get_task

        return input_files(get_task(self.task)) if looks_like_file(self.task) else {}


def _split(v: object, cast: type) -> object:
    """A comma-separated `--param` text as a tuple; anything else as given (pydantic checks it)."""
    return tuple(cast(x) for x in v.split(",")) if isinstance(v, str) else v

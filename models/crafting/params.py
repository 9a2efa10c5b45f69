"""Crafting parameters, frozen and validated; the task name selects a data/tasks file."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from mam_bench.params import WorldParams


class CraftingParams(WorldParams):
    task: str = Field("forge_vanguard", description="task name from data/tasks (aliases accepted)")
    rounds: int | None = Field(None, ge=1, le=500, description="round budget; default: the task's")
    influence: int = Field(2, ge=0, le=20, description="influence seats when none are named")
    board: bool = Field(True, description="coordination board; off in AgentWorld reproduction mode")
    turn_order: Literal["fixed", "shuffle"] = Field(
        "shuffle", description="round-robin by index, or a seeded shuffle per round (stream 'order')")
    stock_jitter: int = Field(1, ge=0, le=3, description="node stocks vary by +-jitter per seed")
    refill_every: int = Field(5, ge=1, description="nodes regain 1 unit every N rounds")
    psr_mode: Literal["fractional", "binary"] = "fractional"
    chat_edges: Literal["heuristic", "none"] = Field(
        "heuristic", description="how chat enters CCE (the LLM judge is an offline hook)")

    @field_validator("task")
    @classmethod
    def _known_task(cls, v: str) -> str:
        from mam_bench.models.crafting.tasks import get_task, task_names

        try:
            return get_task(v).name
        except KeyError:
            raise ValueError(f"unknown task {v!r} (known: {', '.join(task_names())})") from None

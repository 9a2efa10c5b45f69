"""LLM influence agents through LangChain: concurrent, cached, accounted, robust."""

from __future__ import annotations

from typing import Any

from mam_bench.steering.llm.controller import LLMController
from mam_bench.steering.llm.options import LLMOptions


def make_llm_controller(world_cls: Any, objective: str, **options: Any) -> LLMController:
    """Registry entry for `--policy llm`; options are the CLI's LLM flags."""
    options.pop("replay", None)
    return LLMController(world_cls, objective, **options)


__all__ = ["LLMController", "LLMOptions", "make_llm_controller"]

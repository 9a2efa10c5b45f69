"""LLM influence agents through LangChain: concurrent, cached, accounted, robust.

The controller (and LangChain with it) is imported only when asked for, so the core can read
this package's accounting, options and secret helpers without the [llm] extra.
"""

from __future__ import annotations

from typing import Any


def make_llm_controller(world_cls: Any, objective: str, **options: Any) -> Any:
    """Registry entry for `--policy llm`; options are the CLI's LLM flags."""
    from mam_bench.steering.llm.controller import LLMController

    options.pop("replay", None)
    return LLMController(world_cls, objective, **options)


def __getattr__(name: str) -> Any:
    if name == "LLMController":
        from mam_bench.steering.llm.controller import LLMController

        return LLMController
    if name == "LLMOptions":
        from mam_bench.steering.llm.options import LLMOptions

        return LLMOptions
    raise AttributeError(name)


__all__ = ["LLMController", "LLMOptions", "make_llm_controller"]

"""LLM influence agents through LangChain: concurrent, cached, accounted, robust.

The controller (and LangChain with it) is imported only when asked for, so the core can read
this package's accounting, options and secret helpers without the [llm] extra.
"""

from __future__ import annotations

from typing import Any


def make_llm_controller(world_cls: Any, objective: str, **options: Any) -> Any:
    """Registry entry for `--controller llm`; options are the CLI's LLM flags."""
    from mam_bench.steering.llm.controller import LLMController

    options.pop("replay", None)
    return LLMController(world_cls, objective, **options)


def turn_bound(options: dict[str, Any], model: str) -> tuple[int, int]:
    """(calls at most, conversation tokens carried per call) of one turn under these options: a
    stateless turn is one call; a session turn at most turn_requests answers and one compaction
    summary, each carrying the conversation up to its budget."""
    if options.get("agent") != "session":
        return 1, 0
    from mam_bench.steering.llm.options import LLMOptions  # pydantic only, no LangChain

    o = LLMOptions(**{**{k: v for k, v in options.items() if k in LLMOptions.model_fields}, "model": model})
    return o.turn_requests + 1, o.session_tokens


def __getattr__(name: str) -> Any:
    if name == "LLMController":
        from mam_bench.steering.llm.controller import LLMController

        return LLMController
    if name == "LLMOptions":
        from mam_bench.steering.llm.options import LLMOptions

        return LLMOptions
    raise AttributeError(name)


__all__ = ["LLMController", "LLMOptions", "make_llm_controller", "turn_bound"]

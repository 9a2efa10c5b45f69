"""Build a pair's controller once, before anything is written, so every controller error
(an unknown option, an unset key variable, a corrupt cache, a replay source that does not match)
is a ConfigError at the start instead of a failure half-way through a run or a suite.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from mam_bench.errors import ConfigError

#: options only the LLM controller reads (the CLI's LLM flags)
LLM_ONLY = (
    "model",
    "base_url",
    "api_key_env",
    "temperature",
    "top_p",
    "max_tokens",
    "structured",
    "stall_timeout",
    "max_concurrency",
    "cache",
    "one_call",
    "price_table",
    "timeout",
    "max_retries",
    "deadline",
    "max_cost",
    "prompt_style",
    "menu_seed",
    "sampling_seed",
    "menu_cap",
    "agent",
    "turn_requests",
    "notebook_chars",
    "context_tokens",
)

#: options only the oracle reads (the CLI's planner flags)
ORACLE_ONLY = ("candidates", "lookahead", "rollouts", "budget", "sweeps", "plan_seed", "jobs", "executor")
#: the planner flags `greedy` (a one-round lookahead) reads too
GREEDY_TAKES = ("candidates", "sweeps", "plan_seed")


@runtime_checkable
class SourceChecked(Protocol):
    """A controller that plays from a recorded source (replay): the source must be this very pair."""

    def verify_source(self, spec: Any, prep: Any) -> None: ...


@runtime_checkable
class CachedAnswers(Protocol):
    """A controller with a response cache (LLM), which it opens only once the run's folder is the
    run's: it is built before anything is written, and a check that fails after must leave no file."""

    def open_cache(self, path: Any) -> None: ...


def build_controller(spec: Any, prep: Any) -> Any:
    """The pair's controller, built once, before anything is written, so every controller error is
    a ConfigError at the start: an option of another controller, a missing extra, an unset key
    variable, a cache that is not one, a replay source that is not this pair."""
    from mam_bench.registry import make_controller

    options = dict(spec.controller_options)
    if spec.controller != "llm":
        stray = [k for k in LLM_ONLY if k in options]
        if stray:
            raise ConfigError(stray[0], f"only --controller llm takes it (the controller is {spec.controller})")
    if spec.controller != "oracle":
        takes = GREEDY_TAKES if spec.controller == "greedy" else ()
        stray = [k for k in ORACLE_ONLY if k in options and k not in takes]
        if stray:
            raise ConfigError(stray[0], f"only --controller oracle takes it (the controller is {spec.controller})")
    if spec.controller == "oracle" and "executor" in options and "jobs" not in options:
        raise ConfigError("executor", "takes effect only with --jobs N (without it the rollouts run in process)")
    if spec.controller != "replay" and "replay" in options:
        raise ConfigError("replay", f"only --controller replay takes it (the controller is {spec.controller})")
    if spec.controller == "llm":
        from mam_bench.extras import require
        from mam_bench.response_cache import check_cache_path

        require("local" if str(options.get("model", "")).startswith("local:") else "llm")
        if options.get("cache"):
            check_cache_path(options["cache"])
        options["cache"] = None  # checked above; opened (`open_cache`) once the run's folder is the run's
        if spec.max_policy_error_share >= 1:  # the user accepts a treatment of nothing but policy errors
            options.setdefault("unusable_in_a_row", 0)
    controller = make_controller(spec.controller, prep.world_cls, prep.objective, options)
    if isinstance(controller, SourceChecked):
        controller.verify_source(spec, prep)
    return controller

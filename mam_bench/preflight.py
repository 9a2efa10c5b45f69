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
)

#: options only the oracle reads (the CLI's planner flags)
ORACLE_ONLY = ("candidates", "lookahead", "rollouts", "budget", "sweeps", "plan_seed")


@runtime_checkable
class SourceChecked(Protocol):
    """A controller that plays from a recorded source (replay): the source must be this very pair."""

    def verify_source(self, spec: Any, prep: Any) -> None: ...


def check_controller(spec: Any, prep: Any) -> str | None:
    """Raise ConfigError if this spec's controller could not be built; builds it without a cache.
    Returns the controller's options line (printed at the start of a run), if it has one."""
    from mam_bench.registry import make_controller
    from mam_bench.runner import run_async

    options = dict(spec.controller_options)
    if spec.policy != "llm":
        stray = [k for k in LLM_ONLY if k in options]
        if stray:
            raise ConfigError(stray[0], f"only --policy llm takes it (policy is {spec.policy})")
    if spec.policy != "oracle":
        stray = [k for k in ORACLE_ONLY if k in options]
        if stray:
            raise ConfigError(stray[0], f"only --policy oracle takes it (policy is {spec.policy})")
    if spec.policy != "replay" and "replay" in options:
        raise ConfigError("replay", f"only --policy replay takes it (policy is {spec.policy})")
    if spec.policy == "llm":
        from mam_bench.response_cache import check_cache_path

        if options.get("cache"):
            check_cache_path(options["cache"])
        options["cache"] = None  # checked above; opened for real only once the run directory is ours
    controller = make_controller(spec.policy, prep.world_cls, prep.objective, options)
    if isinstance(controller, SourceChecked):
        controller.verify_source(spec, prep)
    run_async(controller.aclose())
    return controller.options_line()


def check_suite_controllers(suite: Any) -> None:
    """Every case's controller builds (options, key variables, replay sources), on the first seed."""
    from mam_bench.runner import prepare

    seed = suite.seed_list()[0]
    for i, case in enumerate(suite.cases):
        try:
            spec = case.pair_spec(seed)
            check_controller(spec, prepare(spec))
        except ConfigError as exc:
            field = exc.field if exc.field.startswith("controller_options") else f"controller_options.{exc.field}"
            if exc.field in ("model", "policy"):
                field = exc.field
            raise ConfigError(f"cases[{i}].{field}", exc.message) from None

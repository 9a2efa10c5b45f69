"""`experiment --controller/--model/--seeds`: play a shipped suite with another controller or seeds.

The overrides edit the suite's data before it is validated, so an overridden suite is checked
exactly like a written one. Switching to a controller other than `llm` drops the LLM-only
options (a temperature sweep played by the heuristic); cases that thereby become equal run once.
"""

from __future__ import annotations

from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.limits import seed_range, whole_number
from mam_bench.preflight import LLM_ONLY


def apply_overrides(
    data: Any, controller: str | None = None, model: str | None = None, seeds: str | None = None
) -> tuple[Any, list[str]]:
    """(the suite data with the overrides applied, notes on what they changed)."""
    if not isinstance(data, dict) or (controller is None and model is None and seeds is None):
        return data, []
    if model is not None and controller not in (None, "llm"):
        raise ConfigError("model", f"a model needs --controller llm, not {controller}")
    out, notes = dict(data), []
    if seeds is not None:
        out["seeds"] = _seeds(seeds)
        out.pop("seed_start", None)
    if controller is not None or model is not None:
        target = "llm" if model is not None else controller
        cases, seen = [], {}
        for i, raw in enumerate(data.get("cases") or []):
            if not isinstance(raw, dict):
                cases.append(raw)
                continue
            case = dict(raw)
            case["controller"] = target
            if model is not None:
                case["model"] = model
            elif target != "llm":
                case.pop("model", None)
                options = {k: v for k, v in (case.get("controller_options") or {}).items() if k not in LLM_ONLY}
                case["controller_options"] = options
            key = repr(sorted((k, repr(v)) for k, v in case.items() if k != "name"))
            if key in seen:
                notes.append(f"cases[{i}] equals cases[{seen[key]}] under --controller {target}: run once")
                continue
            seen[key] = i
            cases.append(case)
        out["cases"] = cases
        notes.insert(0, f"every case played by {target}" + (f" ({model})" if model else ""))
    return out, notes


def _seeds(text: str) -> Any:
    """`0-4` (a range), `3` (a count from 0) or `1,5,9` (a list), as a suite's `seeds` field."""
    t = text.strip()
    if (count := whole_number(t)) is not None:
        return count
    if "," in t:
        parts = [whole_number(p) for p in t.split(",")]
        if all(p is not None for p in parts):
            return parts
    bounds = seed_range(t)
    if bounds and bounds[1] >= bounds[0]:
        return t
    raise ConfigError("seeds", f"expected A-B, a count or a comma-separated list, got {text!r}")

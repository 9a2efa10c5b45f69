"""Per-call accounting: tokens, cost from a price table, retries, latency; never a key."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError

#: USD per million tokens; the local model is free. Override with --price-table FILE.
DEFAULT_PRICES: dict[str, dict[str, float]] = {
    "local:gemma3-270m": {"input": 0.0, "output": 0.0},
}


def check_prices(table: Any, where: str = "price_table") -> dict[str, dict[str, float]]:
    """model -> {input, output}: finite, non-negative USD per million tokens."""
    if not isinstance(table, dict):
        raise ConfigError("price_table", f"{where}: expected a JSON object model -> {{input, output}}")
    out: dict[str, dict[str, float]] = {}
    for model, p in table.items():
        if not isinstance(p, dict) or set(p) - {"input", "output"}:
            raise ConfigError("price_table", f"{where}: {model!r} needs an object with input and output prices")
        for side, v in p.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ConfigError("price_table", f"{where}: {model}.{side} must be a non-negative number")
        out[str(model)] = {k: float(v) for k, v in p.items()}
    return out


def read_price_table(path: str) -> dict[str, dict[str, float]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError("price_table", f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError("price_table", f"{path} is not JSON: {exc}") from None
    return check_prices(data, path)


class PriceTable:
    """model -> {input, output} USD per million tokens; unknown models cost 0 (and say so)."""

    def __init__(self, table: str | dict[str, dict[str, float]] | None = None):
        prices = dict(DEFAULT_PRICES)
        if isinstance(table, str):
            prices.update(read_price_table(table))
        elif table:
            prices.update(check_prices(table))
        self.prices = prices

    def priced(self, model: str) -> bool:
        return self._lookup(model) is not None

    def _lookup(self, model: str) -> dict[str, float] | None:
        if model in self.prices:
            return self.prices[model]
        bare = model.split(":", 1)[-1]
        return self.prices.get(bare)

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float:
        p = self._lookup(model)
        if not p:
            return 0.0
        return round((input_tokens * p.get("input", 0.0) + output_tokens * p.get("output", 0.0)) / 1e6, 10)


class Totals:
    """Run totals. `stable()` is what result.json holds (identical across cache replays,
    resumes and transient faults); `session()` adds what depends on this process's luck."""

    def __init__(self) -> None:
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.cost = 0.0
        self.policy_errors = 0
        self.repairs = 0
        self.failed_calls = 0
        self.cache_hits = 0
        self.requests = 0
        self.retries = 0
        self.latency = 0.0

    def add(self, row: dict[str, Any]) -> None:
        if row.get("error"):
            self.failed_calls += 1
        else:
            self.calls += 1
            self.input_tokens += int(row.get("input_tokens") or 0)
            self.output_tokens += int(row.get("output_tokens") or 0)
            self.cost = round(self.cost + float(row.get("cost") or 0.0), 10)
        self.cache_hits += int(bool(row.get("cached")))
        self.requests += int(row.get("requests") or 0)
        self.retries += int(row.get("retries") or 0)
        self.latency += float(row.get("latency_s") or 0.0)

    def stable(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost": self.cost,
            "policy_errors": self.policy_errors,
            "repairs": self.repairs,
        }

    def session(self) -> dict[str, Any]:
        return {
            "cache_hits": self.cache_hits,
            "requests": self.requests,
            "retries": self.retries,
            "failed_calls": self.failed_calls,
            "latency_s": round(self.latency, 3),
        }


#: a leaderboard's accounting columns: what a row's pairs spent, their wall time summed (each pair's
#: own time, not the command's, which --jobs runs in parallel), and how many were invalid
ACCOUNT_COLUMNS = ("calls", "tokens", "cost $", "pairs wall s", "invalid")


def cost_cell(cost: float, calls: int, model: str) -> str:
    """A table's cost in USD; "unpriced" for a model that made calls but has no price in the
    built-in table (its cost adds up to 0, which would read as free)."""
    if calls and not cost and model and not PriceTable().priced(model):
        return "unpriced"
    return f"{cost:.4f}"

"""The wrappers around the chat model, stacked in the one order that keeps each one's promise."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.pricing import PriceTable
from mam_bench.response_cache import ResponseCache
from mam_bench.steering.llm.caching import Cached, Pending
from mam_bench.steering.llm.call import Call, ChatModelCaller, Reply
from mam_bench.steering.llm.cost_guard import CostGuard
from mam_bench.steering.llm.fallback import StructuredFallback
from mam_bench.steering.llm.gates import Bounded, FirstCallGate
from mam_bench.steering.llm.options import LLMOptions
from mam_bench.steering.llm.recorder import Recorder
from mam_bench.steering.llm.retrying import Retrying
from mam_bench.steering.llm.scrubbing import Scrubbed, Scrubber
from mam_bench.steering.llm.transport import Liveness, RetryPolicy


class Stack:
    """Outermost first: every call is recorded (Recorder); a cached answer needs no request
    (Cached); the first provider call goes alone and a backend failure stops all (FirstCallGate);
    the structured-output mode steps down where refused, outside the concurrency bound so the
    calls waiting for a probe hold no slot (StructuredFallback, Bounded); the cost guard counts
    only calls under way (CostGuard); a request is marked before it leaves (Pending); nothing a
    provider sent is kept unscrubbed (Scrubbed); transient failures are retried (Retrying)."""

    def __init__(
        self,
        chat_model: Any,
        o: LLMOptions,
        cache: ResponseCache,
        scrub: Scrubber,
        annotate: Callable[[Call, Reply], dict[str, Any]] | None = None,
    ):
        prices = PriceTable(o.price_table)
        if o.max_cost is not None and not prices.priced(o.model):
            raise ConfigError(
                "max_cost",
                f"{o.model} has no price, so --max-cost cannot bound it; "
                "give --price-table FILE with its input and output USD per million tokens",
            )
        deadline = time.monotonic() + o.deadline if o.deadline else None
        policy = RetryPolicy(
            o.max_retries,
            o.retry_budget,
            o.backoff_base,
            o.backoff_max,
            o.call_timeout,
            deadline,
            o.stall,
            Liveness(),
        )
        inner = Scrubbed(Retrying(ChatModelCaller(chat_model), policy, random.Random()), scrub)
        self.pending = Pending(inner, cache)
        self.guard = CostGuard(
            self.pending, prices, o.model, o.max_cost, o.answer_cap, lambda: self.recorder.totals.cost
        )
        auto = o.structured == "auto"
        self.fallback = StructuredFallback(
            Bounded(self.guard, o.max_concurrency), "json_schema" if auto else o.structured, not auto
        )
        self.cached = Cached(FirstCallGate(self.fallback), cache, o.model)
        self.recorder = Recorder(self.cached, o.model, prices, scrub, annotate)

    def use_cache(self, cache: ResponseCache) -> None:
        self.cached.cache = self.pending.cache = cache

    async def ask(self, call: Call) -> Reply:
        return await self.recorder.ask(call)

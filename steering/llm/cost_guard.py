"""The cost guard: no call is made that could take the run past --max-cost."""

from __future__ import annotations

from collections.abc import Callable

from mam_bench.errors import BackendFailed
from mam_bench.pricing import PriceTable
from mam_bench.steering.llm.call import Call, Model, Reply


class CostGuard:
    """Before each provider call: spent + calls under way + this call's estimate (the prompt at 3
    characters a token, the answer at its max_tokens cap) must stay within `cap`, else the run
    stops (BackendFailed) before the call is made. Calls under way count as spent."""

    def __init__(
        self,
        inner: Model,
        prices: PriceTable,
        model: str,
        cap: float | None,
        answer_cap: int,
        spent: Callable[[], float],
    ):
        self.inner, self.prices, self.model, self.cap = inner, prices, model, cap
        self.answer_cap, self.spent = answer_cap, spent
        self.reserved = 0.0

    async def ask(self, call: Call) -> Reply:
        if self.cap is None:
            return await self.inner.ask(call)
        chars = sum(len(str(m.content)) for m in call.messages)
        estimate = self.prices.cost(self.model, chars // 3 + 1, self.answer_cap)
        spent = self.spent()
        if spent + self.reserved + estimate > self.cap:
            raise BackendFailed(
                f"--max-cost {self.cap:g}: the next call (estimated ${estimate:.4f}) would pass it "
                f"(${spent:.4f} spent, ${self.reserved:.4f} under way); no further call is made"
            )
        self.reserved += estimate
        try:
            return await self.inner.ask(call)
        finally:
            self.reserved -= estimate

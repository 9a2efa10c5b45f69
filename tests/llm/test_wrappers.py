"""Each wrapper of the model stack alone, around a scripted inner model (no controller, no run)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from langchain_core.language_models import FakeListChatModel
from langchain_core.messages import HumanMessage

from mam_bench.errors import BackendFailed
from mam_bench.pricing import PriceTable
from mam_bench.response_cache import ResponseCache
from mam_bench.steering.llm.caching import Cached, Pending
from mam_bench.steering.llm.call import Call, CallFailed, ChatModelCaller, Reply
from mam_bench.steering.llm.cost_guard import CostGuard
from mam_bench.steering.llm.fallback import StructuredFallback
from mam_bench.steering.llm.gates import Bounded, FirstCallGate
from mam_bench.steering.llm.recorder import Recorder
from mam_bench.steering.llm.retrying import Retrying
from mam_bench.steering.llm.scrubbing import Scrubbed, Scrubber
from mam_bench.steering.llm.transport import RetryPolicy, TransportError

SECRET = "sk-wrapper-test-secret-0123456789"


def call(key: str = "k", schema: dict | None = None, rnd: int = 1) -> Call:
    return Call([HumanMessage(content="x" * 30)], schema, key, rnd, "decision", 0)


class Inner:
    """Answers `reply` (or raises what `fail` gives for the n-th call) and logs each call."""

    def __init__(self, reply: Reply | None = None, fail: Any = None, delay: float = 0.0):
        self.reply = reply or Reply("ok", 3, 2, "m", "json_schema")
        self.fail, self.delay = fail, delay
        self.calls: list[Call] = []
        self.inflight = self.peak = 0

    async def ask(self, c: Call) -> Reply:
        self.calls.append(c)
        self.inflight += 1
        self.peak = max(self.peak, self.inflight)
        try:
            await asyncio.sleep(self.delay)
            exc = self.fail(len(self.calls), c) if self.fail else None
            if exc is not None:
                raise exc
            return dataclasses.replace(self.reply, format=c.format or self.reply.format)
        finally:
            self.inflight -= 1


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_base_asks_a_langchain_model() -> None:
    reply = run(ChatModelCaller(FakeListChatModel(responses=['{"stay": true}'])).ask(call()))
    assert reply.text == '{"stay": true}' and reply.format == "text" and not reply.cached


def test_retrying_asks_again_on_a_transient_failure_and_counts_the_requests() -> None:
    inner = Inner(fail=lambda n, c: TimeoutError() if n < 3 else None)
    reply = run(Retrying(inner, RetryPolicy(max_retries=5, base=0.0)).ask(call()))
    assert (reply.requests, reply.retries, len(inner.calls)) == (3, 2, 3)
    with pytest.raises(TransportError):
        run(Retrying(Inner(fail=lambda n, c: ValueError("bad")), RetryPolicy(base=0.0)).ask(call()))


def test_scrubbed_removes_the_key_and_refuses_negative_token_counts() -> None:
    scrub = Scrubber([SECRET])
    echoed = Inner(Reply(f"key {SECRET}", 1, 1, f"model-{SECRET}", None))
    reply = run(Scrubbed(echoed, scrub).ask(call()))
    assert SECRET not in reply.text + reply.provider_model and "[key]" in reply.text
    with pytest.raises(CallFailed, match="invalid token count"):
        run(Scrubbed(Inner(Reply("ok", -5, 1, None, None)), scrub).ask(call()))


def test_cached_answers_a_repeated_call_without_asking(tmp_path) -> None:
    inner = Inner()
    cached = Cached(inner, ResponseCache(tmp_path / "c.sqlite"), "fake:m")
    first, second = run(cached.ask(call("a"))), run(cached.ask(call("a")))
    assert len(inner.calls) == 1 and not first.cached and second.cached and second.text == first.text
    run(cached.ask(call("b")))
    assert len(inner.calls) == 2


def test_pending_clears_its_mark_on_a_failure_and_keeps_it_for_a_call_cut_off(tmp_path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(TransportError):
        run(Pending(Inner(fail=lambda n, c: TransportError("x", 1)), cache).ask(call("a")))
    assert cache.take_pending() == 0

    async def cut_off() -> None:
        task = asyncio.ensure_future(Pending(Inner(delay=10), cache).ask(call("b")))
        await asyncio.sleep(0.01)
        task.cancel()  # as a kill: the request left, no answer came back

    run(cut_off())
    assert cache.take_pending() == 1


def test_the_first_call_goes_alone_and_a_backend_failure_stops_every_later_call() -> None:
    inner = Inner(fail=lambda n, c: BackendFailed("401") if n == 1 else None, delay=0.01)
    gate = FirstCallGate(inner)

    async def three() -> list[Any]:
        return await asyncio.gather(*(gate.ask(call(str(i))) for i in range(3)), return_exceptions=True)

    results = run(three())
    assert len(inner.calls) == 1 and all(isinstance(r, BackendFailed) for r in results)


def test_bounded_keeps_at_most_n_calls_under_way() -> None:
    inner = Inner(delay=0.01)
    bounded = Bounded(inner, 2)

    async def many() -> None:
        await asyncio.gather(*(bounded.ask(call(str(i))) for i in range(6)))

    run(many())
    assert inner.peak == 2 and len(inner.calls) == 6


def test_the_cost_guard_refuses_a_call_that_could_pass_the_cap() -> None:
    prices = PriceTable({"fake:m": {"input": 1e6, "output": 1e6}})  # $1 a token
    inner = Inner()
    spent = [0.0]
    guard = CostGuard(inner, prices, "fake:m", cap=20.0, answer_cap=5, spent=lambda: spent[0])
    run(guard.ask(call()))  # 30 chars -> 11 tokens + 5: $16 <= $20
    spent[0] = 10.0
    with pytest.raises(BackendFailed, match="max-cost"):
        run(guard.ask(call()))
    assert len(inner.calls) == 1 and guard.reserved == 0.0


def refuse_json_schema(n: int, c: Call) -> Exception | None:
    return TransportError("response_format refused", 1, format_refused=True) if c.format == "json_schema" else None


def test_the_fallback_steps_down_once_under_auto_and_never_when_fixed() -> None:
    inner = Inner(fail=refuse_json_schema, delay=0.005)
    auto = StructuredFallback(inner, "json_schema", fixed=False)

    async def phase() -> list[Reply]:
        return await asyncio.gather(*(auto.ask(call(str(i), {"type": "object"})) for i in range(4)))

    replies = run(phase())
    assert [c.format for c in inner.calls].count("json_schema") == 1  # one probe, not a phase's worth
    assert auto.mode == "json_object_schema" and {r.format for r in replies} == {"json_object_schema"}
    assert sorted(r.requests for r in replies) == [1, 1, 1, 2]
    with pytest.raises(TransportError):
        run(StructuredFallback(Inner(fail=refuse_json_schema), "json_schema", fixed=True).ask(call("x", {})))


def test_the_recorder_writes_a_row_per_call_and_turns_failures_into_call_failed() -> None:
    rows: list[dict] = []

    class Records:
        def append(self, name: str, row: dict) -> None:
            rows.append(row)

    def flaky(n: int, c: Call) -> Exception | None:
        return TransportError(f"gave up ({SECRET})", 3) if n == 2 else None

    recorder = Recorder(Inner(fail=flaky), "fake:m", PriceTable(None), Scrubber([SECRET]), lambda c, r: {"seen": 1})
    recorder.records = Records()
    run(recorder.ask(call(rnd=1)))
    with pytest.raises(CallFailed) as failed:
        run(recorder.ask(call(rnd=2)))
    assert SECRET not in failed.value.error and failed.value.requests == 3
    assert [r["error"] is None for r in rows] == [True, False] and rows[0]["seen"] == 1
    assert recorder.rounds == {1: [1, 0], 2: [0, 1]} and recorder.totals.calls == 1
    assert rows[1]["requests"] == 3 and SECRET not in str(rows)

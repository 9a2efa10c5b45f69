"""Transport retries against the loopback server: 429 with Retry-After, 500, timeouts,
malformed and truncated bodies are retried; a 4xx is not; retries are bounded."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Request
from mam_bench.steering.llm import LLMController
from tests.llm.conftest import KEY_ENV
from tests.support.openai_server import OpenAIServer


def first_n(kind: str, n: int):
    def fault(body: dict[str, Any], index: int) -> str | None:
        return kind if index <= n else None

    return fault


def ask(base_url: str, **opts: Any) -> tuple[Any, LLMController, float]:
    w = SchellingWorld(seed=22, influence_ids=[0], mask_ids=[0], role="treatment")
    ctl = LLMController(
        SchellingWorld,
        "integrate",
        model="openai:scripted",
        base_url=base_url,
        api_key_env=KEY_ENV,
        **{"backoff_base": 0.01, "backoff_max": 2.0, "timeout": 4.0, **opts},
    )
    req = Request("schelling", 0, 0, "integrate", w.observe(0), (), "decision")

    async def go() -> Any:
        try:
            return (await ctl.decide([req]))[0]
        finally:
            await ctl.aclose()

    started = time.perf_counter()
    d = asyncio.run(go())
    return d, ctl, time.perf_counter() - started


@pytest.mark.parametrize("kind", ["429", "500", "timeout", "malformed", "truncated"])
def test_transient_faults_are_retried(kind: str, api_key: str) -> None:
    with OpenAIServer(fault=first_n(kind, 2), timeout_sleep=5.0) as srv:  # past the 4 s limit
        d, ctl, _ = ask(srv.base_url)
    assert d.error is None and d.action == {"stay": True}
    assert srv.received == 3 and ctl.totals.retries == 2


def test_retry_after_is_honoured(api_key: str) -> None:
    with OpenAIServer(fault=first_n("429", 1), retry_after="1") as srv:
        d, ctl, wall = ask(srv.base_url)
    assert d.error is None and wall >= 1.0


def test_retries_are_bounded_and_end_in_policy_error(api_key: str) -> None:
    with OpenAIServer(fault=first_n("500", 100)) as srv:
        d, ctl, _ = ask(srv.base_url, max_retries=3)
    assert d.error and "transport" in d.error and srv.received == 4


def test_retry_budget_bounds_total_time(api_key: str) -> None:
    # every retry waits the 0.4 s the server asks for, so a 1 s budget allows at most two of the
    # 50 retries: the budget, not the retry count, ends the call
    with OpenAIServer(fault=first_n("429", 100), retry_after="0.4") as srv:
        d, ctl, _ = ask(srv.base_url, max_retries=50, retry_budget=1.0)
    assert d.error and "retry budget of 1s spent" in d.error
    assert 1 <= srv.received <= 3


def test_client_errors_are_not_retried(api_key: str) -> None:
    class Srv(OpenAIServer):
        def _handle(self, h: Any) -> None:
            self.received += 1
            h.rfile.read(int(h.headers.get("Content-Length") or 0))
            self._send(h, 400, b'{"error": {"message": "bad request"}}')

    with Srv() as srv:
        d, ctl, _ = ask(srv.base_url)
    assert d.error and srv.received == 1

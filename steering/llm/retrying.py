"""Transport retries as a wrapper: backoff with jitter on transient failures (transport.py)."""

from __future__ import annotations

import dataclasses
import random

from mam_bench.steering.llm.call import Call, Model, Reply
from mam_bench.steering.llm.transport import RetryPolicy, call_with_retries


class Retrying:
    """Asks again on 408, 429, 5xx, timeouts and dropped connections, within the policy's bounds;
    a call that fails for good raises TransportError (with `attempts`), a rejected key or a passed
    deadline BackendFailed. The reply counts the requests it took."""

    def __init__(self, inner: Model, policy: RetryPolicy, rng: random.Random | None = None):
        self.inner, self.policy, self.rng = inner, policy, rng or random.Random()

    async def ask(self, call: Call) -> Reply:
        reply, retries = await call_with_retries(lambda: self.inner.ask(call), self.policy, self.rng)
        return dataclasses.replace(reply, requests=retries + 1, retries=retries)

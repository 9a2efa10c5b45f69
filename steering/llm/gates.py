"""Who may call the provider now: the first call alone, then at most N at once."""

from __future__ import annotations

import asyncio

from mam_bench.errors import BackendFailed
from mam_bench.steering.llm.call import Call, Model, Reply


class FirstCallGate:
    """The first provider call goes alone: a rejected key costs one request, not a phase's worth.
    Once the backend failed for good (a rejected key, a passed deadline, the cost guard), no
    other call is made: every later one raises the same failure."""

    def __init__(self, inner: Model):
        self.inner = inner
        self.failure: BackendFailed | None = None
        self._first: asyncio.Event | None = None

    async def ask(self, call: Call) -> Reply:
        if self.failure is not None:
            raise self.failure
        first = self._first is None
        if first:
            self._first = asyncio.Event()
        else:
            await self._first.wait()
            if self.failure is not None:
                raise self.failure
        try:
            return await self.inner.ask(call)
        except BackendFailed as exc:
            self.failure = exc
            raise
        finally:
            if first:
                self._first.set()


class Bounded:
    """At most `n` calls under way at once (the semaphore is made in the running event loop)."""

    def __init__(self, inner: Model, n: int):
        self.inner, self.n = inner, n
        self._sem: asyncio.Semaphore | None = None

    async def ask(self, call: Call) -> Reply:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.n)
        async with self._sem:
            return await self.inner.ask(call)

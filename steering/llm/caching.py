"""The response cache as two wrappers: answers first from the cache (nothing is paid for twice, a
resumed run replays what it completed), and a note of each request under way (a killed run says
how many calls the provider may have answered and billed)."""

from __future__ import annotations

import sys

from mam_bench.response_cache import ResponseCache
from mam_bench.steering.llm.call import Call, CallFailed, Model, Reply
from mam_bench.steering.llm.transport import TransportError


class Cached:
    """A cached answer is returned with no request; a new one is kept under the call's key."""

    def __init__(self, inner: Model, cache: ResponseCache, model: str):
        self.inner, self.cache, self.model = inner, cache, model
        #: the cache lives in the run's own folder: its answers were bought by this run (an earlier
        #: process of it, before a kill), so their requests count once for the run; a cache shared
        #: with other runs gives its answers free
        self.own = False
        self._counted: set[str] = set()

    async def ask(self, call: Call) -> Reply:
        hit = self.cache.get(call.key)
        if hit is not None:
            spent = self.own and call.key not in self._counted
            spent = spent and all(_count_ok(hit.get(k, 0)) for k in ("requests", "retries"))
            self._counted.add(call.key)
            return Reply(
                text=hit["text"],
                input_tokens=hit.get("input_tokens", 0),
                output_tokens=hit.get("output_tokens", 0),
                provider_model=hit.get("provider_model"),
                format=hit.get("format"),
                cached=True,
                requests=int(hit.get("requests", 0)) if spent else 0,
                retries=int(hit.get("retries", 0)) if spent else 0,
                chars=hit["chars"] if _count_ok(hit.get("chars")) else None,
            )
        reply = await self.inner.ask(call)
        self.cache.put(call.key, self.model, reply.cached_form())
        self._counted.add(call.key)
        return reply


def _count_ok(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Pending:
    """Marks the call's key before its request leaves and clears the mark once it failed for good
    (nothing answered, nothing billed); a kill in between leaves the mark."""

    def __init__(self, inner: Model, cache: ResponseCache):
        self.inner, self.cache = inner, cache

    async def ask(self, call: Call) -> Reply:
        self.cache.mark_sent(call.key)
        try:
            return await self.inner.ask(call)
        except (TransportError, CallFailed):
            self.cache.unmark_sent(call.key)
            raise


def unanswered_before(cache: ResponseCache) -> int:
    """Calls a killed earlier process sent through this cache and never saw answered (cleared),
    with a note on stderr: the provider may have billed them."""
    n = cache.take_pending()
    if n:
        print(
            f"note: {n} LLM call(s) were under way when an earlier run on this cache stopped; the provider "
            "may have answered (and billed) them, and they are asked again",
            file=sys.stderr,
        )
    return n

"""Structured output that steps down where an endpoint refuses it."""

from __future__ import annotations

import asyncio
import dataclasses

from mam_bench.steering.llm.call import Call, Model, Reply
from mam_bench.steering.llm.chat_models import FALLBACK
from mam_bench.steering.llm.transport import TransportError


class StructuredFallback:
    """Sends a call that has a schema in the current mode. Under `auto` (mode json_schema, `fixed`
    false), a refusal that names response_format steps down (json_schema -> json_object_schema ->
    json_object -> none) and the call is made again at once; the step is kept for the run. Until a
    mode has worked once, one call at a time probes it: an endpoint that refuses json_schema sees
    one refused request, not a phase's worth. Refused requests count in the call's requests."""

    def __init__(self, inner: Model, mode: str, fixed: bool):
        self.inner, self.mode, self.fixed = inner, mode, fixed
        self._known = fixed
        self._probe: asyncio.Event | None = None

    async def ask(self, call: Call) -> Reply:
        if call.schema is None:
            return await self.inner.ask(dataclasses.replace(call, format=None))
        probing = await self._gate()
        try:
            return await self._stepping(call)
        finally:
            if probing and self._probe is not None:
                self._probe.set()  # waiters look again: the mode is known, or one of them probes next
                self._probe = None

    async def _gate(self) -> bool:
        while not self._known:
            if self._probe is None:
                self._probe = asyncio.Event()
                return True
            await self._probe.wait()
        return False

    async def _stepping(self, call: Call) -> Reply:
        refused = 0
        while True:
            mode = self.mode
            try:
                reply = await self.inner.ask(dataclasses.replace(call, format=mode))
            except TransportError as exc:
                exc.format = mode
                if self.fixed or not exc.format_refused or mode not in FALLBACK:
                    exc.attempts += refused
                    raise
                refused += exc.attempts
                if self.mode == mode:  # (a concurrent call may have stepped down already)
                    self.mode = FALLBACK[mode]
                continue
            self._known = True
            return dataclasses.replace(reply, requests=reply.requests + refused, retries=reply.retries + refused)

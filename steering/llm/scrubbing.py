"""The key never leaves the process: every field of an answer is scrubbed before anything keeps it."""

from __future__ import annotations

import dataclasses
from typing import Any

from mam_bench.steering.llm.call import Call, CallFailed, Model, Reply

PROVIDER_MODEL_KEEP = 200  # characters of the provider's model name kept


class Scrubber:
    """Replaces each secret (the key, and the other key-like values of the environment) by [key]."""

    def __init__(self, secrets: tuple[str, ...] | list[str]):
        self.secrets = tuple(s for s in secrets if s)

    def __call__(self, text: Any) -> Any:
        if isinstance(text, str):
            for secret in self.secrets:
                if secret in text:
                    text = text.replace(secret, "[key]")
        return text


def _count_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Scrubbed:
    """Scrubs the answer's text and the provider's model name (an echoed key reaches neither the
    cache nor a record) and refuses token counts that would corrupt every total."""

    def __init__(self, inner: Model, scrub: Scrubber):
        self.inner, self.scrub = inner, scrub

    async def ask(self, call: Call) -> Reply:
        reply = await self.inner.ask(call)
        bad = [k for k in ("input_tokens", "output_tokens") if not _count_ok(getattr(reply, k))]
        if bad:
            value = getattr(reply, bad[0])
            error = f"invalid token count {bad[0]}={value!r} in the provider's answer"
            raise CallFailed(self.scrub(error), reply.requests, reply.retries, call.format)
        model = self.scrub(reply.provider_model)[:PROVIDER_MODEL_KEEP] if reply.provider_model else None
        return dataclasses.replace(reply, text=self.scrub(reply.text), provider_model=model)

"""The key never leaves the process: every field of an answer is scrubbed before anything keeps it."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from mam_bench.answers import MAX_ANSWER_CHARS
from mam_bench.steering.llm.call import Call, CallFailed, Model, Reply

PROVIDER_MODEL_KEEP = 200  # characters of the provider's model name kept
#: characters of an answer kept at all: one more than any reader accepts, so every reader refuses
#: a longer one the same way whether it came from the provider or from the cache (which keeps
#: exactly this text: a resumed run sees what the killed one saw)
ANSWER_KEEP = MAX_ANSWER_CHARS + 1
#: a UTF-16 surrogate on its own (JSON's "\ud800" decodes to one): no UTF-8 file can hold it
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: the same written as a JSON escape (an answer's JSON decodes it later): an escaped backslash, a
#: high-low pair (kept), or a surrogate escape on its own (replaced)
_HIGH, _LOW = r"\\u[dD][89abAB][0-9a-fA-F]{2}", r"\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_ESCAPE = re.compile(rf"\\\\|{_HIGH}(?:{_LOW})?|{_LOW}")


def _escape(m: re.Match[str]) -> str:
    found = m.group(0)
    return found if len(found) in (2, 12) else "\\ufffd"


def without_surrogates(text: str) -> str:
    """Lone surrogates replaced by U+FFFD, as characters and as JSON escapes, so that neither the
    text nor any JSON read from it holds one (a pair decoded from JSON is one code point already)."""
    text = _LONE_SURROGATE.sub("\ufffd", text)
    return _ESCAPE.sub(_escape, text) if "\\u" in text else text


class Scrubber:
    """Replaces each secret (the key, and the other key-like values of the environment) by [key]."""

    def __init__(self, secrets: tuple[str, ...] | list[str]):
        self.secrets = tuple(s for s in secrets if s)

    def __call__(self, text: Any) -> Any:
        """The text with every secret replaced and lone surrogates made U+FFFD (the records,
        the cache and the conversation are UTF-8)."""
        if isinstance(text, str):
            text = without_surrogates(text)
            for secret in self.secrets:
                if secret in text:
                    text = text.replace(secret, "[key]")
        return text


def _count_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Scrubbed:
    """Scrubs the answer's text and the provider's model name (an echoed key reaches neither the
    cache nor a record), cuts the text to ANSWER_KEEP characters (its full length stays in
    `chars`), and refuses token counts that would corrupt every total."""

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
        text = self.scrub(reply.text)
        chars = len(text) if reply.chars is None else reply.chars
        return dataclasses.replace(reply, text=text[:ANSWER_KEEP], chars=chars, provider_model=model)

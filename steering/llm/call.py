"""The minimal model interface the LLM controller talks to: `await model.ask(call) -> Reply`.

The base speaks to a LangChain chat model; everything else (cache, cost guard, structured-output
fallback, retry, records) is a wrapper with the same one method, stacked as Concordia stacks its
language-model wrappers, so each can be tested alone.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.messages import BaseMessage

from mam_bench.steering.llm.chat_models import structured, takes_seed


@dataclass(frozen=True)
class Call:
    """One question to a model, and who asks it (for the records)."""

    messages: list[BaseMessage]
    schema: dict[str, Any] | None
    #: the response cache's key (model, sampling parameters, messages)
    key: str
    round: int
    phase: str
    actor_id: int
    attempt: int = 0
    #: the structured-output mode the request goes out in (the fallback wrapper sets it)
    format: str | None = None
    #: the asking Request, for what a wrapper's caller adds to the records
    request: Any = None
    #: this turn's sampling seed (sent where the chat model takes one)
    seed: int | None = None
    #: when the first request left (`sent`, perf_counter), and of the answered one the seconds the
    #: model served it (`service`) and waited for its lock first (`lock`): the call's row times
    clock: dict[str, float] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Reply:
    """One answered call, from the provider or the cache (no request now; what an earlier process
    of the same run paid for it, counted once, when the cache is the run's own)."""

    text: str
    input_tokens: Any
    output_tokens: Any
    provider_model: str | None
    format: str | None
    cached: bool = False
    requests: int = 1
    retries: int = 0
    #: the answer's length as the provider sent it (the text is cut to a bound; None: not cut)
    chars: int | None = None
    #: prompt tokens the model evaluated (an in-process model; the rest it had cached), not cached
    prefilled: int | None = None

    def cached_form(self) -> dict[str, Any]:
        """What the response cache keeps of it."""
        return {
            "text": self.text,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "provider_model": self.provider_model,
            "format": self.format,
            "requests": self.requests,
            "retries": self.retries,
            "chars": self.chars,
        }


class CallFailed(Exception):
    """A call that failed for good (transport, or an answer that cannot be counted): its row's error."""

    def __init__(self, error: str, requests: int, retries: int, format: str | None = None):
        super().__init__(error)
        self.error, self.requests, self.retries, self.format = error, requests, retries, format


def turn_seed(base: int, round_: int, actor_id: int, phase: str, attempt: int) -> int:
    """A sampling seed per turn and attempt, the same in every process (no salted hash()): a
    repair draws anew, a re-run of the same turn draws the same."""
    text = f"{base}:{round_}:{actor_id}:{phase}:{attempt}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big") & 0x7FFFFFFF


class Model(Protocol):
    async def ask(self, call: Call) -> Reply: ...


def message_text(msg: Any) -> str:
    """The answer text of an AIMessage: string content, text blocks, or tool-call arguments."""
    content = getattr(msg, "content", msg)
    if isinstance(content, list):
        content = "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    text = content if isinstance(content, str) else str(content)
    calls = getattr(msg, "tool_calls", None)
    if not text.strip() and calls:
        text = json.dumps(calls[0].get("args", {}))
    return text


class ChatModelCaller:
    """The base: one request to a LangChain chat model, in the call's structured-output mode."""

    def __init__(self, chat_model: Any):
        self.chat_model = chat_model

    async def ask(self, call: Call) -> Reply:
        runnable = structured(self.chat_model, call.schema, call.format or "none")
        if call.seed is not None and takes_seed(self.chat_model):
            runnable = runnable.bind(seed=call.seed)
        started = time.perf_counter()
        call.clock.setdefault("sent", started)
        msg = await runnable.ainvoke(call.messages)
        elapsed = time.perf_counter() - started
        usage = getattr(msg, "usage_metadata", None) or {}
        meta = getattr(msg, "response_metadata", None) or {}
        returned = meta.get("model_name")
        # an in-process model says how long it waited for its lock and how long it computed;
        # for any other the whole request is its service
        lock, service = meta.get("queue_s"), meta.get("service_s")
        timed = all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in (lock, service))
        call.clock["lock"], call.clock["service"] = (float(lock), float(service)) if timed else (0.0, elapsed)
        return Reply(
            text=message_text(msg),
            input_tokens=usage.get("input_tokens", 0),
            output_tokens=usage.get("output_tokens", 0),
            provider_model=str(returned) if returned else None,
            format=call.format or "text",
            prefilled=meta["prefilled_tokens"] if isinstance(meta.get("prefilled_tokens"), int) else None,
        )

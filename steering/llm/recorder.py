"""Every call is a row of llm_calls.jsonl (the prompt only as a hash, never the key), and the
run's totals; a call that failed for good becomes a CallFailed with its row's error."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from mam_bench.errors import BackendFailed
from mam_bench.pricing import PriceTable, Totals
from mam_bench.steering.llm.call import Call, CallFailed, Model, Reply
from mam_bench.steering.llm.scrubbing import Scrubber
from mam_bench.steering.llm.transport import TransportError

ERROR_KEEP = 500  # characters of an error kept in a row
#: consecutive rounds in which every call failed before the run stops (one bad round can be a blip)
DEAD_ROUNDS = 2


def wire(messages: list[Any]) -> list[dict[str, str]]:
    return [{"role": m.type, "content": str(m.content)} for m in messages]


class Recorder:
    """Writes each call's row (through `records.append`, when attached), adds it to `totals`,
    counts answered and failed calls per round, and keeps the model names the provider
    returned. `annotate(call, reply)` adds what only the caller knows (a menu position)."""

    def __init__(
        self,
        inner: Model,
        model: str,
        prices: PriceTable,
        scrub: Scrubber,
        annotate: Callable[[Call, Reply], dict[str, Any]] | None = None,
    ):
        self.inner, self.model, self.prices, self.scrub = inner, model, prices, scrub
        self.annotate = annotate
        self.records: Any = None
        self.totals = Totals()
        #: round -> [answered calls, failed calls]
        self.rounds: dict[int, list[int]] = {}
        self.last_error: str | None = None
        self.returned_models: set[str] = set()
        self._dead: list[int] = []

    async def ask(self, call: Call) -> Reply:
        sent = wire(call.messages)
        row: dict[str, Any] = {
            "round": call.round,
            "phase": call.phase,
            "actor_id": call.actor_id,
            "attempt": call.attempt,
            "seed": call.seed,
            "model": self.model,
            "prompt_hash": hashlib.sha256(json.dumps(sent, ensure_ascii=False).encode()).hexdigest()[:16],
            "prompt_chars": sum(len(m["content"]) for m in sent),
        }
        started = time.perf_counter()
        try:
            reply = await self.inner.ask(call)
        except (TransportError, CallFailed) as exc:
            failed = exc if isinstance(exc, CallFailed) else CallFailed(str(exc), exc.attempts, exc.attempts - 1)
            fmt = exc.format
            row["format"] = fmt or "text"
            self._spent(row, False, failed.requests, failed.retries, 0, 0)
            error = self.scrub(failed.error)[:ERROR_KEEP]
            row.update(cost=0.0, latency_s=round(time.perf_counter() - started, 4), **self._times(call, started))
            row["error"] = error
            self._record(row)
            raise CallFailed(error, failed.requests, failed.retries, fmt) from None
        row["format"] = reply.format
        self._spent(row, reply.cached, reply.requests, reply.retries, reply.input_tokens, reply.output_tokens)
        if reply.provider_model:
            self.returned_models.add(reply.provider_model)
        row["cost"] = self.prices.cost(self.model, row["input_tokens"], row["output_tokens"])
        row["latency_s"] = round(time.perf_counter() - started, 4)
        row.update(self._times(call, started, reply.cached))
        row["answer_chars"] = len(reply.text) if reply.chars is None else reply.chars
        if reply.prefilled is not None:
            row["prefilled_tokens"] = reply.prefilled
        if self.annotate is not None:
            row.update(self.annotate(call, reply))
        row["error"] = None
        self._record(row)
        return reply

    def round_end(self, rnd: int) -> None:
        """Stop the run after DEAD_ROUNDS consecutive rounds in which every call failed: the
        endpoint is down or refuses everything, and each further round only spends time."""
        answered, failed = self.rounds.pop(rnd, [0, 0])
        if failed and not answered:
            self._dead.append(rnd)
        elif answered:
            self._dead = []
        if len(self._dead) >= DEAD_ROUNDS:
            rounds = " and ".join(str(r) for r in self._dead[-DEAD_ROUNDS:])
            raise BackendFailed(
                f"every LLM call of rounds {rounds} failed (last error: {self.last_error}); the run stops"
            )

    @staticmethod
    def _times(call: Call, started: float, cached: bool = False) -> dict[str, float | None]:
        """queue_s: seconds before the model took the call (the concurrency bound, the first-call
        gate, an in-process model's lock); service_s: seconds it spent on the answered request.
        Neither for a cached answer (no model was asked), no service for a failed call."""
        clock = call.clock
        if cached or "sent" not in clock:
            return {"queue_s": None, "service_s": None}
        queue = clock["sent"] - started + clock.get("lock", 0.0)
        service = clock.get("service")
        return {"queue_s": round(queue, 4), "service_s": None if service is None else round(service, 4)}

    @staticmethod
    def _spent(row: dict[str, Any], cached: bool, requests: int, retries: int, inp: int, out: int) -> None:
        """The spend columns of a call's row, in the one order every row has."""
        row.update(cached=cached, requests=requests, retries=retries, input_tokens=inp, output_tokens=out)

    def _record(self, row: dict[str, Any]) -> None:
        counts = self.rounds.setdefault(int(row["round"]), [0, 0])
        counts[1 if row["error"] else 0] += 1
        if row["error"]:
            self.last_error = row["error"][:200]
        self.totals.add(row)
        if self.records is not None:
            self.records.append("llm_calls.jsonl", row)

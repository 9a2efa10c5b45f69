"""The LLM controller: every influence agent of a round asks its model at once.

Per call: response cache first (nothing is paid for twice, a resumed run replays what it
completed), then the model under a concurrency bound with transport retries. Per answer: parse,
check legality on the start-of-round observation, one repair retry that quotes the error, then
a policy_error (the world's null action). Each agent's task handles its own failures, so one
agent never cancels another. Every call is a row of llm_calls.jsonl; the key never is.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import ValidationError

from mam_bench.controller import Controller
from mam_bench.errors import BackendFailed, ConfigError, config_error_from
from mam_bench.pricing import PriceTable, Totals
from mam_bench.prompts import prompts_for
from mam_bench.protocol import Decision, Request
from mam_bench.response_cache import ResponseCache, cache_key
from mam_bench.secrets import secrets_in_env
from mam_bench.steering.llm.chat_models import FALLBACK, api_key_from_env, build_chat_model, structured
from mam_bench.steering.llm.options import LLMOptions
from mam_bench.steering.llm.transport import Liveness, RetryPolicy, TransportError, call_with_retries

RAW_KEEP = 2000  # characters of an answer kept in decisions.jsonl
PROVIDER_MODEL_KEEP = 200  # characters of the provider's model name kept
#: consecutive rounds in which every call failed before the run stops (one bad round can be a blip)
DEAD_ROUNDS = 2
REPAIR_QUOTE = 2000  # characters of a rejected answer quoted back to the model


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


def wire(messages: list[BaseMessage]) -> list[dict[str, str]]:
    return [{"role": m.type, "content": str(m.content)} for m in messages]


@dataclass(frozen=True)
class Reply:
    """One answered call, from the provider or the cache (no request now; the requests an earlier
    process of the same run made for it, counted once, when the cache is the run's own)."""

    text: str
    input_tokens: int
    output_tokens: int
    provider_model: str | None
    format: str | None
    cached: bool = False
    requests: int = 0
    retries: int = 0

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
        }


class CallFailed(Exception):
    """A call that failed for good (transport, or an answer that cannot be counted): its row's error."""

    def __init__(self, error: str, requests: int, retries: int):
        super().__init__(error)
        self.error, self.requests, self.retries = error, requests, retries


def _spent(row: dict[str, Any], cached: bool, requests: int, retries: int, inp: int, out: int) -> None:
    """The spend columns of a call's row, in the one order every row has."""
    row.update(cached=cached, requests=requests, retries=retries, input_tokens=inp, output_tokens=out)


def _count_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class LLMController(Controller):
    name = "llm"
    posts = True

    def __init__(self, world_cls: Any, objective: str, chat_model: Any = None, **options: Any):
        try:
            self.options = LLMOptions(**options)
        except ValidationError as exc:
            raise config_error_from(exc) from None
        self.world_cls = world_cls
        self.objective = objective
        self._secret = api_key_from_env(self.options)
        self._secrets = secrets_in_env(self._secret)
        self._http: Any = None
        self.model = chat_model if chat_model is not None else self._build_model()
        self.prompts = prompts_for(
            world_cls, objective, post_chars=self.options.post_chars, message_cap=self.options.message_cap
        )
        self.cache = ResponseCache(self.options.cache)
        self.prices = PriceTable(self.options.price_table)
        if self.options.max_cost is not None and not self.prices.priced(self.options.model):
            raise ConfigError(
                "max_cost",
                f"{self.options.model} has no price, so --max-cost cannot bound it; "
                "give --price-table FILE with its input and output USD per million tokens",
            )
        #: estimated cost of the calls under way (the cost guard counts them as spent)
        self._reserved = 0.0
        self.totals = Totals()
        deadline = time.monotonic() + self.options.deadline if self.options.deadline else None
        self.policy = RetryPolicy(
            self.options.max_retries,
            self.options.retry_budget,
            self.options.backoff_base,
            self.options.backoff_max,
            self.options.timeout,
            deadline,
            self.options.stall_timeout,
            Liveness(),
        )
        #: the structured-output mode sent now; `auto` starts at json_schema and steps down on refusal
        self.mode = "json_schema" if self.options.structured == "auto" else self.options.structured
        self._mode_known = self.options.structured != "auto"
        self._probe: asyncio.Event | None = None
        #: round -> [answered calls, failed calls]; a run of DEAD_ROUNDS all-failed rounds stops it
        self._round_calls: dict[int, list[int]] = {}
        self._dead: list[int] = []
        self._last_error: str | None = None
        #: calls a killed earlier process had sent through this cache and never saw answered
        self.unanswered_before = self._pending()
        self.records: Any = None
        #: cache keys whose requests this process has counted (an answer is paid for once per run)
        self._counted: set[str] = set()
        self._jitter = random.Random()
        self._sem: asyncio.Semaphore | None = None
        self._answers: dict[tuple[int, int], Decision] = {}
        #: model names the provider said it answered with (provenance; may differ from the one asked for)
        self.returned_models: set[str] = set()
        self._first_done: asyncio.Event | None = None
        self._first_owner = False
        self._backend_failure: BackendFailed | None = None

    def _build_model(self) -> Any:
        if self.options.model.startswith("openai:") or self.options.base_url:
            import httpx

            # our own client per controller: the shared default one is bound to the first event loop
            local = bool(self.options.base_url) and any(h in self.options.base_url for h in ("127.0.0.1", "localhost"))
            self._http = httpx.AsyncClient(
                timeout=self.options.timeout,
                trust_env=not local,
                limits=httpx.Limits(max_connections=max(16, 2 * self.options.max_concurrency)),
            )
            return build_chat_model(self.options, self._secret, http_async_client=self._http)
        return build_chat_model(self.options, self._secret)

    # --- the Controller interface -----------------------------------------------------------------
    def open_cache(self, path: Any) -> None:
        """Answer from the cache at `path` from now on (the runner opens the run folder's cache
        once the folder is the run's; the controller was built before anything was written)."""
        self.cache.close()
        self.cache = ResponseCache(path)
        self.unanswered_before = self._pending()

    def _pending(self) -> int:
        pending = self.cache.take_pending()
        if pending:
            import sys

            print(
                f"note: {pending} LLM call(s) were under way when an earlier run on this cache "
                "stopped; the provider may have answered (and billed) them, and they are asked again",
                file=sys.stderr,
            )
        return pending

    def attach_records(self, records: Any) -> None:
        """The run's RunRecords: each call becomes a row of llm_calls.jsonl."""
        self.records = records

    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        if self.options.one_call:
            decisions = await self._all(requests, "one_call")
            for req, d in zip(requests, decisions):
                self._answers[(req.round, req.actor_id)] = d
            return [d.message for d in decisions]
        return await self._all(requests, "coordination")

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.options.one_call:
            # answered in the coordination phase; without a board (no such phase) all ask now, at once
            known = {req.actor_id: self._answers.pop((req.round, req.actor_id), None) for req in requests}
            missing = [req for req in requests if known[req.actor_id] is None]
            for req, d in zip(missing, await self._all(missing, "one_call") if missing else []):
                known[req.actor_id] = d
            decisions = [known[req.actor_id] for req in requests]
        else:
            decisions = await self._all(requests, "decision")
        if requests:
            self._round_end(requests[0].round)
        return decisions

    def _round_end(self, rnd: int) -> None:
        """Stop the run after DEAD_ROUNDS consecutive rounds in which every call failed: the
        endpoint is down or refuses everything, and each further round only spends time."""
        answered, failed = self._round_calls.pop(rnd, [0, 0])
        if failed and not answered:
            self._dead.append(rnd)
        elif answered:
            self._dead = []
        if len(self._dead) >= DEAD_ROUNDS:
            rounds = " and ".join(str(r) for r in self._dead[-DEAD_ROUNDS:])
            raise BackendFailed(
                f"every LLM call of rounds {rounds} failed (last error: {self._last_error}); the run stops"
            )

    def usage(self) -> dict[str, Any]:
        return self.totals.stable()

    def session_usage(self) -> dict[str, Any]:
        """What depends on this process's luck (cache hits, retries, latency, the structured-output
        mode an `auto` run settled on, calls a killed run left unanswered): not in result.json."""
        return {**self.totals.session(), "structured_used": self.mode, "unanswered_before": self.unanswered_before}

    def describe(self) -> dict[str, Any]:
        o = self.options
        return {
            "name": self.name,
            "model": o.model,
            "temperature": o.temperature,
            "top_p": o.top_p,
            "max_tokens": o.answer_cap,
            "one_call": o.one_call,
            "structured": o.structured,
            "repair": o.repair,
            "prompts": type(self.prompts).__name__,
        }

    async def aclose(self) -> None:
        self.cache.close()
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # --- one phase, all agents at once ------------------------------------------------------------
    async def _all(self, requests: Sequence[Request], phase: str) -> list[Any]:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.options.max_concurrency)
        tasks = [self._guarded(req, phase) for req in requests]
        # every call under way finishes and is recorded before a backend failure (a guard stop, a
        # 401) ends the phase: a call the provider answered is paid for, so it must be in the records
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)]
        if failures:
            raise next((f for f in failures if isinstance(f, BackendFailed)), failures[0])
        return list(results)

    async def _guarded(self, req: Request, phase: str) -> Any:
        """One agent's turn; whatever goes wrong stays with this agent."""
        try:
            if phase == "coordination":
                return await self._post_one(req)
            return await self._decide_one(req, phase)
        except (asyncio.CancelledError, BackendFailed):
            raise  # a rejected key or a passed deadline stops the run, not just this agent
        except Exception as exc:  # noqa: BLE001 - never let one agent take the round down
            if phase == "coordination":
                return None
            self.totals.policy_errors += 1
            return Decision.policy_error(self._scrub(f"internal: {type(exc).__name__}: {exc}")[:500])

    async def _post_one(self, req: Request) -> str | None:
        messages = self._messages(req, "coordination")
        text, error = await self._ask(req, "coordination", messages, 0)
        if error or text is None:
            return None
        return self.prompts.clean_post(self._scrub(text))

    async def _decide_one(self, req: Request, phase: str) -> Decision:
        messages = self._messages(req, phase)
        text, error = await self._ask(req, phase, messages, 0)
        if error:
            self.totals.policy_errors += 1
            return Decision.policy_error(f"transport: {error}")
        parsed = self.prompts.parse(text, req, phase)
        attempt = 0
        while parsed.error and attempt < self.options.repair:
            attempt += 1
            self.totals.repairs += 1
            messages = messages + [
                AIMessage(content=(text or "")[:REPAIR_QUOTE]),
                HumanMessage(content=self.prompts.repair(parsed.error, phase)),
            ]
            text, error = await self._ask(req, phase, messages, attempt)
            if error:
                break
            parsed = self.prompts.parse(text, req, phase)
        raw = self._scrub(text or "")[:RAW_KEEP] or None
        if error or parsed.error:
            self.totals.policy_errors += 1
            reason = f"transport: {error}" if error else f"{parsed.error} (after {attempt} repair)"
            return Decision.policy_error(self._scrub(reason)[:500], raw=raw)
        message = self._scrub(parsed.message)[: self.options.message_cap] if parsed.message else None
        return Decision(action=parsed.action, message=message, raw=raw)

    def _messages(self, req: Request, phase: str) -> list[BaseMessage]:
        return [SystemMessage(content=self.prompts.system(req)), HumanMessage(content=self.prompts.user(req, phase))]

    # --- one call: cache, else the model under the bound, with retries ------------------------------
    # Each layer has one job: `_ask` records the call's row; `_from_cache` answers from the cache;
    # `_from_provider` passes the gates and the cost guard; `_reply_of` checks and scrubs what the
    # provider sent and keeps it; `_call_structured` steps the output mode down; `_call` retries.
    async def _ask(
        self, req: Request, phase: str, messages: list[BaseMessage], attempt: int
    ) -> tuple[str | None, str | None]:
        schema = self.prompts.answer_schema(phase) if self.options.structured != "none" else None
        sent = wire(messages)
        key = cache_key(self.options.model, self._params(schema), sent)
        row = self._row(req, phase, attempt, sent)
        started = time.perf_counter()
        try:
            reply = self._from_cache(key) or await self._from_provider(schema, messages, key, row)
        except CallFailed as failed:
            _spent(row, False, failed.requests, failed.retries, 0, 0)
            row.update(cost=0.0, latency_s=round(time.perf_counter() - started, 4), error=failed.error)
            self._record(row)
            return None, row["error"]
        _spent(row, reply.cached, reply.requests, reply.retries, reply.input_tokens, reply.output_tokens)
        row["format"] = reply.format
        if reply.provider_model:
            self.returned_models.add(reply.provider_model)
        row["cost"] = self.prices.cost(self.options.model, row["input_tokens"], row["output_tokens"])
        row["latency_s"] = round(time.perf_counter() - started, 4)
        row["answer_chars"] = len(reply.text)
        self._record(row)
        return reply.text, None

    def _params(self, schema: dict[str, Any] | None) -> dict[str, Any]:
        """The sampling parameters a cached answer must have been asked with."""
        o = self.options
        return {
            "temperature": o.temperature,
            "top_p": o.top_p,
            "max_tokens": o.answer_cap,
            "schema": schema,
            "structured": o.structured,
        }

    def _row(self, req: Request, phase: str, attempt: int, sent: list[dict[str, str]]) -> dict[str, Any]:
        """The start of the call's llm_calls.jsonl row: who asked what (the prompt only as a hash)."""
        return {
            "round": req.round,
            "phase": phase,
            "actor_id": req.actor_id,
            "attempt": attempt,
            "model": self.options.model,
            "prompt_hash": hashlib.sha256(json.dumps(sent, ensure_ascii=False).encode()).hexdigest()[:16],
            "prompt_chars": sum(len(m["content"]) for m in sent),
        }

    def _own_cache(self) -> bool:
        """The cache lives in the run's own folder: every answer in it was bought by this run (an
        earlier process of it, before a kill), so its requests count for the run; a shared cache's
        answers were bought by other runs and are free here."""
        out = getattr(self.records, "out", None)
        return (
            out is not None and self.cache.path is not None and self.cache.path.parent.resolve() == Path(out).resolve()
        )

    def _from_cache(self, key: str) -> Reply | None:
        hit = self.cache.get(key)
        if hit is None:
            return None
        spent = key not in self._counted and self._own_cache()
        spent = spent and _count_ok(hit.get("requests", 0)) and _count_ok(hit.get("retries", 0))
        self._counted.add(key)
        return Reply(
            text=hit["text"],
            input_tokens=hit.get("input_tokens", 0),
            output_tokens=hit.get("output_tokens", 0),
            provider_model=hit.get("provider_model"),
            format=hit.get("format"),
            cached=True,
            requests=int(hit.get("requests", 0)) if spent else 0,
            retries=int(hit.get("retries", 0)) if spent else 0,
        )

    async def _from_provider(
        self, schema: dict[str, Any] | None, messages: list[BaseMessage], key: str, row: dict[str, Any]
    ) -> Reply:
        """The provider's answer, past the first-call and format gates, under the concurrency bound
        and the cost guard; a call that failed for good raises CallFailed."""
        assert self._sem is not None
        await self._first_call_gate()
        probe = await self._format_gate(schema)
        try:
            async with self._sem:
                estimate = self._reserve(row["prompt_chars"])  # counts only the calls actually under way
                try:
                    msg, retries = await self._call_structured(schema, messages, key, row)
                except TransportError as exc:
                    raise CallFailed(self._scrub(str(exc))[:500], exc.attempts, exc.attempts - 1) from None
                finally:
                    self._reserved -= estimate
        finally:
            if probe:
                self._probe_done()
        return self._reply_of(msg, retries, key, row.get("format"))

    def _reply_of(self, msg: Any, retries: int, key: str, fmt: str | None) -> Reply:
        """The provider's message as a Reply, every field scrubbed (an echoed key never reaches the
        cache either), and kept in the cache; invalid token counts raise CallFailed."""
        text = message_text(msg)
        usage = getattr(msg, "usage_metadata", None) or {}
        bad = [k for k in ("input_tokens", "output_tokens") if not _count_ok(usage.get(k, 0))]
        if bad:  # a provider reporting negative (or non-integer) tokens would corrupt every total
            self.cache.unmark_sent(key)  # answered (and seen), though not kept
            error = f"invalid token count {bad[0]}={usage.get(bad[0])!r} in the provider's answer"
            raise CallFailed(error, retries + 1, retries)
        returned = (getattr(msg, "response_metadata", None) or {}).get("model_name")
        reply = Reply(
            text=self._scrub(text),
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            provider_model=self._scrub(str(returned))[:PROVIDER_MODEL_KEEP] if returned else None,
            format=fmt,
            requests=retries + 1,
            retries=retries,
        )
        self.cache.put(key, self.options.model, reply.cached_form())
        self._counted.add(key)
        return reply

    def _reserve(self, prompt_chars: int) -> float:
        """The cost guard, before each provider call: spent + calls under way + this call's estimate
        (prompt at 3 characters a token, the answer at its max_tokens cap) must stay within
        --max-cost, else the run stops before the call is made. Returns the reserved estimate."""
        cap = self.options.max_cost
        if cap is None:
            return 0.0
        estimate = self.prices.cost(self.options.model, prompt_chars // 3 + 1, self.options.answer_cap)
        if self.totals.cost + self._reserved + estimate > cap:
            self._backend_failure = BackendFailed(
                f"--max-cost {cap:g}: the next call (estimated ${estimate:.4f}) would pass it "
                f"(${self.totals.cost:.4f} spent, ${self._reserved:.4f} under way); no further call is made"
            )
            if self._first_done is not None:  # calls waiting behind the first one stop too
                self._first_done.set()
            raise self._backend_failure
        self._reserved += estimate
        return estimate

    def provider_models(self) -> list[str]:
        return sorted(self.returned_models)

    async def _first_call_gate(self) -> None:
        """The controller's first provider call goes alone: a rejected key costs one request, not a
        phase's worth, and once the backend failed for good no other call is made."""
        if self._backend_failure is not None:
            raise self._backend_failure
        if self._first_done is None:
            self._first_done = asyncio.Event()
            self._first_owner = True
            return
        if not self._first_owner_pending():
            return
        await self._first_done.wait()
        if self._backend_failure is not None:
            raise self._backend_failure

    def _first_owner_pending(self) -> bool:
        return self._first_done is not None and not self._first_done.is_set()

    async def _format_gate(self, schema: dict[str, Any] | None) -> bool:
        """Under `auto`, until a structured-output mode has worked once, one call at a time probes
        it: an endpoint that refuses json_schema sees one refused request, not a phase's worth.
        Returns True for the probing call (it must call `_probe_done`)."""
        while schema is not None and not self._mode_known:
            if self._probe is None:
                self._probe = asyncio.Event()
                return True
            await self._probe.wait()
        return False

    def _probe_done(self) -> None:
        if self._probe is not None:
            self._probe.set()  # waiters look again: the mode is known, or one of them probes next
            self._probe = None

    async def _call_structured(
        self, schema: dict[str, Any] | None, messages: list[BaseMessage], key: str, row: dict[str, Any]
    ) -> tuple[Any, int]:
        """One call in the current structured-output mode; under `auto`, a refusal that names
        response_format steps down (json_schema -> json_object -> none) and the call is made again
        at once; the step is kept for the rest of the run. Returns (message, requests - 1)."""
        refused = 0
        while True:
            mode = self.mode if schema is not None else None
            row["format"] = mode or "text"
            self.cache.mark_sent(key)  # before the request leaves: a kill now leaves a note
            try:
                msg, retries = await self._call(structured(self.model, schema, mode or "none"), messages)
            except TransportError as exc:
                self.cache.unmark_sent(key)  # failed for good: nothing was answered, so nothing billed
                step = self.options.structured == "auto" and exc.format_refused and mode in FALLBACK
                if not step:
                    exc.attempts += refused
                    raise
                refused += exc.attempts
                if self.mode == mode:  # (a concurrent call may have stepped down already)
                    self.mode = FALLBACK[mode]
                continue
            if mode is not None:
                self._mode_known = True
            return msg, retries + refused

    async def _call(self, runnable: Any, messages: list[BaseMessage]) -> tuple[Any, int]:
        owner, self._first_owner = self._first_owner, False
        try:
            return await call_with_retries(lambda: runnable.ainvoke(messages), self.policy, self._jitter)
        except BackendFailed as exc:
            self._backend_failure = exc
            raise
        finally:
            if owner and self._first_done is not None:
                self._first_done.set()

    def _record(self, row: dict[str, Any]) -> None:
        row.setdefault("error", None)  # every row has the column, so readers need no special case
        counts = self._round_calls.setdefault(int(row["round"]), [0, 0])
        counts[1 if row["error"] else 0] += 1
        if row["error"]:
            self._last_error = row["error"][:200]
        self.totals.add(row)
        if self.records is not None:
            self.records.append("llm_calls.jsonl", row)

    def _scrub(self, text: str) -> str:
        """Belt and braces: the key must never reach a record, even echoed in an error."""
        if isinstance(text, str):
            for secret in self._secrets:
                if secret in text:
                    text = text.replace(secret, "[key]")
        return text

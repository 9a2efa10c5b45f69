"""The LLM controller: every influence agent of a round asks its model at once.

An agent's turn is stateless (`stateless`: a fresh prompt, parse, repair, else a policy_error)
or a session (`session`: a conversation, a notebook, tool turns). Each agent's task handles its
own failures, so one agent never cancels another. Each call goes through a stack of small
wrappers around the chat model (`stack`): records, cache, first-call gate, structured-output
fallback, concurrency bound, cost guard, pending marks, scrubbing, retries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from mam_bench.capabilities import ActingNow, null_action
from mam_bench.controller import Controller
from mam_bench.errors import BackendFailed, config_error_from
from mam_bench.prompts import prompts_for
from mam_bench.protocol import Decision, Request
from mam_bench.response_cache import ResponseCache, cache_key
from mam_bench.secrets import secrets_in_env
from mam_bench.steering.llm.agent_view import AgentView
from mam_bench.steering.llm.caching import unanswered_before
from mam_bench.steering.llm.call import Call, CallFailed, Reply, turn_seed
from mam_bench.steering.llm.chat_models import api_key_from_env, build_own_model
from mam_bench.steering.llm.options import LLMOptions
from mam_bench.steering.llm.recorder import wire
from mam_bench.steering.llm.scrubbing import Scrubber
from mam_bench.steering.llm.session import SessionAgents
from mam_bench.steering.llm.stack import Stack
from mam_bench.steering.llm.stateless import StatelessAgents


class LLMController(Controller):
    name = "llm"
    posts = True

    def __init__(self, world_cls: Any, objective: str, chat_model: Any = None, **options: Any):
        try:
            self.options = o = LLMOptions(**options)
        except ValidationError as exc:
            raise config_error_from(exc) from None
        self.world_cls, self.objective = world_cls, objective
        self._secret = api_key_from_env(o)
        self.scrub = Scrubber(secrets_in_env(self._secret))
        self._http: Any = None
        if chat_model is None:
            chat_model, self._http = build_own_model(o, self._secret)
        self.model = chat_model
        self.prompts = prompts_for(world_cls, objective, **o.prompt_settings)
        self.cache = ResponseCache(o.cache)
        self.stack = Stack(self.model, o, self.cache, self.scrub, self._annotate)
        self.recorder, self.totals = self.stack.recorder, self.stack.recorder.totals
        #: calls a killed earlier process had sent through this cache and never saw answered
        self.unanswered_before = unanswered_before(self.cache)
        self._answers: dict[tuple[int, int], Decision] = {}
        self._unusable = 0  # decisions in a row that ended as policy_errors (the breaker's count)
        view = self.agent_view()
        self.agents = SessionAgents(view) if o.agent == "session" else StatelessAgents(view)

    def agent_view(self) -> AgentView:
        """What the agents may use of this controller (they never get the controller itself)."""
        recorder = self.recorder
        return AgentView(
            prompts=self.prompts,
            options=self.options,
            ask=self.ask,
            scrub=self.scrub,
            totals=self.totals,
            count_tokens=getattr(self.model, "count_tokens", None),
            records=lambda: recorder.records,
        )

    # --- the Controller interface -----------------------------------------------------------------
    def open_cache(self, path: Any) -> None:
        """Answer from the cache at `path` from now on (the runner opens the run folder's cache
        once the folder is the run's; the controller was built before anything was written)."""
        self.cache.close()
        self.cache = ResponseCache(path)
        self.stack.use_cache(self.cache)
        self.unanswered_before = unanswered_before(self.cache)

    def attach_records(self, records: Any) -> None:
        """The run's RunRecords: each call becomes a row of llm_calls.jsonl. A cache in the run's
        folder is the run's own (its answers' requests count for the run across a resume)."""
        self.recorder.records = records
        out, path = getattr(records, "out", None), self.cache.path
        self.stack.cached.own = out is not None and path is not None and path.parent.resolve() == Path(out).resolve()

    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        if self.options.one_call:
            decisions = await self._all(requests, "one_call")
            for req, d in zip(requests, decisions):
                self._answers[(req.round, req.actor_id)] = d
            return [d.message for d in decisions]
        return await self._all(requests, "coordination")

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.options.one_call:
            # answered in the coordination phase; without a board (no such phase) all ask now, at
            # once, for the action alone: a post would reach nobody (a world whose actions carry a
            # message of their own, a swarm's, still asks for it)
            known = {req.actor_id: self._answers.pop((req.round, req.actor_id), None) for req in requests}
            missing = [req for req in requests if known[req.actor_id] is None]
            phase = "one_call" if "message" in getattr(self.world_cls.Action, "model_fields", {}) else "decision"
            for req, d in zip(missing, await self._all(missing, phase) if missing else []):
                known[req.actor_id] = d
            decisions = [known[req.actor_id] for req in requests]
        else:
            decisions = await self._all(requests, "decision")
        if requests:
            self.recorder.round_end(requests[0].round)
        self._break_if_nothing_usable(decisions)
        return decisions

    def _break_if_nothing_usable(self, decisions: Sequence[Decision]) -> None:
        """Stop the run once `unusable_in_a_row` decisions in a row were policy_errors: the endpoint
        answers, so no stall clock fires, but nothing it says can be played (an endpoint of
        oversized, empty or broken answers costs 25 decisions by default, not the whole horizon; a
        small local model that is legal 99 % of the time never gets near it)."""
        limit = self.options.unusable_in_a_row
        for d in decisions:
            self._unusable = self._unusable + 1 if d.error is not None else 0
            if limit and self._unusable >= limit:
                raise BackendFailed(
                    f"the last {self._unusable} decisions were all unusable answers (the last: "
                    f"{self.scrub(d.error)[:200]}): the endpoint answers, but nothing it says can be played"
                )

    def provider_models(self) -> list[str]:
        """Model names the provider said it answered with (provenance; may differ from the one asked for)."""
        return sorted(self.recorder.returned_models)

    def usage(self) -> dict[str, Any]:
        return self.totals.stable()

    def session_usage(self) -> dict[str, Any]:
        """What depends on this process's luck (cache hits, retries, latency, the structured-output
        mode an `auto` run settled on, calls a killed run left unanswered): not in result.json."""
        mode = self.stack.fallback.mode
        return {
            **self.totals.session(),
            "structured_used": mode,
            "unanswered_before": self.unanswered_before,
            "priced": self.recorder.prices.priced(self.recorder.model),  # an unpriced model's cost reads "unpriced"
        }

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
            "prompt_style": o.style,
            "menu_seed": o.menu_seed,
            "sampling_seed": o.sampling_seed,
            "menu_cap": o.menu_cap,
            "agent": o.agent,
        }

    async def aclose(self) -> None:
        self.cache.close()
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # --- one phase, all agents at once ------------------------------------------------------------
    async def _all(self, requests: Sequence[Request], phase: str) -> list[Any]:
        tasks = [self._guarded(req, phase) for req in requests]
        # every call under way finishes and is recorded before a backend failure (a guard stop, a
        # 401) ends the phase: a call the provider answered is paid for, so it must be in the records
        try:
            results = await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            self.agents.flush(requests)
        failures = [r for r in results if isinstance(r, BaseException)]
        if failures:
            raise next((f for f in failures if isinstance(f, BackendFailed)), failures[0])
        return list(results)

    async def _guarded(self, req: Request, phase: str) -> Any:
        """One agent's turn; whatever goes wrong stays with this agent."""
        try:
            if phase != "coordination" and isinstance(self.world_cls.Action, ActingNow):
                if not self.world_cls.Action.can_act(req.observation):  # communication only (a session notes)
                    await self.agents.turn(req, "idle")
                    return Decision(action=null_action(self.world_cls.Action))
            return await self.agents.turn(req, phase)
        except (asyncio.CancelledError, BackendFailed):
            raise  # a rejected key or a passed deadline stops the run, not just this agent
        except Exception as exc:  # noqa: BLE001 - never let one agent take the round down
            if phase == "coordination":
                return None
            self.totals.policy_errors += 1
            return Decision.policy_error(self.scrub(f"internal: {type(exc).__name__}: {exc}")[:500])

    # --- one call, through the stack ------------------------------------------------------------
    async def ask(
        self, req: Request, phase: str, messages: list[BaseMessage], attempt: int, schema: dict[str, Any] | None
    ) -> tuple[str | None, str | None]:
        o = self.options
        seed = turn_seed(o.sampling_seed, req.round, req.actor_id, phase, attempt)
        params = {"temperature": o.temperature, "top_p": o.top_p, "max_tokens": o.answer_cap, "seed": seed}
        key = cache_key(o.model, {**params, "schema": schema, "structured": o.structured}, wire(messages))
        call = Call(messages, schema, key, req.round, phase, req.actor_id, attempt, request=req, seed=seed)
        try:
            reply = await self.stack.ask(call)
        except CallFailed as failed:
            return None, failed.error
        return reply.text, None

    def _annotate(self, call: Call, reply: Reply) -> dict[str, Any]:
        """The menu's size and the chosen position, on a decision's row."""
        return self.prompts.menu_record(reply.text, call.request, call.phase)

"""Stateless agents (`agent=stateless`, the default): a fresh system and user prompt each call.

A post is one answer. A decision is one answer under the request's schema, parsed and checked on
the start-of-round observation, with up to `repair` retries that quote the error back; what is
still wrong then becomes a policy_error (the world's null action).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from mam_bench.protocol import Decision, Request
from mam_bench.steering.llm.agent_view import AgentView

RAW_KEEP = 2000  # characters of an answer kept in decisions.jsonl
REPAIR_QUOTE = 2000  # characters of a rejected answer quoted back to the model


class StatelessAgents:
    """The stateless turns of one LLM controller, through what it lets its agents use (`view`)."""

    def __init__(self, view: AgentView):
        self.view = view

    async def turn(self, req: Request, phase: str) -> Any:
        """A coordination turn's post (or None), else the turn's Decision; an `idle` turn (the world
        says the agent cannot act) asks nothing."""
        if phase == "idle":
            return None
        if phase == "coordination":
            return await self._post(req)
        return await self._decide(req, phase)

    async def _post(self, req: Request) -> str | None:
        text, error = await self.view.ask(req, "coordination", self._messages(req, "coordination"), 0, None)
        if error or text is None:
            return None
        return self.view.prompts.clean_post(self.view.scrub(text))

    async def _decide(self, req: Request, phase: str) -> Decision:
        view, prompts = self.view, self.view.prompts
        messages = self._messages(req, phase)
        schema = prompts.answer_schema(phase, req) if view.options.structured != "none" else None
        text, error = await view.ask(req, phase, messages, 0, schema)
        if error:
            view.totals.policy_errors += 1
            return Decision.policy_error(f"transport: {error}")
        parsed = prompts.parse(text, req, phase)
        attempt = 0
        while parsed.error and attempt < view.options.repair:
            attempt += 1
            view.totals.repairs += 1
            messages = messages + [
                AIMessage(content=(text or "")[:REPAIR_QUOTE]),
                HumanMessage(content=prompts.repair(parsed.error, phase, req)),
            ]
            text, error = await view.ask(req, phase, messages, attempt, schema)
            if error:
                break
            parsed = prompts.parse(text, req, phase)
        raw = view.scrub(text or "")[:RAW_KEEP] or None
        if error or parsed.error:
            view.totals.policy_errors += 1
            reason = f"transport: {error}" if error else f"{parsed.error} (after {attempt} repair)"
            return Decision.policy_error(view.scrub(reason)[:500], raw=raw)
        message = view.scrub(parsed.message)[: view.options.message_cap] if parsed.message else None
        return Decision(action=parsed.action, message=message, raw=raw)

    def flush(self, requests: Any) -> None:
        """Stateless turns keep no rows of their own."""

    def _messages(self, req: Request, phase: str) -> list[BaseMessage]:
        p = self.view.prompts
        return [SystemMessage(content=p.system(req)), HumanMessage(content=p.user(req, phase))]

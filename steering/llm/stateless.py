"""Stateless agents (`agent=stateless`, the default): a fresh system and user prompt each call.

A post is one answer. A decision is one answer under the request's schema, parsed and checked on
the start-of-round observation, with up to `repair` retries that quote the error back; what is
still wrong then becomes a policy_error (the world's null action).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from mam_bench.protocol import Decision, Request

RAW_KEEP = 2000  # characters of an answer kept in decisions.jsonl
REPAIR_QUOTE = 2000  # characters of a rejected answer quoted back to the model


class StatelessAgents:
    """The stateless turns of one LLM controller (`ctl`: its prompts, options, scrubber, `ask`)."""

    def __init__(self, ctl: Any):
        self.ctl = ctl

    async def turn(self, req: Request, phase: str) -> Any:
        """A coordination turn's post (or None), else the turn's Decision; an `idle` turn (the world
        says the agent cannot act) asks nothing."""
        if phase == "idle":
            return None
        if phase == "coordination":
            return await self._post(req)
        return await self._decide(req, phase)

    async def _post(self, req: Request) -> str | None:
        text, error = await self.ctl.ask(req, "coordination", self._messages(req, "coordination"), 0, None)
        if error or text is None:
            return None
        return self.ctl.prompts.clean_post(self.ctl.scrub(text))

    async def _decide(self, req: Request, phase: str) -> Decision:
        ctl, prompts = self.ctl, self.ctl.prompts
        messages = self._messages(req, phase)
        schema = prompts.answer_schema(phase, req) if ctl.options.structured != "none" else None
        text, error = await ctl.ask(req, phase, messages, 0, schema)
        if error:
            ctl.totals.policy_errors += 1
            return Decision.policy_error(f"transport: {error}")
        parsed = prompts.parse(text, req, phase)
        attempt = 0
        while parsed.error and attempt < ctl.options.repair:
            attempt += 1
            ctl.totals.repairs += 1
            messages = messages + [
                AIMessage(content=(text or "")[:REPAIR_QUOTE]),
                HumanMessage(content=prompts.repair(parsed.error, phase)),
            ]
            text, error = await ctl.ask(req, phase, messages, attempt, schema)
            if error:
                break
            parsed = prompts.parse(text, req, phase)
        raw = ctl.scrub(text or "")[:RAW_KEEP] or None
        if error or parsed.error:
            ctl.totals.policy_errors += 1
            reason = f"transport: {error}" if error else f"{parsed.error} (after {attempt} repair)"
            return Decision.policy_error(ctl.scrub(reason)[:500], raw=raw)
        message = ctl.scrub(parsed.message)[: ctl.options.message_cap] if parsed.message else None
        return Decision(action=parsed.action, message=message, raw=raw)

    def _messages(self, req: Request, phase: str) -> list[BaseMessage]:
        p = self.ctl.prompts
        return [SystemMessage(content=p.system(req)), HumanMessage(content=p.user(req, phase))]

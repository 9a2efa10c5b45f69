"""A scripted fake LLM: answers are fixed texts per (round, actor), parsed like a model's reply."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from mam_bench.controller import Controller
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.protocol import Decision, Request


class ScriptedLLM(Controller):
    name = "scripted-llm"

    def __init__(self, script: dict[tuple[int, int], str], default: str = '{"tool": "sleep"}'):
        self.script = script
        self.default = default
        self.prompts: list[str] = []

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for req in requests:
            prompt = req.observation.prompt_text()
            self.prompts.append(hashlib.sha256(prompt.encode()).hexdigest()[:12])
            text = self.script.get((req.round, req.actor_id), self.default)
            action = CraftingWorld.Action.parse_answer(text)
            out.append(
                Decision(action=action, raw=text)
                if action is not None
                else Decision.policy_error("no tool call in the answer", raw=text)
            )
        return out

    def usage(self) -> dict:
        return {"calls": len(self.prompts)}

"""Scripted players for the LLM tests: deterministic answers from the prompt alone.

The same prompt always gets the same answer (whatever the order of concurrent calls), so a
run with faults, a cached rerun and a resumed run can be compared with a clean run.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from tests.support.openai_server import last_user_text


def _h(*parts: Any) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8], 16)


def _board(text: str) -> tuple[int, int, list[str]] | None:
    me = re.search(r"round (\d+) \| you (\d+) group", text)
    size = re.search(r"board (\d+)x", text)
    if not me or not size:
        return None
    n = int(size.group(1))
    rows = re.findall(r"^\d+ ([.ABabXY]+)$", text, re.M)[:n]
    return int(me.group(1)), int(me.group(2)), rows


def target(text: str) -> tuple[int, str]:
    """(actor, 'r,c' or 'hold') chosen from the prompt: a hash-picked vacancy or a hold."""
    info = _board(text)
    if info is None:
        return -1, "hold"
    rnd, me, rows = info
    vac = [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "."]
    k = _h(me, rnd) % (len(vac) + 3)
    if k >= len(vac):
        return me, "hold"
    return me, f"{vac[k][0]},{vac[k][1]}"


def schelling_answer(text: str) -> str:
    """A post ('ID -> r,c', sometimes a lie), a decision (JSON, sometimes garbage), or a repair."""
    me, goal = target(text)
    rnd = _board(text)[0] if _board(text) else 0
    if "Coordination phase" in text:
        if _h("lie", me, rnd) % 5 == 0 and goal != "hold":
            return f"{me} -> hold. I keep the seam."  # declared stay, will move: a mismatch
        return f"Plan: {me} -> {goal}; watch the border."
    if "was rejected" in text:
        return '{"stay": true}'
    if _h("junk", me, rnd) % 7 == 0:
        return "I think I will go somewhere nice {row: ???"
    if goal == "hold":
        return '{"stay": true}'
    r, c = goal.split(",")
    if _h("fmt", me, rnd) % 3 == 0:
        return f'Moving now.\n```json\n{{"row": {r}, "col": {c}}}\n```'
    return f'{{"row": {r}, "col": {c}}}'


def server_reply(body: dict[str, Any]) -> str:
    text = last_user_text(body)
    if "was rejected" in text:
        return '{"stay": true}'
    return schelling_answer(text)


class ScriptedChatModel(BaseChatModel):
    """A fake chat model answering by a function of the last user message (order-free)."""

    fail_for: tuple[int, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        text = str(messages[-1].content)
        info = _board(str(messages[1].content)) if len(messages) > 1 else None
        if info and info[1] in self.fail_for:
            raise RuntimeError(f"model exploded for actor {info[1]}")
        answer = '{"stay": true}' if "was rejected" in text else schelling_answer(text)
        msg = AIMessage(
            content=answer,
            usage_metadata={
                "input_tokens": len(text) // 4,
                "output_tokens": len(answer) // 4,
                "total_tokens": len(text) // 4 + len(answer) // 4,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=msg)])

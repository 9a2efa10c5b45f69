"""`cce_mode=llm` as AgentWorld's CCE v2 tracing: strictly later rounds, one question per round,
the objective and recipes in step 2, action text and contributors cut as upstream cuts them."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.models.crafting.judge import MAX_CONTRIBUTORS, RECIPE_CHARS, traced_cce
from mam_bench.models.crafting.metrics import success_actions
from mam_bench.models.crafting.observe import relevant_context
from tests.crafting.test_judge import _finished, _graph


class TracingJudge(BaseChatModel):
    """Step 1: the known S. Step 2: the round's actions that are parents of a shown contributor.
    Keeps every prompt, so the test can read what the judge was shown."""

    success: list[int]
    parents: dict[int, list[int]]
    prompts: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "tracing-judge"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        prompt = messages[-1].content
        self.prompts.append(prompt)
        if "success_action_ids" in prompt:
            text = json.dumps({"success_action_ids": self.success})
        else:
            head, _, tail = prompt.partition("\nActions of round")
            shown = {int(i) for i in re.findall(r"^  - \[(\d+)\]", head, re.M)}
            cands = [int(i) for i in re.findall(r"^\[(\d+)\]", tail, re.M)]
            yes = [x for x in cands if any(x in self.parents.get(y, ()) for y in shown)]
            text = json.dumps({"contributing_ids": yes + [10**6], "not_contributing_ids": []})
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def traced_by_definition(w: Any, success: set[int], parents: dict[int, list[int]]) -> set[int]:
    """Upstream's rule stated plainly: rounds from last to first; a round's action joins when it is
    a parent of one of the first 30 (by id) contributors of strictly later rounds."""
    rounds = {a["id"]: a["round"] for a in w.log}
    green = set(success)
    for r in sorted(set(rounds.values()), reverse=True):
        shown = sorted(i for i in green if rounds[i] > r)[:MAX_CONTRIBUTORS]
        green |= {x for y in shown for x in parents.get(y, ()) if rounds.get(x) == r}
    return green


def test_tracing_follows_edges_into_strictly_later_rounds_only() -> None:
    w = _finished("forge_vanguard", 1)
    success, parents = set(success_actions(w.task, w)), _graph(w)
    judge = TracingJudge(success=sorted(success), parents=parents)
    res = asyncio.run(traced_cce(w, judge))
    assert set(res["contributing"]) == traced_by_definition(w, success, parents)
    assert res["cce_llm"] == len(res["contributing"]) / len(w.log)
    assert res["cce_llm"] <= w.collaboration()["cce"]  # within-round chains are not traced
    rounds_asked = []
    by_id = {a["id"]: a for a in w.log}
    for prompt in judge.prompts[1:]:
        r = int(re.search(r"\nActions of round (\d+):", prompt)[1])
        rounds_asked.append(r)
        head = prompt.partition("\nActions of round")[0]
        shown = [int(i) for i in re.findall(r"^  - \[(\d+)\]", head, re.M)]
        assert shown and all(by_id[i]["round"] > r for i in shown)
        assert len(shown) <= MAX_CONTRIBUTORS
        assert w.task.objective in prompt and relevant_context(w.task.name)[:200] in prompt
    assert len(rounds_asked) == len(set(rounds_asked))  # one question per round
    assert rounds_asked == sorted(rounds_asked, reverse=True)
    assert res["calls"] == len(judge.prompts) == 1 + len(rounds_asked)


def test_step_one_names_the_task_and_cuts_long_text() -> None:
    w = _finished("staff_quest", 0)
    judge = TracingJudge(success=sorted(success_actions(w.task, w)), parents={})
    w.log[0] = {**w.log[0], "args": {**w.log[0]["args"], "message": "x" * 400}}
    asyncio.run(traced_cce(w, judge))
    step1 = judge.prompts[0]
    assert "TASK: staff_quest" in step1 and w.task.objective in step1
    first = next(line for line in step1.splitlines() if line.startswith("[0]"))
    assert len(first.partition(": ")[2].partition(": ")[2]) <= 150 and "x" * 151 not in step1
    assert len(relevant_context(w.task.name)) < RECIPE_CHARS or "..." in judge.prompts[-1]

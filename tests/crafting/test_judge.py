"""LLM-judged CCE against scripted LangChain judges whose answers are known.

A judge that says yes to exactly the provenance edges reproduces the provenance CCE; a judge that
says yes to everything can only add actions, so its CCE is at least the provenance CCE.
"""

import asyncio
import json
import re
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.models.crafting.judge import chained_cce, cohen_kappa
from mam_bench.models.crafting.metrics import chat_edges, success_actions
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.response_cache import ResponseCache
from mam_bench.world import play_round


class ScriptedJudge(BaseChatModel):
    """Answers from a known graph: S for step 1; for step 2 the candidates that are parents of a
    shown contributor (or every candidate, when `yes_to_all`)."""

    success: list[int]
    parents: dict[int, list[int]]
    yes_to_all: bool = False
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-judge"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        self.calls += 1
        prompt = messages[-1].content
        if "success_action_ids" in prompt:
            ids = (
                sorted(set(int(i) for i in re.findall(r"^\[(\d+)\]", prompt, re.M)))
                if self.yes_to_all
                else self.success
            )
            text = json.dumps({"success_action_ids": ids, "reasoning": "scripted"})
        else:
            head, _, tail = prompt.partition("Candidate actions from round")
            shown = {int(i) for i in re.findall(r"^\[(\d+)\]", head, re.M)}
            cands = [int(i) for i in re.findall(r"^\[(\d+)\]", tail, re.M)]
            yes = cands if self.yes_to_all else [x for x in cands if any(x in self.parents.get(y, ()) for y in shown)]
            text = json.dumps({"contributing_ids": yes, "not_contributing_ids": [x for x in cands if x not in yes]})
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def _finished(task: str, seed: int) -> CraftingWorld:
    for s in range(seed, seed + 20):
        w = CraftingWorld(task=task, seed=s)
        while not w._done and w.round < w.budget:
            play_round(w, {})
        if w.verify()[0]:
            return w
    raise AssertionError("no successful run to judge")


def _graph(w: CraftingWorld) -> dict[int, list[int]]:
    parents = {a["id"]: list(a["parents"]) for a in w.log}
    for x, y in chat_edges(w.log, {a.actor_id: a.username for a in w.actors}):
        parents.setdefault(y, []).append(x)
    return parents


def test_judge_saying_yes_to_exactly_the_provenance_edges_gives_the_provenance_cce():
    for task, seed in (("staff_quest", 0), ("forge_vanguard", 1)):
        w = _finished(task, seed)
        judge = ScriptedJudge(success=sorted(success_actions(w.task, w)), parents=_graph(w))
        res = asyncio.run(chained_cce(w, judge))
        prov = w.collaboration()
        assert res["contributing"] == prov["contributing"]
        assert res["cce_llm"] == prov["cce"] and 0 < prov["cce"] < 1
        assert res["calls"] == judge.calls and res["judge_model"]


def test_judge_saying_yes_to_everything_is_at_least_the_provenance_cce(tmp_path):
    w = _finished("staff_quest", 0)
    cache = ResponseCache(tmp_path / "judge.sqlite")
    judge = ScriptedJudge(success=[], parents={}, yes_to_all=True)
    res = asyncio.run(chained_cce(w, judge, cache=cache))
    assert res["cce_llm"] >= w.collaboration()["cce"] and res["cce_llm"] == 1.0
    again = asyncio.run(chained_cce(w, judge, cache=cache))  # the cache answers: nothing is paid twice
    assert again["cce_llm"] == res["cce_llm"] and again["calls"] == 0 and again["cache_hits"] == res["calls"]


def test_failed_run_scores_zero_without_asking():
    w = CraftingWorld(task="grand_armory", seed=0, rounds=3)
    while not w._done and w.round < w.budget:
        play_round(w, {})
    judge = ScriptedJudge(success=[], parents={}, yes_to_all=True)
    assert asyncio.run(chained_cce(w, judge))["cce_llm"] == 0.0 and judge.calls == 0


def test_cohen_kappa_on_known_tables():
    assert cohen_kappa([True, False, True, False], [True, False, True, False]) == 1.0
    # 2x2 table a=20 b=5 c=10 d=15 (n=50): po=0.7, pe=0.5*0.6+0.5*0.4=0.5, kappa=0.4
    a = [True] * 25 + [False] * 25
    b = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    assert abs(cohen_kappa(a, b) - 0.4) < 1e-12

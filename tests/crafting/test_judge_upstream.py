"""`cce_mode=llm` closes the differences to AgentWorld's CCE v2 script: transfers are enabling in
step 1, step 2 says what does not contribute and shows the task's context from its recipe section
on, every id an answer names joins (ids naming no action are counted apart), per-agent
contribution is reported, and a run its verifier fails scores 0 without a call. `llm_traced`
keeps our first reading."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.models.crafting.judge import step2_context, traced_cce
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.world import play_round
from tests.crafting.test_agentworld_tasks import staff_task
from tests.crafting.test_judge import _finished


class FixedJudge(BaseChatModel):
    """Step 1 names `success`; every step 2 answer names `named`. Keeps the prompts."""

    success: list[int]
    named: list[int]
    prompts: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "fixed-judge"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        prompt = messages[-1].content
        self.prompts.append(prompt)
        key, ids = (
            ("success_action_ids", self.success) if "success_action_ids" in prompt else ("contributing_ids", self.named)
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=json.dumps({key: ids})))])


def judged(w: CraftingWorld, upstream: bool, success: list[int], named: list[int]) -> tuple[dict, FixedJudge]:
    judge = FixedJudge(success=success, named=named)
    return asyncio.run(traced_cce(w, judge, upstream=upstream)), judge


def test_ids_of_any_round_join_upstream_and_only_the_rounds_own_in_our_first_reading() -> None:
    w = _finished("staff_quest", 0)
    last = w.log[-1]
    beside = next(a["id"] for a in w.log if a["round"] == last["round"] and a["id"] != last["id"])
    res, judge = judged(w, True, [last["id"]], [beside, 10**6])
    assert res["contributing"] == sorted({last["id"], beside}) and res["unknown_ids"] == len(judge.prompts) - 1
    ours, _ = judged(w, False, [last["id"]], [beside, 10**6])  # the last round is never asked about
    assert ours["contributing"] == [last["id"]] and "unknown_ids" not in ours and "pac_llm" not in ours


def test_per_agent_contribution_is_each_agents_share_of_its_own_actions() -> None:
    w = _finished("staff_quest", 0)
    ids = [a["id"] for a in w.log]
    res, _ = judged(w, True, ids[-1:], ids[::2])
    green = set(res["contributing"])
    for a in w.actors:
        own = [e["id"] for e in w.log if e["agent"] == a.actor_id]
        assert res["pac_llm"][a.username] == round(sum(i in green for i in own) / len(own), 4)
    assert res["cce_llm"] == len(green) / len(w.log)


def test_step_one_leaves_transfers_out_and_step_two_says_what_does_not_contribute() -> None:
    w = _finished("staff_quest", 0)
    _, up = judged(w, True, [w.log[-1]["id"]], [])
    _, ours = judged(w, False, [w.log[-1]["id"]], [])
    assert "transferring items" in up.prompts[0] and "hand-over that delivered it" not in up.prompts[0]
    assert "hand-over that delivered it" in ours.prompts[0]
    assert "does NOT contribute" in up.prompts[1] and "does NOT contribute" not in ours.prompts[1]


def test_step_two_reads_the_task_files_context_from_its_recipe_section(tmp_path: Path) -> None:
    task = staff_task(tmp_path)
    text = task.read_text().replace(
        "  Cut logs, make sticks",
        "  Lore: the forest is old.\n  CRAFTING RECIPES: staff = 5 stick + bead.\n  Cut logs, make sticks",
    )
    task.write_text(text)
    w = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task)}), seed=0)
    assert step2_context(w, True).startswith("CRAFTING RECIPES: staff = 5 stick + bead.")
    assert "Lore" not in step2_context(w, True) and "Lore" not in step2_context(w, False)


def test_a_run_its_verifier_fails_scores_zero_without_a_call() -> None:
    w = CraftingWorld(task="staff_quest", seed=0)
    play_round(w, {})
    res, judge = judged(w, True, [0], [0])
    assert res["cce_llm"] == 0.0 and judge.prompts == [] and set(res["pac_llm"].values()) == {0.0}

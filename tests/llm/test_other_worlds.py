"""The LLM controller drives every world, not only Schelling, through LangChain chat models.

Swarm: the SwarmBench reproduction mode (every agent an influence agent, board off) with a
scripted model answering in the paper's `ACTION:`/`MSG:` form. Crafting: the AgentWorld mode
(every agent, chat only) with a model replaying a good team's tool calls from the prompt.
"""

from __future__ import annotations

import re
from itertools import count
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.records import read_jsonl
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.llm import LLMController
from tests.crafting.test_reproduction import PARAMS as CRAFT_PARAMS
from tests.crafting.test_reproduction import _script as crafting_script


class PromptedModel(BaseChatModel):
    """Answers with `answer(prompt_text)` and keeps every prompt it was given."""

    answer: Any
    prompts: list = []

    @property
    def _llm_type(self) -> str:
        return "prompted-fake"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        text = "\n".join(str(m.content) for m in messages)
        self.prompts.append(text)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.answer(text)))])


SWARM_ACTIONS = {
    "pursuit": ("UP", "DOWN", "LEFT", "RIGHT", "STAY"),
    "synchronization": ("UP", "DOWN", "LEFT", "RIGHT", "STAY", "SWITCH"),
    "foraging": ("UP", "DOWN", "LEFT", "RIGHT", "STAY", "PICKUP", "DROP"),
    "flocking": ("UP", "DOWN", "LEFT", "RIGHT", "STAY"),
    "transport": ("UP", "DOWN", "LEFT", "RIGHT", "STAY"),
}


@pytest.mark.parametrize("task", sorted(SWARM_ACTIONS))
def test_swarmbench_reproduction_mode_through_the_llm_controller(task, tmp_path):
    actions = SWARM_ACTIONS[task]
    turn = count()

    def answer(prompt: str) -> str:
        if "was rejected" in prompt:
            return "Still thinking."
        k = next(turn)
        if k == 3:
            return "Let me think... I am not sure."  # no ACTION and no MSG: repaired, then a policy_error
        act = actions[k % len(actions)]
        msg = f"MSG: [agent near {k % 10},{k % 7}?]" if k % 2 else "MSG:"
        return f"The prey is far; I go on.\nACTION: [{act}]\n{msg}"

    model = PromptedModel(answer=answer, prompts=[])
    world_cls = get_world(task)
    n = len(world_cls(seed=0).actor_ids())
    # rules=mam: our strict reader (an unreadable answer is repaired, then a policy_error); under
    # rules=swarmbench the mode reads answers as upstream does (test below)
    spec = PairSpec.build(
        world=task,
        seed=0,
        controller="llm",
        influence=n,
        rounds=3,
        params={"board": "off", "rules": "mam"},
        objective="help",
    )
    ctl = LLMController(world_cls, "help", chat_model=model, model="fake:scripted")
    result = run_pair(spec, tmp_path, controller=ctl)

    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    played = result["treatment"]["rounds"]
    assert len(decisions) == n * played and result["treatment"]["audit"]["identity_holds"]
    chosen = {d["decision"]["action"] for d in decisions if d["decision"]}
    assert chosen == set(actions)
    assert any(d["message"] for d in decisions), "messages ride along with actions"
    assert sum(d["outcome"] == "policy_error" for d in decisions) == 1
    assert (tmp_path / "board.jsonl").read_text() == ""  # board off: no coordination phase at all
    calls = read_jsonl(tmp_path / "llm_calls.jsonl")
    assert {c["phase"] for c in calls} == {"decision"} and len(calls) == n * played + 1  # one repair, failed
    prompt = model.prompts[0]
    for section in ("You are Agent", "Vision for the last", "Message you received", "Your action history"):
        assert section in prompt
    # one answer format: the JSON the schema asks for, not upstream's free text besides it (an
    # answer in upstream's form is still read, by the world's own parser, as above)
    assert '"action" first' in prompt and "ACTION:" not in prompt and "Think step by step" not in prompt
    # messages are delivered: a later prompt quotes one
    assert any('Message: "agent near' in p for p in model.prompts[n:])


def test_swarmbench_reproduction_mode_reads_answers_as_upstream(tmp_path):
    # Upstream `SwarmAgent.to_action` (@ c164678), read for the expected values: the text after
    # "ACTION:" up to the line's end is searched for each action name by case-sensitive substring in
    # the action list's order (UP, DOWN, LEFT, RIGHT, STAY, SWITCH), so "LEFT or UP" is UP and
    # "[Left]" matches nothing; no action means STAY, never a retry. "MSG:" gives the message.
    from langchain_core.language_models import FakeListChatModel

    answers = [
        "ACTION: [LEFT or UP]\nMSG: [meet at 4,4]",  # our reader: LEFT (first valid word)
        "ACTION: [Left]\nMSG:",  # our reader: LEFT (case-insensitive)
        "I am not sure.",  # our reader: repaired, then a policy_error
    ]
    model = FakeListChatModel(responses=answers * 4)
    world_cls = get_world("synchronization")
    spec = PairSpec.build(
        world="synchronization", seed=0, controller="llm", influence=10, rounds=1, params={"board": "off"}
    )
    ctl = LLMController(world_cls, "help", chat_model=model, model="fake:list", max_concurrency=1)
    result = run_pair(spec, tmp_path, controller=ctl)

    decisions = sorted(read_jsonl(tmp_path / "decisions.jsonl"), key=lambda d: d["actor_id"])
    assert [d["decision"]["action"] for d in decisions] == ["UP", "STAY", "STAY"] * 3 + ["UP"]
    assert [d["message"] for d in decisions[:3]] == ["[meet at 4,4]", None, None]
    assert result["treatment"]["audit"]["policy_error"] == 0 and result["llm"]["calls"] == 10  # no repairs
    # only the full mode reads as upstream: with the board on, or a few influence agents, answers stay strict
    full = world_cls(seed=0, influence_ids=range(10), params=world_cls.Params(board=False)).observe(0)
    assert full.upstream_answers and world_cls.Observation.from_text(full.to_text()) == full
    assert not world_cls(seed=0, influence_ids=range(10)).observe(0).upstream_answers
    assert not world_cls(seed=0, influence_ids=[0, 1], params=world_cls.Params(board=False)).observe(0).upstream_answers


def test_agentworld_reproduction_mode_through_the_llm_controller(tmp_path):
    script = crafting_script()

    def answer(prompt: str) -> str:
        m = re.search(r"R(\d+)/\d+ me=(\d+)", prompt)
        return script.get((int(m.group(1)), int(m.group(2))), '{"tool": "sleep"}')

    model = PromptedModel(answer=answer, prompts=[])
    world_cls = get_world("crafting")
    n = len(world_cls(task=CRAFT_PARAMS["task"]).actor_ids())
    spec = PairSpec.build(
        world="crafting", seed=4, params=CRAFT_PARAMS, influence=n, controller="llm", objective="accelerate"
    )
    ctl = LLMController(world_cls, "accelerate", chat_model=model, model="fake:scripted", repair=0)
    result = run_pair(spec, tmp_path, controller=ctl)

    final = result["treatment"]["final"]
    assert result["treatment"]["status"] == "success" and final["sr"] == 1.0
    assert final["chats"] == 2 and 0 < final["cce"] < 1
    assert result["treatment"]["audit"]["policy_error"] == 1
    tools = {d["action"]["tool"] for d in read_jsonl(tmp_path / "decisions.jsonl") if d["action"]}
    assert tools >= {"move_to", "harvest", "craft", "transfer", "chat", "request", "equip", "sleep"}
    assert result["llm"]["calls"] == len(model.prompts)
    assert "You MUST call exactly ONE tool" in model.prompts[0]

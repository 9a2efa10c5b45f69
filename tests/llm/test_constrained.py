"""Constrained decoding constrains the right thing: the schema of each request admits only its
legal actions, so even a model that picks at random within the grammar plays legal moves.

The bad model here is `schema_sampler`: any answer the schema allows, hostile strings included.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.prompts import prompts_for
from mam_bench.records import read_jsonl
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.llm import LLMController
from mam_bench.steering.llm.local_model import LocalChatModel
from tests.llm.conftest import run_llm
from tests.support.openai_server import OpenAIServer
from tests.support.schema_sampler import sample, sampled_answer


class GrammarModel(LocalChatModel):
    """The local model's grammar path with the worst model behind it: a random schema instance."""

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, json_schema: Any = None, **kw: Any):
        digest = hashlib.sha256(json.dumps([str(m.content) for m in messages]).encode()).digest()
        text = sampled_answer(json_schema, random.Random(digest))
        usage = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, usage_metadata=usage))])


CASES = {
    "schelling": ({}, "integrate"),
    "boltzmann": ({}, "equalize"),
    "foraging": ({"rules": "mam"}, "help"),
}


def run_grammar(tmp_path: Path, world: str, style: str, one_call: bool) -> tuple[list[dict], list[dict]]:
    params, objective = CASES[world]
    spec = PairSpec.build(
        world=world, seed=3, controller="llm", influence=4, rounds=3, params=params, objective=objective
    )
    ctl = LLMController(
        get_world(world),
        objective,
        chat_model=GrammarModel(),
        model="fake:grammar",
        prompt_style=style,
        one_call=one_call,
    )
    run_pair(spec, tmp_path, controller=ctl)
    return read_jsonl(tmp_path / "decisions.jsonl"), read_jsonl(tmp_path / "llm_calls.jsonl")


@pytest.mark.parametrize("world", sorted(CASES))
@pytest.mark.parametrize(("style", "one_call"), [("full", False), ("full", True), ("menu", False), ("menu", True)])
def test_a_random_model_under_the_grammar_plays_only_legal_actions(tmp_path, world, style, one_call):
    decisions, calls = run_grammar(tmp_path, world, style, one_call)
    assert decisions and all(d["outcome"] != "policy_error" for d in decisions)
    # the controller's legality check accepted every first answer: no repair was ever asked for
    asked = [c for c in calls if c["phase"] != "coordination"]
    assert asked and all(c["attempt"] == 0 for c in asked)
    if style == "menu":
        sizes = {c["menu_size"] for c in asked}
        assert min(sizes) > 1 and all(1 <= c["menu_position"] <= c["menu_size"] for c in asked)


def test_the_loose_schema_would_let_the_same_model_play_illegal_moves():
    """The control: sampling the world's plain action schema gives illegal Schelling moves."""
    world_cls = get_world("schelling")
    world = world_cls(seed=3)
    req = _request(world, world.actor_ids()[0])
    prompts = prompts_for(world_cls, "integrate")
    rng = random.Random(0)
    loose = [sample(world.action_schema(), rng) for _ in range(50)]
    tight = [json.loads(sampled_answer(prompts.answer_schema("decision", req), rng)) for _ in range(50)]
    assert sum(prompts.legal_error(a, req) is not None for a in loose) > 10
    assert all(prompts.legal_error(a, req) is None for a in tight)


def _request(world: Any, actor: int) -> Any:
    from mam_bench.protocol import Request

    return Request(world=world.name, actor_id=actor, round=1, objective="integrate", observation=world.observe(actor))


def grammar_reply(body: dict[str, Any]) -> str:
    """llama-cpp-python's server: json_object with a schema decodes under it (here: at random)."""
    fmt = body.get("response_format") or {}
    digest = hashlib.sha256(json.dumps(body["messages"]).encode()).digest()
    return sampled_answer(fmt.get("schema"), random.Random(digest))


def test_an_openai_compatible_server_gets_the_schema_in_json_object_and_max_tokens(tmp_path, api_key):
    with OpenAIServer(reply=grammar_reply, reject_json_schema=True) as srv:
        run_llm(tmp_path, srv.base_url, influence=4, one_call=True)
    assert [b["response_format"]["type"] for b in srv.refused] == ["json_schema"]  # one probe, then the step
    answered = [b for b in srv.bodies if b not in srv.refused]
    assert answered and all(b["response_format"].get("schema") for b in answered)
    assert all(b["max_tokens"] == b["max_completion_tokens"] for b in srv.bodies)
    calls = read_jsonl(tmp_path / "llm_calls.jsonl")
    assert {c["format"] for c in calls if not c["error"]} == {"json_object_schema"}
    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    assert all(c["attempt"] == 0 for c in calls) and all(d["outcome"] != "policy_error" for d in decisions)


@pytest.mark.parametrize("world", sorted(CASES))
def test_no_instruction_holds_a_placeholder_to_copy(world):
    params, objective = CASES[world]
    world_cls = get_world(world)
    w = world_cls(seed=0, **params) if params else world_cls(seed=0)
    req = _request(w, w.actor_ids()[0])
    for style in ("full", "menu"):
        prompts = prompts_for(world_cls, objective, style=style)
        for phase in ("coordination", "decision", "one_call"):
            text = prompts.system(req) + prompts.user(req, phase)
            assert "<post" not in text and '"<' not in text and "-> r,c'" not in text


def test_the_menu_is_shuffled_per_request_and_the_same_on_every_asking():
    world_cls = get_world("schelling")
    world = world_cls(seed=3)
    a, b = world.actor_ids()[:2]
    prompts = prompts_for(world_cls, "integrate", style="menu", menu_seed=7)
    menu_a = prompts.menu(_request(world, a))
    assert menu_a == prompts_for(world_cls, "integrate", style="menu", menu_seed=7).menu(_request(world, a))
    assert menu_a != prompts_for(world_cls, "integrate", style="menu", menu_seed=8).menu(_request(world, a))
    assert sorted(map(json.dumps, menu_a)) == sorted(map(json.dumps, world_cls.Action.legal_actions(world.observe(a))))
    assert prompts.menu(_request(world, b)) != menu_a
    schema = prompts.answer_schema("one_call", _request(world, a))
    assert list(schema["properties"]) == ["choice", "message"] and schema["properties"]["message"]["maxLength"] <= 100


def test_a_capped_menu_keeps_the_null_action_and_a_draw_of_the_rest():
    world_cls = get_world("schelling")
    world = world_cls(seed=3)
    a = world.actor_ids()[0]
    legal = world_cls.Action.legal_actions(world.observe(a))
    prompts = prompts_for(world_cls, "integrate", style="menu", menu_cap=8)
    menu = prompts.menu(_request(world, a))
    assert len(legal) > 8 and len(menu) == 8
    assert legal[0] in menu  # staying is always offered
    assert all(m in legal for m in menu) and len({json.dumps(m) for m in menu}) == 8
    # another agent's menu is another draw; the uncapped menu is every legal action, as before
    assert prompts.menu(_request(world, world.actor_ids()[1])) != menu
    assert len(prompts_for(world_cls, "integrate", style="menu").menu(_request(world, a))) == len(legal)
    text = f'{{"choice": {menu.index(legal[0]) + 1}, "message": ""}}'
    assert prompts.menu_record(text, _request(world, a), "one_call") == {
        "menu_size": 8,
        "menu_position": menu.index(legal[0]) + 1,
        "legal_count": len(legal),
    }


def test_a_capped_menu_run_plays_only_legal_actions_and_records_what_was_left_out(tmp_path):
    spec = PairSpec.build(world="schelling", seed=3, controller="llm", influence=2, rounds=2, objective="integrate")
    ctl = LLMController(
        get_world("schelling"),
        "integrate",
        chat_model=GrammarModel(),
        model="fake:grammar",
        prompt_style="menu",
        menu_cap=6,
    )
    run_pair(spec, tmp_path, controller=ctl)
    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    calls = [c for c in read_jsonl(tmp_path / "llm_calls.jsonl") if c["phase"] != "coordination"]
    assert decisions and all(d["outcome"] != "policy_error" for d in decisions)
    assert calls and all(c["menu_size"] == 6 and c["legal_count"] > 6 for c in calls)

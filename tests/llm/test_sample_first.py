"""The sample-first grammar (the chosen token checked, the whole vocabulary only on a rejection)
gives answers exactly as legal as the grammar applied to every token: at temperature 0 the same
answers, and sampled at temperature 1 every answer parses and is legal. The real local model."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from mam_bench.prompts import prompts_for
from mam_bench.protocol import Request
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare
from tests.llm.local_model_limits import MARKS

pytestmark = MARKS
WORLDS = ("schelling", "voter", "flocking")


def case(world: str) -> tuple[Any, Request]:
    world_cls = get_world(world)
    objective = next(iter(world_cls.scoring.objectives))
    spec = PairSpec.build(world=world, seed=1000, controller="stay", influence=2, rounds=5, objective=objective)
    prep = prepare(spec)
    aid = prep.influence_ids[0]
    req = Request(world, aid, 0, objective, prep.new_world(True).observe(aid), (), "one_call")
    return prompts_for(world_cls, objective, style="compact"), req


def answers(sample_first: bool, temperature: float) -> list[tuple[str, str | None]]:
    from mam_bench.steering.llm.local_model import LocalChatModel

    model = LocalChatModel(sample_first=sample_first, temperature=temperature)
    out = []
    for world in WORLDS:
        prompts, req = case(world)
        messages = [SystemMessage(content=prompts.system(req)), HumanMessage(content=prompts.user(req, "one_call"))]
        bound = model.bind(json_schema=prompts.answer_schema("one_call", req), seed=7)
        text = str(asyncio.run(bound.ainvoke(messages)).content)
        out.append((text, prompts.parse(text, req, "one_call").error))
    return out


def test_sample_first_answers_are_as_legal_as_the_full_grammar() -> None:
    greedy_full, greedy_first = answers(False, 0.0), answers(True, 0.0)
    assert greedy_first == greedy_full
    assert all(error is None for _, error in greedy_first)
    sampled = answers(True, 1.0)
    assert all(error is None for _, error in sampled), sampled

"""Every world's prompt says what its answer schema asks, and nothing else: one answer format (no
leftover free-text `ACTION:`/`MSG:` where JSON is asked), the message bound the schema holds
(and no message where the answer carries none), a menu whose lines are the schema's choices, and
answers drawn from the schema that read as actions (legal ones where the schema lists them). The
compact style stays short on the quick-tier worlds."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from mam_bench.prompts import prompts_for
from mam_bench.protocol import Request
from mam_bench.registry import get_world, world_names
from mam_bench.runner import PairSpec, prepare
from tests.support.schema_sampler import sampled_answer

QUICK = ("schelling", "flocking", "boltzmann", "voter", "civil_violence")
STYLES = ("full", "menu", "compact")
#: characters of a compact round-0 prompt on a quick-tier world (bench/prompt_tokens.py counts
#: gemma's tokens: 300-400 a call)
COMPACT_CHARS = 1600


def request(world: str, phase: str) -> tuple[Any, Request, str]:
    world_cls = get_world(world)
    objective = next(iter(world_cls.scoring.objectives))
    spec = PairSpec.build(world=world, seed=1000, controller="stay", influence=2, rounds=5, objective=objective)
    prep = prepare(spec)
    live = prep.new_world(True)
    aid = prep.influence_ids[0]
    return world_cls, Request(world, aid, 0, objective, live.observe(aid), (), phase), objective


def message_bound(schema: dict[str, Any]) -> int | None:
    msg = (schema.get("properties") or {}).get("message")
    return msg.get("maxLength") if isinstance(msg, dict) else None


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("world", sorted(world_names()))
def test_every_world_prompt_holds_to_its_schema(world: str, style: str) -> None:
    for phase in ("decision", "one_call"):
        world_cls, req, objective = request(world, phase)
        prompts = prompts_for(world_cls, objective, style=style)
        schema = prompts.answer_schema(phase, req)
        text = prompts.system(req) + "\n" + prompts.user(req, phase)
        assert schema is not None, f"{world} {style} {phase}: no schema"
        assert "Think step by step" not in text and "ACTION: [" not in text, f"{world} {style} {phase}"
        bound = message_bound(schema)
        carries = "message" in world_cls.Action.model_fields
        if phase == "decision" and not carries:
            assert bound is None, f"{world} {style}: a decision asks for no message"
        if bound is not None:
            assert f"at most {bound} characters" in text, f"{world} {style} {phase}: the bound is not said"
        choice = (schema.get("properties") or {}).get("choice")
        if choice is not None:
            n = len(choice["enum"])
            numbers = [int(m.group(1)) for m in re.finditer(r"^(\d+)\. ", text, re.M)]
            assert numbers == list(range(1, n + 1)), f"{world} {style}"
        rng = random.Random(f"{world}:{style}:{phase}")
        for _ in range(10):
            answer = sampled_answer(schema, rng)
            parsed = prompts.parse(answer, req, phase)
            where = f"{world} {style} {phase}: {answer[:200]} -> {parsed.error}"
            if prompts.legal_actions(req) is not None:  # the schema lists the legal actions
                assert parsed.error is None, where
            else:  # the world's own schema: it reads as an action (legality is the world's)
                assert parsed.action is not None, where
            if bound is not None and parsed.message:
                assert len(parsed.message) <= bound


@pytest.mark.parametrize("world", QUICK)
def test_the_compact_prompt_is_short_and_offers_a_menu(world: str) -> None:
    world_cls, req, objective = request(world, "one_call")
    compact = prompts_for(world_cls, objective, style="compact")
    full = prompts_for(world_cls, objective, style="full")
    small = compact.system(req) + compact.user(req, "one_call")
    assert len(small) <= COMPACT_CHARS, (world, len(small))
    assert len(small) < len(full.system(req) + full.user(req, "one_call"))
    assert compact.menu(req), f"{world}: the compact style answers from a menu"
    assert json.dumps(compact.answer_schema("one_call", req))  # a plain JSON schema

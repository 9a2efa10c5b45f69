"""Observation text round-trips, answers parse, and a scripted fake model plays every task
through the paired runner with records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import cycle

import pytest

from mam_bench.controller import Controller
from mam_bench.models.swarm.answer import AnswerError, parse_answer
from mam_bench.protocol import Decision, Request
from mam_bench.records import read_rounds
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round

WORLDS = ["pursuit", "synchronization", "foraging", "flocking", "transport"]


@pytest.mark.parametrize("world", WORLDS)
def test_view_text_round_trips(world):
    cls = get_world(world)
    w = cls(seed=2, influence_ids=[0, 1])
    for _ in range(7):
        obs = w.observe(0)
        again = cls.Observation.from_text(obs.to_text())
        assert again == obs
        play_round(w)
    obs = w.observe(1)
    assert len(obs.frames) == min(5, 7) and obs.frames[0].cells[2][2] == "Y"
    assert cls.Observation.from_text(obs.to_text()) == obs
    prompt = obs.prompt_text()
    for part in (
        "You are Agent 1",
        "Vision for the last",
        "Current Step:",
        "Message you received:",
        "Your action history:",
        "ACTION:",
        "MSG:",
    ):
        assert part in prompt


def test_view_text_keeps_messages_and_dollar_agents():
    from mam_bench.models.swarm.synchronization.model import SynchronizationWorld
    from mam_bench.models.swarm.view import ActionRecord

    w = SynchronizationWorld(seed=0)
    obs = w.observe(0).model_copy(
        update={
            "messages": ('say "hi", ok?', "ünïcode 12"),
            "actions": (
                ActionRecord(round=0, action="SWITCH", message=None),
                ActionRecord(round=1, action="UP", message="a b"),
            ),
        }
    )
    assert SynchronizationWorld.Observation.from_text(obs.to_text()) == obs
    assert any(c.startswith("$") for row in w.observe(0).frames[0].cells for c in row) or not (~w.lights).any()


def test_parse_answer():
    allowed = ("UP", "DOWN", "LEFT", "RIGHT", "STAY", "SWITCH")
    assert parse_answer("thinking...\nACTION: UP\nMSG: hello", allowed) == {"action": "UP", "message": "hello"}
    assert parse_answer("ACTION: [switch]\nMSG: []", allowed) == {"action": "SWITCH", "message": None}
    assert parse_answer("ACTION: JUMP then LEFT", allowed)["action"] == "LEFT"
    assert parse_answer("MSG: only talk", allowed) == {"action": "STAY", "message": "only talk"}
    long = parse_answer("ACTION: DOWN\nMSG: " + "x" * 200, allowed)["message"]
    assert len(long) == 120 and long.endswith("...")
    with pytest.raises(AnswerError):
        parse_answer("I will go up", allowed)


class ScriptedModel(Controller):
    """A fake LLM: answers from a script in SwarmBench format, parsed by the world's parser."""

    name = "scripted"

    def __init__(self, world_cls, answers):
        self.world_cls, self.answers, self.prompts = world_cls, cycle(answers), []

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for req in requests:
            self.prompts.append(req.observation.prompt_text())
            text = next(self.answers)
            try:
                parsed = self.world_cls.Action.parse_answer(text)
            except ValueError as exc:
                out.append(Decision.policy_error(str(exc), raw=text))
                continue
            out.append(Decision(action={"action": parsed["action"]}, message=parsed["message"], raw=text))
        return out


@pytest.mark.parametrize("world", WORLDS)
def test_scripted_llm_run_is_parsed_and_recorded(world, tmp_path):
    cls = get_world(world)
    answers = [f"I think.\nACTION: {a}\nMSG: hello from {a.lower()}" for a in cls.allowed] + ["no idea"]
    controller = ScriptedModel(cls, answers)
    spec = PairSpec.build(world=world, seed=1, controller="rule", params={"rounds": 12, "board": "off"})
    result = run_pair(spec, out=tmp_path, controller=controller)
    assert result["treatment"]["audit"]["identity_holds"]
    rows = [json.loads(line) for line in (tmp_path / "decisions.jsonl").read_text().splitlines()]
    acted = {r["action"]["action"] for r in rows}
    assert set(cls.allowed) <= acted | {"STAY"}
    assert any(r["message"] and r["message"].startswith("hello from") for r in rows)
    assert any(r["outcome"] == "policy_error" for r in rows)
    assert (tmp_path / "treatment.jsonl").exists() and (tmp_path / "result.json").exists()
    assert controller.prompts and "ACTION:" in controller.prompts[0]
    # the messages were heard: some later treatment row carries them in the snapshot
    tre = read_rounds(tmp_path, "treatment.jsonl")
    assert any(m and m.startswith("hello") for row in tre[1:] for m in row["messages"])

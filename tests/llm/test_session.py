"""Session agents against the loopback server: a conversation over the run, a private notebook
written through a tool, compaction, and records that a replay plays back with no model (LangChain
and llama.cpp unimportable)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from mam_bench.capabilities import null_action
from mam_bench.records import read_jsonl
from tests.benchmark.test_shipped_gemma import WITHOUT_MODEL
from tests.llm.conftest import run_llm
from tests.support.cli import REPO
from tests.support.openai_server import OpenAIServer

TURN = re.compile(r"(Coordination|Decision) phase, round (\d+)")


def turn_of(body: dict[str, Any]) -> tuple[str, int, bool]:
    """(phase, round) of the turn this request belongs to, and whether it opens the turn."""
    msgs = body["messages"]
    texts = [m["content"] for m in msgs if m["role"] == "user"]
    phase, rnd = next(((m.group(1), int(m.group(2))) for t in reversed(texts) if (m := TURN.search(t))), ("summary", 0))
    return phase, rnd, msgs[-1]["role"] == "user" and bool(TURN.search(msgs[-1]["content"]))


def session_reply(body: dict[str, Any]) -> str:
    last = body["messages"][-1]["content"]
    if "Summarise what you need" in last:
        return json.dumps({"summary": "I noted my plan; I keep staying."})
    phase, rnd, opening = turn_of(body)
    if phase == "Coordination":
        return json.dumps({"tool": "post", "text": f"round {rnd}: I hold"})
    if rnd == 0 and opening:  # the first round (rounds count from 0)
        actor = re.search(r"you (\d+) group", body["messages"][-1]["content"]).group(1)
        return json.dumps({"tool": "note", "text": f"NOTEBOOK-PLAN-{actor}"})
    if rnd == 1 and opening:
        return json.dumps({"tool": "read_board"})
    return json.dumps({"tool": "act", "action": {"stay": True}})


def test_a_session_agent_reads_its_first_note_in_the_fifth_round_and_replay_needs_no_model(
    tmp_path: Path, api_key: str
):
    with OpenAIServer(reply=session_reply) as srv:
        run_llm(tmp_path / "run", srv.base_url, rounds=5, influence=2, agent="session", context_tokens=1500)
    fifth = [b for b in srv.bodies if turn_of(b)[:2] == ("Decision", 4)]
    assert fifth and all("NOTEBOOK-PLAN-" in json.dumps(b["messages"]) for b in fifth)
    rows = read_jsonl(tmp_path / "run" / "sessions.jsonl")
    kinds = {r["kind"] for r in rows}
    assert "turn" in kinds and "summary" in kinds  # the 1500-token budget forced a compaction
    turns = [r for r in rows if r["kind"] == "turn"]
    assert all(r["messages"] and r["tools"] for r in turns)
    assert any(t["result"].startswith("noted") for r in turns for t in r["tools"])
    assert any(r["notebook"] for r in turns if r["round"] == 4)
    decisions = read_jsonl(tmp_path / "run" / "decisions.jsonl")
    assert decisions and all(d["outcome"] != "policy_error" for d in decisions)
    # each request of a turn saw the whole conversation: a tool's result comes back before the act
    acts = [b for b in srv.bodies if turn_of(b)[:2] == ("Decision", 0) and not turn_of(b)[2]]
    assert acts and all("noted (1 lines" in b["messages"][-1]["content"] for b in acts)

    # the replay plays the recorded treatment back with LangChain and llama.cpp unimportable
    script = tmp_path / "no_model.py"
    script.write_text(WITHOUT_MODEL)
    argv = ["run", "schelling", "--seed", "22", "--rounds", "5", "--influence", "2", "--policy", "replay"]
    argv += ["--replay", str(tmp_path / "run"), "--out", str(tmp_path / "replay")]
    done = subprocess.run([sys.executable, str(script), *argv], capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    played = json.loads((tmp_path / "replay" / "result.json").read_text())["treatment"]
    original = json.loads((tmp_path / "run" / "result.json").read_text())["treatment"]
    assert played["final"] == original["final"] and played["rounds"] == original["rounds"] == 5
    assert read_jsonl(tmp_path / "replay" / "treatment.jsonl") == read_jsonl(tmp_path / "run" / "treatment.jsonl")


def test_an_agent_the_world_says_cannot_act_only_communicates(tmp_path: Path) -> None:
    """A jailed citizen: no action is asked for; a session agent gets a turn to read and note."""
    import asyncio
    import dataclasses

    from langchain_core.language_models import FakeListChatModel

    from mam_bench.protocol import Request
    from mam_bench.records import RunRecords
    from mam_bench.registry import get_world
    from mam_bench.steering.llm import LLMController

    world_cls = get_world("civil_violence")
    world = world_cls(seed=0)
    aid = world.actor_ids()[0]
    free = world.observe(aid)
    jailed = dataclasses.replace(free, extra={**free.extra, "jailed_rounds": 4})
    answers = ['{"tool": "note", "text": "jailed; wait"}', '{"tool": "done"}', '{"tool": "act", "action": {}}']
    model = FakeListChatModel(responses=answers)
    ctl = LLMController(world_cls, "incite", chat_model=model, model="fake:list", agent="session")
    records = RunRecords(tmp_path)
    ctl.attach_records(records)
    req = Request("civil_violence", aid, 0, "incite", jailed, (), "decision")
    decision = asyncio.run(ctl.decide([req]))[0]
    records.close()
    assert decision.action == null_action(world_cls.Action) and decision.error is None
    rows = read_jsonl(tmp_path / "sessions.jsonl")
    assert [(r["phase"], [t["result"] for t in r["tools"]]) for r in rows] == [
        ("idle", ["noted (1 lines in your notebook)", "done"])
    ]
    assert world_cls.Action.can_act(free) and not world_cls.Action.can_act(jailed)

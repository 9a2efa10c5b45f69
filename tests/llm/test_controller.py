"""Controller behaviour with fake chat models: isolation of failures, the concurrency bound,
the text fallback parser, one-call mode, message/action mismatches, replay."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage

from mam_bench.answers import first_json
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Request
from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.llm import LLMController
from tests.llm.scripted import ScriptedChatModel

IDS = [0, 1, 2, 3, 150, 151, 152, 153]


def world() -> SchellingWorld:
    return SchellingWorld(seed=22, influence_ids=IDS, mask_ids=IDS, role="treatment")


def requests(w: SchellingWorld, phase: str = "decision") -> list[Request]:
    return [Request("schelling", a, 0, "integrate", w.observe(a), (), phase) for a in IDS]


def test_one_agent_failing_does_not_cancel_the_others() -> None:
    def decide(fail_for: tuple[int, ...]) -> list[Any]:
        ctl = LLMController(
            SchellingWorld, "integrate", chat_model=ScriptedChatModel(fail_for=fail_for), model="fake:s", max_retries=0
        )
        return asyncio.run(ctl.decide(requests(world())))

    clean, failing = decide(()), decide((2,))
    assert [d.error for d in clean] == [None] * len(IDS)  # scripted junk gets a repair, never an error
    assert [d.error is not None for d in failing] == [a == 2 for a in IDS]
    assert "transport" in failing[IDS.index(2)].error
    # every other agent decided exactly what it decides when nobody fails
    assert [d for a, d in zip(IDS, failing) if a != 2] == [d for a, d in zip(IDS, clean) if a != 2]


class CountingModel(ScriptedChatModel):
    """Sleeps in the call and records how many calls overlap."""

    active: list[int] = [0, 0]

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        lock = _LOCK
        with lock:
            self.active[0] += 1
            self.active[1] = max(self.active[1], self.active[0])
        time.sleep(0.1)
        with lock:
            self.active[0] -= 1
        return super()._generate(messages, stop, run_manager, **kw)


_LOCK = threading.Lock()


def test_concurrency_is_bounded() -> None:
    model = CountingModel()
    model.active[:] = [0, 0]
    ctl = LLMController(SchellingWorld, "integrate", chat_model=model, model="fake:c", max_concurrency=3)
    asyncio.run(ctl.post(requests(world(), "coordination")))
    assert model.active[1] == 3  # three calls in flight at once (concurrent), never a fourth (bounded)


def test_text_fallback_parser_forms() -> None:
    w = world()
    obs = w.observe(0)
    (r, c) = obs.vacancies()[0]
    answers = {
        f'{{"row": {r}, "col": {c}}}': {"row": r, "col": c},
        f'Sure! ```json\n{{"row": {r}, "col": {c}}}\n```': {"row": r, "col": c},
        f'I will do this: {{"action": {{"row": {r}, "col": {c}}}, "message": "hi"}} ok': {"row": r, "col": c},
        f"0 -> {r},{c}": {"row": r, "col": c},
        f"0→{r},{c}": {"row": r, "col": c},
        f"I (0) will target {r},{c}": {"row": r, "col": c},
        f"({r}, {c})": {"row": r, "col": c},
        "0 -> hold": {"stay": True},
        "stay": {"stay": True},
    }
    for text, want in answers.items():
        ctl = LLMController(SchellingWorld, "integrate", chat_model=FakeListChatModel(responses=[text]), model="fake:l")
        d = asyncio.run(ctl.decide([Request("schelling", 0, 0, "integrate", obs, (), "decision")]))[0]
        assert d.error is None and d.action == want, (text, d)


def test_repair_quotes_the_validation_error() -> None:
    w = world()
    obs = w.observe(0)
    occupied = next((r, c) for r, line in enumerate(obs.grid) for c, ch in enumerate(line) if ch in "AB")
    seen: list[Any] = []

    class Spy(GenericFakeChatModel):
        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
            seen.append(messages)
            return super()._generate(messages, stop, run_manager, **kw)

    model = Spy(
        messages=iter(
            [
                AIMessage(content=json.dumps({"row": occupied[0], "col": occupied[1]})),
                AIMessage(content='{"stay": true}'),
            ]
        )
    )
    ctl = LLMController(SchellingWorld, "integrate", chat_model=model, model="fake:g")
    d = asyncio.run(ctl.decide([Request("schelling", 0, 0, "integrate", obs, (), "decision")]))[0]
    assert d.action == {"stay": True} and d.error is None
    assert "occupied" in str(seen[1][-1].content) and f"{occupied[0]},{occupied[1]}" in str(seen[1][-1].content)
    assert ctl.totals.repairs == 1


def test_first_json_edge_cases() -> None:
    assert first_json('noise {"a": 1} {"b": 2}') == {"a": 1}
    assert first_json("{{{{") is None
    # gemma3-270m under the grammar wrote a raw newline into its message (v2 quick tier, 5 answers)
    raw = '{ "choice": 1, "message": "message: 1:accepted 2:blocked | round: 3, state: {\nR1: {" } '
    assert first_json(raw) == {"choice": 1, "message": "message: 1:accepted 2:blocked | round: 3, state: {\nR1: {"}
    assert first_json('prose {"a": "x\ty"} more') == {"a": "x\ty"}
    assert first_json("[" * 3000 + "]" * 3000) is None  # nested past any object: no JSON object, no crash


def test_pair_with_fake_model_counts_mismatches_and_replays(tmp_path: Path) -> None:
    spec = PairSpec.build(
        world="schelling",
        seed=22,
        controller="llm",
        rounds=4,
        influence=8,
        controller_options={"model": "fake:scripted"},
    )
    ctl = LLMController(SchellingWorld, "integrate", chat_model=ScriptedChatModel(), model="fake:scripted")
    res = run_pair(spec, tmp_path / "llm", controller=ctl)
    rows = read_jsonl(tmp_path / "llm" / "decisions.jsonl")
    declared = [r for r in rows if r["declared"] is not None]
    assert declared, "LLM posts declare targets in the 'ID -> r,c' style"
    mism = [r for r in rows if r["mismatch"]]
    assert mism and res["treatment"]["audit"]["mismatches"] == len(mism)
    assert all(r["declared"] != r["action"] for r in mism)
    assert any(r["declared"] == {"stay": True} and r["action"] != {"stay": True} for r in mism)  # "hold", then moved
    # replay the recorded decisions with no model: the same treatment
    replay = PairSpec.build(
        world="schelling",
        seed=22,
        controller="replay",
        rounds=4,
        influence=8,
        controller_options={"replay": str(tmp_path / "llm")},
    )
    again = run_pair(replay, tmp_path / "replay")
    for key in ("treatment", "delta", "lift"):
        assert again[key] == res[key]
    calls = read_jsonl(tmp_path / "llm" / "llm_calls.jsonl")
    assert calls and all("error" in c for c in calls)  # the column is there even when nothing failed
    assert res["controller"]["name"] == "llm"  # the built-in LLM controller passed in keeps its own name


def test_one_call_mode_posts_and_acts_with_one_call_each(tmp_path: Path) -> None:
    class OneCall(ScriptedChatModel):
        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
            out = super()._generate(messages, stop, run_manager, **kw)
            text = str(messages[-1].content)
            me = text.split("you ", 1)[1].split(" ", 1)[0]
            out.generations[0].message.content = json.dumps({"message": f"{me} -> hold", "action": {"stay": True}})
            return out

    spec = PairSpec.build(
        world="schelling",
        seed=22,
        controller="llm",
        rounds=2,
        influence=4,
        controller_options={"model": "fake:one", "one_call": True},
    )
    ctl = LLMController(SchellingWorld, "integrate", chat_model=OneCall(), model="fake:one", one_call=True)
    res = run_pair(spec, tmp_path / "one", controller=ctl)
    assert res["llm"]["calls"] == 4 * 2
    rows = read_jsonl(tmp_path / "one" / "decisions.jsonl")
    assert all(r["post"] and r["action"] == {"stay": True} and not r["mismatch"] for r in rows)

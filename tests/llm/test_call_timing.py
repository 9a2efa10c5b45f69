"""Honest timing: each call's row splits the wait before the model took it (`queue_s`: the
concurrency bound, the first-call gate, an in-process model's lock) from the model's own time
on it (`service_s`), and `--rates-from` estimates from the service time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.benchmark.rates import recorded_rates
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Request
from mam_bench.records import RunRecords, read_jsonl
from mam_bench.steering.llm import LLMController
from tests.llm.conftest import run_llm

#: what the in-process model says it waited for its lock and computed, per call
LOCK_S, SERVICE_S = 7.25, 0.5


class Timed(BaseChatModel):
    """Answers stay, and reports its own lock wait and service time as the local model does."""

    @property
    def _llm_type(self) -> str:
        return "timed-fake"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any):
        meta = {"queue_s": LOCK_S, "service_s": SERVICE_S, "prefilled_tokens": 12}
        msg = AIMessage(content='{"stay": true}', response_metadata=meta)
        return ChatResult(generations=[ChatGeneration(message=msg)])


def test_a_model_that_reports_its_lock_wait_has_it_in_queue_not_service(tmp_path: Path) -> None:
    world = SchellingWorld(seed=22, influence_ids=[0, 1], mask_ids=[0, 1], role="treatment")
    ctl = LLMController(SchellingWorld, "integrate", chat_model=Timed(), model="fake:timed", max_concurrency=1)
    records = RunRecords(tmp_path)
    ctl.attach_records(records)
    reqs = [Request("schelling", a, 0, "integrate", world.observe(a), (), "decision") for a in (0, 1)]
    asyncio.run(ctl.decide(reqs))
    records.close()
    rows = read_jsonl(tmp_path / "llm_calls.jsonl")
    assert len(rows) == 2
    for row in rows:
        assert row["service_s"] == SERVICE_S and row["queue_s"] >= LOCK_S
        assert row["prefilled_tokens"] == 12


def test_endpoint_rows_time_the_request_and_cached_rows_time_nothing(tmp_path: Path, server: Any) -> None:
    run_llm(tmp_path / "a", server.base_url, cache=tmp_path / "c.sqlite", rounds=2, influence=4, max_concurrency=2)
    rows = read_jsonl(tmp_path / "a" / "llm_calls.jsonl")
    assert rows and all(r["service_s"] > 0 and r["queue_s"] >= 0 for r in rows)
    assert all(r["queue_s"] + r["service_s"] <= r["latency_s"] + 1e-3 for r in rows)
    assert all("prefilled_tokens" not in r for r in rows)  # an endpoint does not say
    run_llm(tmp_path / "b", server.base_url, cache=tmp_path / "c.sqlite", rounds=2, influence=4, max_concurrency=2)
    again = read_jsonl(tmp_path / "b" / "llm_calls.jsonl")
    assert again and all(r["cached"] and r["queue_s"] is None and r["service_s"] is None for r in again)


def test_rates_come_from_service_time_and_older_records_from_latency(tmp_path: Path) -> None:
    new = [
        {"model": "m", "phase": "decision", "attempt": 0, "latency_s": 9.0, "queue_s": 8.0, "service_s": 1.0},
        {"model": "m", "phase": "decision", "attempt": 0, "latency_s": 5.0, "queue_s": 2.0, "service_s": 3.0},
        {"model": "m", "phase": "decision", "attempt": 0, "latency_s": 0.0, "cached": True, "service_s": None},
    ]
    old = [{"model": "o", "phase": "decision", "attempt": 0, "latency_s": 4.0, "cached": False}]
    for name, rows in (("new", new), ("old", old)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "llm_calls.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    rates = recorded_rates([tmp_path / "new", tmp_path / "old"])
    assert rates["m"].seconds == 2.0 and rates["o"].seconds == 4.0

"""Acceptance 2: 20% transient faults (429/500/timeout) change nothing in result.json."""

from __future__ import annotations

from pathlib import Path

from tests.llm.conftest import result_text, run_llm
from tests.llm.scripted import server_reply
from tests.support.openai_server import OpenAIServer, transient_faults


def test_five_rounds_with_faults_equal_clean_run(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply) as clean:
        run_llm(tmp_path / "clean", clean.base_url, rounds=5)
    with OpenAIServer(
        reply=server_reply, fault=transient_faults(0.2, seed=7), retry_after="0.05", timeout_sleep=5.0
    ) as faulty:  # a timed-out request sleeps past the 4 s limit; an answered one never comes near it
        res = run_llm(tmp_path / "faulty", faulty.base_url, rounds=5, timeout=4.0)
    assert faulty.received > faulty.answered  # faults really happened
    assert {"429", "500", "timeout"} <= set(faulty.faults)
    assert sum(faulty.faults.values()) >= 0.1 * faulty.received
    assert result_text(tmp_path / "faulty") == result_text(tmp_path / "clean")
    assert res["treatment"]["audit"]["identity_holds"]
    assert res["llm"]["calls"] == clean.answered

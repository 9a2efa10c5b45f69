"""What the provider returns never carries a key into a record, the cache or the log; and a
request sent before a kill is known to a resume (it may have been answered and billed)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from mam_bench.errors import BackendFailed
from tests.llm.conftest import KEY, run_llm
from tests.llm.scripted import server_reply
from tests.support.cli import cli_in_process, llm_pair_args
from tests.support.openai_server import OpenAIServer


def test_an_endpoint_echoing_the_key_everywhere_leaks_it_nowhere(
    tmp_path: Path, api_key: str, capsys: pytest.CaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "r"
    with OpenAIServer(reply=server_reply, echo_key=True) as srv:
        code, err = cli_in_process(
            capsys, *llm_pair_args(srv.base_url, out, "--api-key-env", "MAM_TEST_OPENAI_KEY", rounds=2)
        )
        printed = capsys.readouterr()
    assert code in (0, 3), err
    assert srv.answered > 0
    result = json.loads((out / "result.json").read_text())
    # the echo really came back: the provider's model name held the key, now scrubbed
    assert any("[key]" in m for m in result["provenance"]["provider_models"])
    for p in (f for f in out.rglob("*") if f.is_file()):
        assert KEY.encode() not in p.read_bytes(), p.name
    db = sqlite3.connect(out / "llm_cache.sqlite")
    dumped = "\n".join(db.iterdump())
    db.close()
    assert "[key]" in dumped and KEY not in dumped
    assert KEY not in err + printed.out + printed.err + caplog.text


def test_a_request_in_flight_at_a_stop_is_told_to_the_next_run(
    tmp_path: Path, api_key: str, capsys: pytest.CaptureFixture
) -> None:
    cache = tmp_path / "cache.sqlite"
    with OpenAIServer(reply=server_reply, hold_after=5) as srv:
        with pytest.raises(BackendFailed):  # the deadline cuts the held calls off mid-flight
            run_llm(tmp_path / "a", srv.base_url, cache=cache, rounds=2, influence=4, deadline=10.0, timeout=30.0)
        held = srv.held
        srv.hold_after = None
        srv.release.set()
        capsys.readouterr()
        run_llm(tmp_path / "b", srv.base_url, cache=cache, rounds=2, influence=4)
    assert held >= 1
    note = capsys.readouterr().err
    assert f"note: {held} LLM call(s) were under way" in note
    db = sqlite3.connect(cache)
    assert db.execute("SELECT COUNT(*) FROM pending").fetchone()[0] == 0  # all answered this time
    db.close()

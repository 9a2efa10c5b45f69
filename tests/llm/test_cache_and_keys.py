"""Acceptance 4 (a rerun with the same cache makes no request, same result.json) and 6 (the API
key is in no record file), plus accounting in llm_calls.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

from mam_bench.records import read_jsonl
from tests.llm.conftest import KEY, result_text, run_llm


def test_rerun_with_same_cache_makes_no_requests(tmp_path: Path, server) -> None:
    cache = tmp_path / "shared_cache.sqlite"
    first = run_llm(tmp_path / "first", server.base_url, cache=cache, rounds=3)
    requests_after_first = server.received
    assert requests_after_first > 0
    run_llm(tmp_path / "second", server.base_url, cache=cache, rounds=3)
    assert server.received == requests_after_first  # zero HTTP requests
    assert result_text(tmp_path / "second") == result_text(tmp_path / "first")
    calls = read_jsonl(tmp_path / "second" / "llm_calls.jsonl")
    assert calls and all(c["cached"] and c["requests"] == 0 for c in calls)
    assert first["llm"]["calls"] == len(calls)


def test_llm_calls_are_accounted(tmp_path: Path, server) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:scripted": {"input": 1.0, "output": 2.0}}))
    res = run_llm(tmp_path / "run", server.base_url, rounds=2, influence=4, price_table=str(prices))
    rows = read_jsonl(tmp_path / "run" / "llm_calls.jsonl")
    assert len(rows) == res["llm"]["calls"] == server.answered
    for row in rows:
        assert {"model", "prompt_hash", "input_tokens", "output_tokens", "latency_s", "cost", "retries"} <= set(row)
        assert row["input_tokens"] > 0 and row["cost"] > 0
    assert res["llm"]["input_tokens"] == sum(r["input_tokens"] for r in rows)
    assert abs(res["llm"]["cost"] - sum(r["cost"] for r in rows)) < 1e-9
    assert "latency_s" not in res["llm"] and "cache_hits" not in res["llm"]  # nondeterministic: not in result.json


def test_no_record_contains_the_api_key(tmp_path: Path, server) -> None:
    out = tmp_path / "run"
    run_llm(out, server.base_url, rounds=2, influence=4)
    assert any(
        KEY in v for h in server.headers for k, v in h.items() if k.lower() == "authorization"
    )  # the key was really used
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {"result.json", "spec.json", "decisions.jsonl", "llm_calls.jsonl", "board.jsonl"} <= {p.name for p in files}
    for p in files:
        assert KEY.encode() not in p.read_bytes(), p.name

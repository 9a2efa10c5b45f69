"""`--max-cost` is checked before each LLM call, not after the pair, so one run can
never overshoot it; an unpriced model cannot be bounded, so it is refused before anything is written."""

from __future__ import annotations

import json

import yaml

from mam_bench.cli import main
from mam_bench.records import read_jsonl
from tests.support.cli import llm_pair_args
from tests.support.openai_server import OpenAIServer, schelling_reply

KEY = "sk-costguard-key-8d2f4a6c1e"
#: USD per million tokens: $0.001 a token, so one Schelling call is estimated at about $1.5-2
PRICES = {"openai:m": {"input": 1000.0, "output": 1000.0}}


def _llm_run(srv: OpenAIServer, out, *extra: str) -> int:
    return main(
        llm_pair_args(srv.base_url, out, "--api-key-env", "COSTGUARD_KEY", "--max-concurrency", "2", *extra, rounds=3)
    )


def test_the_guard_stops_before_the_call_that_would_pass_the_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COSTGUARD_KEY", KEY)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    out = tmp_path / "r"
    with OpenAIServer(reply=schelling_reply) as srv:
        code = _llm_run(srv, out, "--price-table", str(prices), "--max-cost", "10")
        received = srv.received
    err = capsys.readouterr().err
    assert code == 3, err
    assert "error: backend: --max-cost 10: the next call" in err
    calls = read_jsonl(out / "llm_calls.jsonl")
    # a few calls were made, every one the server answered is recorded, and the spend stays within the limit
    assert 0 < len(calls) == received
    assert sum(c["cost"] for c in calls) <= 10
    # a full run would make 16 agents x 3 rounds x 2 phases calls: the guard stopped it early
    assert received < 16 * 3 * 2
    assert not (out / "result.json").exists()  # no lift is reported for a run that was cut short
    assert (out / "spec.json").exists() and (out / "llm_cache.sqlite").exists()


def test_a_limit_that_is_not_reached_lets_the_run_finish_within_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COSTGUARD_KEY", KEY)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:m": {"input": 0.1, "output": 0.1}}))
    out = tmp_path / "r"
    with OpenAIServer(reply=schelling_reply) as srv:
        assert _llm_run(srv, out, "--price-table", str(prices), "--max-cost", "1") == 0
    result = json.loads((out / "result.json").read_text())
    assert 0 < result["llm"]["cost"] <= 1 and result["llm"]["calls"] == 16 * 3 * 2


def test_an_unpriced_model_under_max_cost_is_refused_before_any_write(tmp_path, capsys):
    out = tmp_path / "r"
    argv = ["run", "schelling", "--policy", "llm", "--model", "openai:unpriced", "--base-url", "http://127.0.0.1:9/v1"]
    assert main([*argv, "--max-cost", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: max_cost: openai:unpriced has no price")
    assert not out.exists()


def test_an_unpriced_model_in_a_suite_under_max_cost_is_refused(tmp_path, capsys):
    suite = tmp_path / "s.yaml"
    case = {"world": "schelling", "model": "openai:unpriced", "controller_options": {"base_url": "http://127.0.0.1:9"}}
    suite.write_text(yaml.safe_dump({"name": "u", "seeds": 1, "cases": [case]}))
    out = tmp_path / "exp"
    assert main(["experiment", str(suite), "--out", str(out), "--max-cost", "1"]) == 2
    assert "openai:unpriced has no price, so --max-cost cannot bound it" in capsys.readouterr().err
    assert not out.exists()

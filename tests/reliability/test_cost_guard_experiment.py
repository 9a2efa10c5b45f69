"""An experiment's `--max-cost` bounds every pair's own calls too. Each LLM pair gets
the unreserved rest of the budget as its run's `max_cost`, so even the first pair (run before any
estimate exists) cannot pass the limit, and a pair stopped by the guard still counts its spend."""

from __future__ import annotations

import json

import yaml

from mam_bench.cli import main
from mam_bench.records import read_jsonl
from tests.support.openai_server import OpenAIServer, schelling_reply

KEY = "sk-costguard-exp-4b7e1d9a2c"
#: $0.001 a token: one Schelling pair (16 agents x 3 rounds x 2 phases) would cost about $150
PRICES = {"openai:m": {"input": 1000.0, "output": 1000.0}}


def test_no_pair_of_an_experiment_passes_its_max_cost(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COSTGUARD_KEY", KEY)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    out = tmp_path / "exp"
    with OpenAIServer(reply=schelling_reply) as srv:
        suite = {
            "name": "capped",
            "seeds": 3,
            "baselines": [],
            "cases": [
                {
                    "name": "llm",
                    "world": "schelling",
                    "controller": "llm",
                    "rounds": 3,
                    "controller_options": {
                        "model": "openai:m",
                        "base_url": srv.base_url,
                        "api_key_env": "COSTGUARD_KEY",
                        "price_table": str(prices),
                        "max_concurrency": 2,
                    },
                }
            ],
        }
        (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite))
        main(["experiment", str(tmp_path / "suite.yaml"), "--out", str(out), "--max-cost", "10", "--yes"])
        received = srv.received
    err = capsys.readouterr().err
    spent = [c["cost"] for d in (out / "pairs").iterdir() for c in read_jsonl(d / "llm_calls.jsonl")]
    assert 0 < len(spent) == received  # the first pair made calls, every one recorded
    assert sum(spent) <= 10, (sum(spent), err[-2000:])
    assert received < 3 * 16 * 3 * 2  # stopped long before the suite's full calls
    failures = read_jsonl(out / "failures.jsonl")
    assert failures and "--max-cost" in failures[0]["error"]

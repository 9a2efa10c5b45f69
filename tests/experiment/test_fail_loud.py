"""Fail loud: an LLM run whose answers are unusable is invalid (the CLI exits 3 naming the first
error, result.json says invalid) and an experiment leaves such pairs out of its statistics and
counts them; a run against a dead endpoint (a loopback port nobody listens on) stops after two
rounds in which every call failed (exit 3, records kept) and an experiment reports it as failed."""

from __future__ import annotations

import json
import socket

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from tests.support.cli import cli_process as cli
from tests.support.cli import llm_pair_args
from tests.support.openai_server import OpenAIServer

KEY_ENV = "MAM_TEST_DEAD_KEY"


def dead_url() -> str:
    with socket.socket() as s:  # bound, then closed: nobody listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_dead_endpoint_run_stops_after_two_failed_rounds_and_exits_3(tmp_path) -> None:
    out = tmp_path / "run"
    flags = ("--api-key-env", KEY_ENV, "--influence", "2", "--max-retries", "0", "--timeout", "1")
    args = llm_pair_args(dead_url(), out, *flags, model="openai:dead", rounds=5)
    proc = cli(*args, env={KEY_ENV: "sk-test-not-a-secret"})
    assert proc.returncode == 3, proc.stderr
    assert "every LLM call of rounds 0 and 1 failed" in proc.stderr and "records are kept" in proc.stderr
    assert (out / "decisions.jsonl").is_file() and not (out / "result.json").exists()
    rounds = {json.loads(line)["round"] for line in (out / "decisions.jsonl").read_text().splitlines()}
    assert rounds and max(rounds) <= 1  # it stopped there instead of paying for five rounds of failures


def test_unusable_answers_make_an_invalid_run_that_exits_3(tmp_path) -> None:
    out = tmp_path / "run"
    with OpenAIServer(reply=lambda body: "I would rather not say.") as srv:
        flags = ("--api-key-env", KEY_ENV, "--influence", "2", "--max-retries", "0")
        proc = cli(*llm_pair_args(srv.base_url, out, *flags), env={KEY_ENV: "sk-test-not-a-secret"})
    assert proc.returncode == 3, proc.stderr
    assert "invalid run" in proc.stderr
    validity = json.loads((out / "result.json").read_text())["validity"]
    assert validity["status"] == "invalid" and validity["policy_error_share"] == 1.0


def test_rule_run_is_valid_and_exits_0(tmp_path) -> None:
    proc = cli("run", "schelling", "--seed", "22", "--rounds", "2", "--out", str(tmp_path / "ok"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "ok" / "result.json").read_text())["validity"]["status"] == "valid"


def test_experiment_leaves_invalid_pairs_out_and_counts_them(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-not-a-secret")
    base = {"world": "schelling", "rounds": 2, "influence": 2}
    with OpenAIServer(reply=lambda body: "I would rather not say.") as srv:
        options = {"base_url": srv.base_url, "api_key_env": KEY_ENV, "max_retries": 0}
        dead = {"base_url": dead_url(), "api_key_env": KEY_ENV, "max_retries": 0, "timeout": 1}
        suite = parse_suite(
            {
                "seeds": [21, 22],
                "cases": [
                    {**base, "name": "mute", "model": "openai:m", "controller_options": options},
                    {**base, "name": "dead", "model": "openai:dead", "controller_options": dead},
                    {**base, "name": "random", "controller": "random"},
                ],
            }
        )
        out = run_experiment(suite, tmp_path / "exp", jobs=2)
    assert out.invalid == 2 and len(out.failed) == 2  # the dead endpoint's pairs failed: rerun to retry
    table = out.table
    assert list(table[table["case"] == "mute"]["valid"]) == [False, False]
    assert "dead" not in set(table["case"])
    s = out.summary[out.summary["reference_status"] == "all"].set_index(["case", "test"])
    assert s.loc[("mute", "lift"), "n"] == 0 and s.loc[("mute", "lift"), "invalid"] == 2
    assert s.loc[("mute", "vs stay"), "n"] == 0 and s.loc[("mute", "vs stay"), "invalid"] == 2
    assert s.loc[("random", "lift"), "n"] == 2 and s.loc[("random", "lift"), "invalid"] == 0
    assert "2 invalid pairs left out" in capsys.readouterr().err

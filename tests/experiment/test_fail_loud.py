"""Acceptance 7: an LLM run against a dead endpoint (a loopback port nobody listens on) is invalid:
the CLI exits 3 naming the first error, result.json says invalid, and an experiment leaves such
pairs out of its statistics and counts them."""

from __future__ import annotations

import json
import socket

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from tests.support.cli import cli_process as cli
from tests.support.cli import llm_pair_args

KEY_ENV = "MAM_TEST_DEAD_KEY"


def dead_url() -> str:
    with socket.socket() as s:  # bound, then closed: nobody listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_dead_endpoint_run_exits_3_and_is_invalid(tmp_path) -> None:
    out = tmp_path / "run"
    flags = ("--api-key-env", KEY_ENV, "--influence", "2", "--max-retries", "0", "--timeout", "1")
    proc = cli(*llm_pair_args(dead_url(), out, *flags, model="openai:dead"), env={KEY_ENV: "sk-test-not-a-secret"})
    assert proc.returncode == 3, proc.stderr
    assert "invalid run" in proc.stderr and "first error: transport" in proc.stderr
    validity = json.loads((out / "result.json").read_text())["validity"]
    assert validity["status"] == "invalid" and validity["policy_error_share"] == 1.0
    assert validity["first_error"].startswith("transport")


def test_rule_run_is_valid_and_exits_0(tmp_path) -> None:
    proc = cli("run", "schelling", "--seed", "22", "--rounds", "2", "--out", str(tmp_path / "ok"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "ok" / "result.json").read_text())["validity"]["status"] == "valid"


def test_experiment_leaves_invalid_pairs_out_and_counts_them(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-not-a-secret")
    base = {"world": "schelling", "rounds": 2, "influence": 2}
    suite = parse_suite(
        {
            "seeds": [21, 22],
            "cases": [
                {
                    **base,
                    "name": "dead",
                    "model": "openai:dead",
                    "controller_options": {
                        "base_url": dead_url(),
                        "api_key_env": KEY_ENV,
                        "max_retries": 0,
                        "timeout": 1,
                    },
                },
                {**base, "name": "random", "policy": "random"},
            ],
        }
    )
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    assert out.invalid == 2 and not out.failed
    table = out.table
    assert list(table[table["case"] == "dead"]["valid"]) == [False, False]
    s = out.summary[out.summary["reference_status"] == "all"].set_index(["case", "test"])
    assert s.loc[("dead", "lift"), "n"] == 0 and s.loc[("dead", "lift"), "invalid"] == 2
    assert s.loc[("dead", "vs stay"), "n"] == 0 and s.loc[("dead", "vs stay"), "invalid"] == 2
    assert s.loc[("random", "lift"), "n"] == 2 and s.loc[("random", "lift"), "invalid"] == 0
    assert "2 invalid pairs left out" in capsys.readouterr().err


def test_a_quarter_of_failed_decisions_makes_a_pair_invalid_by_default() -> None:
    from mam_bench.outcome import validity
    from mam_bench.runner import PairSpec

    share = parse_suite({"cases": [{"world": "schelling", "policy": "random"}]}).max_policy_error_share
    assert share == PairSpec(world="schelling").max_policy_error_share  # one default for run and experiment
    one_in = {n: [{"outcome": "policy_error"}] + [{"outcome": "accepted"}] * (n - 1) for n in (4, 5)}
    assert validity(one_in[4], share)["status"] == "invalid"  # 25% of a run would be the null action
    assert validity(one_in[5], share)["status"] == "valid"

"""Kill mid-run and rerun: every pair exactly once, and no LLM request repeated; --max-calls
stops cleanly with a message and a consistent table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pandas as pd

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import pairs_of, parse_suite
from tests.experiment.conftest import REPO, cli
from tests.support.caches import wait_until_committed
from tests.support.openai_server import OpenAIServer, schelling_reply

KEY = {"LOOPBACK_KEY": "not-a-secret"}


def llm_suite(base_url: str, seeds: int = 4) -> dict:
    llm = {
        "model": "openai:loopback",
        "controller": "llm",
        "rounds": 3,
        "influence": 2,
        "controller_options": {"base_url": base_url, "api_key_env": "LOOPBACK_KEY"},
    }
    return {
        "seeds": seeds,
        "baselines": [],
        "cases": [  # no baselines: 2 cases x seeds pairs
            {"name": "llm", "world": "schelling", "params": {"size": 10}, **llm},
            {"name": "rule", "world": "schelling", "params": {"size": 10}, "controller": "rule", "influence": 2},
        ],
    }


def test_kill_and_resume_runs_each_pair_once_without_repeating_calls(tmp_path, write_suite) -> None:
    with OpenAIServer(reply=schelling_reply) as clean:
        path = write_suite(llm_suite(clean.base_url), "clean.yaml")
        proc = cli("experiment", str(path), "--out", str(tmp_path / "clean"), "--jobs", "2", env=KEY)
        assert proc.returncode == 0, proc.stderr
        uninterrupted = clean.answered
    assert uninterrupted > 0

    with OpenAIServer(reply=schelling_reply, hold_after=uninterrupted // 2) as srv:
        path = write_suite(llm_suite(srv.base_url), "suite.yaml")
        out = tmp_path / "exp"
        child = subprocess.Popen(
            [sys.executable, "-m", "mam_bench", "experiment", str(path), "--out", str(out), "--jobs", "2"],
            cwd=REPO,
            env={**os.environ, **KEY},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 120
        while srv.held == 0 and time.time() < deadline:
            time.sleep(0.1)
        assert srv.held > 0
        wait_until_committed(out, lambda: srv.answered)  # every answer sent is in a cache
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        rows_before = len(pd.read_csv(out / "table.csv")) if (out / "table.csv").exists() else 0
        srv.release.set()
        srv.hold_after = None
        proc = cli("experiment", str(path), "--out", str(out), "--jobs", "2", env=KEY)
        assert proc.returncode == 0, proc.stderr
        answered = srv.answered
    table = pd.read_csv(out / "table.csv")
    expected = {p.pair_id for p in pairs_of(parse_suite(llm_suite(srv.base_url)))}
    assert len(table) == len(expected) == 8 and set(table["pair_id"]) == expected
    assert rows_before < 8
    assert answered == uninterrupted


def test_max_calls_stops_cleanly(tmp_path, capsys) -> None:
    with OpenAIServer(reply=schelling_reply) as srv:
        os.environ.update(KEY)
        suite = parse_suite(llm_suite(srv.base_url, seeds=6))
        outcome = run_experiment(suite, tmp_path / "exp", jobs=2, max_calls=30)
    err = capsys.readouterr().err
    assert outcome.stopped and "--max-calls 30" in err and "not run" in err
    table = pd.read_csv(tmp_path / "exp" / "table.csv")
    assert table["pair_id"].is_unique and 0 < len(table) < 12
    llm = table[table["controller"] == "llm"]
    assert 0 < len(llm) < 6
    per_pair = llm["requests"].max()
    assert llm["requests"].sum() <= 30 + per_pair  # at most one pair past the limit, never a runaway
    assert (tmp_path / "exp" / "summary.csv").exists()

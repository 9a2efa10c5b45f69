"""What a run spent survives its resume: the requests an earlier (killed) process paid for are in
the run's own cache and count once for the run, so `requests` (and `--max-calls`, which budgets on
it) equals an uninterrupted run's. A dead endpoint costs a few pairs: a refused connection stops
a pair at once, and three silent LLM pairs in a row stop the experiment (exit 3, records kept)."""

from __future__ import annotations

import shutil
import socket
import sqlite3
from pathlib import Path

import yaml

from mam_bench.runner import run_pair
from tests.llm.conftest import KEY, KEY_ENV, llm_spec
from tests.llm.scripted import server_reply
from tests.support.cli import cli_in_process
from tests.support.openai_server import OpenAIServer


def _drop_half(cache: Path) -> int:
    """Forget every other answer, as a process killed half-way would have left the cache."""
    db = sqlite3.connect(cache)
    keys = [k for (k,) in db.execute("SELECT key FROM answers ORDER BY key")]
    db.executemany("DELETE FROM answers WHERE key = ?", [(k,) for k in keys[::2]])
    db.commit()
    db.close()
    return len(keys) - len(keys[::2])


def test_requests_are_summed_over_the_processes_of_a_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    with OpenAIServer(reply=server_reply) as srv:
        full = run_pair(llm_spec(srv.base_url, tmp_path / "full" / "llm_cache.sqlite", influence=4), tmp_path / "full")
        paid = full["llm"]["requests"]
        assert paid == srv.answered > 0
        killed = tmp_path / "killed"
        killed.mkdir()
        shutil.copy(tmp_path / "full" / "llm_cache.sqlite", killed / "llm_cache.sqlite")
        kept = _drop_half(killed / "llm_cache.sqlite")
        before = srv.answered
        resumed = run_pair(llm_spec(srv.base_url, killed / "llm_cache.sqlite", influence=4), killed)
        assert srv.answered - before == paid - kept  # only what the killed process had not kept is asked again
        assert resumed["llm"]["requests"] == paid  # but the run paid for all of it
        # a cache shared with other runs (not in the run's folder) gives its answers free
        shared = run_pair(llm_spec(srv.base_url, killed / "llm_cache.sqlite", influence=4), tmp_path / "other")
        assert shared["llm"]["requests"] == 0


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: a connection to it is refused


def test_a_dead_endpoint_stops_the_experiment_after_three_pairs(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    options = {"base_url": f"http://127.0.0.1:{_dead_port()}/v1", "api_key_env": KEY_ENV, "backoff_base": 0.01}
    case = {"world": "schelling", "params": {"size": 10}, "rounds": 2, "influence": 1, "model": "openai:m",
            "controller_options": options}  # fmt: skip
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump({"name": "dead", "seeds": 8, "cases": [case]}))
    code, err = cli_in_process(capsys, "experiment", str(tmp_path / "suite.yaml"), "--out", str(tmp_path / "e"),
                               "--jobs", "1")  # fmt: skip
    out = capsys.readouterr().out
    assert code == 3, err
    assert "the endpoint answered no call in the last 3 LLM pairs" in err, err
    failures = (tmp_path / "e" / "failures.jsonl").read_text().splitlines()
    assert len(failures) == 3 and all("connection was refused" in line for line in failures), failures
    assert "no call answered for" not in err + out  # the refusal, not the stall clock, ended each pair

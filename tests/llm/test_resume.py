"""Acceptance 5: a CLI run killed with SIGKILL mid-way, then `run --resume DIR`, ends with the
same result.json as an uninterrupted run, and the requests answered in total are the same."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.llm.conftest import KEY, KEY_ENV, result_text, run_llm
from tests.llm.scripted import server_reply
from tests.support.caches import wait_until_committed
from tests.support.openai_server import OpenAIServer

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "mam_bench", "run", *args]


def test_killed_run_resumes_without_repeating_calls(tmp_path: Path) -> None:
    env = {**os.environ, KEY_ENV: KEY}
    with OpenAIServer(reply=server_reply) as srv:
        common = [
            "--policy",
            "llm",
            "--model",
            "openai:scripted",
            "--base-url",
            srv.base_url,
            "--api-key-env",
            KEY_ENV,
            "--influence",
            "4",
            "--rounds",
            "4",
            "--max-concurrency",
            "4",
        ]
        full = tmp_path / "full"  # uninterrupted, in-process (same spec as the CLI builds)
        os.environ[KEY_ENV] = KEY
        try:
            run_llm(
                full,
                srv.base_url,
                rounds=4,
                influence=4,
                max_concurrency=4,
                backoff_base=None,
                backoff_max=None,
                timeout=None,
            )
        finally:
            os.environ.pop(KEY_ENV, None)
        uninterrupted = srv.answered
        assert uninterrupted > 8

        # second run: the server answers 60% of the calls, then holds the rest; we kill the client
        srv.answered = srv.received = 0
        srv.hold_after = int(uninterrupted * 0.6)
        killed = tmp_path / "killed"
        proc = subprocess.Popen(
            cli("schelling", "--seed", "22", "--out", str(killed), *common),
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while srv.held == 0 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert srv.held > 0, "the run never reached the hold point"
        wait_until_committed(killed, lambda: srv.answered)  # every answer sent is in a cache
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert not (killed / "result.json").exists()
        answered_before_kill = srv.answered

        srv.hold_after = None
        srv.release.set()
        done = subprocess.run(
            cli("--resume", str(killed)), env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        # the CLI also plays the stay and mimic baselines beside the lift; the in-process run does not
        resumed = json.loads(result_text(killed))
        assert set(resumed.pop("baselines")) == {"stay", "mimic"}
        assert resumed == json.loads(result_text(full))
        assert answered_before_kill + (srv.answered - answered_before_kill) == uninterrupted
        assert srv.answered == uninterrupted
        assert "cache hits" in done.stdout

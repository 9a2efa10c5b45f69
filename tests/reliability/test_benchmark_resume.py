"""A benchmark killed mid-run (SIGKILL of its whole process group) and run again on the same folder
ends with the table an uninterrupted run writes, the LLM accounting (`requests`, tokens, cost)
included, and the endpoint is asked no call twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from tests.benchmark.conftest import TINY
from tests.benchmark.test_replay import mover
from tests.support.caches import wait_until_committed
from tests.support.cli import REPO, cli_process
from tests.support.openai_server import OpenAIServer

KEY = {"LOOPBACK_KEY": "not-a-secret"}
#: what may differ between the two runs: the clock, and the ids the endpoint's address (each run
#: has its own loopback port) is hashed into
DIFFERS = ["wall_seconds", "pair_id", "case_key"]


def argv(definition: Path, base_url: str, out: Path) -> list[str]:
    return [
        "benchmark",
        "--policy",
        "llm",
        "--model",
        "openai:loopback",
        "--base-url",
        base_url,
        "--api-key-env",
        "LOOPBACK_KEY",
        "--definition",
        str(definition),
        "--out",
        str(out),
        "--jobs",
        "2",
    ]


def table(folder: Path) -> pd.DataFrame:
    rows = pd.read_csv(folder / "table.csv", keep_default_na=False)
    return rows.drop(columns=DIFFERS).sort_values(["case", "controller", "seed"]).reset_index(drop=True)


def test_a_killed_and_resumed_benchmark_writes_the_uninterrupted_table(tmp_path: Path) -> None:
    definition = tmp_path / "schelling.yaml"
    definition.write_text(yaml.safe_dump({**TINY, "scenarios": TINY["scenarios"][:1]}), encoding="utf-8")
    with OpenAIServer(reply=mover) as clean:
        proc = cli_process(*argv(definition, clean.base_url, tmp_path / "clean"), env=KEY)
        assert proc.returncode == 0, proc.stderr
        uninterrupted = clean.answered
    assert uninterrupted > 4

    out = tmp_path / "killed"
    with OpenAIServer(reply=mover, hold_after=uninterrupted // 2) as srv:
        child = subprocess.Popen(
            [sys.executable, "-m", "mam_bench", *argv(definition, srv.base_url, out)],
            cwd=REPO,
            env={**os.environ, **KEY},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 300
        while srv.held == 0 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.1)
        assert srv.held > 0, "the benchmark never reached the held call"
        wait_until_committed(out, lambda: srv.answered)  # every answer sent is in a cache
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        srv.release.set()
        srv.hold_after = None
        proc = cli_process(*argv(definition, srv.base_url, out), env=KEY)
        assert proc.returncode == 0, proc.stderr
        answered = srv.answered

    a, b = table(tmp_path / "clean"), table(out)
    assert len(b) == len(a) > 0 and b["requests"].sum() > 0
    pd.testing.assert_frame_equal(a, b)
    assert answered == uninterrupted  # the resume asked again only what the killed process never saw answered
    manifest = json.loads((out / "benchmark.json").read_text())
    assert manifest["seeds"] == [0, 1]

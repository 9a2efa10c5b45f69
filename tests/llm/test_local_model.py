"""Acceptance 7: a 2-round Schelling pair with the real local model (gemma-3 270M through
llama.cpp, JSON-schema constrained), end to end through the CLI: it runs, parses, is recorded.
One influence agent in one-call mode keeps it to a few calls: the model is slow on 2 CPU cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mam_bench.records import read_jsonl
from tests.llm.local_model_limits import COMMAND_SECONDS, MARKS, STALL

ROOT = Path(__file__).resolve().parents[2]
pytestmark = MARKS


def test_local_gemma_two_rounds_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "local"
    cmd = [
        sys.executable,
        "-m",
        "mam_bench",
        "run",
        "schelling",
        "--seed",
        "22",
        "--rounds",
        "2",
        "--influence",
        "1",
        "--one-call",
        "--policy",
        "llm",
        "--model",
        "local:gemma3-270m",
        "--max-policy-errors",
        "1",
        *STALL,
        "--out",
        str(out),
    ]
    done = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((out / "result.json").read_text())
    assert result["controller"]["model"] == "local:gemma3-270m"
    assert result["treatment"]["audit"]["identity_holds"]
    calls = read_jsonl(out / "llm_calls.jsonl")
    assert len(calls) >= 2 and all(c.get("error") is None for c in calls)
    assert all(c["input_tokens"] > 0 and c["output_tokens"] > 0 for c in calls)
    decisions = read_jsonl(out / "decisions.jsonl")
    assert len(decisions) == 2
    # constrained decoding: every decision answer parsed (it may still be an illegal cell)
    assert all(d["raw"] for d in decisions)
    print("\n" + done.stdout)

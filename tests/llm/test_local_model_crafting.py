"""AgentWorld's round-robin reproduction protocol with the real local model
(gemma-3 270M through llama.cpp, decoding constrained to the strict crafting tool schema): two
agents, two rounds, each agent asked at its own turn, once per round (plus at most one repair).
The small model may still choose tools whose preconditions fail; those are logged, never a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jsonschema

from mam_bench.models.crafting.actions import strict_schema
from mam_bench.records import read_jsonl
from tests.llm.local_model_limits import COMMAND_SECONDS, MARKS, STALL

ROOT = Path(__file__).resolve().parents[2]
pytestmark = MARKS


def test_local_gemma_plays_round_robin_turns(tmp_path: Path) -> None:
    out = tmp_path / "craft"
    cmd = [sys.executable, "-m", "mam_bench", "run", "crafting", "--seed", "3", "--rounds", "2"]
    cmd += ["--param", "task=staff_quest", "--param", "protocol=round_robin", "--param", "board=off"]
    cmd += ["--influence-ids", "0,1", "--policy", "llm", "--model", "local:gemma3-270m"]
    cmd += ["--max-policy-errors", "1", *STALL, "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((out / "result.json").read_text())
    assert result["controller"]["model"] == "local:gemma3-270m"
    assert result["params"]["protocol"] == "round_robin"
    calls = read_jsonl(out / "llm_calls.jsonl")
    assert all(c.get("error") is None and c["output_tokens"] > 0 for c in calls)
    first_asks = Counter((c["round"], c["actor_id"]) for c in calls if c["attempt"] == 0)
    assert first_asks == {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 1}  # one turn per agent per round
    decisions = read_jsonl(out / "decisions.jsonl")
    assert sorted((d["round"], d["actor_id"]) for d in decisions) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # constrained decoding: every answer is an instance of the strict tool schema
    validator = jsonschema.Draft202012Validator(strict_schema())
    for d in decisions:
        validator.validate(json.loads(d["raw"]))
    assert result["treatment"]["audit"]["identity_holds"]
    print("\n" + done.stdout)

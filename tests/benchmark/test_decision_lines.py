"""The leaderboard's lines about a model row's decisions: legal share and objective sensitivity."""

from __future__ import annotations

import json
from pathlib import Path

from mam_bench.benchmark.decisions import first_decisions, sensitivity_line
from mam_bench.benchmark.leaderboard import Row


def test_sensitivity_counts_same_agent_same_seed_pairs_of_objectives() -> None:
    row = Row("llm", "m", calls=10)
    row.first_round = {
        ("voter", 1000): {"spread": {1: "A", 2: "B"}, "suppress": {1: "A", 2: "C"}},  # 1 of 2 differ
        ("voter", 1001): {"spread": {1: "A"}, "suppress": {3: "B"}},  # no agent under both: not counted
        ("crafting-forge", 1000): {"accelerate": {5: "x"}, "shortage": {5: "x"}, "inequality": {5: "y"}},  # 2 of 3
    }
    assert sensitivity_line([row]).endswith("llm m 3 of 5.")
    assert sensitivity_line([Row("heuristic", "")]) == ""  # no calls, no line


def test_first_decisions_keep_round_zero_without_policy_errors(tmp_path: Path) -> None:
    pair = tmp_path / "pairs" / "p1"
    pair.mkdir(parents=True)
    rows = [
        {"round": 0, "actor_id": 1, "decision": {"stay": True}, "outcome": "stay", "error": None},
        {"round": 0, "actor_id": 2, "decision": None, "outcome": "policy_error", "error": "no JSON"},
        {"round": 1, "actor_id": 1, "decision": {"row": 3, "col": 4}, "outcome": "accepted", "error": None},
    ]
    (pair / "decisions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert first_decisions(tmp_path, "p1") == {1: json.dumps({"stay": True})}
    assert first_decisions(tmp_path, "missing") == {}

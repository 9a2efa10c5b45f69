"""Digests of Civil Violence cascade records at the benchmark's doses, so a faster way of playing
rounds can be shown to move no record: `data/record_digests.json` was written by the code before
the cascade's rounds were made cheaper for the oracle; `test_record_digests.py` recomputes it.

Each pair is played with both baselines (stay and mimic) through the runner; every record file is
digested, the round records read back through `mam_bench.records.read_rounds`.
`python -m tests.civil_violence_cascade.record_digest --check` compares every entry; without
`--check` it rewrites the table (only when the records are meant to move).
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

TABLE = Path(__file__).parent / "data" / "record_digests.json"
#: run-dependent fields of result.json (the environment and the clock), never part of a record's
#: content, and its format's version (the table written at record_version 2 and the one written at 3 differ
#: only there: the records are the same)
VOLATILE = ("provenance", "_wall_seconds", "record_version")
ROUND_FILES = ("reference.jsonl", "treatment.jsonl")
OTHER_FILES = ("decisions.jsonl", "board.jsonl")

#: the benchmark's two doses (suites/benchmark-v3.yaml), each with the objective its scenarios use
ROLES = {
    "citizen": {
        "controlled_role": "citizen",
        "size": 20,
        "citizen_density": 0.54,
        "police_density": 0.055,
        "vision": 2,
        "threshold": 0.0,
        "preference_std": 0.7,
        "max_jail": 12,
        "max_steps": 30,
    },
    "police": {
        "controlled_role": "police",
        "size": 20,
        "citizen_density": 0.54,
        "police_density": 0.05,
        "vision": 2,
        "threshold": 1.0,
        "preference_std": 0.7,
        "max_jail": 6,
        "max_steps": 30,
    },
}
POLICIES = ("rule", "heuristic", "random")
SEEDS = tuple(range(1000, 1010))
#: rounds per pair (the benchmark plays 30; 8 keeps the table cheap to recompute)
ROUNDS = 8
#: one planner pair per role at a small budget: fork, rollouts under every tail, greedy's seed
ORACLE = {"candidates": 1, "sweeps": 1, "greedy": True}
ORACLE_ROUNDS = 4


def cases() -> list[dict[str, Any]]:
    out = [
        {"role": role, "objective": objective, "seed": seed, "policy": policy, "rounds": ROUNDS, "options": {}}
        for role, objective in (("citizen", "increase"), ("police", "decrease"))
        for seed in SEEDS
        for policy in POLICIES
    ]
    out += [
        {"role": role, "objective": "increase", "seed": 1000, "policy": "oracle", "rounds": ORACLE_ROUNDS}
        | {"options": ORACLE}
        for role in ROLES
    ]
    return out


def key(case: dict[str, Any]) -> str:
    return f"{case['role']}-{case['objective']} seed={case['seed']} {case['policy']} rounds={case['rounds']}"


def digest(case: dict[str, Any]) -> dict[str, str]:
    """One digest per record of the pair's run directory (result.json without its provenance)."""
    from mam_bench.records import dumps, read_rounds
    from mam_bench.runner import PairSpec, run_pair

    spec = PairSpec.build(
        world="civil_violence_cascade",
        seed=case["seed"],
        params=ROLES[case["role"]],
        objective=case["objective"],
        controller=case["policy"],
        controller_options=case["options"],
        influence=16,
        rounds=case["rounds"],
    )
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp)
        run_pair(spec, out=run, baselines=("stay", "mimic"))
        result = json.loads((run / "result.json").read_text())
        out = {"result.json": _sha(json.dumps({k: v for k, v in result.items() if k not in VOLATILE}, sort_keys=True))}
        for name in ROUND_FILES:
            out[name] = _sha("".join(dumps(row) + "\n" for row in read_rounds(run, name)))
        for name in OTHER_FILES:
            out[name] = hashlib.sha256((run / name).read_bytes()).hexdigest()
    return out


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def compute() -> dict[str, dict[str, str]]:
    return {key(c): digest(c) for c in cases()}


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        table, now = json.loads(TABLE.read_text()), compute()
        moved = [k for k in table if table[k] != now[k]]
        sys.stdout.write("\n".join(moved) + "\n" if moved else "all records unchanged\n")
        sys.exit(1 if moved else 0)
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    sys.stdout.write(f"wrote {TABLE}\n")

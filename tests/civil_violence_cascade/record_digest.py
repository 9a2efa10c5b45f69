"""Digests of Civil Violence cascade records at the benchmark's doses, so a faster way of playing
rounds can be shown to move no record: `data/record_digests.json` was written by the code before
the cascade's rounds were made cheaper for the oracle; `test_record_digests.py` recomputes it.

Each pair is played with both baselines (stay and mimic) through the runner; every record file is
digested, the round records read back through `mam_bench.records.read_rounds`.
`python -m tests.civil_violence_cascade.record_digest --check` compares every entry; without
`--check` it rewrites the table (only when the records are meant to move).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from tests.support.record_digests import run_digests, script

TABLE = Path(__file__).parent / "data" / "record_digests.json"
#: run-dependent fields of result.json (the environment and the clock), never part of a record's
#: content, and its format's version (the table written at record_version 2 and the one written at 3 differ
#: only there: the records are the same)
VOLATILE = ("provenance", "_wall_seconds", "record_version")

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
        run_pair(spec, out=Path(tmp), baselines=("stay", "mimic"))
        return run_digests(Path(tmp), VOLATILE)


def compute() -> dict[str, dict[str, str]]:
    return {key(c): digest(c) for c in cases()}


if __name__ == "__main__":
    script(TABLE, compute)

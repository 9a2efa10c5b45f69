"""Digests of 20 x 20 Schelling pilot records, so a change to how rounds are played or recorded
can be shown to move no record: `data/record_digests.json` was written by the code that wrote
every round's whole board into `reference.jsonl` / `treatment.jsonl`; `test_record_digests.py`
recomputes it from the records read back through `mam_bench.records.read_rounds`, each row
written as that code wrote it (one JSON line with the metrics and the whole snapshot).

`python -m tests.schelling.record_digest --check` compares every entry; without `--check` it
rewrites the table (only when the records are meant to move).

Rewritten once since, when `record_version` went from 2 to 3: result.json holds that field, so all
50 of its digests moved and nothing else did (every round, decisions and board digest held), and
each new result.json with the field set back to 2 hashed to the digest the table held before.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from tests.support.record_digests import round_lines, run_digests, script

TABLE = Path(__file__).parent / "data" / "record_digests.json"
#: run-dependent fields of result.json (the environment and the clock), never part of a record's content
VOLATILE = ("provenance", "_wall_seconds")
#: result.json fields added after the table was written that repeat other records (each
#: `.snapshots` file's sha256: the files are digested on their own)
DERIVED = ("snapshots_sha256",)
#: the pilot's board in its stream designs and rules, each under every built-in controller
SETTINGS = (
    {},
    {"streams": "pilot"},
    {"streams": "pilot", "priority": "first", "threshold": "7/10"},
    {"rule": "pilot_v2", "vision": "1", "threshold": "7/10", "vacancy": "3/20"},
    {"move_rule": "random_empty", "vacancy": "3/10"},
)
POLICIES = ("heuristic", "stay", "mimic", "random", "rule")
SEEDS = (0, 22)


def cases() -> list[dict[str, Any]]:
    return [
        {"params": params, "seed": seed, "policy": policy}
        for params in SETTINGS
        for seed in SEEDS
        for policy in POLICIES
    ]


def key(case: dict[str, Any]) -> str:
    extra = ",".join(f"{k}={v}" for k, v in sorted(case["params"].items()))
    return f"[{extra}] seed={case['seed']} {case['policy']}"


def _round_lines(run: Path, name: str) -> bytes:
    """A round record as the whole-board JSON lines it was once written as."""
    try:
        return round_lines(run, name)
    except ImportError:  # the code before the snapshot records: the file is those lines
        return (run / name).read_bytes()


def digest(case: dict[str, Any]) -> dict[str, str]:
    """One digest per record of the pair's run directory (result.json without its provenance)."""
    from mam_bench.runner import PairSpec, run_pair

    spec = PairSpec.build(world="schelling", seed=case["seed"], params=case["params"], controller=case["policy"])
    with tempfile.TemporaryDirectory() as tmp:
        run_pair(spec, out=Path(tmp), baselines=("stay", "mimic"))
        return run_digests(Path(tmp), VOLATILE + DERIVED, _round_lines)


def compute() -> dict[str, dict[str, str]]:
    return {key(c): digest(c) for c in cases()}


if __name__ == "__main__":
    script(TABLE, compute)

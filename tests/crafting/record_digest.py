"""Digests of the crafting world's records, so a refactor of how rounds are played can be shown
to move no record: the table in `data/record_digests.json` was written by the code before the
agents got their own `step()`; `test_record_digests.py` recomputes it
(the round records read back through `mam_bench.records.read_rounds`).

`python -m tests.crafting.record_digest --check` compares every entry (80 pairs, 200 states);
without `--check` it rewrites the table (only when the records are meant to move).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.tasks import all_tasks
from mam_bench.protocol import Decision
from mam_bench.records import dumps, read_rounds
from tests.support.record_digests import script

TABLE = Path(__file__).parent / "data" / "record_digests.json"
STATES = 200
#: run-dependent fields of result.json (the environment and the clock), never part of a record's content
VOLATILE = ("provenance", "_wall_seconds")
#: result.json fields the record schema renamed or added after the table was written (version 2:
#: `policy` folded into `controller`, whose `name` is the chosen name; the lift's split into the
#: ordinary agents' and the influence agents' own part): names, not the played records
RENAMED = ("policy", "controller", "record_version", "lift_split", "snapshots_sha256")
RECORD_FILES = ("reference.jsonl", "treatment.jsonl", "decisions.jsonl", "board.jsonl")


def _sha(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


# --- whole pairs through the runner -------------------------------------------------------------
PAIR_TASKS = (
    ("staff_quest", {}),
    ("fishing_gear", {"turn_order": "fixed"}),
    ("forge_vanguard", {"strategy": "shared_plan"}),
    ("archery_supply", {"travel": "abstracted"}),
    ("goblin_clearing", {}),
    ("wolf_hunt", {"protocol": "round_robin"}),
    ("troll_hunt", {"turn_order": "fixed"}),
    ("fur_trade", {}),
    ("winter_camp", {"protocol": "round_robin"}),
    ("cave_survey", {}),
)
PAIR_SEEDS = (0, 3)
PAIR_POLICIES = ("heuristic", "stay", "mimic", "random")


def pair_cases() -> list[dict[str, Any]]:
    return [
        {"task": task, "params": extra, "seed": seed, "policy": policy}
        for task, extra in PAIR_TASKS
        for seed in PAIR_SEEDS
        for policy in PAIR_POLICIES
    ]


def pair_key(case: dict[str, Any]) -> str:
    extra = ",".join(f"{k}={v}" for k, v in sorted(case["params"].items()))
    return f"{case['task']}[{extra}] seed={case['seed']} {case['policy']}"


def pair_digest(case: dict[str, Any]) -> dict[str, str]:
    """One digest per record file of the pair's run directory (result.json without its provenance)."""
    from mam_bench.runner import PairSpec, run_pair

    spec = PairSpec.build(
        world="crafting", seed=case["seed"], params={"task": case["task"], **case["params"]}, controller=case["policy"]
    )
    with tempfile.TemporaryDirectory() as tmp:
        run_pair(spec, out=tmp)
        result = json.loads((Path(tmp) / "result.json").read_text())
        out = {"result.json": _sha({k: v for k, v in result.items() if k not in VOLATILE + RENAMED})}
        for name in RECORD_FILES:
            out[name] = hashlib.sha256(_as_lines(Path(tmp), name)).hexdigest()
    return out


def _as_lines(run: Path, name: str) -> bytes:
    """A record's bytes; a round record as the whole JSON lines it was written as before its
    snapshots got a binary record of their own (read back through `read_rounds`)."""
    if name not in ("reference.jsonl", "treatment.jsonl"):
        return (run / name).read_bytes()
    return "".join(dumps(row) + "\n" for row in read_rounds(run, name)).encode("utf-8")


# --- random states played round by round ----------------------------------------------------------
def state_case(k: int) -> dict[str, Any]:
    """The k-th random state: a task, a seed, a strategy and protocol, influence agents and a policy."""
    rng = np.random.default_rng([25, k])
    tasks = sorted(all_tasks())
    task = tasks[int(rng.integers(len(tasks)))]
    n = len(all_tasks()[task].agents)
    ids = sorted(int(i) for i in rng.choice(n, int(rng.integers(0, 3)), replace=False))
    return {
        "task": task,
        "seed": int(rng.integers(0, 10_000)),
        "strategy": ["market", "shared_plan"][int(rng.integers(2))],
        "turn_order": ["fixed", "shuffle"][int(rng.integers(2))],
        "protocol": ["start_of_round", "round_robin"][int(rng.integers(2))],
        "travel": ["distance", "abstracted"][int(rng.integers(2))],
        "influence_ids": ids,
        "policy": ["rule", "random", "stay"][int(rng.integers(3))],
        "rounds": int(rng.integers(1, 16)),
    }


def _as_written(entry: dict[str, Any]) -> dict[str, Any]:
    """An audit entry under the names the table was written with (`action` was `proposal`)."""
    return {("proposal" if k == "action" else k): v for k, v in entry.items()}


def _decision(world: CraftingWorld, case: dict[str, Any], aid: int) -> Decision:
    if case["policy"] == "rule":
        return Decision.follow_rule()
    if case["policy"] == "stay":
        return Decision(action=world.Action.null_action())
    rng = np.random.default_rng([case["seed"], world.round, aid])
    return Decision(action=world.Action.random_action(world.observe(aid), rng), message="hi")


def state_digest(case: dict[str, Any]) -> str:
    """Play the state's rounds; hash every round's log, audit, snapshot, metrics and the influence
    agents' observation texts."""
    params = {k: case[k] for k in ("task", "strategy", "turn_order", "protocol", "travel")}
    world = CraftingWorld(**params, seed=case["seed"], influence_ids=case["influence_ids"], role="treatment")
    rounds = []
    for _ in range(case["rounds"]):
        if world._done:
            break
        seen: list[str] = []

        def decide(aid: int, seen: list[str] = seen) -> Decision:
            seen.append(world.observe(aid).to_text())
            return _decision(world, case, aid)

        async def adecide(ids: list[int]) -> list[Decision]:
            return [decide(aid) for aid in ids]

        entries = asyncio.run(world.aplay_round(adecide))
        rounds.append(
            {
                "entries": [_as_written(e.as_json()) for e in entries],
                "snapshot": world.snapshot(),
                "metrics": world.metrics(),
                "status": world.run.status,
                "seen": seen,
            }
        )
    return _sha({"log": world.log, "rounds": rounds})


def compute() -> dict[str, Any]:
    return {
        "pairs": {pair_key(c): pair_digest(c) for c in pair_cases()},
        "states": {str(k): state_digest(state_case(k)) for k in range(STATES)},
    }


def moved(table: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Every entry of the table that the current code no longer reproduces."""
    return [
        f"{part} {key}" for part in ("pairs", "states") for key in table[part] if table[part][key] != now[part][key]
    ]


if __name__ == "__main__":
    script(TABLE, compute, moved)

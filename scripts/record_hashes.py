"""Hash full run records for a few pairs per world, to show a refactor moved none of them.

    python scripts/record_hashes.py OUT.txt

One line per pair: world, seed, policy, settle, the sha256 of result.json (provenance left out)
and every JSONL record, and the lifts. Diff the files of two checkouts.
"""

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from mam_bench.registry import world_names
from mam_bench.runner import PairSpec, run_pair

POLICIES = ("rule", "stay", "random", "mimic", "heuristic")
SETTLED = ("stay", "random")


def record_hash(run: Path) -> str:
    digest = hashlib.sha256()
    result = json.loads((run / "result.json").read_text())
    result.pop("provenance", None)
    digest.update(json.dumps(result, sort_keys=True).encode())
    for record in sorted(run.glob("*.jsonl")):
        digest.update(record.name.encode())
        digest.update(record.read_bytes())
    return digest.hexdigest()[:16]


def line(world: str, seed: int, policy: str, settle: bool) -> str:
    label = f"{world} {seed} {policy} settle={settle}"
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        try:
            run_pair(PairSpec.build(world=world, seed=seed, controller=policy, rounds=12, settle=settle), run)
        except Exception as exc:  # noqa: BLE001 - recorded, so a refactor that breaks a pair shows
            return f"{label} ERROR {type(exc).__name__}: {str(exc)[:80]}"
        result = json.loads((run / "result.json").read_text())
        settled = (result.get("settled") or {}).get("lift")
        return f"{label} {record_hash(run)} lift={result.get('lift')} settled={settled}"


def main(out: str) -> None:
    lines = []
    for world in world_names():
        for seed in (0, 1):
            for policy in POLICIES:
                for settle in (False, True) if policy in SETTLED else (False,):
                    lines.append(line(world, seed, policy, settle))
                    print(lines[-1], flush=True)
    Path(out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

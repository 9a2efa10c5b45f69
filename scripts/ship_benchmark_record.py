"""Copy what a benchmark folder's replay needs into a small record to publish beside a leaderboard:
benchmark.json, table.csv, provenance.json and, for each pair of the controller under test, its
result.json and decisions.jsonl, plus llm_calls.jsonl where the pair made calls (each request's
tokens and latency). No per-round series, no baseline pairs and no response cache: the decisions
hold every answer's raw text. Refuses an existing target.

    python scripts/ship_benchmark_record.py runs/bench-gemma data/benchmark/mam-bench-v1-quick-gemma3-270m

`mam-bench benchmark --controller replay --replay TARGET --out DIR` then reproduces the controller's rows.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from mam_bench.benchmark.leaderboard import entry_pairs, read_manifest

KEEP = ("result.json", "decisions.jsonl")
#: copied where present
OPTIONAL = ("llm_calls.jsonl",)


def ship(src: Path, dst: Path) -> int:
    if dst.exists():
        print(f"error: target: {dst} exists; choose a new folder", file=sys.stderr)
        return 2
    pairs = sorted(set(entry_pairs(src, read_manifest(src)).values()))
    missing = [p for p in pairs for f in KEEP if not (src / "pairs" / p / f).is_file()]
    if missing:
        print(f"error: source: pair {missing[0]} is unfinished (no {KEEP[0]} or {KEEP[1]})", file=sys.stderr)
        return 2
    for name in ("benchmark.json", "table.csv", "provenance.json"):
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / name, dst / name)
    for pid in pairs:
        (dst / "pairs" / pid).mkdir(parents=True)
        for name in (*KEEP, *OPTIONAL):
            if (src / "pairs" / pid / name).is_file():
                shutil.copy2(src / "pairs" / pid / name, dst / "pairs" / pid / name)
    size = sum(p.stat().st_size for p in dst.rglob("*") if p.is_file())
    print(f"{len(pairs)} pairs, {size / 1e6:.2f} MB -> {dst}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(ship(Path(sys.argv[1]), Path(sys.argv[2])))

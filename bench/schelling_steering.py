"""Mean lift of Schelling steering controllers over held-out seeds, from `mam-bench run` records.

Usage: python bench/schelling_steering.py RUN_ROOT   (RUN_ROOT/<policy>-<seed>/result.json)
Prints a markdown table: policy, objective, seeds, mean lift, SD, share positive, mean final OEH.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def main(root: str) -> None:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in sorted(Path(root).glob("*/result.json")):
        r = json.loads(path.read_text())
        groups[(r["policy"], r["objective"])].append(r)
    print("| policy | objective | seeds | mean lift | SD | lift > 0 | mean treatment OEH | mean reference OEH |")
    print("|---|---|---|---|---|---|---|---|")
    for (policy, objective), rows in sorted(groups.items()):
        lifts = [r["lift"] for r in rows]
        seeds = sorted(r["seed"] for r in rows)
        print(
            f"| {policy} | {objective} | {seeds[0]}-{seeds[-1]} ({len(seeds)}) | {statistics.fmean(lifts):+.4f} |"
            f" {statistics.stdev(lifts):.4f} | {sum(l > 0 for l in lifts)}/{len(lifts)} |"
            f" {statistics.fmean(r['treatment']['final']['oeh'] for r in rows):.4f} |"
            f" {statistics.fmean(r['reference']['compared']['oeh'] for r in rows):.4f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs/steering")

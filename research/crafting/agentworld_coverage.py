"""Coverage of AgentWorld's task files: per task, whether it loads here (else the mechanic it
needs), whether the all-rule team plays it to the end, whether AgentWorld's own verifier answers
(score, reason) at every round, and whether that verdict is 1 at the end; then counts by category
and the missing names, most needed first (what to add to unblock the most tasks).

Run: python research/crafting/agentworld_coverage.py DIR [--seed 0] [--markdown]
DIR holds AgentWorld's `task_NN_*.yaml` with their `task_NN_success_criteria.py` (and, if
present, its own verifier_utils.py, which then replaces ours).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from mam_bench.errors import ConfigError
from mam_bench.models.crafting.agentworld.tasks import unreachable
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.task_files import load_task_file


def play(path: Path, seed: int) -> dict:
    """One task's row: load, run the all-rule team, ask the verifier at every round."""
    row = {"task": path.stem, "category": "-", "loads": False, "runs": False, "verdicts": 0, "done": False}
    try:
        task = load_task_file(str(path))
    except ConfigError as exc:
        row["why"] = exc.message.replace(f"{path}: ", "")
        return row
    row.update(category=task.category, loads=True, gaps=unreachable(task))
    try:
        world = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(path)}), seed=seed)
        while world.round < world.budget and world.status.value == "running":
            world.step()  # every round ends with the verifier's verdict (model._settle)
            row["verdicts"] += 1
        score, reason = world.verify()
    except ConfigError as exc:
        row["why"] = exc.message
        return row
    gaps = f" (no agent can make or holds: {', '.join(row['gaps'])})" if row["gaps"] else ""
    row.update(runs=True, done=score == 1, why=reason + gaps, rounds=world.round)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    files = sorted(args.dir.glob("task_*_*.yaml"), key=lambda p: int(re.match(r"task_(\d+)_", p.name).group(1)))
    rows = [play(f, args.seed) for f in files]
    print("| task | category | loads | all-rule run ends | verdict every round | completed | verifier / refusal |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        every = "yes" if r["runs"] and r["verdicts"] == r.get("rounds") else "-"
        flags = ["yes" if r[k] else "no" for k in ("loads", "runs")]
        done = "yes" if r["done"] else "no"
        print(f"| {r['task']} | {r['category']} | {flags[0]} | {flags[1]} | {every} | {done} | {r.get('why', '')} |")
    print()
    print("| category | tasks | load | run | completed |")
    print("|---|---|---|---|---|")
    cats = Counter(r["category"] for r in rows)
    for cat in sorted(cats):
        sub = [r for r in rows if r["category"] == cat]
        counts = [sum(r[k] for r in sub) for k in ("loads", "runs", "done")]
        print(f"| {cat} | {len(sub)} | {counts[0]} | {counts[1]} | {counts[2]} |")
    print(
        f"| all | {len(rows)} | {sum(r['loads'] for r in rows)} | {sum(r['runs'] for r in rows)} "
        f"| {sum(r['done'] for r in rows)} |"
    )
    needs = Counter(
        name
        for r in rows
        if not r["loads"] and "needs " in r["why"]
        for name in r["why"].split("needs ", 1)[1].split(", which")[0].split(", ")
    )
    alone = Counter(
        r["why"].split("needs ", 1)[1].split(", which")[0] for r in rows if not r["loads"] and "needs " in r["why"]
    )
    print()
    print("| missing (AgentWorld's name) | tasks needing it | of them, needing only it |")
    print("|---|---|---|")
    for name, n in needs.most_common():
        print(f"| {name} | {n} | {alone.get(name, 0)} |")
    for r in rows:
        if not r["loads"] and "needs " not in r["why"]:
            print(f"- {r['task']}: {r['why']}")


if __name__ == "__main__":
    main()

"""Coverage of AgentWorld's task files: per task, whether it loads here (else the mechanic it
needs), whether the all-rule team plays it to the end, whether AgentWorld's own verifier answers
(score, reason) at every round, and whether that verdict is 1 at the end; then counts by category,
the names refused at load (most needed first) and what keeps loaded tasks from being completed
here (a verifier's item or mob this world has not, or a recipe input no agent makes).

Run: python research/crafting/agentworld_coverage.py DIR [--seed 0]
DIR holds AgentWorld's `task_NN_*.yaml` with their `task_NN_success_criteria.py` (and, if
present, its own verifier_utils.py, which then replaces ours): a checkout's
`data_v0.1_multi/v1.3_benchmark/`. Nothing is fetched; the files are read from DIR.
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
    not_here = (task.agentworld or {}).get("not_here", [])
    row.update(category=task.category, loads=True, gaps=unreachable(task), not_here=not_here)
    try:
        world = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(path)}), seed=seed)
        while world.round < world.budget and world.run.status.value == "running":
            world.step()  # every round ends with the verifier's verdict (model._settle)
            row["verdicts"] += 1
        score, reason = world.verify()
    except ConfigError as exc:
        row["why"] = exc.message
        return row
    notes = [f"verifier reads what is not here: {', '.join(not_here)}"] if not_here else []
    notes += [f"no agent can make or holds: {', '.join(row['gaps'])}"] if row["gaps"] else []
    row.update(runs=True, done=score == 1, why=reason + "".join(f" ({n})" for n in notes), rounds=world.round)
    return row


def blockers(rows: list[dict]) -> Counter:
    """What a loaded, uncompleted task lacks here, counted once per task: the missing end of each
    recipe path, and each item or mob its verifier reads that this world has not."""
    out: Counter = Counter()
    for r in rows:
        if r["loads"] and not r["done"]:
            out.update({*(g.split(" <- ")[-1] for g in r["gaps"]), *r["not_here"]})
    return out


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
    print()
    print("| refused at load: missing (AgentWorld's name) | tasks |")
    print("|---|---|")
    for name, n in sorted(needs.items(), key=lambda kv: (-kv[1], kv[0])):  # ties by name: a stable table
        print(f"| {name} | {n} |")
    for r in rows:
        if not r["loads"] and "needs " not in r["why"]:
            print(f"- {r['task']}: {r['why']}")
    print()
    print("| loaded, not completed: what this world lacks | tasks |")
    print("|---|---|")
    for name, n in sorted(blockers(rows).items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {name} | {n} |")


if __name__ == "__main__":
    main()

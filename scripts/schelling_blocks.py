"""Per-block tables for docs/results/schelling.md from the experiment folders of the priority suites.

    .venv/bin/python scripts/schelling_blocks.py runs/schelling-priority-0-99 runs/schelling-priority-100-199 \
        runs/schelling-priority-first-0-99 runs/schelling-priority-first-100-199

For each case and seed block: n, mean, SD and median of the lift, the paired contrasts with `stay`
and `mimic` of the same priority, how far the two blocks' means differ, and the basin flips: the
reference's terminal status against the treatment's state at the horizon, judged on the final
board by the rule itself (`equilibrium`: no scored ordinary agent dissatisfied; `blocked`: some
are, but none of them has a satisfying vacancy, influence agents held where they are; `moving`:
the rule would still move someone).
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from mam_bench.models.schelling.draws import IsolatedDraws
from mam_bench.models.schelling.fast.array_rule import ordinary_phase

NUM, DEN = 3, 4  # the suites' threshold (the default 3/4)


def horizon_basin(pair_dir: Path) -> str:
    """The treatment's basin at the horizon, from the final snapshot of treatment.jsonl."""
    last = json.loads(pair_dir.joinpath("treatment.jsonl").read_text().splitlines()[-1])
    if last["metrics"]["dissatisfied"] == 0:
        return "equilibrium"
    size, pos, types = last["size"], np.array(last["positions"]), np.array(last["groups"], dtype=np.int64)
    grid = np.full(size * size, -1, dtype=np.int64)
    grid[pos] = np.arange(pos.size)
    movable = np.ones(pos.size, dtype=bool)
    movable[last["influence"]] = False
    plan = ordinary_phase(grid.reshape(size, size), types, pos.copy(), movable, NUM, DEN, set(), IsolatedDraws(0, 0))
    return "moving" if plan.moves else "blocked"


def load(folder: Path) -> pd.DataFrame:
    table = pd.read_csv(folder / "table.csv")
    table = table[table["role"] == "case"].copy()
    table["basin"] = [horizon_basin(folder / "pairs" / pid) for pid in table["pair_id"]]
    return table


def describe(x: pd.Series) -> str:
    sd = statistics.stdev(x) if len(x) > 1 else float("nan")
    return f"{len(x)} | {x.mean():+.4f} | {sd:.4f} | {x.median():+.4f}"


def main(folders: list[str]) -> None:
    """Pairs from every folder, pooled by seed block; a pair found in two folders (same case and
    seed) must have the same lift, and is counted once."""
    pooled = pd.concat([load(Path(f)) for f in folders], ignore_index=True)
    twice = pooled[pooled.duplicated(["case", "seed"], keep=False)].groupby(["case", "seed"])["lift"].nunique()
    if (twice > 1).any():
        raise SystemExit(f"the same pair differs between folders: {twice[twice > 1].index.tolist()}")
    pooled = pooled.drop_duplicates(["case", "seed"])
    pooled["block"] = np.where(pooled["seed"] < 100, "0-99", "100-199")
    frames = [g for _, g in pooled.groupby("block", sort=True)]
    cases = list(dict.fromkeys(pooled["case"]))
    print("| case | seeds | n | mean | SD | median | vs stay (seeds) | vs mimic (seeds) | flips ref -> horizon |")
    print("|---|---|---|---|---|---|---|---|---|")
    means: dict[str, list[tuple[float, int]]] = {}
    for case in cases:
        prio = "first" if case.endswith("-first") else "turn"
        for t in frames:
            rows = t[t["case"] == case].set_index("seed")
            if rows.empty:
                continue
            lift = rows["lift"]
            vs = []
            for base in ("stay-integrate", f"mimic-integrate-{prio}"):
                b = t[t["case"] == base].set_index("seed")["lift"]
                common = lift.index.intersection(b.index)
                sign = -1.0 if "segregate" in case else 1.0  # the baselines' integrate lift, mirrored
                diff = lift[common] - sign * b[common]
                vs.append(f"{diff.mean():+.4f} ({len(common)})" if len(common) and base != case else "")
            flips = Counter(zip(rows["reference_status"], rows["basin"], strict=True))
            flip_text = ", ".join(f"{r}->{b} {n}" for (r, b), n in sorted(flips.items()))
            print(f"| {case} | {t['block'].iloc[0]} | {describe(lift)} | {vs[0]} | {vs[1]} | {flip_text} |")
            means.setdefault(case, []).append((float(lift.mean()), len(lift)))  # blocks in order: 0-99, 100-199
    print()
    print("| case | mean, seeds 0-99 (n) | mean, seeds 100-199 (n) | difference |")
    print("|---|---|---|---|")
    for case, m in means.items():
        if len(m) == 2:
            (a, na), (b, nb) = m
            print(f"| {case} | {a:+.4f} ({na}) | {b:+.4f} ({nb}) | {b - a:+.4f} |")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The all-rule crafting world under each of AgentWorld's conditions, beside the paper's figures.

    python scripts/agentworld_conditions.py [--task forge_vanguard] [--seeds 20]

For each `condition`, the reference run (every agent on the world's rule, no influence agent) of
seeds 0..N-1: SR (share of seeds whose verifier passed), mean PSR, mean rounds and chats, printed
as a markdown table beside AgentWorld's Gemini 3 Flash SR / rounds / chats for the same condition
(its Tables 3 and 4; the ablations were run on a 35-task subset, the baselines on all 100 tasks).
"""

from __future__ import annotations

import argparse
import statistics
import typing

from mam_bench.models.crafting.conditions import Condition
from mam_bench.runner import PairSpec, prepare, run_reference

#: AgentWorld, Gemini 3 Flash: (SR %, rounds, chats); `standard` is its vanilla multi-agent row
PAPER = {
    "standard": ("52.0", "26.4", "11.0"),
    "single_agent": ("28.6", "28.0", "0"),
    "no_communication": ("22.9", "32.0", "0"),
    "shared_plan_only": ("17.6", "30.7", "0"),
    "oracle_communication": ("60.0", "25.2", "7.9"),
    "no_roles": ("45.7 (full 54.3)", "20.2", "4.5"),
    "random_spawn": ("51.4 (full 54.3)", "19.5", "4.6"),
    "no_docs": ("29.4 (full 54.3)", "30.7", "3.9"),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", default="forge_vanguard")
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    print(f"task {args.task}, seeds 0-{args.seeds - 1}, every agent on the rule (no influence agent)\n")
    print(
        "| condition | all-rule SR | all-rule PSR (mean, SD) | rounds | chats | AgentWorld LLM SR % | rounds | chats |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for condition in typing.get_args(Condition):
        sr, psr, rounds, chats = [], [], [], []
        for seed in range(args.seeds):
            spec = PairSpec(
                world="crafting", seed=seed, params={"task": args.task, "condition": condition}, influence=0
            )
            world, rows = run_reference(prepare(spec))
            final = world.metrics()
            sr.append(final["sr"])
            psr.append(final["psr"])
            rounds.append(world.round)
            chats.append(final["chats"])
        paper = PAPER[condition]
        print(
            f"| `{condition}` | {100 * statistics.mean(sr):.0f}% "
            f"| {statistics.mean(psr):.3f} ({statistics.stdev(psr):.3f}) "
            f"| {statistics.mean(rounds):.1f} | {statistics.mean(chats):.1f} | {paper[0]} | {paper[1]} | {paper[2]} |"
        )


if __name__ == "__main__":
    main()

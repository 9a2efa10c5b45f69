"""Agreement between provenance CCE and LLM-judged CCE on recorded crafting trajectories.

Runs the all-rule reference for each task and seed, keeps the successful runs, asks the configured
judge model (`--model PROVIDER:MODEL` or `local:NAME`, key from `--api-key-env`), and prints per
run the two CCEs and Cohen's kappa over per-action contributing labels, then the means.

    python bench/crafting_judge.py --model local:gemma3-270m --tasks staff_quest --seeds 0-2
"""

from __future__ import annotations

import argparse
import asyncio
import statistics

from mam_bench.models.crafting.judge import chained_cce, cohen_kappa
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.response_cache import ResponseCache
from mam_bench.steering.llm.chat_models import api_key_from_env, build_chat_model
from mam_bench.steering.llm.options import LLMOptions
from mam_bench.world import play_round


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--base-url")
    ap.add_argument("--api-key-env")
    ap.add_argument("--cache", default="runs/judge-cache.sqlite")
    ap.add_argument("--tasks", default="staff_quest,forge_vanguard")
    ap.add_argument("--seeds", default="0-4", help="A-B, inclusive")
    args = ap.parse_args()
    lo, _, hi = args.seeds.partition("-")
    options = LLMOptions(model=args.model, base_url=args.base_url, api_key_env=args.api_key_env, temperature=0)
    judge = build_chat_model(options, api_key_from_env(options))
    cache = ResponseCache(args.cache)
    kappas, diffs = [], []
    print("task | seed | provenance CCE | LLM CCE | kappa | calls")
    for task in args.tasks.split(","):
        for seed in range(int(lo), int(hi or lo) + 1):
            w = CraftingWorld(task=task, seed=seed)
            while not w._done and w.round < w.budget:
                play_round(w, {})
            if not w.verify()[0]:
                print(f"{task} | {seed} | failed run, skipped")
                continue
            prov = w.collaboration()
            res = asyncio.run(chained_cce(w, judge, cache=cache))
            ids = [a["id"] for a in w.log]
            k = cohen_kappa([i in set(prov["contributing"]) for i in ids], [i in set(res["contributing"]) for i in ids])
            kappas.append(k)
            diffs.append(res["cce_llm"] - prov["cce"])
            print(f"{task} | {seed} | {prov['cce']:.3f} | {res['cce_llm']:.3f} | {k:.3f} | {res['calls']}")
    if kappas:
        print(
            f"mean kappa {statistics.mean(kappas):.3f}; mean CCE difference (LLM - provenance) "
            f"{statistics.mean(diffs):+.3f} over {len(kappas)} runs; judge {res['judge_model']}"
        )


if __name__ == "__main__":
    main()

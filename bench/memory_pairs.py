"""RSS growth over many Schelling pairs in one process (goal < 50 MiB).

    python bench/memory_pairs.py                  # 1,000 pairs, Mesa's id registry made weak
    python bench/memory_pairs.py --mesa-registry  # the same with Mesa 3.3's own registry (leaks)

Pairs run in memory (no run directory): seeds 0..N-1, the heuristic controller, a few rounds.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
from pathlib import Path


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--mesa-registry", action="store_true", help="keep Mesa's own (strong) Agent._ids")
    args = ap.parse_args()

    from mesa import Agent

    from mam_bench.runner import PairSpec, run_pair

    if args.mesa_registry:
        from collections import defaultdict
        from functools import partial
        from itertools import count

        Agent._ids = defaultdict(partial(count, 1))
    warm = PairSpec.build(world="schelling", seed=10_000, controller=args.policy, rounds=args.rounds)
    run_pair(warm)  # imports, caches, first allocations: not growth
    gc.collect()
    start, t0 = rss_mib(), time.perf_counter()
    for seed in range(args.pairs):
        run_pair(PairSpec.build(world="schelling", seed=seed, controller=args.policy, rounds=args.rounds))
        if (seed + 1) % 100 == 0:
            print(f"{seed + 1:5d} pairs  RSS {rss_mib():7.1f} MiB  (+{rss_mib() - start:6.1f})", flush=True)
    gc.collect()
    end = rss_mib()
    print(
        f"{args.pairs} pairs in {time.perf_counter() - t0:.0f}s: RSS {start:.1f} -> {end:.1f} MiB, "
        f"growth {end - start:.1f} MiB; models still registered: {len(Agent._ids)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

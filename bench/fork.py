"""What a fork costs against one round of the same world, and the oracle's pair on small settings.

Usage: python bench/fork.py [--repeats 7] [--warm 3] [--worlds schelling,voter] [--no-oracle]
For every world (default parameters, its default influence agents, after `--warm` rounds): the
best of `--repeats` timings of one `fork()` and of one round played on a fork (every influence
agent on the rule), both measured in the same run, and their ratio (the goal is at most 1). Then
the wall time of one oracle pair (`--candidates 1 --sweeps 1`) on the small settings the tests use.
"""

from __future__ import annotations

import argparse
import gc
import time

from mam_bench.registry import get_world, world_names
from mam_bench.runner import PairSpec, run_pair

#: (world, objective, params, rounds): the oracle's small settings (tests/core/test_oracle.py)
SMALL = (
    ("voter", "spread", {}, 6),
    ("pursuit", "hinder", {"size": 10, "agents": 6}, 8),
    ("schelling", "integrate", {"size": 8}, 4),
    ("crafting", "accelerate", {}, 3),
)


def best(repeats: int, timed) -> float:
    out = float("inf")
    for _ in range(repeats):
        gc.collect()
        out = min(out, timed())
    return out


def fork_and_round(name: str, warm: int, repeats: int) -> tuple[float, float]:
    cls = get_world(name)
    probe = cls(cls.Params(), seed=0)
    ids = probe.default_influence_ids(cls.influence_count(cls.Params()))
    world = cls(cls.Params(), seed=0, influence_ids=ids, role="treatment")
    for _ in range(warm):
        world.play_round()

    def fork() -> float:
        start = time.perf_counter()
        world.fork()
        return time.perf_counter() - start

    def one_round() -> float:
        twin = world.fork()
        start = time.perf_counter()
        twin.play_round()
        return time.perf_counter() - start

    return best(repeats, fork), best(repeats, one_round)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--worlds", help="comma-separated worlds (default: every registered world)")
    ap.add_argument("--no-oracle", action="store_true", help="skip the oracle pairs")
    args = ap.parse_args()
    names = args.worlds.split(",") if args.worlds else world_names()
    print(f"{'world':16s} {'fork ms':>9s} {'round ms':>9s} {'fork/round':>10s}")
    for name in names:
        fork, one = fork_and_round(name, args.warm, args.repeats)
        print(f"{name:16s} {fork * 1e3:9.2f} {one * 1e3:9.2f} {fork / one:10.2f}")
    if args.no_oracle:
        return
    print(f"\n{'oracle pair (candidates 1, sweeps 1)':40s} {'rounds':>6s} {'seconds':>8s} {'lift':>8s}")
    for world, objective, params, rounds in SMALL:
        spec = PairSpec.build(
            world=world,
            seed=1,
            params=params,
            objective=objective,
            controller="oracle",
            influence=2,
            rounds=rounds,
            controller_options={"candidates": 1, "sweeps": 1},
        )
        start = time.perf_counter()
        result = run_pair(spec)
        label = f"{world} {objective} {params or ''}"
        print(f"{label:40s} {rounds:>6d} {time.perf_counter() - start:8.2f} {result['lift']:+8.4f}")


if __name__ == "__main__":
    main()

"""Rounds per second of each SwarmBench task with its default (local) rule agents.

Usage: python bench/swarm_step.py [--rounds 100] [--big-rounds 20] [--rules swarmbench] [--repeats 5]
Prints one line per task and size (10x10 with 10 agents, 50x50 with 200 agents): rounds/s with
upstream's integer-program physics (the worlds' solver), rounds/s of the same world with the
pre-parity greedy solver swapped in, and their ratio, measured in the same run. Each figure is
the best of `--repeats` runs, the two solvers taking turns, so a first run's warm-up or a burst
of load on a shared machine does not decide it. Each world is timed as `mam-bench run` plays it:
start-up objects frozen (`mam_bench.startup`), no garbage left over from an earlier world.
"""

from __future__ import annotations

import argparse
import gc
import time

import physics_greedy  # the greedy solver the program replaced, kept beside its benchmark

from mam_bench.models.swarm.params import TASKS
from mam_bench.registry import get_world
from mam_bench.world import play_round


def rounds_per_second(cls: type, size: int, agents: int, rounds: int, rules: str, seed: int = 0) -> tuple[float, int]:
    gc.collect()  # the earlier worlds' cycles, which a fresh `mam-bench run` would not carry
    world = cls(cls.Params(size=size, agents=agents, rounds=rounds, rules=rules), seed=seed)
    start = time.perf_counter()
    while world.round < rounds and not world._done:
        play_round(world)
    return world.round / (time.perf_counter() - start), world.round


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--big-rounds", type=int, default=20)
    ap.add_argument("--rules", default="swarmbench", choices=["swarmbench", "mam"])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    for task in TASKS:
        get_world(task)
    gc.freeze()  # what `mam-bench run` does once its imports are done
    print(f"rules={args.rules}")
    print(f"{'task':16s} {'grid':>6s} {'agents':>6s} {'rounds':>6s} {'ilp r/s':>10s} {'greedy r/s':>11s} {'ratio':>6s}")
    for size, agents, rounds in ((10, 10, args.rounds), (50, 200, args.big_rounds)):
        for task in TASKS:
            cls = get_world(task)
            greedy_cls = type(f"Greedy{cls.__name__}", (cls,), {"resolve_pushes": staticmethod(physics_greedy.resolve)})
            rps = old = 0.0
            for _ in range(max(1, args.repeats)):
                now, played = rounds_per_second(cls, size, agents, rounds, args.rules)
                rps = max(rps, now)
                old = max(old, rounds_per_second(greedy_cls, size, agents, rounds, args.rules)[0])
            print(
                f"{task:16s} {size:>3d}x{size:<2d} {agents:>6d} {played:>6d} {rps:>10.1f} {old:>11.1f}"
                f" {rps / old:>6.2f}"
            )


if __name__ == "__main__":
    main()

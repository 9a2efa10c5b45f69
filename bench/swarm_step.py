"""Rounds per second of each SwarmBench task with all-heuristic (rule) agents.

Usage: python bench/swarm_step.py [--rounds 100] [--big-rounds 20]
Prints one line per task and size: 10x10 with 10 agents and 50x50 with 200 agents.
"""

from __future__ import annotations

import argparse
import time

from mam_bench.registry import get_world

TASKS = ["pursuit", "synchronization", "foraging", "flocking", "transport"]


def rounds_per_second(task: str, size: int, agents: int, rounds: int, seed: int = 0, **extra: str) -> tuple[float, int]:
    cls = get_world(task)
    world = cls(cls.Params(size=size, agents=agents, rounds=rounds, **extra), seed=seed)
    start = time.perf_counter()
    while world.round < rounds and not world.done:
        world.play_round()
    return world.round / (time.perf_counter() - start), world.round


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--big-rounds", type=int, default=20)
    args = ap.parse_args()
    print(f"{'task':16s} {'grid':>6s} {'agents':>6s} {'rounds':>6s} {'rounds/s':>10s}")
    for size, agents, rounds in ((10, 10, args.rounds), (50, 200, args.big_rounds)):
        for task in TASKS:
            rps, played = rounds_per_second(task, size, agents, rounds)
            print(f"{task:16s} {size:>3d}x{size:<2d} {agents:>6d} {played:>6d} {rps:>10.1f}")


if __name__ == "__main__":
    main()
